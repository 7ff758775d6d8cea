package filter

import (
	"bufio"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/robofilter/robofilter/phrase"
)

// maxHeldText bounds the text held while the head is open (the title).
const maxHeldText = 64 << 10

// maxHeldArchive bounds the archive bytes held while the head is open. A
// head larger than this is written before it ends; a robots META after that
// point can then only stop the copy, and a warning says so.
const maxHeldArchive = 4 << 20

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

// heldText routes text to the text outputs, or records it while the head
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

// record holds an op while the head is open (reporting whether it did);
// small enough to inline, as text is held only in the head.
func (h *heldText) record(c *Core, k heldKind, b []byte) bool {
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
	if h.record(c, k, b) {
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
	if h.record(c, heldSpace, nil) {
		return
	}
	if c.out.Text != nil {
		c.out.Text.Space()
	}
	if c.out.ArchiveText != nil {
		c.out.ArchiveText.Space()
	}
}

func (h *heldText) line(c *Core) {
	if h.record(c, heldLine, nil) {
		return
	}
	if c.out.Text != nil {
		c.out.Text.LineBreak()
	}
	if c.out.ArchiveText != nil {
		c.out.ArchiveText.LineBreak()
	}
}

func (h *heldText) brk(c *Core) {
	if h.record(c, heldBreak, nil) {
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
	if c.out.ArchiveText == nil || h.record(c, heldElide, nil) {
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

// archiveWriter writes the archive copy: raw bytes, with one ellipsis for
// each stretch of elided content.
//
// It buffers exactly as a bufio.Writer of archiveBufSize would
// (bufio.NewWriterSize), which it replaced: given the same calls, its
// writer sees the same writes (TestArchiveWriterAsBefore keeps the old one
// as the oracle). Owning the buffer lets Core.Archive append a token's
// bytes itself, where it took three more calls before (raw, write,
// bufio.Writer.Write). The HTML stage passes many tokens at a time
// (Core.ArchivePending), so its writer sees larger writes.
type archiveWriter struct {
	// buf takes the bytes: while holding, all of them (the held head, its
	// capacity never above maxHeldArchive); after, what is buffered for the
	// writer, with as much capacity as the writer has room. Core.Archive
	// appends to it whatever fits.
	buf []byte
	// pending, when set, passes bytes a parser has put off passing
	// (Core.ArchivePending); it is called before anything else is done.
	pending func()
	// markable, when set, reports whether an ellipsis can stand where the
	// document is (Core.ArchiveMarkable).
	markable func() bool
	own      []byte  // the buffer's memory after holding
	pooled   *[]byte // own's pool entry, returned at flush
	w        io.Writer
	// bw is the writer when it is a bufio.Writer of at least
	// archiveBufSize, which bufio.NewWriterSize would have used as is.
	// buf then takes only what fits in bw's free room and is passed on
	// before any other write: bw holds the same bytes at every write it
	// gets as before, so it writes out at the same bytes. It is flushed at
	// the end, as before.
	bw       *bufio.Writer
	ellipsis []byte
	holding  bool
	overflow bool // the head was too large to hold and was written early
	stopped  bool // a document-level noarchive: nothing more is written
	lastEll  bool
	err      error
	closer   io.Closer // an encoder that must flush its tail
}

// archiveBufSize is the archive copy's buffer (when the writer has none).
const archiveBufSize = 4 << 10

func newArchiveWriter(w io.Writer, ellipsis []byte) archiveWriter {
	a := archiveWriter{ellipsis: ellipsis, holding: true}
	a.setWriter(w)
	return a
}

func (a *archiveWriter) setWriter(w io.Writer) {
	a.settle()
	a.w, a.bw = w, nil
	if bw, ok := w.(*bufio.Writer); ok && bw.Size() >= archiveBufSize {
		a.bw = bw
	}
}

// settle has the bytes a parser put off passed now.
func (a *archiveWriter) settle() {
	if a.pending != nil {
		a.pending()
	}
}

func (a *archiveWriter) raw(b []byte, on bool) {
	a.settle()
	if a.stopped || len(b) == 0 {
		return
	}
	if !on {
		if !isSpace(b) {
			a.elide() // whitespace alone is no content to mark
		}
		return
	}
	a.write(b)
	a.lastEll = false
}

func (a *archiveWriter) elide() {
	a.settle()
	if a.stopped || a.lastEll || a.markable != nil && !a.markable() {
		return
	}
	a.write(a.ellipsis)
	a.lastEll = true
}

func (a *archiveWriter) write(b []byte) {
	if a.err != nil {
		return
	}
	if len(b) <= cap(a.buf)-len(a.buf) {
		a.buf = append(a.buf, b...)
		return
	}
	if a.holding {
		if len(a.buf)+len(b) <= maxHeldArchive {
			a.buf = append(a.buf, b...)
			a.buf = a.buf[:len(a.buf):min(cap(a.buf), maxHeldArchive)]
			return
		}
		a.overflow = true
		a.release()
		a.write(b)
		return
	}
	if a.bw != nil {
		a.pass()
		if a.err == nil {
			_, a.err = a.bw.Write(b)
		}
		a.arm()
		return
	}
	// bufio.Writer.Write, for what does not fit.
	for len(b) > cap(a.buf)-len(a.buf) && a.err == nil {
		var n int
		if len(a.buf) == 0 {
			n, a.err = a.w.Write(b) // large, and nothing buffered: directly
		} else {
			n = copy(a.buf[len(a.buf):cap(a.buf)], b)
			a.buf = a.buf[:len(a.buf)+n]
			a.pass()
		}
		b = b[n:]
	}
	if a.err == nil {
		a.buf = append(a.buf, b...)
	}
}

// pass writes out what is buffered (for bw, into bw's buffer, where it fits).
func (a *archiveWriter) pass() {
	if len(a.buf) == 0 || a.err != nil {
		return
	}
	if a.bw != nil {
		_, a.err = a.bw.Write(a.buf)
		a.buf = a.buf[:0]
		return
	}
	n, err := a.w.Write(a.buf)
	if n < len(a.buf) && err == nil {
		err = io.ErrShortWrite
	}
	a.err = err
	a.buf = a.buf[:0]
}

// release writes what was held; from here on buf is the writer's buffer.
// After an overflow nothing is held any more, and buf is left as it is.
func (a *archiveWriter) release() {
	a.settle()
	if !a.holding {
		return
	}
	a.holding = false
	hold := a.buf
	a.pooled = archiveBuffers.Get().(*[]byte)
	a.own = (*a.pooled)[:0]
	a.arm()
	a.write(hold)
}

// arm gives buf the room the writer has (bw's free room, up to the size
// of own).
func (a *archiveWriter) arm() {
	a.buf = a.own
	if a.bw != nil {
		a.buf = a.own[:0:min(a.bw.Available(), cap(a.own))]
	}
}

// withhold drops what was held and writes nothing more. What an overflow
// wrote early is still written out.
func (a *archiveWriter) withhold() {
	a.settle()
	if a.holding {
		a.buf = nil
	}
	a.holding, a.stopped = false, true
}

// fail records another output's error: the copy stops there. What came
// before is written out first (unless it is still held), so the copy ends
// at the same place however its bytes were buffered.
func (a *archiveWriter) fail(err error) {
	a.settle()
	if a.err != nil {
		return
	}
	if !a.holding {
		a.pass()
	}
	a.err = err
}

func (a *archiveWriter) flush() error {
	a.settle()
	if a.holding {
		a.release()
	}
	a.pass()
	if a.err == nil && a.bw != nil {
		a.err = a.bw.Flush()
	}
	if a.closer != nil {
		if err := a.closer.Close(); a.err == nil {
			a.err = err
		}
		a.closer = nil
	}
	if a.pooled != nil {
		// The buffer goes back, and the writer takes nothing more.
		*a.pooled = a.own[:0]
		archiveBuffers.Put(a.pooled)
		a.pooled, a.own, a.buf, a.stopped = nil, nil, nil, true
	}
	return a.err
}

// archiveBuffers keeps archive buffers from one document's end to the next
// document's (many small documents, feed records).
var archiveBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, archiveBufSize)
	return &b
}}
