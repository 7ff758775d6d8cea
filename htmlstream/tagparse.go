package htmlstream

import (
	"golang.org/x/net/html"
	a "golang.org/x/net/html/atom"
)

// readTag fills the builder's token from the current tag: its name and
// every attribute, looked at once, keeping those the builder and the core
// need. The tokenizer has found them while scanning the tag; TagName and
// TagAttr borrow its bytes and copy only what they change (upper case,
// character references, NULs, carriage returns).
func (d *driver) readTag(tt html.TokenType) {
	t := &d.b.tok
	*t = token{typ: tt, attrs: d.attrs[:0]}
	name, more := d.z.TagName()
	d.setName(t, name)
	for more { // never for an end tag: the tokenizer keeps none of its attributes
		var k, v []byte
		k, v, more = d.z.TagAttr()
		d.keepAttr(t, k, v)
	}
	d.attrs = t.attrs
}

func (d *driver) setName(t *token, name []byte) {
	// A page uses few tag names, and atom.Lookup hashes the name and
	// compares it each time: a small cache, indexed by a cheaper hash and
	// checked by comparing the name, answers most tags.
	e := &d.names[nameCacheIndex(name)]
	if e.name != string(name) || e.name == "" {
		e.atom = a.Lookup(name)
		if e.atom != 0 {
			e.name = e.atom.String()
		} else {
			e.name = d.interned.Intern(name)
		}
	}
	t.atom, t.name = e.atom, e.name
}

// nameCache remembers the atoms of recent tag names.
type nameCache [64]struct {
	name string
	atom a.Atom
}

func nameCacheIndex(name []byte) int {
	if len(name) == 0 {
		return 0
	}
	return (int(name[0]) + 3*int(name[len(name)-1]) + 5*len(name)) & 63
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
