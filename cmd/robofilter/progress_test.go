package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The progress line: documents, bytes of how many, rate and time left
// once a second has passed; a shorter line covers a longer one drawn
// before; clearing leaves the terminal's line empty.
func TestProgressLine(t *testing.T) {
	var w bytes.Buffer
	p := newProgress(&w, 2_500_000)
	if got := w.String(); got != "\r0 documents, 0 B of 2.5 MB (0%)" {
		t.Errorf("first line %q", got)
	}
	w.Reset()
	p.docs, p.bytes = 12, 1_000_000
	p.draw(p.start.Add(2 * time.Second))
	if got := w.String(); got != "\r12 documents, 1.0 MB of 2.5 MB (40%), 500.0 kB/s, 3s left" {
		t.Errorf("line %q", got)
	}
	w.Reset()
	p.total, p.docs, p.bytes = -1, 1, 999
	p.draw(p.start.Add(3 * time.Second))
	if got, want := w.String(), "\r1 document, 999 B, 333 B/s"; got != want+strings.Repeat(" ", len("12 documents, 1.0 MB of 2.5 MB (40%), 500.0 kB/s, 3s left")-len(want)+1) {
		t.Errorf("line without a total %q", got)
	}
	w.Reset()
	p.clear()
	if got := w.String(); got != "\r"+strings.Repeat(" ", len("1 document, 999 B, 333 B/s"))+"\r" {
		t.Errorf("clear %q", got)
	}
	w.Reset()
	p.clear()
	p.done()
	p.read(10)
	if w.Len() != 0 {
		t.Errorf("drawn after done: %q", w.String())
	}
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 kB", 1_234_567: "1.2 MB", 85_000_000_000: "85.0 GB", 3e15: "3000.0 TB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
