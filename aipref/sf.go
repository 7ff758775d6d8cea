package aipref

import (
	"fmt"
	"unicode/utf8"
)

// Member is one member of a Structured Fields Dictionary (RFC 9651
// section 3.2): its key and what its value is. Only a Token's text is
// kept, as that is all the vocabulary reads (draft-ietf-aipref-vocab-08
// section 6.5); the other kinds of value are named, for messages.
// Parameters are checked and dropped: the vocabulary gives them no
// meaning (section 6.4).
type Member struct {
	Key string
	// Kind is what the value is: "token", "boolean" (a key alone is the
	// Boolean true), "integer", "decimal", "string", "byte sequence",
	// "date", "display string" or "inner list".
	Kind string
	// Token is the value's text when Kind is "token".
	Token string
	// Offset is where the member's key starts in the field value.
	Offset int
}

// SyntaxError says why a field value is no Structured Fields Dictionary
// and at which byte of it the parse failed.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg)
}

// EachMember parses s as a Structured Fields Dictionary, exactly as RFC
// 9651 section 4.2 says (of the field value's bytes, with its rules for
// every kind of value), and calls fn with each member in order. A key that
// comes again overwrites the earlier member (section 4.2.2); fn sees both,
// in order, so the last one it sees for a key is the one that counts.
// The members are handed over as they are parsed, none kept: a value of
// any length costs what fn keeps. When the parse fails, the error says
// where, and the value states nothing (RFC 9651 section 4.2: the whole
// field is ignored), whatever fn was given before.
func EachMember(s string, fn func(Member)) error {
	p := sfParser{s: s}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return &SyntaxError{i, "a byte outside ASCII (RFC 9651 field values are ASCII)"}
		}
	}
	p.skipSP()
	if err := p.dictionary(fn); err != nil {
		return err
	}
	p.skipSP()
	if p.i < len(s) {
		return p.fail("unexpected characters after the dictionary")
	}
	return nil
}

// ParseDictionary is EachMember collecting the members that count: one
// per key, the last one given, at the place of the first (RFC 9651
// section 4.2.2 overwrites a member in place).
func ParseDictionary(s string) ([]Member, error) {
	var out []Member
	at := map[string]int{}
	err := EachMember(s, func(m Member) {
		if i, ok := at[m.Key]; ok {
			out[i] = m
			return
		}
		at[m.Key] = len(out)
		out = append(out, m)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

type sfParser struct {
	s string
	i int
}

func (p *sfParser) fail(format string, args ...any) error {
	return &SyntaxError{p.i, fmt.Sprintf(format, args...)}
}

func (p *sfParser) eof() bool { return p.i >= len(p.s) }

// peek is the next character, or 0 at the end (never a character of an
// ASCII value that any rule accepts where 0 is looked for).
func (p *sfParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sfParser) skipSP() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// skipOWS discards optional white space: SP and HTAB (RFC 9110 section 5.6.3).
func (p *sfParser) skipOWS() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// dictionary is section 4.2.2, Parsing a Dictionary.
func (p *sfParser) dictionary(fn func(Member)) error {
	for !p.eof() {
		at := p.i
		key, err := p.key()
		if err != nil {
			return err
		}
		m := Member{Key: key, Offset: at}
		if p.peek() == '=' {
			p.i++
			if err := p.itemOrInnerList(&m); err != nil {
				return err
			}
		} else {
			m.Kind = "boolean" // true
			if err := p.parameters(); err != nil {
				return err
			}
		}
		fn(m)
		p.skipOWS()
		if p.eof() {
			return nil
		}
		if p.peek() != ',' {
			return p.fail("expected a comma after a dictionary member, found %q", p.peek())
		}
		p.i++
		p.skipOWS()
		if p.eof() {
			return p.fail("a trailing comma ends the dictionary")
		}
	}
	return nil
}

// itemOrInnerList is section 4.2.1.1.
func (p *sfParser) itemOrInnerList(m *Member) error {
	if p.peek() == '(' {
		m.Kind = "inner list"
		return p.innerList()
	}
	return p.item(m)
}

// innerList is section 4.2.1.2.
func (p *sfParser) innerList() error {
	p.i++ // "("
	for !p.eof() {
		p.skipSP()
		if p.peek() == ')' {
			p.i++
			return p.parameters()
		}
		if err := p.item(nil); err != nil {
			return err
		}
		if c := p.peek(); c != ' ' && c != ')' {
			if p.eof() {
				break
			}
			return p.fail("expected a space or ) after an item of an inner list, found %q", c)
		}
	}
	return p.fail("an inner list is not closed")
}

// item is section 4.2.3: a bare item and its parameters. m, when not
// nil, is told what the bare item is.
func (p *sfParser) item(m *Member) error {
	if err := p.bareItem(m); err != nil {
		return err
	}
	return p.parameters()
}

// parameters is section 4.2.3.2: checked, not kept.
func (p *sfParser) parameters() error {
	for p.peek() == ';' {
		p.i++
		p.skipSP()
		if _, err := p.key(); err != nil {
			return err
		}
		if p.peek() == '=' {
			p.i++
			if err := p.bareItem(nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// key is section 4.2.3.3.
func (p *sfParser) key() (string, error) {
	c := p.peek()
	if !(c >= 'a' && c <= 'z' || c == '*') {
		if c >= 'A' && c <= 'Z' {
			return "", p.fail("a key starts with an upper-case letter %q (keys are lower case)", c)
		}
		if p.eof() {
			return "", p.fail("a key is missing")
		}
		return "", p.fail("a key cannot start with %q", c)
	}
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*') {
			break
		}
		p.i++
	}
	return p.s[start:p.i], nil
}

// bareItem is section 4.2.3.1.
func (p *sfParser) bareItem(m *Member) error {
	kind := ""
	var err error
	switch c := p.peek(); {
	case c == '-' || c >= '0' && c <= '9':
		kind, err = p.number(false)
	case c == '"':
		kind, err = "string", p.str()
	case c == '*' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		start := p.i
		p.token()
		if m != nil {
			m.Token = p.s[start:p.i]
		}
		kind = "token"
	case c == ':':
		kind, err = "byte sequence", p.byteSequence()
	case c == '?':
		kind, err = "boolean", p.boolean()
	case c == '@':
		p.i++
		kind, err = "date", nil
		if _, err = p.number(true); err != nil {
			return err
		}
	case c == '%':
		kind, err = "display string", p.displayString()
	case p.eof():
		return p.fail("a value is missing")
	default:
		return p.fail("no value starts with %q", c)
	}
	if err != nil {
		return err
	}
	if m != nil {
		m.Kind = kind
	}
	return nil
}

// number is section 4.2.4, Parsing an Integer or Decimal; date is set for
// a Date's number (section 4.2.9), which must be an Integer.
func (p *sfParser) number(date bool) (string, error) {
	if p.peek() == '-' {
		p.i++
	}
	if c := p.peek(); c < '0' || c > '9' {
		if p.eof() {
			return "", p.fail("a number has no digits")
		}
		return "", p.fail("expected a digit, found %q", c)
	}
	decimal := false
	digits, point := 0, 0 // all the characters of the number; the point's place
	for !p.eof() {
		c := p.s[p.i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case !decimal && c == '.':
			if digits > 12 {
				return "", p.fail("more than 12 digits before a decimal point")
			}
			decimal, point = true, digits
			digits++
		default:
			goto end
		}
		p.i++
		if !decimal && digits > 15 {
			return "", p.fail("an integer of more than 15 digits")
		}
		if decimal && digits > 16 {
			return "", p.fail("a decimal of more than 16 characters")
		}
	}
end:
	if !decimal {
		return "integer", nil
	}
	if date {
		return "", p.fail("a date is a decimal (it must be an integer)")
	}
	switch frac := digits - point - 1; {
	case frac == 0:
		return "", p.fail("a decimal ends with its point")
	case frac > 3:
		return "", p.fail("a decimal with more than 3 digits after the point")
	}
	return "decimal", nil
}

// str is section 4.2.5, Parsing a String.
func (p *sfParser) str() error {
	p.i++ // DQUOTE
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			if p.eof() {
				return p.fail("a string ends with a backslash")
			}
			if n := p.s[p.i]; n != '"' && n != '\\' {
				return p.fail("a backslash in a string escapes %q (only \\\" and \\\\ are escapes)", n)
			}
			p.i++
		case c == '"':
			return nil
		case c < 0x20 || c == 0x7f:
			p.i--
			return p.fail("a control character in a string")
		}
	}
	return p.fail("a string is not closed")
}

// token is section 4.2.6, Parsing a Token; the first character was checked.
func (p *sfParser) token() {
	for p.i < len(p.s) && tokenChar[p.s[p.i]] {
		p.i++
	}
}

// tokenChar marks tchar (RFC 9110 section 5.6.2), ":" and "/".
var tokenChar = func() (t [256]bool) {
	for _, c := range []byte("!#$%&'*+-.^_`|~:/0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		t[c] = true
	}
	return t
}()

// byteSequence is section 4.2.7, Parsing a Byte Sequence. Its base64 is
// read as the forgiving decoder of browsers does (WHATWG Infra): missing
// "=" padding and non-zero pad bits do not fail it, as RFC 9651 asks
// ("SHOULD NOT fail"); what cannot be base64 at all does.
func (p *sfParser) byteSequence() error {
	p.i++ // ":"
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != ':' {
		c := p.s[p.i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return p.fail("%q in a byte sequence (base64 only)", c)
		}
		p.i++
	}
	if p.eof() {
		return p.fail("a byte sequence is not closed")
	}
	b64 := p.s[start:p.i]
	p.i++ // ":"
	if len(b64)%4 == 0 {
		for k := 0; k < 2 && len(b64) > 0 && b64[len(b64)-1] == '='; k++ {
			b64 = b64[:len(b64)-1]
		}
	}
	for k := 0; k < len(b64); k++ {
		if b64[k] == '=' {
			return &SyntaxError{start + k, "\"=\" inside a byte sequence's base64"}
		}
	}
	if len(b64)%4 == 1 {
		return &SyntaxError{start, "a byte sequence's base64 has a length no bytes can have"}
	}
	return nil
}

// boolean is section 4.2.8.
func (p *sfParser) boolean() error {
	p.i++ // "?"
	if c := p.peek(); c == '0' || c == '1' {
		p.i++
		return nil
	}
	return p.fail("a boolean is ?0 or ?1")
}

// displayString is section 4.2.10, Parsing a Display String.
func (p *sfParser) displayString() error {
	if p.i+1 >= len(p.s) || p.s[p.i+1] != '"' {
		p.i++
		return p.fail("a display string starts with %%\"")
	}
	p.i += 2
	var buf []byte // the octets, to check they are UTF-8
	for !p.eof() {
		c := p.s[p.i]
		switch {
		case c < 0x20 || c == 0x7f:
			return p.fail("a control character in a display string")
		case c == '%':
			if p.i+2 >= len(p.s) || !lowerHex(p.s[p.i+1]) || !lowerHex(p.s[p.i+2]) {
				return p.fail("%% in a display string is not followed by two lower-case hex digits")
			}
			buf = append(buf, unhexLower(p.s[p.i+1])<<4|unhexLower(p.s[p.i+2]))
			p.i += 3
		case c == '"':
			p.i++
			if !utf8.Valid(buf) {
				return p.fail("a display string's octets are not UTF-8")
			}
			return nil
		default:
			buf = append(buf, c)
			p.i++
		}
	}
	return p.fail("a display string is not closed")
}

func lowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

func unhexLower(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}
