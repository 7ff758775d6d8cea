package filter

import (
	"bufio"
	"io"
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
	truncated bool
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
	if len(h.buf)+len(b) > maxHeldText {
		if !h.truncated {
			h.truncated = true
			c.Warn(c.pos, "more than %d bytes of head text (the title); the rest is dropped", maxHeldText)
		}
		return
	}
	h.buf = append(h.buf, b...)
	h.ops = append(h.ops, heldOp{kind: k, end: len(h.buf)})
}

func (h *heldText) text(c *Core, b []byte, noArchive bool) {
	k := heldWords
	if noArchive {
		k = heldElided
	}
	if h.record(c, k, b) {
		return
	}
	c.written = true
	if c.out.Text != nil {
		c.out.Text.Text(b)
	}
	if s := c.out.ArchiveText; s != nil && c.docOff&NoArchive == 0 {
		if !noArchive {
			s.Text(b)
			c.snipElided = false
		} else if !c.snipElided {
			s.Space()
			s.Text([]byte(c.Ellipsis()))
			s.Space()
			c.snipElided = true
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

// elide marks an empty no-archive region in the text form of the archive.
func (h *heldText) elide(c *Core) {
	if c.out.ArchiveText == nil || h.record(c, heldElide, nil) {
		return
	}
	if c.docOff&NoArchive == 0 && !c.snipElided {
		s := c.out.ArchiveText
		s.Space()
		s.Text([]byte(c.Ellipsis()))
		s.Space()
		c.snipElided = true
	}
}

// release replays the held text unless the document turned indexing off.
func (h *heldText) release(c *Core) {
	ops, buf := h.ops, h.buf
	h.ops, h.buf = nil, nil
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
type archiveWriter struct {
	w        *bufio.Writer
	ellipsis []byte
	holding  bool
	hold     []byte
	overflow bool // the head was too large to hold and was written early
	stopped  bool // a document-level noarchive: nothing more is written
	lastEll  bool
	err      error
	closer   io.Closer // an encoder that must flush its tail
}

func (a *archiveWriter) raw(b []byte, on bool) {
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
	if a.stopped || a.lastEll {
		return
	}
	a.write(a.ellipsis)
	a.lastEll = true
}

func (a *archiveWriter) write(b []byte) {
	if a.err != nil {
		return
	}
	if a.holding {
		if len(a.hold)+len(b) <= maxHeldArchive {
			a.hold = append(a.hold, b...)
			return
		}
		a.overflow = true
		a.release()
	}
	_, a.err = a.w.Write(b)
}

func (a *archiveWriter) release() {
	a.holding = false
	hold := a.hold
	a.hold = nil
	a.write(hold)
}

// withhold drops what was held and writes nothing more.
func (a *archiveWriter) withhold() {
	a.hold, a.holding, a.stopped = nil, false, true
}

func (a *archiveWriter) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

func (a *archiveWriter) flush() error {
	if a.holding {
		a.release()
	}
	if a.err == nil && a.w != nil {
		a.err = a.w.Flush()
	}
	if a.closer != nil {
		if err := a.closer.Close(); a.err == nil {
			a.err = err
		}
		a.closer = nil
	}
	return a.err
}
