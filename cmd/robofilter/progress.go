package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal; newApp's callers may give
// their own (the tests do, as they run without one).
type isTerminal func(w io.Writer) bool

func osTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress shows how far a long run is on standard error: documents
// done, bytes read of the inputs (of how many, when their sizes are
// known), the rate and the time left, drawn over one line at most five
// times a second, which progressWriter clears before any message. It is
// drawn in the goroutines that count (no goroutine of its own), so that a
// message and the line never interleave.
type progress struct {
	// mu: with --jobs, inputs are read on one goroutine (on several:
	// lanes.go) and documents written out on another.
	mu    sync.Mutex
	w     io.Writer
	total int64 // the inputs' bytes; -1: not known
	bytes int64 // read of the inputs
	docs  int
	start time.Time
	drawn time.Time // when the line was last drawn
	width int       // of the line on the terminal (0: none)
}

// progressEvery is how often the line is drawn again.
const progressEvery = 200 * time.Millisecond

// newProgress starts showing progress on w; total is the inputs' size in
// bytes (-1: not known, as for standard input).
func newProgress(w io.Writer, total int64) *progress {
	p := &progress{w: w, total: total, start: time.Now()}
	p.draw(p.start)
	return p
}

// read counts bytes read of the inputs.
func (p *progress) read(n int) {
	if p != nil && n > 0 {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.bytes += int64(n)
		p.redraw()
	}
}

// document counts a document done.
func (p *progress) document() {
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.docs++
		p.redraw()
	}
}

// redraw draws the line again if it was last drawn long enough ago.
func (p *progress) redraw() {
	if now := time.Now(); now.Sub(p.drawn) >= progressEvery {
		p.draw(now)
	}
}

// draw writes the line over the one on the terminal.
func (p *progress) draw(now time.Time) {
	p.drawn = now
	line := fmt.Sprintf("%d documents, %s", p.docs, byteSize(p.bytes))
	if p.docs == 1 {
		line = "1 document, " + byteSize(p.bytes)
	}
	elapsed := now.Sub(p.start)
	if p.total >= 0 {
		line += fmt.Sprintf(" of %s (%d%%)", byteSize(p.total), 100*p.bytes/max(p.total, 1))
	}
	if elapsed >= time.Second && p.bytes > 0 {
		line += fmt.Sprintf(", %s/s", byteSize(int64(float64(p.bytes)/elapsed.Seconds())))
		if p.total > p.bytes {
			left := time.Duration(float64(elapsed) * float64(p.total-p.bytes) / float64(p.bytes))
			line += fmt.Sprintf(", %v left", left.Round(time.Second))
		}
	}
	pad := max(p.width-len(line), 0) // to cover a longer line drawn before
	fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
	p.width = len(line)
}

// clear takes the progress line off the terminal, for a message; the next
// count draws it again.
func (p *progress) clear() {
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.erase()
	}
}

func (p *progress) erase() {
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%*s\r", p.width, "")
		p.width = 0
		p.drawn = time.Time{}
	}
}

// done takes the progress line off for good.
func (p *progress) done() {
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.erase()
		p.w = io.Discard
	}
}

// byteSize writes a number of bytes as people read them: 512 B, 12.3 MB.
func byteSize(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	f, unit := float64(n)/1000, "kB"
	for _, u := range []string{"MB", "GB", "TB"} {
		if f < 1000 {
			break
		}
		f, unit = f/1000, u
	}
	return fmt.Sprintf("%.1f %s", f, unit)
}

// progressWriter is standard error while progress is shown: a message
// first clears the progress line, which is drawn again after it.
type progressWriter struct {
	w io.Writer
	p *progress
}

// The line is cleared and the message written under the lock: a count
// on another goroutine (a lane's reading) draws the line after it, not
// between.
func (pw progressWriter) Write(b []byte) (int, error) {
	pw.p.mu.Lock()
	defer pw.p.mu.Unlock()
	pw.p.erase()
	return pw.w.Write(b)
}

// progressReader counts the bytes read of an input.
type progressReader struct {
	r io.Reader
	p *progress
}

func (pr progressReader) Read(b []byte) (int, error) {
	n, err := pr.r.Read(b)
	pr.p.read(n)
	return n, err
}

// inputsSize is the size of the named inputs in bytes, or -1 when one is
// standard input or no regular file.
func inputsSize(names []string) int64 {
	var total int64
	for _, name := range names {
		fi, err := os.Stat(name)
		if name == "-" || err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		total += fi.Size()
	}
	return total
}
