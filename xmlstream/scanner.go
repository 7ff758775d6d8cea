package xmlstream

import (
	"errors"
	"fmt"
	"io"
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

// Names (XML 1.0 fifth edition, productions [4] and [4a]).
