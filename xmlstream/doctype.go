package xmlstream

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// doctype is what robofilter needs from a <!DOCTYPE …> declaration.
type doctype struct {
	publicID string
	// externalSubset: the DOCTYPE names an external subset (SYSTEM or
	// PUBLIC), which robofilter never reads but which may declare entities.
	externalSubset bool
	// peRefs: the internal subset holds a parameter entity reference,
	// which may stand for declarations robofilter does not read.
	peRefs   bool
	pis      []subsetPI
	entities []entityDecl
	defaults []attDefault
	// open: the internal subset does not end in the text read (a parser
	// that ends the DOCTYPE at its first '>' outside quotes cut it short).
	open bool
	// end is the length of the declaration, through its '>' (0: it does
	// not end in the text read).
	end int
}

// subsetPI is a processing instruction inside the internal subset.
type subsetPI struct {
	off  int // offset of its "<?" in the DOCTYPE text
	text []byte
}

// entityDecl is a general entity declared in the internal subset.
type entityDecl struct {
	name     string
	value    string // the replacement text: character references replaced, entity references as written
	external bool   // SYSTEM or PUBLIC: never loaded
	unparsed bool   // external with NDATA: no reference may name it
}

// attDefault is an attribute's default value declared in the internal
// subset (<!ATTLIST element attribute type "value">, #FIXED or not): an
// element without the attribute has it, with that value (XML 1.0 section
// 3.3.2), so a robots class, an xml:base or a namespace declared so count.
type attDefault struct {
	element, attr string // qualified names, as written
	value         string // character references and predefined entities replaced
}

// xhtml reports whether the DOCTYPE names an XHTML DTD, which declares the
// HTML entities (&nbsp; …): robofilter knows them without reading the DTD.
func (d *doctype) xhtml() bool {
	return strings.Contains(strings.ToUpper(d.publicID), "//DTD XHTML")
}

// DoctypePIs returns the processing instructions in the internal subset of
// a DOCTYPE declaration, given as its whole text ("<!DOCTYPE … >"), each as
// its text from "<?" to "?>". PIs in comments and quoted literals are not
// PIs and are not returned.
func DoctypePIs(doctype []byte) [][]byte {
	dt := scanDoctype(doctype)
	pis := make([][]byte, len(dt.pis))
	for i, pi := range dt.pis {
		pis[i] = pi.text
	}
	return pis
}

// DoctypeLength returns the length of the DOCTYPE declaration doctype
// starts with, through its '>', read as DoctypePIs reads it (a '>' in a PI,
// comment or literal of the internal subset does not end it); 0 when it
// does not end in doctype.
func DoctypeLength(doctype []byte) int { return scanDoctype(doctype).end }

// scanDoctype reads a DOCTYPE declaration, given as its whole text. In the
// internal subset it finds processing instructions (a robots PI there
// counts) and general entity declarations, skipping comments and quoted
// literals so that neither can fake markup. Nothing external is ever read.
func scanDoctype(b []byte) doctype {
	var d doctype
	i := len("<!DOCTYPE")
	if len(b) < i {
		return d
	}
	afterPublic := false
	words := 0 // the root element's name, then the external ID's keyword
	for i < len(b) {
		c := b[i]
		switch {
		case isS(c):
			i++
		case c == '"' || c == '\'':
			j := bytes.IndexByte(b[i+1:], c)
			if j < 0 {
				return d
			}
			if afterPublic && d.publicID == "" {
				d.publicID = string(b[i+1 : i+1+j])
			}
			afterPublic = false
			i += j + 2
		case c == '[':
			at := scanSubset(b, i+1, &d)
			d.open = at < 0
			if !d.open {
				if j := skipS(b, at+1); j < len(b) && b[j] == '>' {
					d.end = j + 1
				}
			}
			return d
		case c == '>':
			d.end = i + 1
			return d
		default:
			start := i
			for i < len(b) && !isS(b[i]) && b[i] != '"' && b[i] != '\'' && b[i] != '[' && b[i] != '>' {
				i++
			}
			word := string(b[start:i])
			afterPublic = word == "PUBLIC"
			if words++; words > 1 && (word == "PUBLIC" || word == "SYSTEM") {
				d.externalSubset = true
			}
		}
	}
	return d
}

// scanSubset reads the internal subset from b[i], and returns the index of
// its ']' (-1 if not found).
func scanSubset(b []byte, i int, d *doctype) int {
	for i < len(b) {
		switch {
		case b[i] == ']':
			return i
		case bytes.HasPrefix(b[i:], []byte("<!--")):
			j := bytes.Index(b[i+4:], []byte("-->"))
			if j < 0 {
				return -1
			}
			i += 4 + j + 3
		case bytes.HasPrefix(b[i:], []byte("<?")):
			j := bytes.Index(b[i+2:], []byte("?>"))
			if j < 0 {
				return -1
			}
			end := i + 2 + j + 2
			d.pis = append(d.pis, subsetPI{off: i, text: b[i:end]})
			i = end
		case bytes.HasPrefix(b[i:], []byte("<!ENTITY")) && i+8 < len(b) && isS(b[i+8]):
			i = scanEntityDecl(b, i+8, d)
		case bytes.HasPrefix(b[i:], []byte("<!ATTLIST")) && i+9 < len(b) && isS(b[i+9]):
			i = scanAttlistDecl(b, i+9, d)
		case b[i] == '<':
			i = skipDecl(b, i+1, d)
		default:
			if isPERef(b, i) {
				d.peRefs = true
			}
			i++
		}
	}
	return -1
}

// skipDecl skips a markup declaration to just after its '>', honouring
// quoted literals, and notes a parameter entity reference outside them.
func skipDecl(b []byte, i int, d *doctype) int {
	for i < len(b) {
		switch c := b[i]; c {
		case '"', '\'':
			j := bytes.IndexByte(b[i+1:], c)
			if j < 0 {
				return len(b)
			}
			i += j + 2
		case '>':
			return i + 1
		default:
			if isPERef(b, i) {
				d.peRefs = true
			}
			i++
		}
	}
	return i
}

// isPERef reports whether a parameter entity reference ('%' Name ';')
// starts at b[i].
func isPERef(b []byte, i int) bool {
	if b[i] != '%' {
		return false
	}
	j := i + 1
	for j < len(b) && isNameByte(b[j]) {
		j++
	}
	return j > i+1 && j < len(b) && b[j] == ';'
}

func skipS(b []byte, i int) int {
	for i < len(b) && isS(b[i]) {
		i++
	}
	return i
}

// scanEntityDecl reads `<!ENTITY` S ['%' S] Name S (EntityValue | ExternalID …) S? '>'
// from just after "<!ENTITY"; parameter entities are skipped.
func scanEntityDecl(b []byte, i int, d *doctype) int {
	i = skipS(b, i)
	param := false
	if i < len(b) && b[i] == '%' {
		param = true
		i = skipS(b, i+1)
	}
	start := i
	for i < len(b) && isNameByte(b[i]) {
		i++
	}
	name := string(b[start:i])
	i = skipS(b, i)
	if name == "" || param || i >= len(b) {
		return skipDecl(b, i, d)
	}
	if q := b[i]; q == '"' || q == '\'' {
		j := bytes.IndexByte(b[i+1:], q)
		if j < 0 {
			return len(b)
		}
		v := b[i+1 : i+1+j]
		for k := range v {
			if isPERef(v, k) {
				d.peRefs = true
			}
		}
		d.entities = append(d.entities, entityDecl{name: name, value: expandEntityValue(v)})
		return skipDecl(b, i+1+j+1, d)
	}
	end := skipDecl(b, i, d)
	d.entities = append(d.entities, entityDecl{name: name, external: true, unparsed: hasNDATA(b[i:end])})
	return end
}

// hasNDATA reports whether an external entity's declaration, from its
// ExternalID on, has an NDATA part (outside its literals): an unparsed
// entity.
func hasNDATA(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"' || c == '\'':
			j := bytes.IndexByte(b[i+1:], c)
			if j < 0 {
				return false
			}
			i += j + 1
		case isS(c) && bytes.HasPrefix(b[i+1:], []byte("NDATA")) && i+6 < len(b) && isS(b[i+6]):
			return true
		}
	}
	return false
}

// scanAttlistDecl reads `<!ATTLIST` S Name (S Name S AttType S DefaultDecl)* S? '>'
// from just after "<!ATTLIST" and keeps the defaults given as values. A
// declaration it cannot follow (a parameter entity reference in it) is
// skipped, as skipDecl skips it.
func scanAttlistDecl(b []byte, i int, d *doctype) int {
	name := func() string {
		i = skipS(b, i)
		start := i
		for i < len(b) && isNameByte(b[i]) {
			i++
		}
		return string(b[start:i])
	}
	element := name()
	if element == "" {
		return skipDecl(b, i, d)
	}
	for {
		i = skipS(b, i)
		if i >= len(b) || b[i] == '>' {
			return min(i+1, len(b))
		}
		attr := name()
		if attr == "" {
			return skipDecl(b, i, d)
		}
		// AttType: a word (CDATA, ID, NMTOKENS …), or NOTATION and/or an
		// enumeration in parentheses.
		i = skipS(b, i)
		for i < len(b) && isNameByte(b[i]) {
			i++
		}
		i = skipS(b, i)
		if i < len(b) && b[i] == '(' {
			j := bytes.IndexByte(b[i:], ')')
			if j < 0 {
				return len(b)
			}
			i += j + 1
		}
		// DefaultDecl: #REQUIRED, #IMPLIED, or [#FIXED S] AttValue.
		i = skipS(b, i)
		if bytes.HasPrefix(b[i:], []byte("#FIXED")) {
			i = skipS(b, i+len("#FIXED"))
		}
		switch {
		case i < len(b) && b[i] == '#':
			for i++; i < len(b) && isNameByte(b[i]); i++ {
			}
		case i < len(b) && (b[i] == '"' || b[i] == '\''):
			j := bytes.IndexByte(b[i+1:], b[i])
			if j < 0 {
				return len(b)
			}
			v := b[i+1 : i+1+j]
			i += j + 2
			if bytes.IndexByte(v, '&') < 0 || !bytes.Contains(v, []byte(";")) {
				d.defaults = append(d.defaults, attDefault{element: element, attr: attr, value: string(v)})
			} else if value, ok := defaultValue(v); ok {
				d.defaults = append(d.defaults, attDefault{element: element, attr: attr, value: value})
			}
		default:
			return skipDecl(b, i, d)
		}
	}
}

// defaultValue replaces the character references and predefined entities
// of an attribute default; ok is false where it refers to another entity
// (the default is then left out).
func defaultValue(v []byte) (string, bool) {
	var out strings.Builder
	for len(v) > 0 {
		k := bytes.IndexByte(v, '&')
		if k < 0 {
			out.Write(v)
			break
		}
		out.Write(v[:k])
		v = v[k:]
		end := bytes.IndexByte(v, ';')
		if end < 0 {
			return "", false
		}
		ref := string(v[1:end])
		if r, ok := charRef(ref); ok {
			out.WriteRune(r)
		} else if p, ok := predefinedEntity(ref); ok {
			out.WriteString(p)
		} else {
			return "", false
		}
		v = v[end+1:]
	}
	return out.String(), true
}

// expandEntityValue turns an entity value into its replacement text
// (XML 1.0 section 4.5): character references are replaced, references to
// entities (the predefined ones too) are kept as written, to be replaced
// when the text is read where the entity is used.
func expandEntityValue(v []byte) string {
	if bytes.IndexByte(v, '&') < 0 {
		return string(v)
	}
	var out []byte
	for i := 0; i < len(v); {
		if v[i] != '&' {
			out = append(out, v[i])
			i++
			continue
		}
		j := bytes.IndexByte(v[i:], ';')
		if j < 0 {
			out = append(out, v[i:]...)
			break
		}
		if r, ok := charRef(string(v[i+1 : i+j])); ok {
			out = utf8.AppendRune(out, r)
		} else {
			out = append(out, v[i:i+j+1]...)
		}
		i += j + 1
	}
	return string(out)
}

func predefinedEntity(name string) (string, bool) {
	switch name {
	case "amp":
		return "&", true
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "apos":
		return "'", true
	case "quot":
		return `"`, true
	}
	return "", false
}

// charRef reads the inside of a legal character reference ("#38", "#x26").
func charRef(ref string) (rune, bool) {
	if !strings.HasPrefix(ref, "#") {
		return 0, false
	}
	base, digits := 10, ref[1:]
	if strings.HasPrefix(digits, "x") {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || n > utf8.MaxRune || !isXMLChar(rune(n)) {
		return 0, false
	}
	return rune(n), true
}
