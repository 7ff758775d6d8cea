package filter

import (
	"unicode/utf8"

	"github.com/robofilter/robofilter/phrase"
)

// maxHeldText bounds the text held while the head is open (the title).
const maxHeldText = 64 << 10

type heldKind uint8

const (
	heldWords heldKind = iota
	heldElided
	heldSpace
	heldLine
	heldBreak
	heldElide
)

type heldOp struct {
	kind heldKind
	end  int // end of this op's bytes in buf
}

// heldText routes text to the text outputs, or holds it while the head
// may still turn indexing off for the whole document.
type heldText struct {
	ops       []heldOp
	buf       []byte
	from      Pos // where the text in buf starts (its first words)
	truncated bool
	// ellipsisHeld: an ellipsis op (or elided words, which write one)
	// stands since the last words; another would write nothing.
	ellipsisHeld bool
}

// note holds an op while the head is open (reporting whether it did);
// small enough to inline, as text is held only in the head.
func (h *heldText) note(c *Core, k heldKind, b []byte) bool {
	if !c.held {
		return false
	}
	h.hold(c, k, b)
	return true
}

func (h *heldText) hold(c *Core, k heldKind, b []byte) {
	// Ops without text between them collapse, so that a head or a body
	// without text yet (a million empty elements) holds a few ops, not
	// one per element: a run of separators is its largest (heldSpace <
	// heldLine < heldBreak, as the phrase writer takes them), and an
	// ellipsis after one with no words between writes nothing.
	switch {
	case k >= heldSpace && k <= heldBreak:
		if n := len(h.ops); n > 0 && h.ops[n-1].kind >= heldSpace && h.ops[n-1].kind <= heldBreak {
			h.ops[n-1].kind = max(h.ops[n-1].kind, k)
			return
		}
	case k == heldElide && h.ellipsisHeld:
		return
	case k == heldWords && isSpace(b):
		// White space alone does to the writers what one space does, and
		// a run of it is held as one: the body's white space before its
		// first word (all an XML document holds) is no head text to
		// bound.
		if n := len(h.ops); n > 0 && h.ops[n-1].kind == heldWords && h.ops[n-1].end-h.opStart(n-1) == 1 && h.buf[len(h.buf)-1] == ' ' {
			return
		}
		b = oneSpace
	}
	if len(h.buf) == 0 {
		h.from = c.position()
	}
	if h.truncated && (k == heldWords || k == heldElided) {
		// The rest is dropped, however it comes: words that would fit in
		// what the cut between characters left are no exception (a title
		// in pieces kept a last piece of a byte, which whole it did not).
		return
	}
	if len(h.buf)+len(b) > maxHeldText {
		if h.truncated {
			return
		}
		h.truncated = true
		// At the text's start: where the limit falls depends on how the
		// text came (a long title comes in pieces, as it is read).
		c.Warn(h.from, "more than %d bytes of head text (the title, from here); the rest is dropped", maxHeldText)
		if k != heldWords && k != heldElided {
			return
		}
		// What fits is kept, cut between characters.
		fit := maxHeldText - len(h.buf)
		for fit > 0 && !utf8.RuneStart(b[fit]) {
			fit--
		}
		b = b[:fit]
	}
	h.buf = append(h.buf, b...)
	h.ops = append(h.ops, heldOp{kind: k, end: len(h.buf)})
	// Only ops held count: words dropped past maxHeldText write nothing.
	switch k {
	case heldElide, heldElided:
		h.ellipsisHeld = true
	case heldWords:
		h.ellipsisHeld = false
	}
}

// oneSpace is what white space alone is held as.
var oneSpace = []byte(" ")

// opStart is where op i's bytes start in buf.
func (h *heldText) opStart(i int) int {
	if i == 0 {
		return 0
	}
	return h.ops[i-1].end
}

func (h *heldText) text(c *Core, b []byte, noArchive bool) {
	k := heldWords
	if noArchive {
		k = heldElided
	}
	if h.note(c, k, b) {
		return
	}
	c.writeText(b)
	if s := c.out.ArchiveText; s != nil && c.docOff&NoArchive == 0 {
		if !noArchive {
			s.Text(b)
			// White space between two elisions leaves them adjacent in
			// the text, as it is between two blocks: one ellipsis.
			if c.snipElided && !phrase.AllSpace(b) {
				c.snipElided = false
			}
		} else {
			c.snipEllipsis()
		}
	}
}

func (h *heldText) space(c *Core) {
	if h.note(c, heldSpace, nil) {
		return
	}
	if c.out.Text != nil {
		c.out.Text.Space()
	}
	if c.out.ArchiveText != nil {
		c.out.ArchiveText.Space()
	}
	if c.out.ExcludedText != nil {
		c.out.ExcludedText.Space()
	}
}

func (h *heldText) line(c *Core) {
	if h.note(c, heldLine, nil) {
		return
	}
	if c.out.Text != nil {
		c.out.Text.LineBreak()
	}
	if c.out.ArchiveText != nil {
		c.out.ArchiveText.LineBreak()
	}
	if c.out.ExcludedText != nil {
		c.out.ExcludedText.LineBreak()
	}
}

func (h *heldText) brk(c *Core) {
	if h.note(c, heldBreak, nil) {
		return
	}
	if c.out.Text != nil {
		c.out.Text.Break()
	}
	if c.out.ArchiveText != nil {
		c.out.ArchiveText.Break()
	}
}

// snipEllipsis writes the ellipsis into the text form of the archive,
// unless it ends with one already (adjacent elisions give one).
func (c *Core) snipEllipsis() {
	if c.snipElided {
		return
	}
	s := c.out.ArchiveText
	s.Space()
	s.Text([]byte(c.Ellipsis()))
	s.Space()
	c.snipElided = true
}

// elide marks an empty no-archive region in the text form of the archive.
func (h *heldText) elide(c *Core) {
	if c.out.ArchiveText == nil || h.note(c, heldElide, nil) {
		return
	}
	if c.docOff&NoArchive == 0 {
		c.snipEllipsis()
	}
}

// release replays the held text unless the document turned indexing off.
func (h *heldText) release(c *Core) {
	ops, buf := h.ops, h.buf
	h.ops, h.buf, h.ellipsisHeld = nil, nil, false
	if c.docOff&NoIndex != 0 {
		if x := c.out.ExcludedText; x != nil {
			h.exclude(x, ops, buf)
		}
		return
	}
	start := 0
	for _, op := range ops {
		b := buf[start:op.end]
		start = op.end
		switch op.kind {
		case heldWords, heldElided:
			h.text(c, b, op.kind == heldElided)
		case heldSpace:
			h.space(c)
		case heldLine:
			h.line(c)
		case heldBreak:
			h.brk(c)
		case heldElide:
			h.elide(c)
		}
	}
}

// exclude gives the held text to the excluded text output: the document
// turned indexing off.
func (h *heldText) exclude(x *phrase.Writer, ops []heldOp, buf []byte) {
	start := 0
	for _, op := range ops {
		b := buf[start:op.end]
		start = op.end
		switch op.kind {
		case heldWords, heldElided:
			x.Text(b)
		case heldSpace:
			x.Space()
		case heldLine:
			x.LineBreak()
		}
	}
}
