package htmlstream

import (
	"bytes"

	"golang.org/x/net/html"
	a "golang.org/x/net/html/atom"
)

// The tokenizer's TagName and TagAttr copy every name and value they return
// (golang.org/x/net/html v0.62 runs them through bytes.ReplaceAll), which
// costs two allocations per attribute. The tag's raw bytes are still in the
// tokenizer's buffer, so the driver reads the name and attributes from
// Raw() itself, by the tokenizer's own rules (readTag, readTagAttrKey,
// readTagAttrVal), and copies only what must change: upper-case names,
// character references, NULs and carriage returns.

func isTagSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

// tagScanner walks the raw bytes of one tag.
type tagScanner struct {
	raw []byte
	i   int
}

func (s *tagScanner) skipSpace() {
	for s.i < len(s.raw) && isTagSpace(s.raw[s.i]) {
		s.i++
	}
}

// Classes of bytes in a tag name, for name's one lookup per byte.
const (
	nameByte  = iota // part of the name
	nameUpper        // part of the name, an upper-case ASCII letter
	nameSpace        // whitespace: ends the name and is consumed
	nameEnd          // '/' or '>': ends the name
)

var nameClass = func() (t [256]uint8) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = nameUpper
	}
	for _, c := range []byte(" \n\r\t\f") {
		t[c] = nameSpace
	}
	t['/'], t['>'] = nameEnd, nameEnd
	return t
}()

// name reads the tag name (the "div" in "<div k=v>") and reports whether
// it has upper-case letters.
func (s *tagScanner) name() (name []byte, upper bool) {
	start := s.i
	for ; s.i < len(s.raw); s.i++ {
		switch nameClass[s.raw[s.i]] {
		case nameUpper:
			upper = true
		case nameSpace:
			name = s.raw[start:s.i]
			s.i++
			return name, upper
		case nameEnd:
			return s.raw[start:s.i], upper
		}
	}
	return s.raw[start:], upper
}

// key reads an attribute name; '=' as its first byte belongs to the name.
func (s *tagScanner) key() []byte {
	start := s.i
	for s.i < len(s.raw) {
		c := s.raw[s.i]
		switch c {
		case '=':
			if s.i == start {
				s.i++
				continue
			}
			return s.raw[start:s.i]
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return s.raw[start:s.i]
		}
		s.i++
	}
	return s.raw[start:]
}

// value reads what follows an attribute name: "=v", "='v'", or nothing.
func (s *tagScanner) value() []byte {
	s.skipSpace()
	if s.i >= len(s.raw) {
		return nil
	}
	c := s.raw[s.i]
	s.i++
	if c == '/' {
		return nil
	}
	if c != '=' {
		s.i--
		return nil
	}
	s.skipSpace()
	if s.i >= len(s.raw) {
		return nil
	}
	q := s.raw[s.i]
	s.i++
	switch q {
	case '>':
		s.i--
		return nil
	case '\'', '"':
		start := s.i
		if k := bytes.IndexByte(s.raw[start:], q); k >= 0 {
			s.i = start + k + 1
			return s.raw[start : start+k]
		}
		s.i = len(s.raw)
		return s.raw[start:]
	default:
		start := s.i - 1
		for s.i < len(s.raw) {
			switch s.raw[s.i] {
			case ' ', '\n', '\r', '\t', '\f':
				v := s.raw[start:s.i]
				s.i++
				return v
			case '>':
				return s.raw[start:s.i]
			}
			s.i++
		}
		return s.raw[start:]
	}
}

// lowerInto returns b in lower case, copying into buf only when needed.
func lowerInto(buf *[]byte, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			start := len(*buf)
			for _, c := range b {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				*buf = append(*buf, c)
			}
			return (*buf)[start:]
		}
	}
	return b
}

// needsTokenizer reports whether a tag has bytes whose meaning depends on
// the tokenizer's own rules for attribute values (character references,
// which differ from text's; carriage returns; NULs): such a tag is read
// with TagName and TagAttr, which copy, instead of from Raw().
func needsTokenizer(raw []byte) bool { return hasTextSpecial(raw) }

// readTag fills the builder's token from the raw bytes of a tag, looking at
// every attribute once and keeping those the builder and the core need.
func (d *driver) readTag(tt html.TokenType) {
	t := &d.b.tok
	*t = token{typ: tt, attrs: d.attrs[:0]}
	d.keyBuf = d.keyBuf[:0]
	raw := d.raw
	if needsTokenizer(raw) {
		d.readTagWithTokenizer(t)
		return
	}
	s := tagScanner{raw: raw, i: 1}
	if tt == html.EndTagToken {
		s.i = 2
	}
	name, upper := s.name()
	if upper {
		name = lowerInto(&d.keyBuf, name)
	}
	d.setName(t, name)
	if tt == html.EndTagToken {
		return // end tags' attributes are never used
	}
	s.skipSpace()
	for s.i < len(raw) && raw[s.i] != '>' {
		key := s.key()
		val := s.value()
		if len(key) > 0 {
			key = lowerInto(&d.keyBuf, key)
			if !t.has(key) {
				d.keepAttr(t, key, val)
			}
		}
		s.skipSpace()
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

// readTagWithTokenizer is the exact, copying path.
func (d *driver) readTagWithTokenizer(t *token) {
	name, more := d.z.TagName()
	d.setName(t, name)
	for more && t.typ != html.EndTagToken {
		var k, v []byte
		k, v, more = d.z.TagAttr()
		d.keepAttr(t, k, v)
	}
	d.attrs = t.attrs
}

func (t *token) has(key []byte) bool {
	for i := range t.attrs {
		if bytes.Equal(t.attrs[i].key, key) {
			return true
		}
	}
	return false
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
