package htmlstream

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"

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
	// Not *t = token{...}: the token is many words long, and most of them
	// (href, src, xlinkHref) are read only under their has- flags.
	t.typ, t.atom, t.name, t.data, t.attrs = tt, 0, "", nil, d.attrs[:0]
	t.selfClosing, t.implied, t.noNUL, t.utf8 = false, false, false, false
	t.class, t.rel = nil, nil
	t.hasClass, t.hasHref, t.hasSrc, t.noSnippet, t.hasXlinkHref = false, false, false, false, false
	name, more := d.z.tagNameAsIs()
	if name == nil {
		name, more = d.z.TagName() // lower case already: the cache takes it as it stands
	}
	if e := d.names.cached(name); e != nil {
		t.atom, t.name = e.atom, e.name
	} else {
		t.atom, t.name = d.names.lookup(d, name)
	}
	for more { // never for an end tag: the tokenizer keeps none of its attributes
		var k, v []byte
		k, v, more = d.z.TagAttr()
		d.keepAttr(t, k, v)
	}
	d.attrs = t.attrs
	if len(t.class) > 0 && t.class[0] == 0xE2 || len(t.rel) > 0 && t.rel[0] == 0xE2 {
		d.joinQuoted(t) // a value may open with a typographic quote
	}
}

// nameCache remembers the atoms and lower-case names of the tag names a
// page uses (few), by their bytes as they stand in the input, so that a
// name seen before is neither lower-cased nor hashed by atom.Lookup.
// Names of one to eight bytes, nearly all, are compared as one word.
type nameCache struct {
	short [64]shortName
	long  [16]struct {
		name string // lower-case
		atom a.Atom
	}
}

type shortName struct {
	word uint64 // the name's bytes, little-endian
	n    int    // its length (0: the entry is empty)
	atom a.Atom
	name string
}

// shortEntry returns the entry for a name of one to eight bytes, and the
// name as a word; nil when the name is longer, or when eight bytes cannot
// be read from its start. Those beyond the name (the rest of the tag, or
// stale bytes of the tokenizer's buffer) are masked off.
func (c *nameCache) shortEntry(asIs []byte) (*shortName, uint64) {
	n := len(asIs)
	if n == 0 || n > 8 || cap(asIs) < 8 {
		return nil, 0
	}
	w := binary.LittleEndian.Uint64(asIs[:8]) & (^uint64(0) >> (64 - 8*n))
	return &c.short[(w*0x9E3779B97F4A7C15)>>58], w
}

// cached returns the entry that holds the name standing as asIs in the
// input, or nil (then lookup). Most tags take this way.
func (c *nameCache) cached(asIs []byte) *shortName {
	if e, w := c.shortEntry(asIs); e != nil && e.word == w && e.n == len(asIs) {
		return e
	}
	return nil
}

// lookup returns the atom (0 for an unknown element) and the lower-case
// name of the tag whose name stands as asIs in the input.
func (c *nameCache) lookup(d *driver, asIs []byte) (a.Atom, string) {
	if e, w := c.shortEntry(asIs); e != nil {
		if e.word != w || e.n != len(asIs) {
			e.word, e.n = w, len(asIs)
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
	if d.dec != nil {
		val = d.decodeValue(val)
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

// decodeValue decodes an attribute value from the document's charset
// (d.dec, set): ASCII stays as it is.
func (d *driver) decodeValue(val []byte) []byte {
	if hasHighBytes(val) {
		if dv, err := d.dec.Bytes(val); err == nil {
			return dv
		}
	}
	return val
}

// Examples pasted with typographic quotes (the profile's own, as
// published: class=”robots-noindex”) do not quote for HTML: in
// class=”a robots-noindex”, the tokenizer ends the value at the space and
// reads robots-noindex” as an attribute of its own. A class or rel value
// that opens with a typographic quote and does not close with one takes
// the element's value-less attributes as more of its tokens (the core
// then strips the quotes from them), except those robofilter reads
// itself (href, src, data-nosnippet, …). The rule does not depend on the
// attributes' order, which the DOM does not keep for formatting elements
// (html.Parse sorts them), so that the oracle can read the DOM alike.
func (d *driver) joinQuoted(t *token) {
	classOpen, relOpen := quoteLeftOpen(t.class), quoteLeftOpen(t.rel)
	if !classOpen && !relOpen {
		return
	}
	if classOpen {
		d.joinedClass = append(d.joinedClass[:0], t.class...)
	}
	if relOpen {
		d.joinedRel = append(d.joinedRel[:0], t.rel...)
	}
	for _, at := range t.attrs {
		if len(at.val) > 0 || ReadAttribute(string(at.key)) {
			continue
		}
		if classOpen {
			d.joinedClass = append(append(d.joinedClass, ' '), at.key...)
		}
		if relOpen {
			d.joinedRel = append(append(d.joinedRel, ' '), at.key...)
		}
	}
	if classOpen {
		t.class = d.joinedClass
	}
	if relOpen {
		t.rel = d.joinedRel
	}
}

// ReadAttribute reports whether robofilter reads an attribute of that
// name (lower case) itself: one a typographic quote left open never takes
// as a class or rel token (joinQuoted).
func ReadAttribute(key string) bool {
	switch key {
	case "class", "rel", "href", "src", "xlink:href", "data-nosnippet":
		return true
	}
	return false
}

// builderReadsAttr reports whether the builder or the core reads an attribute
// of that name (lower case): those ReadAttribute names, and those of META
// tags, inputs, MathML and fonts in foreign content. A tag keeps these
// past maxKeptAttrs.
func builderReadsAttr(key string) bool {
	switch key {
	case "type", "name", "content", "charset", "http-equiv", "profile", "encoding", "color", "face", "size":
		return true
	}
	return ReadAttribute(key)
}

// quoteLeftOpen: v opens with a typographic quote and does not close
// with one.
func quoteLeftOpen(v []byte) bool {
	return len(v) >= 3 && v[0] == 0xE2 && opensTypographic(v) && !closesTypographic(v)
}

func opensTypographic(v []byte) bool {
	r, _ := utf8.DecodeRune(v)
	return strings.ContainsRune(filter.TypographicQuotes, r)
}

// closesTypographic: v ends with a typographic quote that can close (all
// but the low „, which only opens).
func closesTypographic(v []byte) bool {
	r, _ := utf8.DecodeLastRune(v)
	return r != '\u201e' && strings.ContainsRune(filter.TypographicQuotes, r)
}
