package filter

import (
	"bufio"
	"io"
	"sync"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// maxHeldArchive bounds the archive bytes held while the head is open. A
// head larger than this is written before it ends; a robots META after that
// point can then only stop the copy, and a warning says so.
const maxHeldArchive = 4 << 20

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
	// all: the writer is Outputs.Source, which takes every byte, elided
	// or not; it writes no ellipsis and is never held or withheld.
	all      bool
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
	if !on && !a.all {
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
	if a.stopped || a.lastEll || a.all || a.markable != nil && !a.markable() {
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

// EncodeArchive makes the archive copy pass through an encoder: a parser
// that had to decode the whole input (UTF-16) writes the copy back in the
// input's charset.
func (c *Core) EncodeArchive(enc *encoding.Encoder) {
	if c.out.Archive == nil {
		return
	}
	tw := transform.NewWriter(c.out.Archive, enc)
	c.archive.setWriter(tw)
	c.archive.closer = tw
}

// SetEllipsis changes the bytes written for elided content: a parser that
// keeps the input's charset in the archive copy encodes the ellipsis in it.
func (c *Core) SetEllipsis(b []byte) { c.archive.ellipsis = b }

// Ellipsis is the ellipsis text as configured.
func (c *Core) Ellipsis() string {
	if c.opts.Ellipsis == "" {
		return "…"
	}
	return c.opts.Ellipsis
}

// WantsArchive reports whether the archive copy is an output of this run,
// or Outputs.Source, which takes its path.
func (c *Core) WantsArchive() bool { return c.out.Archive != nil }

// WantsSource reports whether Outputs.Source is an output of this run: a
// parser passes every byte to Archive then, and the core copies each,
// whatever on says.
func (c *Core) WantsSource() bool { return c.out.Source != nil }

// ArchiveOn reports whether content in scope s belongs in the archive copy:
// offAt's rule for the one switch, so small that it is inlined (parsers
// ask for nearly every token).
func (c *Core) ArchiveOn(s *Scope) bool {
	return s.Off&NoArchive == 0 && !c.flatTurnsOff(s, noArchiveBit)
}

// Archive passes a token's raw bytes to the archive copy, or elides them.
// Bytes to copy that fit in the buffer, nearly every token's, are appended
// here; the rest (elisions, growing the held head, writing out) is
// archiveWriter.raw's.
func (c *Core) Archive(raw []byte, on bool) {
	if a := &c.archive; on && !a.stopped && len(raw) > 0 && len(raw) <= cap(a.buf)-len(a.buf) {
		n := len(a.buf) // a reslice and a copy: no store of the buffer's pointer
		a.buf = a.buf[:n+len(raw)]
		copy(a.buf[n:], raw)
		a.lastEll = false
		return
	}
	if c.out.Archive != nil {
		c.archive.raw(raw, on)
	}
}

// ArchivePending lets a parser put off passing the bytes of tokens to
// copy (it passes many at once, with Archive, where it would have passed
// each): pass is called before anything else is done to the archive copy,
// and must pass with Archive whatever is put off. The parser passes what
// it put off itself before any Archive call of its own (Archive's append
// of a token that fits does not call pass). The HTML stage uses it for
// the tokens that follow one another in its buffer.
func (c *Core) ArchivePending(pass func()) { c.archive.pending = pass }

// ArchiveMarkable lets a parser say where an ellipsis cannot stand:
// where markable reports false, what is elided leaves no ellipsis. HTML
// text directly in the head would end the head early and start the body,
// so an elided META or LINK there (data-nosnippet, a class, a comment
// region) leaves nothing; markable is asked only when something is
// elided.
func (c *Core) ArchiveMarkable(markable func() bool) { c.archive.markable = markable }

// Elide writes the ellipsis where a no-archive region starts, so an empty
// region is marked too; adjacent elisions give one ellipsis.
func (c *Core) Elide() {
	if c.out.Archive != nil {
		c.archive.elide()
	}
}

// sourceUpToHere writes to Outputs.Source every byte before the current
// token, for a call that tells it what starts there.
func (c *Core) sourceUpToHere() {
	c.archive.settle()
	c.archive.pass()
}
