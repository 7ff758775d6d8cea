package feed

import (
	"bytes"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// scan follows b, at decoded offset base, through the tokenizer and
// returns how much of it may be handed out: all of it, or the bytes before
// the one where an error was found, with the error.
func (f *feedReader) scan(b []byte, base int64) (int, *feedError) {
	captured := -1 // a byte read again is kept once
	for i := 0; i < len(b); {
		c := b[i]
		at := base + int64(i)
		if f.split && i > captured {
			if len(f.capture) >= f.maxToken {
				return i, f.doctypeTooLong()
			}
			f.capture, captured = append(f.capture, c), i
		}
		switch f.st {
		case fsText:
			switch {
			case f.depth == 0 && c != '<' && !isFeedSpace(c) && !f.split:
				return i, notWellFormedAt(f.textStart, "text outside the root element")
			case f.runeN > 0 || c >= utf8.RuneSelf:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
			case c == '<':
				f.st, f.tagStart = fsLT, at
				f.tagAt = append(f.tagAt, at)
			case c == '&':
				f.startRef(at)
			default:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
				if f.depth > 0 && !f.split {
					i = plainRun(b, i+1, &textPlain)
					continue
				}
			}
		case fsLT:
			f.piFirst, f.markupSeen = !f.markupSeen, true
			switch c {
			case '/':
				f.st = fsEndTag
			case '?':
				f.st, f.name, f.prev = fsPI, f.name[:0], [2]byte{}
				f.piStart()
				// Every PI is kept for the XML stage's checks of the target
				// xml (the declaration's place and grammar): its first bytes,
				// and all of it when its target is xml. Not after a DOCTYPE
				// encoding/xml ended early (split), whose bytes capture
				// holds until the root starts.
				if !f.split {
					f.capture, f.capturing = append(f.capture[:0], '<', '?'), true
				}
			case '!':
				f.st = fsBang
			default:
				f.st, f.name = fsStartName, f.name[:0]
				continue
			}
		case fsStartName:
			if xmlstream.IsNameByte(c) {
				if len(f.name) < feedNameMax {
					f.name = append(f.name, c)
				}
				break
			}
			if f.depth == 0 {
				if f.rootDone {
					return i, notWellFormedAt(f.tagStart, "a second root element <%s>: a document has exactly one", f.name)
				}
				if f.split {
					// The root starts: the DOCTYPE ended before it.
					if fe := f.doctypePIs(); fe != nil {
						return i, fe
					}
					f.ents.x.Declare(f.capture, true)
					f.split, f.capture = false, f.capture[:0]
				}
				f.rootSeen = true
			}
			f.st, f.slash = fsStartTag, false
			continue
		case fsStartTag:
			switch c {
			case '"', '\'':
				f.st, f.quote = fsAttrValue, c
			case '>':
				if !f.slash {
					f.depth++
				} else if f.depth == 0 {
					f.rootDone = true
				}
				f.endToken(at)
			}
			f.slash = c == '/'
		case fsAttrValue:
			switch {
			case f.runeN > 0 || c >= utf8.RuneSelf:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
			case c == f.quote:
				f.st = fsStartTag
			case c == '&':
				f.startRef(at)
			default:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
				if !f.split {
					i = plainRun(b, i+1, &textPlain)
					continue
				}
			}
		case fsEndTag:
			if c == '>' {
				if f.depth == 0 {
					f.st = fsDone // encoding/xml: an end element with no start
					break
				}
				if f.depth--; f.depth == 0 {
					f.rootDone = true
				}
				f.endToken(at)
			}
		case fsPI:
			if f.capturing {
				if len(f.capture) < feedNameMax*4 || xmlTarget(f.capture) && len(f.capture) < f.maxToken {
					f.capture = append(f.capture, c)
				} else {
					f.capturing = false
				}
			}
			if f.piOn {
				f.piByte(c)
			}
			if f.prev[1] == '?' && c == '>' {
				if f.capturing {
					if off, err := xmlstream.ProcInstError(f.capture, f.piFirst); err != nil {
						return i, &feedError{off: f.tagStart + int64(off), err: err}
					}
					f.xmlDecl(f.capture)
				}
				f.capturing = false
				f.piEnd()
				f.endToken(at)
			}
			f.prev = [2]byte{f.prev[1], c}
		case fsBang:
			switch c {
			case '-':
				f.st = fsBangDash
			case '[':
				f.st, f.match = fsCDATAOpen, 0
			default:
				// A markup declaration; encoding/xml does not look at its
				// first byte.
				f.st, f.dirQuote, f.dirDepth, f.dirLT = fsDirFirst, 0, 0, 0
				f.name = append(f.name[:0], c)
				if !f.split {
					f.capture, f.capturing = append(f.capture[:0], '<', '!', c), true
					f.doctypeStart, f.placeDoctype, f.win.hold = f.tagStart, true, f.tagStart
				}
			}
		case fsBangDash:
			if c != '-' {
				f.st = fsDone // encoding/xml: "<!-" not part of "<!--"
				break
			}
			f.st, f.prev = fsComment, [2]byte{}
		case fsComment:
			if f.prev == [2]byte{'-', '-'} {
				if c != '>' {
					f.st = fsDone // encoding/xml: "--" in a comment
					break
				}
				f.endToken(at)
			}
			f.prev = [2]byte{f.prev[1], c}
		case fsCDATAOpen:
			if c != "CDATA["[f.match] {
				f.st = fsDone // encoding/xml: "invalid <![ sequence"
				break
			}
			if f.match++; f.match == len("CDATA[") {
				if f.depth == 0 {
					return i, notWellFormedAt(f.tagStart, "text outside the root element")
				}
				f.st, f.prev = fsCDATA, [2]byte{}
			}
		case fsCDATA:
			if f.runeN == 0 && c == '>' && f.prev == [2]byte{']', ']'} {
				f.endToken(at)
				break
			}
			if fe := f.char(c, at); fe != nil {
				return i, fe
			}
			f.prev = [2]byte{f.prev[1], c}
			if f.runeN == 0 && c != ']' {
				// (After a ']' the next byte is read alone: a '>' after
				// "]]" ends the section, and a run would skip it.)
				if j := plainRun(b, i+1, &cdataPlain); j > i+1 {
					f.prev = [2]byte{b[j-2], b[j-1]}
					i = j
					continue
				}
			}
		case fsDirFirst:
			if !isFeedSpace(c) && c != '>' && c != '[' && c != '"' && c != '\'' && c != '<' {
				if len(f.name) < feedNameMax {
					f.name = append(f.name, c)
				}
				if fe := f.directiveByte(c); fe != nil {
					return i, fe
				}
				break
			}
			if fe := f.directiveStart(c); fe != nil {
				return i, fe
			}
			f.st = fsDirective
			continue
		case fsDirective:
			if f.dirLT > 0 {
				// After '<': "!--" starts a comment; anything else is
				// markup, read again as such.
				if c == "!--"[f.dirLT-1] {
					if fe := f.directiveByte(c); fe != nil {
						return i, fe
					}
					if f.dirLT++; f.dirLT > len("!--") {
						f.st, f.dirLT, f.prev = fsDirComment, 0, [2]byte{}
					}
					break
				}
				f.dirLT = 0
				f.dirDepth++
				continue
			}
			if f.dirQuote == 0 && c == '>' && f.dirDepth == 0 {
				if f.capturing {
					f.capture = append(f.capture, c)
					f.capturing = false
					if f.ents.x.Declare(f.capture, false) {
						if fe := f.doctypePIs(); fe != nil {
							return i, fe
						}
						f.capture = f.capture[:0]
					} else {
						f.split = true // the internal subset goes on
					}
					f.win.hold = math.MaxInt64
				}
				f.endToken(at)
				break
			}
			if fe := f.directiveByte(c); fe != nil {
				return i, fe
			}
			switch {
			case c == f.dirQuote:
				f.dirQuote = 0
			case f.dirQuote != 0:
			case c == '"' || c == '\'':
				f.dirQuote = c
			case c == '>':
				f.dirDepth--
			case c == '<':
				f.dirLT = 1
			}
		case fsDirComment:
			if fe := f.directiveByte(c); fe != nil {
				return i, fe
			}
			if f.prev == [2]byte{'-', '-'} && c == '>' {
				f.st = fsDirective
			}
			f.prev = [2]byte{f.prev[1], c}
		case fsRef:
			switch {
			case c == '#':
				f.st = fsCharRef
			case xmlstream.IsNameByte(c):
				f.st = fsRefName
				continue
			default:
				f.st = fsDone // encoding/xml: '&' that starts no reference
			}
		case fsRefName:
			switch {
			case xmlstream.IsNameByte(c):
				if len(f.ref) < feedNameMax {
					f.ref = append(f.ref, c)
				} else {
					f.refLong = true
				}
			case c == ';':
				if fe := f.reference(at); fe != nil {
					return i, fe
				}
				f.st = f.back
			default:
				f.st = fsDone // encoding/xml: no ';' ends the reference
			}
		case fsCharRef:
			switch {
			case c == ';':
				if _, ok := xmlstream.CharRef(f.ref); !ok {
					return i, notWellFormedAt(f.refStart, "&#%s; is not a legal character reference", f.ref)
				}
				f.st = f.back
			case len(f.ref) < 16 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x'):
				f.ref = append(f.ref, c)
			default:
				f.st = fsDone // encoding/xml: not a character reference
			}
		case fsDone:
			return len(b), nil
		}
		i++
	}
	return len(b), nil
}

// plainRun returns the index of the first byte from b[i] on that the
// tokenizer must look at (plain: a table below), so that runs of text are
// skipped without a state change. (Inside the DOCTYPE's split, whose
// bytes are kept, no run is skipped.)
func plainRun(b []byte, i int, plain *[256]bool) int {
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

// The plain bytes of text and attribute values: printable ASCII, tab, LF
// and CR, except '<', '&', the quotes, ']' and '>'; of a CDATA section:
// the same except ']' only (a '>' ends it only after "]]").
var textPlain, cdataPlain = func() (text, cdata [256]bool) {
	for c := 0x20; c < 0x7F; c++ {
		text[c] = true
	}
	text['\t'], text['\n'], text['\r'] = true, true, true
	cdata = text
	for _, c := range "<&\"']>" {
		text[c] = false
	}
	cdata[']'] = false
	return text, cdata
}()

// endToken ends a markup token at its '>' (at).
func (f *feedReader) endToken(at int64) {
	f.st, f.textStart = fsText, at+1
}

func (f *feedReader) startRef(at int64) {
	f.back, f.st = f.st, fsRef
	f.refStart, f.ref, f.refLong = at, f.ref[:0], false
}

// char checks a byte of text, of an attribute value or of a CDATA section
// as encoding/xml checks them (XML's Char, valid UTF-8), but at the
// character instead of the token's end.
func (f *feedReader) char(c byte, at int64) *feedError {
	if f.runeN > 0 {
		if c&0xC0 != 0x80 {
			return notWellFormedAt(f.runeStart, "invalid UTF-8")
		}
		f.runeBuf[f.runeN] = c
		if f.runeN++; f.runeN < f.runeNeed {
			return nil
		}
		r, size := utf8.DecodeRune(f.runeBuf[:f.runeN])
		if r == utf8.RuneError && size == 1 {
			return notWellFormedAt(f.runeStart, "invalid UTF-8")
		}
		if !xmlstream.IsChar(r) {
			return notWellFormedAt(f.runeStart, "illegal character code %U", r)
		}
		f.runeN = 0
		return nil
	}
	switch {
	case c < 0x20:
		if c != '\t' && c != '\n' && c != '\r' {
			return notWellFormedAt(at, "illegal character code %U", rune(c))
		}
	case c < utf8.RuneSelf:
	case c >= 0xC2 && c <= 0xDF:
		f.runeNeed = 2
	case c >= 0xE0 && c <= 0xEF:
		f.runeNeed = 3
	case c >= 0xF0 && c <= 0xF4:
		f.runeNeed = 4
	default:
		return notWellFormedAt(at, "invalid UTF-8")
	}
	if c >= utf8.RuneSelf {
		f.runeBuf[0], f.runeN, f.runeStart = c, 1, at
	}
	return nil
}

// directiveByte keeps a byte of the DOCTYPE being read, within the token
// size limit.
func (f *feedReader) directiveByte(c byte) *feedError {
	if !f.capturing {
		return nil
	}
	if len(f.capture) >= f.maxToken {
		return f.doctypeTooLong()
	}
	f.capture = append(f.capture, c)
	return nil
}

func (f *feedReader) doctypeTooLong() *feedError {
	return &feedError{off: f.doctypeStart, err: fmt.Errorf("%w (limit %d); output stops here", filter.ErrTokenTooLong, f.maxToken), inDoctype: true}
}

// directiveStart checks where a markup declaration stands, once its first
// word is read (c: the byte that ended it): a DOCTYPE before the root
// element, once.
func (f *feedReader) directiveStart(c byte) *feedError {
	if f.split {
		return nil // part of the DOCTYPE
	}
	decl := f.name
	if c != '>' {
		decl = append(decl, c)
	}
	if err := xmlstream.DeclarationError(decl, f.rootSeen, f.doctype); err != nil {
		return &feedError{off: f.tagStart, err: err}
	}
	f.doctype = true
	return nil
}

// xmlDecl reads standalone="yes" from the XML declaration, a PI at the
// start of the document whose target is xml.
func (f *feedReader) xmlDecl(pi []byte) {
	body := pi[len("<?") : len(pi)-len("?>")]
	i := 0
	for i < len(body) && !isFeedSpace(body[i]) {
		i++
	}
	if string(body[:i]) != "xml" {
		return
	}
	f.ents.x.XMLDeclaration(body[i:])
}

// reference handles the reference to an entity (not a character
// reference) that ends at the ';' at decoded offset end.
func (f *feedReader) reference(end int64) *feedError {
	name := string(f.ref)
	if f.refLong {
		name += "…"
	}
	markup, err := f.ents.reference(name, f.refLong, f.back == fsAttrValue, end, f.off)
	switch {
	case err != nil:
		return &feedError{off: f.refStart, err: err}
	case markup:
		f.note(f.refStart, name)
	}
	return nil
}

// xmlTarget reports whether a PI read so far ("<?target …") has the target
// xml, in any case: the XML stage checks all of it.
func xmlTarget(pi []byte) bool {
	return len(pi) > 5 && bytes.EqualFold(pi[2:5], []byte("xml")) && (isFeedSpace(pi[5]) || pi[5] == '?')
}

func isFeedSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
