package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal; newApp's callers may give
// their own (the tests do, as they run without one).
type isTerminal func(w io.Writer) bool

func osTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress shows how far a long run is on standard error: bytes read of
// the inputs (of how many, when their sizes are known), documents done,
// the rate and the time left. It is drawn over one line, which
// progressWriter clears before any message.
type progress struct {
	// mu: with --jobs, inputs are read on one goroutine and documents
	// written out on another.
	mu        sync.Mutex
	bar       *progressbar.ProgressBar
	docs      int
	described time.Time
}

// newProgress starts showing progress on w; total is the inputs' size in
// bytes (-1: not known, as for standard input).
func newProgress(w io.Writer, total int64) *progress {
	return &progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionSetDescription("0 documents"),
		progressbar.OptionSetWidth(20),
		// No spinner goroutine: every draw happens in the run's own
		// goroutine, between its messages.
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionClearOnFinish(),
	)}
}

// read counts bytes read of the inputs.
func (p *progress) read(n int) {
	if p != nil && n > 0 {
		p.mu.Lock()
		defer p.mu.Unlock()
		_ = p.bar.Add64(int64(n))
	}
}

// document counts a document done.
func (p *progress) document() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.docs++
	if now := time.Now(); now.Sub(p.described) >= 200*time.Millisecond {
		p.described = now
		p.bar.Describe(fmt.Sprintf("%d documents", p.docs))
	}
}

// clear takes the progress line off the terminal, for a message.
func (p *progress) clear() {
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		_ = p.bar.Clear()
	}
}

// done takes the progress line off for good.
func (p *progress) done() {
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		_ = p.bar.Clear()
		_ = p.bar.Exit()
	}
}

// progressWriter is standard error while progress is shown: a message
// first clears the progress line, which is drawn again after it.
type progressWriter struct {
	w io.Writer
	p *progress
}

func (pw progressWriter) Write(b []byte) (int, error) {
	pw.p.clear()
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
