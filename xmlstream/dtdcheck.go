package xmlstream

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// checkDoctype checks that a DOCTYPE declaration, given as its whole text
// ("<!DOCTYPE … >"), is well-formed: XML 1.0 productions [28] to [29],
// [45] to [76] and [82] to [83] (the element, attribute-list, entity and
// notation declarations, PIs and comments of the internal subset), and the
// well-formedness constraints that can be checked without reading
// anything external:
//   - PEs in Internal Subset: a parameter entity reference stands only
//     between declarations, never inside one (an entity value included);
//   - Legal Character: every character reference names a character XML
//     allows;
//   - in an attribute's default value, No External Entity References and
//     No < in Attribute Values, and Entity Declared where nothing
//     undeclared can declare the entity (no external subset, no parameter
//     entity reference before it).
//
// The scanner has already checked that every character is legal and that
// the declaration ends (its comments, PIs and literals read whole). A
// conditional section cannot stand in the internal subset. It returns nil
// or the first error, at its offset in b.
func checkDoctype(b []byte) *declError {
	if !bytes.HasPrefix(b, []byte("<!DOCTYPE")) {
		return &declError{at: 0, msg: "a markup declaration that is not a DOCTYPE"}
	}
	c := dtdChecker{b: b, i: len("<!DOCTYPE"), ents: map[string]string{}}
	c.doctype()
	return c.err
}

// dtdChecker reads a DOCTYPE by recursive descent; the first error stops
// it (err), and every step after one does nothing.
type dtdChecker struct {
	b   []byte
	i   int
	err *declError
	// ents maps each general entity declared so far to its replacement
	// text (the first declaration binds); external ones map to
	// externalEntity.
	ents map[string]string
	// undeclaredOK: something robofilter does not read may declare
	// entities (an external subset, a parameter entity reference).
	undeclaredOK bool
	followed     map[string]uint8 // entities valueRefs has read, by state
}

// externalEntity marks an external entity in dtdChecker.ents (no
// replacement text can be this: it is not valid UTF-8).
const externalEntity = "\xff"

func (c *dtdChecker) fail(at int, format string, args ...any) {
	if c.err == nil {
		c.err = &declError{at: at, msg: fmt.Sprintf(format, args...)}
	}
}

func (c *dtdChecker) eof() bool { return c.i >= len(c.b) }

// current names the character at c.i for a message.
func (c *dtdChecker) current() string {
	if c.eof() {
		return "the end of the declaration"
	}
	return quoteRune(c.b[c.i:])
}

// space steps over white space and reports whether there was any.
func (c *dtdChecker) space() bool {
	lo := c.i
	c.i = skipS(c.b, c.i)
	return c.i > lo
}

// mustSpace requires white space before what it names.
func (c *dtdChecker) mustSpace(before string) {
	if c.err == nil && !c.space() {
		c.fail(c.i, "%s where white space must stand before %s", c.current(), before)
	}
}

// name reads a Name (nmtoken: any name characters, an Nmtoken) and
// returns it; what names it for the message when none stands there.
func (c *dtdChecker) name(what string, nmtoken bool) string {
	if c.err != nil {
		return ""
	}
	lo := c.i
	for !c.eof() {
		r, n := utf8.DecodeRune(c.b[c.i:])
		if c.i == lo && !nmtoken && !isXMLNameStartRune(r) || !isXMLNameRune(r) {
			break
		}
		c.i += n
	}
	if c.i == lo {
		c.fail(c.i, "%s where %s must stand", c.current(), what)
	}
	return string(c.b[lo:c.i])
}

// keyword reports whether w stands at c.i, as a whole word (not the start
// of a longer name), and steps over it if so.
func (c *dtdChecker) keyword(w string) bool {
	if c.err != nil || !bytes.HasPrefix(c.b[c.i:], []byte(w)) {
		return false
	}
	if j := c.i + len(w); j < len(c.b) {
		if r, _ := utf8.DecodeRune(c.b[j:]); isXMLNameRune(r) {
			return false
		}
	}
	c.i += len(w)
	return true
}

// expect requires the byte ch at c.i.
func (c *dtdChecker) expect(ch byte, where string) {
	if c.err != nil {
		return
	}
	if c.eof() || c.b[c.i] != ch {
		c.fail(c.i, "%s %s: expected %q", c.current(), where, ch)
		return
	}
	c.i++
}

// literal reads a quoted literal and returns its content's bounds.
func (c *dtdChecker) literal(what string) (int, int) {
	if c.err != nil {
		return 0, 0
	}
	if c.eof() || c.b[c.i] != '"' && c.b[c.i] != '\'' {
		c.fail(c.i, "%s where %s, a quoted literal, must stand", c.current(), what)
		return 0, 0
	}
	q := c.b[c.i]
	j := bytes.IndexByte(c.b[c.i+1:], q)
	if j < 0 {
		c.fail(c.i, "%s is not closed", what)
		return 0, 0
	}
	lo := c.i + 1
	c.i = lo + j + 1
	return lo, lo + j
}

// doctype reads [28] doctypedecl after "<!DOCTYPE".
func (c *dtdChecker) doctype() {
	c.mustSpace("the root element's name")
	c.name("the root element's name", false)
	if c.space() && c.externalID(false) {
		c.undeclaredOK = true
		c.space()
	}
	switch {
	case c.err != nil || c.eof():
	case c.b[c.i] == '[':
		c.i++
		c.subset()
		c.expect(']', "in the internal subset")
		c.space()
	case c.b[c.i] != '>':
		c.fail(c.i, "%s in the DOCTYPE: expected an external identifier (SYSTEM or PUBLIC), '[' or '>'", c.current())
	}
	c.expect('>', "in the DOCTYPE")
	if c.err == nil && c.i != len(c.b) {
		c.fail(c.i, "%s after the DOCTYPE's '>'", c.current())
	}
}

// externalID reads [75] ExternalID (or, with publicOnly, a NotationDecl's
// [83] PublicID too) and reports whether one stood there.
func (c *dtdChecker) externalID(publicOnly bool) bool {
	switch {
	case c.keyword("SYSTEM"):
		c.mustSpace("the system literal")
		c.literal("the system literal")
	case c.keyword("PUBLIC"):
		c.mustSpace("the public identifier")
		c.pubidLiteral()
		at := c.i
		sp := c.space()
		if publicOnly && (c.eof() || c.b[c.i] == '>') {
			return c.err == nil
		}
		if !sp && c.err == nil {
			c.fail(at, "%s where white space and the system literal must follow the public identifier", c.current())
		}
		c.literal("the system literal")
	default:
		return false
	}
	return c.err == nil
}

// pubidLiteral reads [12] PubidLiteral: only [13] PubidChar inside.
func (c *dtdChecker) pubidLiteral() {
	lo, hi := c.literal("the public identifier")
	for i := lo; i < hi && c.err == nil; i++ {
		if !isPubidChar(c.b[i]) {
			r, _ := utf8.DecodeRune(c.b[i:hi])
			c.fail(i, "%q is not allowed in a public identifier", r)
		}
	}
}

func isPubidChar(ch byte) bool {
	switch {
	case ch == ' ' || ch == '\r' || ch == '\n':
		return true
	case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9':
		return true
	}
	return bytes.IndexByte([]byte("-'()+,./:=?;!*#@$_%"), ch) >= 0
}

// subset reads [28b] intSubset up to its ']' (not stepped over).
func (c *dtdChecker) subset() {
	for c.err == nil && !c.eof() {
		rest := c.b[c.i:]
		switch {
		case rest[0] == ']':
			return
		case isS(rest[0]):
			c.i++
		case rest[0] == '%':
			c.peReference()
			c.undeclaredOK = true
		case bytes.HasPrefix(rest, []byte("<!--")):
			c.comment()
		case bytes.HasPrefix(rest, []byte("<?")):
			c.pi()
		case bytes.HasPrefix(rest, []byte("<!ELEMENT")):
			c.i += len("<!ELEMENT")
			c.elementDecl()
		case bytes.HasPrefix(rest, []byte("<!ATTLIST")):
			c.i += len("<!ATTLIST")
			c.attlistDecl()
		case bytes.HasPrefix(rest, []byte("<!ENTITY")):
			c.i += len("<!ENTITY")
			c.entityDecl()
		case bytes.HasPrefix(rest, []byte("<!NOTATION")):
			c.i += len("<!NOTATION")
			c.notationDecl()
		case bytes.HasPrefix(rest, []byte("<![")):
			c.fail(c.i, "a conditional section is not allowed in the internal subset")
		case rest[0] == '<':
			c.fail(c.i, "%s is not a markup declaration (ELEMENT, ATTLIST, ENTITY, NOTATION, a PI or a comment)", clipRunes(string(firstWord(rest)), 20))
		default:
			c.fail(c.i, "%s between the internal subset's declarations, where only white space or a parameter entity reference may stand", c.current())
		}
	}
}

// peReference reads [69] PEReference at '%'.
func (c *dtdChecker) peReference() {
	at := c.i
	c.i++
	c.name("a parameter entity's name after '%'", false)
	if c.err == nil && (c.eof() || c.b[c.i] != ';') {
		c.fail(at, "a parameter entity reference must end with ';'")
		return
	}
	c.i++
}

// comment reads [15] Comment: "--" only at its end.
func (c *dtdChecker) comment() {
	body := c.i + len("<!--")
	j := bytes.Index(c.b[body:], []byte("--"))
	if j < 0 {
		c.fail(c.i, "the comment is not closed")
		return
	}
	if end := body + j; end+2 >= len(c.b) || c.b[end+2] != '>' {
		c.fail(end, `"--" is not allowed inside a comment`)
		return
	}
	c.i = body + j + len("-->")
}

// pi reads [16] PI: a target other than xml in any case, then white space
// or its end.
func (c *dtdChecker) pi() {
	at := c.i
	c.i += len("<?")
	lo := c.i
	target := c.name("a processing instruction's target", false)
	if c.err != nil {
		return
	}
	if msg, atTarget := xmlTargetError([]byte(target), false); msg != "" {
		if atTarget {
			at = lo
		}
		c.fail(at, "%s", msg)
		return
	}
	if !c.space() && !bytes.HasPrefix(c.b[c.i:], []byte("?>")) {
		c.fail(c.i, "%s after the processing instruction target %s: expected white space or '?>'", c.current(), target)
		return
	}
	j := bytes.Index(c.b[c.i:], []byte("?>"))
	if j < 0 {
		c.fail(at, "the processing instruction is not closed")
		return
	}
	c.i += j + len("?>")
}

// declEnd reads a declaration's S? '>'.
func (c *dtdChecker) declEnd(what string) {
	c.space()
	c.expect('>', "in "+what)
}

// noPERef fails at a parameter entity reference inside a declaration
// (WFC PEs in Internal Subset); it reports whether there was one.
func (c *dtdChecker) noPERef() bool {
	if c.err == nil && !c.eof() && c.b[c.i] == '%' {
		c.fail(c.i, "a parameter entity reference is not allowed inside a markup declaration of the internal subset")
		return true
	}
	return false
}

// elementDecl reads [45] elementdecl after "<!ELEMENT".
func (c *dtdChecker) elementDecl() {
	c.mustSpace("the element's name")
	c.noPERef()
	c.name("the element's name", false)
	c.mustSpace("the content specification")
	c.noPERef()
	switch {
	case c.err != nil:
		return
	case c.keyword("EMPTY"), c.keyword("ANY"):
	case !c.eof() && c.b[c.i] == '(':
		c.contentModel()
	default:
		c.fail(c.i, "%s where the content specification (EMPTY, ANY or a model in parentheses) must stand", c.current())
	}
	c.declEnd("the ELEMENT declaration")
}

// contentModel reads [51] Mixed or [47] children at '('.
func (c *dtdChecker) contentModel() {
	c.i++
	c.space()
	if !c.keyword("#PCDATA") {
		c.group()
		c.modifier()
		return
	}
	names := 0
	for c.err == nil {
		c.space()
		if c.eof() || c.b[c.i] != '|' {
			break
		}
		c.i++
		c.space()
		c.noPERef()
		c.name("an element name in the mixed content model", false)
		names++
	}
	c.expect(')', "in the mixed content model")
	if c.err != nil {
		return
	}
	if !c.eof() && c.b[c.i] == '*' {
		c.i++
	} else if names > 0 {
		c.fail(c.i, "a mixed content model with element names must end with \")*\"")
	}
}

// group reads the rest of a [49] choice or [50] seq after its '(' (and
// white space): content particles separated by one kind of separator.
func (c *dtdChecker) group() {
	var sep byte
	for c.err == nil {
		c.noPERef()
		c.particle()
		c.space()
		if c.err != nil {
			return
		}
		if c.eof() {
			c.fail(c.i, "the content model is not closed")
			return
		}
		switch ch := c.b[c.i]; {
		case ch == ')':
			c.i++
			return
		case ch != '|' && ch != ',':
			c.fail(c.i, "%s in a content model: expected '|', ',' or ')'", c.current())
		case sep != 0 && ch != sep:
			c.fail(c.i, "%q and %q mixed in one group of a content model", sep, ch)
		default:
			sep = ch
			c.i++
			c.space()
		}
	}
}

// particle reads a [48] cp: a name or a group, then its modifier.
func (c *dtdChecker) particle() {
	if c.err != nil {
		return
	}
	if !c.eof() && c.b[c.i] == '(' {
		c.i++
		c.space()
		c.group()
	} else {
		c.name("an element name or '(' in the content model", false)
	}
	c.modifier()
}

func (c *dtdChecker) modifier() {
	if c.err == nil && !c.eof() && (c.b[c.i] == '?' || c.b[c.i] == '*' || c.b[c.i] == '+') {
		c.i++
	}
}

// attlistDecl reads [52] AttlistDecl after "<!ATTLIST".
func (c *dtdChecker) attlistDecl() {
	c.mustSpace("the element's name")
	c.noPERef()
	c.name("the element's name", false)
	for c.err == nil {
		sp := c.space()
		if c.eof() || c.b[c.i] == '>' {
			break
		}
		if !sp {
			c.fail(c.i, "%s where white space must stand before the next attribute definition", c.current())
			return
		}
		c.noPERef()
		c.name("an attribute's name", false)
		c.mustSpace("the attribute's type")
		c.attType()
		c.mustSpace("the attribute's default")
		c.defaultDecl()
	}
	c.expect('>', "in the ATTLIST declaration")
}

// attType reads [54] AttType.
func (c *dtdChecker) attType() {
	c.noPERef()
	switch {
	case c.err != nil:
	case c.keyword("CDATA"), c.keyword("ID"), c.keyword("IDREF"), c.keyword("IDREFS"), c.keyword("ENTITY"),
		c.keyword("ENTITIES"), c.keyword("NMTOKEN"), c.keyword("NMTOKENS"):
	case c.keyword("NOTATION"):
		c.mustSpace("the notation names")
		c.expect('(', "after NOTATION")
		c.nameList(false)
	case !c.eof() && c.b[c.i] == '(':
		c.i++
		c.nameList(true)
	default:
		c.fail(c.i, "%s where an attribute type (CDATA, ID, IDREF, IDREFS, ENTITY, ENTITIES, NMTOKEN, NMTOKENS, NOTATION or an enumeration) must stand", c.current())
	}
}

// nameList reads the rest of [58] NotationType's or [59] Enumeration's
// list after its '('.
func (c *dtdChecker) nameList(nmtokens bool) {
	for c.err == nil {
		c.space()
		c.noPERef()
		c.name("a name in the list", nmtokens)
		c.space()
		if c.err != nil {
			return
		}
		if !c.eof() && c.b[c.i] == ')' {
			c.i++
			return
		}
		c.expect('|', "in the list of names")
	}
}

// defaultDecl reads [60] DefaultDecl.
func (c *dtdChecker) defaultDecl() {
	c.noPERef()
	switch {
	case c.err != nil:
		return
	case c.keyword("#REQUIRED"), c.keyword("#IMPLIED"):
		return
	case c.keyword("#FIXED"):
		c.mustSpace("the fixed value")
	case !c.eof() && c.b[c.i] == '#':
		c.fail(c.i, "%s is not #REQUIRED, #IMPLIED or #FIXED", clipRunes(string(firstWord(c.b[c.i:])), 20))
		return
	}
	lo, hi := c.literal("the attribute's default value")
	if c.err == nil {
		c.attValue(lo, hi)
	}
}

// attValue checks [10] AttValue's content b[lo:hi]: no '<', references
// well written, to characters XML allows, and to entities declared before
// (where that can be known), internal, with no '<' in their replacement
// text and no reference to themselves, in turn.
func (c *dtdChecker) attValue(lo, hi int) {
	c.valueRefs(c.b[lo:hi], lo, "")
}

// Entities' states while valueRefs follows references (absent: not yet
// followed).
const (
	entityFollowing = 1 + iota // its replacement text is being read
	entityChecked              // its replacement text is fine in a value
)

// valueRefs checks a default value's text v, or the replacement text of
// the entity named within (at its first reference), reporting at at. Each
// entity is read once however often it is referred to, so a default value
// costs time linear in the subset.
func (c *dtdChecker) valueRefs(v []byte, at int, within string) {
	if c.followed == nil {
		c.followed = map[string]uint8{}
	}
	for i := 0; i < len(v) && c.err == nil; i++ {
		pos := at
		if within == "" {
			pos = at + i
		}
		switch v[i] {
		case '<':
			if within == "" {
				c.fail(pos, "'<' is not allowed in an attribute value")
			} else {
				c.fail(pos, "the default value refers to the entity &%s;, whose replacement text holds '<', which is not allowed in an attribute value", within)
			}
		case '&':
			name, n, bad := reference(v[i:], "an attribute value")
			if bad != "" {
				c.fail(pos, "%s", bad)
				return
			}
			i += n - 1
			if name == "" { // a character reference, checked by reference
				continue
			}
			if _, ok := predefinedEntity(name); ok {
				continue
			}
			text, declared := c.ents[name]
			switch {
			case !declared && !c.undeclaredOK:
				c.fail(pos, "the default value refers to the entity &%s;, which is not declared before it", name)
			case text == externalEntity:
				c.fail(pos, "the default value refers to the external entity &%s;, which an attribute value may not", name)
			case c.followed[name] == entityFollowing:
				c.fail(pos, "the default value refers to the entity &%s;, which refers to itself", name)
			case declared && c.followed[name] == 0:
				c.followed[name] = entityFollowing
				c.valueRefs([]byte(text), pos, name)
				c.followed[name] = entityChecked
			}
		}
	}
}

// reference reads the reference at v[0] == '&': its entity's name ("" for
// a character reference) and its length, or what is wrong with it (a
// reference badly written, or a character reference to a character XML
// does not allow) for a message about where it stands.
func reference(v []byte, where string) (name string, n int, bad string) {
	end := bytes.IndexByte(v, ';')
	if end < 2 || v[1] != '#' && !isXMLName(v[1:end]) {
		return "", 0, "'&' must begin a reference (&name; or &#number;) in " + where
	}
	if body := v[1:end]; body[0] == '#' {
		if _, ok := charRef(string(body)); !ok {
			return "", 0, fmt.Sprintf("%s is not a legal character reference (in %s)", clipRunes(string(v[:end+1]), 20), where)
		}
		return "", end + 1, ""
	}
	return string(v[1:end]), end + 1, ""
}

// entityDecl reads [70] EntityDecl after "<!ENTITY".
func (c *dtdChecker) entityDecl() {
	c.mustSpace("the entity's name")
	param := false
	if !c.eof() && c.b[c.i] == '%' && c.err == nil {
		param = true
		c.i++
		c.mustSpace("the parameter entity's name")
	}
	c.noPERef()
	name := c.name("the entity's name", false)
	c.mustSpace("the entity's value or external identifier")
	c.noPERef()
	if c.err != nil {
		return
	}
	if !c.eof() && (c.b[c.i] == '"' || c.b[c.i] == '\'') {
		lo, hi := c.literal("the entity's value")
		c.entityValue(lo, hi)
		if _, seen := c.ents[name]; !param && !seen && c.err == nil {
			c.ents[name] = expandEntityValue(c.b[lo:hi])
		}
	} else {
		if !c.externalID(false) {
			if c.err == nil {
				c.fail(c.i, "%s where the entity's value (a quoted literal) or external identifier (SYSTEM or PUBLIC) must stand", c.current())
			}
			return
		}
		at := c.i
		if c.space() && c.keyword("NDATA") {
			if param {
				c.fail(at, "a parameter entity cannot be unparsed (NDATA)")
			}
			c.mustSpace("the notation's name")
			c.name("the notation's name", false)
		}
		if _, seen := c.ents[name]; !param && !seen {
			c.ents[name] = externalEntity
		}
	}
	c.declEnd("the ENTITY declaration")
}

// entityValue checks [9] EntityValue's content b[lo:hi]: '%' and '&' only
// as references, a parameter entity reference not at all in the internal
// subset, character references to characters XML allows.
func (c *dtdChecker) entityValue(lo, hi int) {
	for i := lo; i < hi && c.err == nil; i++ {
		switch c.b[i] {
		case '%':
			c.fail(i, "a parameter entity reference (or '%%') is not allowed in an entity value of the internal subset")
		case '&':
			_, n, bad := reference(c.b[i:hi], "an entity value")
			if bad != "" {
				c.fail(i, "%s", bad)
				return
			}
			i += n - 1
		}
	}
}

// notationDecl reads [82] NotationDecl after "<!NOTATION".
func (c *dtdChecker) notationDecl() {
	c.mustSpace("the notation's name")
	c.noPERef()
	c.name("the notation's name", false)
	c.mustSpace("the notation's identifier")
	c.noPERef()
	if !c.externalID(true) && c.err == nil {
		c.fail(c.i, "%s where the notation's identifier (SYSTEM or PUBLIC) must stand", c.current())
	}
	c.declEnd("the NOTATION declaration")
}
