package htmlstream

import (
	"encoding/binary"

	"golang.org/x/net/html"
	a "golang.org/x/net/html/atom"
)

// readTag fills the builder's token from the current tag: its name and
// every attribute, looked at once, keeping those the builder and the core
// need. The tokenizer has found them while scanning the tag; the name is
// looked up by its bytes as they stand, and TagAttr borrows the
// tokenizer's bytes and copies only what it changes (upper case,
// character references, NULs, carriage returns).
func (d *driver) readTag(tt html.TokenType) {
	t := &d.b.tok
	*t = token{typ: tt, attrs: d.attrs[:0]}
	name, more := d.z.tagNameAsIs()
	if name == nil {
		name, more = d.z.TagName() // lower case already: the cache takes it as it stands
	}
	t.atom, t.name = d.names.lookup(d, name)
	for more { // never for an end tag: the tokenizer keeps none of its attributes
		var k, v []byte
		k, v, more = d.z.TagAttr()
		d.keepAttr(t, k, v)
	}
	d.attrs = t.attrs
}

// nameCache remembers the atoms and lower-case names of the tag names a
// page uses (few), by their bytes as they stand in the input, so that a
// name seen before is neither lower-cased nor hashed by atom.Lookup.
// Names of one to eight bytes, nearly all, are compared as one word.
type nameCache struct {
	short [64]struct {
		word uint64 // the name's bytes, little-endian
		n    int    // its length (0: the entry is empty)
		atom a.Atom
		name string
	}
	long [16]struct {
		name string // lower-case
		atom a.Atom
	}
}

// lookup returns the atom (0 for an unknown element) and the lower-case
// name of the tag whose name stands as asIs in the input.
func (c *nameCache) lookup(d *driver, asIs []byte) (a.Atom, string) {
	if n := len(asIs); n > 0 && n <= 8 && cap(asIs) >= 8 {
		// Eight bytes are read from the name's start; those beyond it
		// (the rest of the tag, or stale bytes of the tokenizer's buffer)
		// are masked off.
		w := binary.LittleEndian.Uint64(asIs[:8]) & (^uint64(0) >> (64 - 8*n))
		e := &c.short[(w*0x9E3779B97F4A7C15)>>58]
		if e.word != w || e.n != n {
			e.word, e.n = w, n
			e.atom, e.name = d.atomOf(d.z.lowerName(asIs))
		}
		return e.atom, e.name
	}
	name := d.z.lowerName(asIs)
	e := &c.long[(int(name[0])+3*int(name[len(name)-1])+5*len(name))&15]
	if e.name != string(name) || e.name == "" {
		e.atom, e.name = d.atomOf(name)
	}
	return e.atom, e.name
}

// atomOf returns a lower-case tag name's atom and the name as a string
// kept for the whole run.
func (d *driver) atomOf(name []byte) (a.Atom, string) {
	if x := a.Lookup(name); x != 0 {
		return x, x.String()
	}
	return 0, d.interned.Intern(name)
}

func (d *driver) keepAttr(t *token, key, val []byte) {
	if d.dec != nil && hasHighBytes(val) {
		if dv, err := d.dec.Bytes(val); err == nil {
			val = dv
		}
	}
	t.attrs = append(t.attrs, attr{key: key, val: val})
	switch string(key) {
	case "class":
		t.class, t.hasClass = val, true
	case "href":
		t.href, t.hasHref = val, true
	case "src":
		t.src, t.hasSrc = val, true
	case "rel":
		t.rel = val
	case "xlink:href":
		t.xlinkHref, t.hasXlinkHref = val, true
	case "data-nosnippet":
		t.noSnippet = true
	}
}
