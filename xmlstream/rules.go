package xmlstream

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/text/encoding"
)

// What another XML parser needs to read a document as the XML stage reads
// it: robofilter's feed mode (package feed) runs encoding/xml (under xmlquery) and
// checks, around it, what the XML stage checks. These are the XML stage's
// own rules and messages, exported so that they are written once.

// Entities reads the entity references of one document as the XML stage
// reads them (see "Entities" in the package documentation), for a parser
// that is given the DOCTYPE and the XML declaration as text, and a
// reference's replacement as text (encoding/xml's Entity map): the general
// entities the internal subset declares, whether an undeclared one is an
// error (WFC "Entity Declared"), references in replacement text read in
// turn, recursion, and the document's expansion budget, with the XML
// stage's messages. It gives no warnings. Use NewEntities; an Entities is
// not safe for concurrent use.
type Entities struct{ e *entities }

// NewEntities returns the entities of a document whose DOCTYPE has not been
// read, with an expansion budget of budget bytes of replacement text (at
// most MaxEntityExpansion): the XML stage's budget is Options.MaxTokenSize,
// so a parser that wants the same errors passes its token size limit.
func NewEntities(budget int) *Entities {
	return &Entities{e: newEntities(budget)}
}

// Declare reads a DOCTYPE declaration, given as its whole text ("<!DOCTYPE
// … >"), and declares the general entities of its internal subset (the
// first declaration of a name binds; the predefined entities are not
// redeclared). Whether it names an external subset or holds parameter
// entity references decides, with the XML declaration, whether a reference
// to an undeclared entity is an error. A parser may end a DOCTYPE before
// its internal subset ends (encoding/xml ends it at a '>' in a PI there):
// if the text ends inside the internal subset, Declare declares nothing
// and returns false, so that the caller can give the longer text; with
// final set it declares what the text holds and returns true.
func (x *Entities) Declare(doctype []byte, final bool) bool {
	dt := scanDoctype(doctype)
	if dt.open && !final {
		return false
	}
	x.e.declare(&dt)
	return true
}

// DoctypeError is the XML stage's error for a DOCTYPE declaration that is
// not well-formed, given as its whole text ("<!DOCTYPE … >"), and the
// offset in doctype where the XML stage reports it; nil if it is
// well-formed (see checkDoctype for what is checked). The error wraps
// ErrNotWellFormed.
func DoctypeError(doctype []byte) (int, error) {
	if bad := checkDoctype(doctype); bad != nil {
		return bad.at, fmt.Errorf("%w: %s", ErrNotWellFormed, bad.msg)
	}
	return 0, nil
}

// XMLDeclaration reads the XML declaration's text, what stands between
// "<?xml" and "?>": standalone="yes" requires every entity referred to to
// be declared in the internal subset, as the XML stage reads it. (The XML
// stage rejects a declaration that is not well-formed; here one is read up
// to its first error.)
func (x *Entities) XMLDeclaration(text []byte) {
	d, _ := parseXMLDecl(text)
	x.e.standalone = d.standalone == "yes"
}

// Expand reads the reference &name; (not a character reference) in content,
// or in an attribute value (inAttr), as the XML stage reads it, and charges
// it to the budget. It returns the text the reference reads as: a
// predefined entity's character; a declared internal entity's replacement
// text, the references in it read in turn (white space as written, in an
// attribute value too, so that one text serves both places); an external
// entity's reference as written; where XML allows an undeclared entity,
// the HTML entity of that name or the reference as written. markup reports
// that a declared internal entity's replacement text holds markup (a '<',
// in it or in an entity it refers to): in content the XML stage reads it as
// content, not as text (in an attribute value it is an error). The error,
// where the XML stage has one at this reference, wraps ErrNotWellFormed
// (an undeclared entity where a declaration is required, an entity that
// refers to itself, an illegal character reference in replacement text,
// markup in an attribute value) or ErrEntityExpansion (the budget passed),
// with the XML stage's message.
func (x *Entities) Expand(name string, inAttr bool) (text string, markup bool, err error) {
	if v, ok := predefinedEntity(name); ok {
		return v, false, nil
	}
	e := x.e
	markup = e.markupEntity([]byte(name)) != nil
	// The attribute value's rule is checked where it fails (markup); the
	// text is as in content, white space as written.
	out, err := e.expand(nil, []byte(name), inAttr && markup, 0)
	e.notes = e.notes[:0] // the warnings are the XML stage's
	if se, ok := err.(*scanError); ok {
		return "", markup, se.wrapped()
	}
	if err != nil {
		return "", markup, err
	}
	return string(out), markup, nil
}

// ProcInstError is the error of the XML stage for a processing
// instruction where it stands, or nil, and the offset in pi where the XML
// stage reports it. pi is the PI's whole text ("<?target …?>"); atStart
// says whether it is the document's first markup (after a byte order mark
// and white space, which the XML stage takes with a warning), not in an
// entity's replacement text. The target xml in any case
// is reserved (XML 1.0 production [17]): in lower case it is the XML
// declaration, which may stand only at the start ([23]), and must then be
// well-formed: version (1.x), then optionally encoding (an encoding name),
// then optionally standalone ("yes" or "no"). A version 1.x other than 1.0
// is no error (the XML stage reads it as 1.0, with a warning). It checks
// nothing else (the target's name, the PI's characters). The error wraps
// ErrNotWellFormed.
func ProcInstError(pi []byte, atStart bool) (int, error) {
	n := len("<?")
	for n < len(pi) && isNameByte(pi[n]) {
		n++
	}
	target := pi[min(len("<?"), len(pi)):n]
	if msg, atTarget := xmlTargetError(target, atStart); msg != "" {
		at := 0
		if atTarget {
			at = len("<?")
		}
		return at, fmt.Errorf("%w: %s", ErrNotWellFormed, msg)
	}
	if string(target) != "xml" {
		return 0, nil
	}
	body := bytes.TrimSuffix(pi[n:], []byte("?>"))
	if _, bad := parseXMLDecl(body); bad != nil {
		return n + bad.at, fmt.Errorf("%w: %s", ErrNotWellFormed, bad.msg)
	}
	return 0, nil
}

// DeclarationError is the error of the XML stage for a markup declaration
// ("<!" not starting a comment or CDATA section) where it stands, or nil:
// only a DOCTYPE may stand, once, before the root element. decl is the
// declaration's text after "<!", or as much of it as the parser read
// (its first word, and the byte that ended it unless that was the '>').
// The error wraps ErrNotWellFormed.
func DeclarationError(decl []byte, rootSeen, doctypeSeen bool) error {
	switch {
	case rootSeen:
		return fmt.Errorf("%w: a markup declaration <!%s> is not allowed inside or after the root element", ErrNotWellFormed, clipRunes(string(firstWord(decl)), 20))
	case !bytes.HasPrefix(decl, []byte("DOCTYPE")) || len(decl) > 7 && !isS(decl[7]):
		return fmt.Errorf("%w: <!%s> is not allowed here: only a DOCTYPE may stand before the root element", ErrNotWellFormed, clipRunes(string(firstWord(decl)), 20))
	case doctypeSeen:
		return fmt.Errorf("%w: a second DOCTYPE", ErrNotWellFormed)
	}
	return nil
}

// CharRef reads the digits of a character reference, what stands between
// "&#" and ';' ("38", "x26"; leading zeros allowed), and reports whether
// it is legal: well written, and a character XML allows (IsChar).
func CharRef(digits []byte) (rune, bool) {
	r, ok := charRefDigits(digits)
	return r, ok && isXMLChar(r)
}

// IsChar reports whether XML 1.0 allows the character r in a document
// (production [2] Char): not the C0 controls but tab, newline and carriage
// return, not a surrogate, not U+FFFE or U+FFFF.
func IsChar(r rune) bool { return isXMLChar(r) }

// IsNameByte reports whether c is a byte the XML stage's robots PI reader
// and encoding/xml read as part of a name: an ASCII letter, digit, '_',
// '-', '.' or ':', or any byte of a multi-byte character. It finds where a
// name ends; it does not check a Name.
func IsNameByte(c byte) bool { return isNameByte(c) }

// PositionMeasure measures decoded text in the original bytes of the
// charset UTF8ReaderMeasured named, as the XML stage counts positions there: a
// character as long as its encoding, one byte for what the charset cannot
// encode (U+FFFD standing for bad input). The characters that came from
// more or fewer bytes than that are in UTF8ReaderMeasured's Irregulars.
type PositionMeasure struct{ m charsetMeasure }

// NewPositionMeasure returns the measure of charset if the XML stage
// counts positions in a document in it in its original bytes by measuring
// the decoded text: an ASCII-compatible charset other than UTF-8 and
// UTF-16, in which every ASCII byte is that character and nothing carries
// state (Windows-1252, Shift_JIS …). It returns nil otherwise: in UTF-8
// the decoded bytes are the original, in UTF-16 and stateful charsets
// (ISO-2022-JP) the XML stage counts lines and columns in the decoded text.
func NewPositionMeasure(charset string) *PositionMeasure {
	e, name := lookupCharset(charset)
	if !countsOriginalBytes(e, name) {
		return nil
	}
	return &PositionMeasure{charsetMeasure{enc: e.NewEncoder()}}
}

// countsOriginalBytes reports whether positions in the charset count
// original bytes by measuring the decoded text (NewPositionMeasure).
func countsOriginalBytes(e encoding.Encoding, name string) bool {
	return e != nil && name != "utf-8" && !strings.HasPrefix(name, "utf-16") && asciiCompatible(e, name)
}

// Len is the length of decoded text in the original charset.
func (p *PositionMeasure) Len(text []byte) int { return p.m.textLen(text) }
