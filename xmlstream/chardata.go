package xmlstream

import (
	"io"
	"unicode/utf8"
)

// Character data and references: the scanner's text, in pieces where it
// is long, with references replaced and line ends normalised (XML 1.0
// sections 2.4, 2.11, 4.1).

// The text loops step over bytes of class 0 and stop at the others.
const (
	classCtl     = iota + 1 // a control character XML does not allow
	classCR                 // CR, read as a line end
	classAmp                // a reference starts
	classLT                 // markup starts (an error in an attribute value)
	classBracket            // ']': "]]>" is not allowed in text
	classQuote              // ends an attribute value (when it is the opening quote)
	classWS                 // tab or LF, read as a space in an attribute value
	classHigh               // the first byte of a multi-byte character
)

// textClass classifies the bytes of character data, attrClass those of
// an attribute value.
var textClass, attrClass = func() (text, attr [256]uint8) {
	for c := 0; c < 0x20; c++ {
		text[c] = classCtl
	}
	text['\t'], text['\n'] = 0, 0
	text['\r'] = classCR
	text['&'] = classAmp
	text['<'] = classLT
	for c := 0x80; c < 0x100; c++ {
		text[c] = classHigh
	}
	attr = text
	text[']'] = classBracket
	attr['"'], attr['\''] = classQuote, classQuote
	attr['\t'], attr['\n'] = classWS, classWS
	return text, attr
}()

// checkRune reads the character of two or more bytes at z.i, checks it and
// steps over it.
func (z *scanner) checkRune() error {
	if !z.more(utf8.UTFMax) && !utf8.FullRune(z.buf[z.i:]) {
		if err := z.inputErr(); err != io.EOF {
			return err
		}
	}
	r, n := utf8.DecodeRune(z.buf[z.i:])
	if r == utf8.RuneError && n == 1 {
		return z.fail(z.i, "invalid UTF-8")
	}
	if !isXMLChar(r) {
		return z.fail(z.i, "illegal character code %U", r)
	}
	z.i += n
	return nil
}

// textBuilder collects a piece of text that may need rewriting: it stays
// a span of buf until a reference or a CR forces a copy into scratch.
type textBuilder struct {
	lo        int // where the text starts in buf
	copied    int // buf[lo:copied] is in scratch (when inScratch)
	sLo       int // where the text starts in scratch
	inScratch bool
}

func (z *scanner) beginText(lo int) textBuilder { return textBuilder{lo: lo} }

// toScratch moves the text read so far (up to buf[at]) into scratch.
func (z *scanner) toScratch(t *textBuilder, at int) {
	if !t.inScratch {
		t.inScratch, t.sLo, t.copied = true, len(z.scratch), t.lo
	}
	z.scratch = append(z.scratch, z.buf[t.copied:at]...)
	t.copied = at
}

func (z *scanner) finishText(t *textBuilder, hi int) textSpan {
	if !t.inScratch {
		return textSpan{lo: t.lo, hi: hi}
	}
	z.scratch = append(z.scratch, z.buf[t.copied:hi]...)
	return textSpan{lo: t.sLo, hi: len(z.scratch), scratch: true}
}

func (z *scanner) bytesOf(s textSpan) []byte {
	if s.scratch {
		return z.scratch[s.lo:s.hi]
	}
	return z.buf[s.lo:s.hi]
}

// cr normalises a CR at z.i (and the LF after it) to one LF.
func (z *scanner) cr(t *textBuilder) {
	z.toScratch(t, z.i)
	z.scratch = append(z.scratch, '\n')
	z.i++
	if z.more(1) && z.buf[z.i] == '\n' {
		z.i++
	}
	t.copied = z.i
}

// charData reads text up to the next '<' or the end of the input. When it
// fails on a well-formedness error, the text before the error point is
// kept (see cutAt).
func (z *scanner) charData() error {
	t := z.beginText(0)
	for {
		// Up to the piece size, the text is scanned as usual; past it, a
		// byte at a time, until a piece can end.
		stop := len(z.buf)
		if z.piece > 0 {
			if z.i >= z.piece && z.pieceEnds() {
				break
			}
			stop = min(stop, max(z.piece, z.i+1))
		}
		for z.i < stop && textClass[z.buf[z.i]] == 0 {
			z.i++
		}
		if z.i == stop && stop < len(z.buf) {
			continue
		}
		if z.i == len(z.buf) {
			if !z.more(1) {
				if err := z.inputErr(); err != io.EOF {
					return z.cutText(&t, err)
				}
				break
			}
			continue
		}
		switch textClass[z.buf[z.i]] {
		case classLT:
			z.text = z.bytesOf(z.finishText(&t, z.i))
			return nil
		case classAmp:
			if err := z.reference(&t, false); err == errMarkupRef {
				return z.markupRef(&t)
			} else if err != nil {
				return z.cutText(&t, err)
			}
		case classCR:
			z.cr(&t)
		case classBracket:
			if z.more(3) && z.buf[z.i+1] == ']' && z.buf[z.i+2] == '>' {
				return z.cutText(&t, z.fail(z.i, `"]]>" is not allowed in text (write "]]&gt;")`))
			}
			z.i++
		case classCtl:
			return z.cutText(&t, z.fail(z.i, "illegal character code %U", rune(z.buf[z.i])))
		case classHigh:
			if err := z.checkRune(); err != nil {
				return z.cutText(&t, err)
			}
		}
	}
	z.text = z.bytesOf(z.finishText(&t, z.i))
	return nil
}

// pieceEnds reports whether a text node that has run on past the piece
// size may end a piece at z.i, where everything before is read (a
// reference, a CR and its LF, a whole character): in the document (not an
// entity's replacement text, which is bounded), and, where the source
// decodes runs, after white space, whose original offset the source then
// pins. After ']' too: charData looked for "]]>" from each ']' before z.i
// (the two bytes after it included), so none stands across the end, and a
// run of ']' comes in pieces like any other text.
func (z *scanner) pieceEnds() bool {
	if z.piece <= 0 || z.i == 0 || len(z.frames) > 0 || !z.inElement {
		return false
	}
	if z.src.mode == modeMarkers {
		c := z.buf[z.i-1]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
		z.src.pin(z.start+int64(z.i), c)
	}
	return true
}

// cutText keeps, for a text token that fails on a well-formedness error,
// the text read before the error point, and where the input fails, the
// text read before it (as the HTML stage writes it, and as the pieces of a
// long text node before the last have been written): the driver writes it
// before it reports the error. The token limit keeps nothing.
func (z *scanner) cutText(t *textBuilder, err error) error {
	if at, ok := z.cutAt(err); ok {
		z.text = z.bytesOf(z.finishText(t, at))
	} else if z.src.readErr && len(z.frames) == 0 {
		z.cut, z.cutEnd = true, z.start+int64(z.i)
		z.text = z.bytesOf(z.finishText(t, z.i))
		// Where the source decodes runs, what it decoded ends at the end
		// of one (white space or ';'): its original offset is pinned, as
		// a piece's is, rather than measured by encoding the text again
		// (which counts a malformed sequence as one byte).
		if z.src.mode == modeMarkers && z.i > 0 {
			if c := z.buf[z.i-1]; runEnd[c] {
				z.src.pin(z.cutEnd, c)
			}
		}
	}
	return err
}

// cutAt reports where in buf a well-formedness error of the current token
// stands, and marks the token as cut there. A token of an entity's
// replacement text is not cut: its error is at the reference, and what
// came before the reference is written.
func (z *scanner) cutAt(err error) (int, bool) {
	se, ok := err.(*scanError)
	if !ok || len(z.frames) > 0 {
		return 0, false
	}
	at := int(min(max(se.off-z.start, 0), int64(len(z.buf))))
	z.cut, z.cutEnd = true, z.start+int64(at)
	return at, true
}

// markupRef ends the text token before a reference to an entity with
// markup, which is then the next token; at the token's start, it makes the
// reference the token: tokRef, after which next reads the entity's
// replacement text, one token at a time, then tokRefEnd. In the document
// the source learns the reference's exact original offsets (pin), where
// the archive copy may cut.
func (z *scanner) markupRef(t *textBuilder) error {
	def := z.refDef
	z.refDef = nil
	if z.i > 0 {
		z.text = z.bytesOf(z.finishText(t, z.i))
		if len(z.frames) == 0 {
			z.src.pin(z.start+int64(z.i), '&')
		}
		return nil
	}
	if err := z.ents.enter(def, z.off(0)); err != nil {
		return err
	}
	z.kind, z.name, z.refName, z.i = tokRef, z.buf[1:z.refEnd-1], def.name, z.refEnd
	if len(z.frames) == 0 {
		z.src.pin(z.start+int64(z.i), ';')
	}
	z.enter = def
	return nil
}

// reference replaces the reference at z.i ('&') (entities.expand reads
// those to entities other than the predefined ones). In an attribute value
// the replacement of a character reference is kept as it is, and other
// white space is normalised by the caller.
func (z *scanner) reference(t *textBuilder, inAttr bool) error {
	at := z.i
	j := z.i + 1
	for {
		if !z.more(j - z.i + 1) {
			break
		}
		c := z.buf[j]
		if c == ';' || !isXMLNameByte(c) && c != '#' && c < utf8.RuneSelf {
			break
		}
		j++
	}
	if j >= len(z.buf) {
		if err := z.inputErr(); err != nil && err != io.EOF {
			return err // the token size limit (or a failure) cut the reference short
		}
	}
	if j >= len(z.buf) || z.buf[j] != ';' || j == at+1 {
		if j > at+1 && j-at <= 32 && utf8.Valid(z.buf[at+1:j]) {
			return z.fail(at, "%q is not a reference: no ';' ends it (a literal & is written &amp;)", z.buf[at:j])
		}
		return z.fail(at, "an & that starts no entity or character reference (a literal & is written &amp;)")
	}
	name := z.buf[at+1 : j]
	z.toScratch(t, at)
	if name[0] == '#' {
		r, ok := charRefDigits(name[1:])
		if !ok || !isXMLChar(r) {
			return z.fail(at, "&%s; is not a legal character reference", name)
		}
		z.scratch = utf8.AppendRune(z.scratch, r)
	} else {
		if !isXMLName(name) {
			if !utf8.Valid(name) {
				// At the '&': text before the error is written, and the
				// reference is not text.
				return z.fail(at, "invalid UTF-8 in the name of an entity reference")
			}
			return z.fail(at, "&%s; is not a legal entity reference", name)
		}
		if v, ok := predefinedEntity(string(name)); ok {
			z.scratch = append(z.scratch, v...)
		} else if def := z.ents.markupEntity(name); def != nil && !inAttr {
			z.refDef, z.refEnd = def, j+1
			return errMarkupRef
		} else {
			mark := len(z.scratch)
			var err error
			if z.scratch, err = z.ents.expand(z.scratch, name, inAttr, z.off(at)); err != nil {
				z.scratch = z.scratch[:mark]
				return err
			}
		}
	}
	z.i = j + 1
	t.copied = z.i
	return nil
}

// appendNormalized appends an entity's replacement text to an attribute
// value, white space read as spaces.
func appendNormalized(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\t' || c == '\n' || c == '\r' {
			c = ' '
		}
		b = append(b, c)
	}
	return b
}

// charRefDigits reads the digits of a character reference ("x1F" or "31").
func charRefDigits(s []byte) (rune, bool) {
	base := 10
	if len(s) > 0 && s[0] == 'x' {
		base, s = 16, s[1:]
	}
	if len(s) == 0 {
		return 0, false
	}
	for len(s) > 1 && s[0] == '0' {
		s = s[1:] // leading zeros are allowed, and count for nothing
	}
	if len(s) > 8 {
		return 0, false
	}
	var r rune
	for _, c := range s {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case base == 16 && c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*rune(base) + rune(d)
	}
	return r, true
}
