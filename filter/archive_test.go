package filter

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"testing"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// refArchiveWriter is the archive writer as it was before it buffered by
// itself: a bufio.Writer of 4 KiB and a separate held head. The archive
// writer must do to its writer exactly what this did.
type refArchiveWriter struct {
	w        *bufio.Writer
	ellipsis []byte
	holding  bool
	hold     []byte
	overflow bool
	stopped  bool
	lastEll  bool
	err      error
}

func (a *refArchiveWriter) raw(b []byte, on bool) {
	if a.stopped || len(b) == 0 {
		return
	}
	if !on {
		if !isSpace(b) {
			a.elide()
		}
		return
	}
	a.write(b)
	a.lastEll = false
}

func (a *refArchiveWriter) elide() {
	if a.stopped || a.lastEll {
		return
	}
	a.write(a.ellipsis)
	a.lastEll = true
}

func (a *refArchiveWriter) write(b []byte) {
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

func (a *refArchiveWriter) release() {
	a.holding = false
	hold := a.hold
	a.hold = nil
	a.write(hold)
}

func (a *refArchiveWriter) withhold() {
	a.hold, a.holding, a.stopped = nil, false, true
}

// fail is the core's archiveWriter.fail: what was written before another
// output failed is written out (its own buffer flushed; a caller's
// bufio.Writer, used as it is, keeps what it has), unless still held.
func (a *refArchiveWriter) fail(err error, ownBuffer bool) {
	if a.err != nil {
		return
	}
	if !a.holding && ownBuffer {
		a.w.Flush()
	}
	a.err = err
}

func (a *refArchiveWriter) flush() error {
	if a.holding {
		a.release()
	}
	if a.err == nil {
		a.err = a.w.Flush()
	}
	return a.err
}

// writeLog records each write a writer gets and after which operation, and
// makes the write numbered failAt (if not 0) short: with an error, or
// without one if quiet.
type writeLog struct {
	op     *int
	writes []string
	failAt int
	quiet  bool
}

var errTestWrite = errors.New("test write failure")

func (l *writeLog) Write(p []byte) (int, error) {
	l.writes = append(l.writes, fmt.Sprintf("op %d: ", *l.op)+string(p))
	if len(l.writes) == l.failAt {
		if l.quiet {
			return len(p) / 2, nil
		}
		return len(p) / 2, errTestWrite
	}
	return len(p), nil
}

// TestArchiveWriterAsBefore runs random sequences of archive operations
// through a Core and through refArchiveWriter, and compares the writes
// their writers get (bytes, and after which operation) and the errors.
func TestArchiveWriterAsBefore(t *testing.T) {
	for seed := int64(0); seed < 1000; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var op int
		got, want := &writeLog{op: &op}, &writeLog{op: &op}
		if rng.Intn(4) == 0 {
			got.failAt = 1 + rng.Intn(20)
			want.failAt = got.failAt
			got.quiet = rng.Intn(2) == 0
			want.quiet = got.quiet
		}
		var gotW, wantW io.Writer = got, want
		bufSize := 0
		switch rng.Intn(3) {
		case 1: // a bufio.Writer bufio.NewWriterSize takes as it is
			bufSize = []int{4096, 5000, 64 << 10}[rng.Intn(3)]
		case 2: // one it wraps
			bufSize = 1000
		}
		if bufSize > 0 {
			gotW, wantW = bufio.NewWriterSize(got, bufSize), bufio.NewWriterSize(want, bufSize)
		}
		c, err := NewCore(Options{Ellipsis: "[…]"}, Outputs{Archive: gotW})
		if err != nil {
			t.Fatal(err)
		}
		var closer io.Closer
		if rng.Intn(8) == 0 { // the copy goes back into UTF-16
			enc := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
			c.EncodeArchive(enc.NewEncoder())
			tw := transform.NewWriter(wantW, enc.NewEncoder())
			wantW, closer = tw, tw
		}
		ref := &refArchiveWriter{w: bufio.NewWriterSize(wantW, 4<<10), ellipsis: []byte("[…]"), holding: true}
		releaseAt := 1 + rng.Intn(200) // past the end: held to the end

		maxLen := []int{16, 300, 5000, 70000}[rng.Intn(4)]
		if rng.Intn(50) == 0 {
			maxLen = 1 << 20 // the held head overflows
		}
		for op = 1; op <= 150; op++ {
			if op == releaseAt && c.archive.holding {
				c.archive.release()
				ref.release()
			}
			switch k := rng.Intn(100); {
			case k < 80:
				raw := bytes.Repeat([]byte{byte('a' + op%26)}, rng.Intn(maxLen+1))
				if rng.Intn(8) == 0 {
					raw = bytes.Repeat([]byte{' '}, len(raw))
				}
				on := rng.Intn(5) != 0
				c.Archive(raw, on)
				ref.raw(raw, on)
			case k < 90:
				c.Elide()
				ref.elide()
			case k < 95:
				// The core releases or withholds once, but after an
				// overflow nothing is held any more.
				if !c.archive.holding || rng.Intn(4) == 0 {
					c.archive.release()
					ref.release()
				}
			case k < 96:
				c.archive.withhold()
				ref.withhold()
			case k < 97:
				c.archive.stopped = true // as a late robots META does
				ref.stopped = true
			case k < 98:
				c.archive.fail(errTestWrite)
				ref.fail(errTestWrite, ref.w != wantW)
			}
		}
		gotErr, wantErr := c.archive.flush(), ref.flush()
		if closer != nil {
			if err := closer.Close(); wantErr == nil {
				wantErr = err
			}
		}
		if gotErr != wantErr {
			t.Fatalf("seed %d: flush: got error %v, want %v", seed, gotErr, wantErr)
		}
		if c.archive.overflow != ref.overflow {
			t.Fatalf("seed %d: overflow %v, want %v", seed, c.archive.overflow, ref.overflow)
		}
		if len(got.writes) != len(want.writes) {
			t.Fatalf("seed %d: %d writes, want %d", seed, len(got.writes), len(want.writes))
		}
		for i := range got.writes {
			if got.writes[i] != want.writes[i] {
				t.Fatalf("seed %d: write %d:\n got %.200s\nwant %.200s", seed, i, got.writes[i], want.writes[i])
			}
		}
	}
}

// TestArchiveOnIsOffAt checks ArchiveOn against offAt, whose rule it
// spells out for the one switch.
func TestArchiveOnIsOffAt(t *testing.T) {
	if NoArchive != 1<<2 {
		t.Fatal("ArchiveOn reads seq[2] for NoArchive")
	}
	rng := rand.New(rand.NewSource(1))
	for range 200000 {
		var c Core
		for k := range c.flatBy {
			c.flatBy[k] = Switch(rng.Intn(16))
			for i := range c.flatSeq[k] {
				c.flatSeq[k][i] = uint32(rng.Intn(4))
			}
		}
		c.flat = c.flatBy[0] | c.flatBy[1]
		s := Scope{Off: Switch(rng.Intn(16))}
		for i := range s.seq {
			s.seq[i] = uint32(rng.Intn(4))
		}
		if got, want := c.ArchiveOn(&s), c.offAt(&s)&NoArchive == 0; got != want {
			t.Fatalf("flatBy %v flatSeq %v scope off %v seq %v: ArchiveOn %v, offAt says %v", c.flatBy, c.flatSeq, s.Off, s.seq, got, want)
		}
	}
}
