package xmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// The scanner splits decoded XML into tokens and checks the
// well-formedness rules a token carries by itself (XML 1.0 fifth edition:
// names, characters, references, quoting, comments, CDATA sections, the
// nesting of a DOCTYPE's internal subset). Rules between tokens (matching
// end tags, one root, attributes written once, namespaces) are the driver's.
//
// It reads the source's decoded buffer in place and allocates nothing per
// token: names, attribute values and text are borrowed from that buffer,
// or from the scanner's scratch buffer where references were replaced or
// line ends normalised. Everything borrowed stays valid until the next call
// of next, and no longer.
//
// Token boundaries are those encoding/xml's RawToken draws (every token
// starts at a '<' or just after a '>', except text at the start of the
// document), which the source's offset map and the archive copy rely on.

// tokKind is the kind of a token.
type tokKind uint8

const (
	tokText      tokKind = iota + 1 // character data
	tokCDATA                        // <![CDATA[…]]>: text is the content
	tokStart                        // <name attr="v"…> or <name …/>
	tokEnd                          // </name>
	tokComment                      // <!--…-->: text is the content
	tokPI                           // <?target …?>: name is the target, text what follows it
	tokDirective                    // <!…>: text is everything between "<!" and ">"
	// tokRef is a reference in content to an internal entity whose
	// replacement text holds markup: the tokens of that text follow (read
	// from it, not from the document), then tokRefEnd. refName names it.
	tokRef
	tokRefEnd // the end of an entity's replacement text read as content
)

// scanError is a well-formedness error at a decoded offset; or, with limit
// set, the expansion budget (that many bytes) passed there.
type scanError struct {
	off   int64
	msg   string
	limit int
}

func (e *scanError) Error() string { return e.msg }

// wrapped is the error e stands for, without its position: the budget
// passed (ErrEntityExpansion) or not well-formed (ErrNotWellFormed).
func (e *scanError) wrapped() error {
	if e.limit > 0 {
		return fmt.Errorf("%w (limit %d bytes of replacement text per document, %s); output stops here", ErrEntityExpansion, e.limit, e.msg)
	}
	return fmt.Errorf("%w: %s", ErrNotWellFormed, e.msg)
}

// textSpan is a piece of token text: buf[lo:hi] relative to the token's
// start, or scratch[lo:hi].
type textSpan struct {
	lo, hi  int
	scratch bool
}

// attrSpan is an attribute of the start tag being read: its name (always
// in buf) and its value.
type attrSpan struct {
	nameLo, nameHi int
	value          textSpan
}

// attrSpans are the attributes of the start tag being read, in chunks of
// attrChunk, so that a huge tag's list grows without copying (append
// copies a long slice at every quarter of growth, five times its size in
// all, and the old copies stay until a collection). The first chunk grows
// as a slice does (a document of small tags needs little of it) and is
// the only one kept between tags.
type attrSpans struct {
	chunks [][]attrSpan
	n      int
}

const attrChunk = 1 << 8

func (a *attrSpans) add(s attrSpan) {
	c := uint(a.n) / attrChunk
	switch {
	case len(a.chunks) == 0:
		a.chunks = append(a.chunks, nil)
	case c == uint(len(a.chunks)):
		a.chunks = append(a.chunks, make([]attrSpan, 0, attrChunk))
	}
	a.chunks[c] = append(a.chunks[c], s)
	a.n++
}

func (a *attrSpans) at(i int) *attrSpan { return &a.chunks[uint(i)/attrChunk][uint(i)%attrChunk] }

func (a *attrSpans) reset() {
	if a.n == 0 {
		return
	}
	a.n = 0
	clear(a.chunks[1:])
	a.chunks = a.chunks[:1]
	a.chunks[0] = a.chunks[0][:0]
}

type scanner struct {
	src  *source
	ents *entities

	start int64  // decoded offset of the current token
	buf   []byte // the source's bytes from start on
	i     int    // next byte of buf to read

	// piece, when positive, bounds text nodes: one that runs on past it is
	// passed in pieces, each a text token, ending where pieceEnds says,
	// so that it is held a piece at a time, not whole. Tree and outputs
	// append each to the text before it.
	piece int
	// inElement: the next token is inside the root element. Text outside
	// it is an error unless it is white space, and comes whole, so that
	// the first error in it is the one reported.
	inElement bool

	kind  tokKind
	name  []byte
	empty bool // a start tag closed by "/>"
	text  []byte

	// cut is set when a text or CDATA token fails: text is then its
	// character data before the error point, and cutEnd the decoded
	// offset of that point (where the token's archive copy stops).
	cut    bool
	cutEnd int64

	spans   attrSpans // a start tag's attributes (see attr)
	decl    xmlDecl   // what the XML declaration says, when the token is one
	scratch []byte

	// markupSeen: a token other than text has been read; before one, the
	// document holds at most white space (text outside the root is an
	// error otherwise), where the XML declaration is taken, with a warning.
	// firstMarkup: the current token is the first such.
	markupSeen, firstMarkup bool

	// Entities with markup whose replacement text is being read, innermost
	// last. While one is, buf is its text from the current token on, start
	// stays at the document's reference, and every offset the scanner
	// reports (errors, notes) is start: what an expansion holds is at the
	// reference in the document.
	frames  []entityFrame
	enter   *entityDef // tokRef was read: next starts reading its text
	refName string     // the entity of tokRef or tokRefEnd
	refDef  *entityDef // the entity with markup of the reference being read
	refEnd  int        // where in buf that reference ends
}

// errMarkupRef is reference's word to charData: the reference at z.i is
// to an entity with markup (refDef, ending at refEnd).
var errMarkupRef = errors.New("a reference to an entity with markup")

// entityFrame is an entity whose replacement text is read as content.
type entityFrame struct {
	def    *entityDef
	pos    int // where the current token starts in def.text
	resume int // the length of the reference (the token that entered it)
}

func newScanner(src *source, ents *entities) *scanner {
	return &scanner{src: src, ents: ents}
}

// end is the decoded offset just after the current token; inside an
// expansion, just after the document's reference.
func (z *scanner) end() int64 {
	if len(z.frames) > 0 {
		return z.start + int64(z.frames[0].resume)
	}
	return z.start + int64(z.i)
}

// off is the decoded offset of buf[at]; inside an expansion, that of the
// document's reference.
func (z *scanner) off(at int) int64 {
	if len(z.frames) > 0 {
		return z.start
	}
	return z.start + int64(at)
}

// inputErr is why more failed: the source's error, or io.EOF at the end of
// an entity's replacement text.
func (z *scanner) inputErr() error {
	if len(z.frames) > 0 {
		return io.EOF
	}
	return z.src.err
}

// next reads the token after the current one. At the end of the input it
// returns io.EOF; otherwise an error is a *scanError, or the source's
// (errTokenTooLong, a failure of the input).
func (z *scanner) next() (tokKind, error) {
	z.name, z.text, z.empty, z.cut, z.refName = nil, nil, false, false, ""
	z.ents.notes = z.ents.notes[:0]
	z.scratch = z.scratch[:0]
	z.spans.reset()
	if z.enter != nil {
		z.frames = append(z.frames, entityFrame{def: z.enter, resume: z.i})
		z.enter, z.i = nil, 0
	}
	if n := len(z.frames); n > 0 {
		f := &z.frames[n-1]
		f.pos += z.i
		z.buf, z.i = f.def.text[f.pos:], 0
		if len(z.buf) == 0 {
			// The replacement text ends: back to the reference's end in
			// the entity or the document that holds it.
			z.kind, z.refName, z.i = tokRefEnd, f.def.name, f.resume
			z.ents.leave()
			z.frames = z.frames[:n-1]
			if n > 1 {
				o := &z.frames[n-2]
				z.buf = o.def.text[o.pos:]
			} else {
				z.buf = z.src.window(z.start)
			}
			return tokRefEnd, nil
		}
	} else {
		z.start += int64(z.i)
		z.buf, z.i = z.src.window(z.start), 0
		if !z.more(1) {
			return 0, z.src.err
		}
	}
	var err error
	if z.buf[0] != '<' {
		z.kind = tokText
		err = z.charData()
		return z.kind, err
	}
	if !z.more(2) {
		return 0, z.eofError()
	}
	z.firstMarkup = !z.markupSeen && len(z.frames) == 0
	z.markupSeen = true
	switch z.buf[1] {
	case '/':
		z.kind, z.i = tokEnd, 2
		err = z.endTag()
	case '?':
		z.kind, z.i = tokPI, 2
		err = z.procInst()
	case '!':
		err = z.markupDecl()
	default:
		z.kind, z.i = tokStart, 1
		err = z.startTag()
	}
	return z.kind, err
}

// more makes sure n bytes from z.i on are held, reading as needed. It
// reports false when the input (or the token size limit) ends first.
func (z *scanner) more(n int) bool {
	if len(z.frames) > 0 {
		return z.i+n <= len(z.buf) // a token ends with the replacement text that holds it
	}
	for z.i+n > len(z.buf) {
		ok := z.src.more()
		z.buf = z.src.window(z.start) // even when it fails: it may have moved the bytes
		if !ok {
			return false
		}
	}
	return true
}

// eofError is the error for input that ends (or fails) inside a token.
func (z *scanner) eofError() error {
	if err := z.inputErr(); err != io.EOF {
		return err
	}
	what := "a token"
	switch z.kind {
	case tokStart:
		what = "a start tag"
	case tokEnd:
		what = "an end tag"
	case tokComment:
		what = "a comment"
	case tokCDATA:
		what = "a CDATA section"
	case tokPI:
		what = "a processing instruction"
	case tokDirective:
		what = "a markup declaration"
	}
	if n := len(z.frames); n > 0 {
		// A token may not start in an entity and end outside it.
		return &scanError{off: z.start, msg: fmt.Sprintf("the replacement text of &%s; ends inside %s", z.frames[n-1].def.name, what)}
	}
	return &scanError{off: z.start + int64(len(z.buf)), msg: "the document ends inside " + what}
}

func (z *scanner) fail(at int, format string, args ...any) error {
	return &scanError{off: z.off(at), msg: fmt.Sprintf(format, args...)}
}

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

// readName reads a Name at z.i and returns its span. It stops before a
// byte that starts no UTF-8 sequence (U+FFFD, a name character, written
// as such is read): the caller then fails there, as mustName does.
func (z *scanner) readName() (int, int, bool) {
	lo := z.i
	for {
		if !z.more(1) {
			return lo, z.i, z.i > lo
		}
		c := z.buf[z.i]
		if c < utf8.RuneSelf {
			if z.i == lo && !isXMLNameStartByte(c) || !isXMLNameByte(c) {
				return lo, z.i, z.i > lo
			}
			z.i++
			continue
		}
		z.more(utf8.UTFMax)
		r, n := utf8.DecodeRune(z.buf[z.i:])
		if r == utf8.RuneError && n == 1 || z.i == lo && !isXMLNameStartRune(r) || !isXMLNameRune(r) {
			return lo, z.i, z.i > lo
		}
		z.i += n
	}
}

// invalidUTF8 is the error for a byte at z.i that starts no UTF-8
// sequence, where a name (what) stopped; nil when another byte, or none,
// stands there.
func (z *scanner) invalidUTF8(what string) error {
	if !z.more(1) || z.buf[z.i] < utf8.RuneSelf {
		return nil
	}
	z.more(utf8.UTFMax)
	rest := z.buf[z.i:]
	if r, n := utf8.DecodeRune(rest); r != utf8.RuneError || n != 1 {
		return nil
	}
	if !utf8.FullRune(rest) {
		if err := z.inputErr(); err != io.EOF {
			return err // the token size limit (or a failure) cut the character short
		}
	}
	return z.fail(z.i, "invalid UTF-8 in %s", what)
}

// space steps over XML white space and reports whether there was any.
func (z *scanner) space() bool {
	lo := z.i
	for z.more(1) && isS(z.buf[z.i]) {
		z.i++
	}
	return z.i > lo
}

// mustName reads the Name that must stand at z.i (what it names, for the
// message when none does) and returns its span.
func (z *scanner) mustName(what string) (int, int, error) {
	lo, hi, ok := z.readName()
	if err := z.invalidUTF8(what); err != nil {
		return 0, 0, err
	}
	switch {
	case ok:
		return lo, hi, nil
	case !z.more(1):
		return 0, 0, z.eofError()
	}
	return 0, 0, z.fail(z.i, "%s cannot start %s", z.quoteCurrent(), what)
}

func (z *scanner) startTag() error {
	lo, hi, err := z.mustName("an element name")
	if err != nil {
		return err
	}
	nameSpan := textSpan{lo: lo, hi: hi}
	for {
		sep := z.space()
		if !z.more(1) {
			return z.eofError()
		}
		switch c := z.buf[z.i]; {
		case c == '>':
			z.i++
			return z.finishStart(nameSpan)
		case c == '/':
			if !z.more(2) {
				return z.eofError()
			}
			if z.buf[z.i+1] != '>' {
				return z.fail(z.i, "a '/' in a start tag must be followed by '>'")
			}
			z.i += 2
			z.empty = true
			return z.finishStart(nameSpan)
		case !sep:
			q := z.quoteCurrent() // first: it may move the buffer
			return z.fail(z.i, "%s in the start tag <%s>: expected white space, '>' or '/>'", q, z.buf[lo:hi])
		}
		if err := z.attribute(); err != nil {
			return err
		}
	}
}

func (z *scanner) attribute() error {
	lo, hi, err := z.mustName("an attribute name")
	if err != nil {
		return err
	}
	z.space()
	if !z.more(1) {
		return z.eofError()
	}
	if z.buf[z.i] != '=' {
		return z.fail(z.i, "attribute %s has no value (expected '=')", z.buf[lo:hi])
	}
	z.i++
	z.space()
	if !z.more(1) {
		return z.eofError()
	}
	q := z.buf[z.i]
	if q != '"' && q != '\'' {
		return z.fail(z.i, "the value of attribute %s is not quoted", z.buf[lo:hi])
	}
	z.i++
	t := z.beginText(z.i)
	for {
		for z.i < len(z.buf) && attrClass[z.buf[z.i]] == 0 {
			z.i++
		}
		if !z.more(1) {
			return z.eofError()
		}
		switch c := z.buf[z.i]; attrClass[c] {
		case classQuote:
			if c == q {
				z.spans.add(attrSpan{nameLo: lo, nameHi: hi, value: z.finishText(&t, z.i)})
				z.i++
				return nil
			}
			z.i++
		case classLT:
			return z.fail(z.i, "'<' in the value of attribute %s (write &lt;)", z.buf[lo:hi])
		case classAmp:
			if err := z.reference(&t, true); err != nil {
				return err
			}
		case classCR:
			z.cr(&t)
			z.scratch[len(z.scratch)-1] = ' '
		case classWS:
			z.toScratch(&t, z.i)
			z.scratch = append(z.scratch, ' ')
			z.i++
			t.copied = z.i
		case classCtl:
			return z.fail(z.i, "illegal character code %U", rune(c))
		case classHigh:
			if err := z.checkRune(); err != nil {
				return err
			}
		}
	}
}

func (z *scanner) finishStart(name textSpan) error {
	z.name = z.bytesOf(name)
	return nil
}

// attrCount is the number of attributes of the start tag just read, and
// attr the qualified name (as written) and value (references replaced and
// white space normalised, XML 1.0 section 3.3.3) of one, valid while the
// token is handled. (The
// spans are the only copy of the attributes the scanner keeps: a start tag
// of a million attributes made a second list of them.)
func (z *scanner) attrCount() int { return z.spans.n }

func (z *scanner) attr(i int) (name, value []byte) {
	s := z.spans.at(i)
	return z.buf[s.nameLo:s.nameHi], z.bytesOf(s.value)
}

func (z *scanner) endTag() error {
	lo, hi, err := z.mustName("an element name")
	if err != nil {
		return err
	}
	z.space()
	if !z.more(1) {
		return z.eofError()
	}
	if z.buf[z.i] != '>' {
		q := z.quoteCurrent() // first: it may move the buffer
		return z.fail(z.i, "%s in the end tag </%s>: expected '>'", q, z.buf[lo:hi])
	}
	z.i++
	z.name = z.buf[lo:hi]
	return nil
}

// until steps to just after the next occurrence of end, checking the
// characters on the way, and returns where end starts.
func (z *scanner) until(end string) (int, error) {
	for {
		for z.i < len(z.buf) {
			c := z.buf[z.i]
			if c == end[0] || c >= utf8.RuneSelf || c < ' ' && textClass[c] == classCtl {
				break
			}
			z.i++
		}
		if z.i >= len(z.buf) {
			if !z.more(1) {
				return 0, z.eofError()
			}
			continue
		}
		switch c := z.buf[z.i]; {
		case c == end[0]:
			if !z.more(len(end)) {
				return 0, z.eofError()
			}
			if string(z.buf[z.i:z.i+len(end)]) == end {
				at := z.i
				z.i += len(end)
				return at, nil
			}
			z.i++
		case c >= utf8.RuneSelf:
			if err := z.checkRune(); err != nil {
				return 0, err
			}
		default:
			return 0, z.fail(z.i, "illegal character code %U", rune(c))
		}
	}
}

// normalizeCR returns text with CR LF and CR read as LF.
func (z *scanner) normalizeCR(text []byte) []byte {
	if bytes.IndexByte(text, '\r') < 0 {
		return text
	}
	lo := len(z.scratch)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
		}
		z.scratch = append(z.scratch, c)
	}
	return z.scratch[lo:]
}

func (z *scanner) procInst() error {
	lo, hi, err := z.mustName("a processing instruction's target")
	if err != nil {
		return err
	}
	if msg, atTarget := xmlTargetError(z.buf[lo:hi], z.firstMarkup); msg != "" {
		if atTarget {
			return z.fail(lo, "%s", msg)
		}
		return z.fail(0, "%s", msg)
	}
	sep := z.space()
	if !z.more(2) {
		return z.eofError()
	}
	if !sep && !(z.buf[z.i] == '?' && z.buf[z.i+1] == '>') {
		q := z.quoteCurrent() // first: it may move the buffer
		return z.fail(z.i, "%s after the processing instruction target %s: expected white space or '?>'", q, z.buf[lo:hi])
	}
	body := z.i
	end, err := z.until("?>")
	if err != nil {
		return err
	}
	z.name = z.buf[lo:hi]
	z.text = z.normalizeCR(z.buf[body:end])
	if string(z.name) == "xml" {
		var bad *declError
		if z.decl, bad = parseXMLDecl(z.buf[hi:end]); bad != nil {
			return z.fail(hi+bad.at, "%s", bad.msg)
		}
	}
	return nil
}

// xmlTargetError is the error for a PI whose target is xml in any case,
// which [17] PITarget excludes: in lower case it is the XML declaration,
// which may stand only at the start of the document ([22] prolog, [23]
// XMLDecl), first in the input after a byte order mark (white space before
// it is taken, with a warning: a common fault of feeds written by
// templates, which loses nothing); in any other case it is reserved.
// atTarget says whether the error is at the target (else at the PI's
// "<?"). It is "" for any other target, and for xml at the start.
func xmlTargetError(target []byte, atStart bool) (msg string, atTarget bool) {
	switch {
	case len(target) != 3 || !bytes.EqualFold(target, []byte("xml")):
		return "", false
	case string(target) != "xml":
		return fmt.Sprintf("the processing instruction target %s is reserved", target), true
	case !atStart:
		return "the XML declaration <?xml …?> may only stand at the start of the document", false
	}
	return "", false
}

// xmlDecl is what an XML declaration says ("" for what it does not).
// versionAt is where version's name stands in the text parseXMLDecl was
// given (-1 if nowhere).
type xmlDecl struct {
	version, encoding, standalone string
	versionAt                     int
}

// declError is a well-formedness error at an offset of the text given to
// parseXMLDecl.
type declError struct {
	at  int
	msg string
}

// parseXMLDecl reads an XML declaration's text, what follows "<?xml" up
// to its "?>", by XML 1.0 productions [23] to [26], [32], [80] and [81]:
// version (1.x), then optionally encoding (an EncName), then optionally
// standalone ("yes" or "no"), each after white space, with single or
// double quotes; white space may end it. It returns what it read before
// an error too.
func parseXMLDecl(b []byte) (xmlDecl, *declError) {
	d := xmlDecl{versionAt: -1}
	names := [...]string{"version", "encoding", "standalone"}
	next := 0 // the index in names of the first pseudo-attribute that may follow
	var seen [len(names)]bool
	i := 0
	for {
		sep := i
		i = skipS(b, i)
		if i == len(b) {
			if next == 0 {
				return d, &declError{i, `the XML declaration has no version: it must start <?xml version="1.0"`}
			}
			return d, nil
		}
		if i == sep {
			return d, &declError{i, fmt.Sprintf("%s in the XML declaration: expected white space or '?>'", quoteRune(b[i:]))}
		}
		at := i
		for i < len(b) && (isXMLNameByte(b[i]) || b[i] >= utf8.RuneSelf) {
			i++
		}
		name := string(b[at:i])
		which := slices.Index(names[:], name)
		switch {
		case at == i:
			return d, &declError{at, fmt.Sprintf("%s in the XML declaration: expected version, encoding or standalone", quoteRune(b[at:]))}
		case which < 0:
			return d, &declError{at, fmt.Sprintf("%q in the XML declaration: only version, encoding and standalone may stand there, in that order", clipRunes(name, 20))}
		case next == 0 && which > 0:
			return d, &declError{at, fmt.Sprintf(`the XML declaration has no version: it must start <?xml version="1.0", not with %s`, name)}
		case seen[which]:
			return d, &declError{at, fmt.Sprintf("%s is written twice in the XML declaration", name)}
		case which < next:
			return d, &declError{at, fmt.Sprintf("%s after %s in the XML declaration: the order is version, encoding, standalone", name, names[next-1])}
		}
		seen[which] = true
		i = skipS(b, i)
		if i == len(b) || b[i] != '=' {
			return d, &declError{i, fmt.Sprintf("%s in the XML declaration has no value (expected '=')", name)}
		}
		i = skipS(b, i+1)
		if i == len(b) || b[i] != '"' && b[i] != '\'' {
			return d, &declError{i, fmt.Sprintf("the value of %s in the XML declaration is not quoted", name)}
		}
		q := bytes.IndexByte(b[i+1:], b[i])
		if q < 0 {
			return d, &declError{i, fmt.Sprintf("the value of %s in the XML declaration has no closing quote before '?>'", name)}
		}
		v := string(b[i+1 : i+1+q])
		i += q + 2
		switch which {
		case 0:
			d.version, d.versionAt = v, at
			if !isVersionNum(v) {
				return d, &declError{at, fmt.Sprintf("version %q in the XML declaration is not an XML 1.x version (robofilter reads XML 1.0)", clipRunes(v, 20))}
			}
		case 1:
			d.encoding = v
			if !isEncName(v) {
				return d, &declError{at, fmt.Sprintf("encoding %q in the XML declaration is not an encoding name (a letter, then letters, digits, '.', '_' or '-')", clipRunes(v, 20))}
			}
		case 2:
			d.standalone = v
			if v != "yes" && v != "no" {
				return d, &declError{at, fmt.Sprintf(`standalone %q in the XML declaration: the value must be "yes" or "no"`, clipRunes(v, 20))}
			}
		}
		next = which + 1
	}
}

// isVersionNum reports whether v is a VersionNum: '1.' [0-9]+.
func isVersionNum(v string) bool {
	digits, ok := strings.CutPrefix(v, "1.")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// isEncName reports whether v is an EncName: [A-Za-z] ([A-Za-z0-9._] | '-')*.
func isEncName(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		letter := c|0x20 >= 'a' && c|0x20 <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) {
			return false
		}
	}
	return v != ""
}

// quoteRune names the character that starts b for a message.
func quoteRune(b []byte) string {
	r, _ := utf8.DecodeRune(b)
	if r < ' ' {
		return fmt.Sprintf("%U", r)
	}
	return fmt.Sprintf("%q", r)
}

// commentBody steps from just after a comment's "<!--" to just after its
// "-->", and returns where the "--" ending it starts.
func (z *scanner) commentBody() (int, error) {
	end, err := z.until("--")
	if err != nil {
		return 0, err
	}
	if !z.more(1) {
		return 0, z.eofError()
	}
	if z.buf[z.i] != '>' {
		return 0, z.fail(end, `"--" is not allowed inside a comment`)
	}
	z.i++
	return end, nil
}

// markupDecl reads what starts with "<!": a comment, a CDATA section or a
// declaration (the DOCTYPE).
func (z *scanner) markupDecl() error {
	z.more(9)
	switch rest := z.buf[2:]; {
	case bytes.HasPrefix(rest, []byte("--")):
		z.kind, z.i = tokComment, 4
		body := z.i
		end, err := z.commentBody()
		if err != nil {
			return err
		}
		z.text = z.normalizeCR(z.buf[body:end])
		return nil
	case bytes.HasPrefix(rest, []byte("[CDATA[")):
		z.kind, z.i = tokCDATA, 9
		body := z.i
		end, err := z.until("]]>")
		if err != nil {
			// The content before the error point is text, written before
			// the error is reported.
			if at, ok := z.cutAt(err); ok {
				z.text = z.normalizeCR(z.buf[body:max(at, body)])
			}
			return err
		}
		z.text = z.normalizeCR(z.buf[body:end])
		return nil
	case len(rest) < 7 && bytes.HasPrefix([]byte("[CDATA["), rest) || len(rest) < 2 && bytes.HasPrefix([]byte("--"), rest):
		z.kind = tokDirective
		return z.eofError()
	}
	z.kind, z.i = tokDirective, 2
	return z.declaration()
}

// declaration reads a declaration up to its '>': one level of '<' '>'
// nesting per markup declaration of an internal subset, quoted literals,
// comments and processing instructions each read as a whole, so that none
// of them can end it early.
func (z *scanner) declaration() error {
	depth := 0
	for {
		if !z.more(1) {
			return z.eofError()
		}
		switch c := z.buf[z.i]; {
		case c == '"' || c == '\'':
			z.i++
			q := string(c)
			if _, err := z.until(q); err != nil {
				return err
			}
		case c == '<':
			z.more(4)
			switch rest := z.buf[z.i:]; {
			case bytes.HasPrefix(rest, []byte("<!--")):
				z.i += 4
				if _, err := z.commentBody(); err != nil {
					return err
				}
			case bytes.HasPrefix(rest, []byte("<?")):
				at := z.i
				z.i += 2
				// A PI of the internal subset is a PI ([29] markupdecl):
				// its target is not xml, in any case ([17] PITarget).
				lo, hi, _ := z.readName()
				if err := z.invalidUTF8("a processing instruction's target"); err != nil {
					return err
				}
				if msg, atTarget := xmlTargetError(z.buf[lo:hi], false); msg != "" {
					if atTarget {
						return z.fail(lo, "%s", msg)
					}
					return z.fail(at, "%s", msg)
				}
				if _, err := z.until("?>"); err != nil {
					return err
				}
			default:
				depth++
				z.i++
			}
		case c == '>':
			z.i++
			if depth == 0 {
				z.text = z.buf[2 : z.i-1]
				return nil
			}
			depth--
		case c >= utf8.RuneSelf:
			if err := z.checkRune(); err != nil {
				return err
			}
		case textClass[c] == classCtl:
			return z.fail(z.i, "illegal character code %U", rune(c))
		default:
			z.i++
		}
	}
}

// quoteCurrent names the character at z.i for a message, read whole
// however the input arrived.
func (z *scanner) quoteCurrent() string {
	z.more(utf8.UTFMax)
	return quoteRune(z.buf[z.i:])
}

// Names (XML 1.0 fifth edition, productions [4] and [4a]).

var nameByte = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 2
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = 2
	}
	t['_'], t[':'] = 2, 2
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	t['-'], t['.'] = 1, 1
	return t
}()

func isXMLNameStartByte(c byte) bool { return c < utf8.RuneSelf && nameByte[c] == 2 }
func isXMLNameByte(c byte) bool      { return c < utf8.RuneSelf && nameByte[c] != 0 }

func isXMLNameStartRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isXMLNameStartByte(byte(r))
	}
	return r >= 0xC0 && r <= 0xD6 || r >= 0xD8 && r <= 0xF6 || r >= 0xF8 && r <= 0x2FF ||
		r >= 0x370 && r <= 0x37D || r >= 0x37F && r <= 0x1FFF || r >= 0x200C && r <= 0x200D ||
		r >= 0x2070 && r <= 0x218F || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF ||
		r >= 0xF900 && r <= 0xFDCF || r >= 0xFDF0 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF
}

func isXMLNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isXMLNameByte(byte(r))
	}
	return isXMLNameStartRune(r) || r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// isXMLName reports whether b is one XML Name.
func isXMLName(b []byte) bool {
	for i, w := 0, 0; i < len(b); i += w {
		r, n := utf8.DecodeRune(b[i:])
		w = n
		if r == utf8.RuneError && n == 1 || i == 0 && !isXMLNameStartRune(r) || !isXMLNameRune(r) {
			return false
		}
	}
	return len(b) > 0
}
