package warc

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// A field folded over many continuation lines is read in one pass: each
// line once made the whole value anew (the value so far, a space, the
// line), so that a header of 1 MiB of short continuation lines copied
// tens of GB. FuzzReaderLongRuns found it (180 MB allocated for a header
// of 64 KiB). Twice the lines cost about twice the bytes allocated, and
// the value is the lines joined by one space each, as before.
func TestFoldedHeaderLinesAreLinear(t *testing.T) {
	read := func(lines int) (uint64, string) {
		in := "WARC/1.1\r\nWARC-Type: resource\r\nX-Folded: a\r\n" + strings.Repeat(" 0000\r\n", lines) + "\t \r\n" +
			"Content-Length: 3\r\n\r\n<p>\r\n\r\n"
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		wr, err := NewReader(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := wr.Next()
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, rec.Block)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, rec.Header.Get("X-Folded")
	}
	const n = 16 << 10
	small, v := read(n)
	if want := "a" + strings.Repeat(" 0000", n); v != want {
		t.Fatalf("the folded value is %.80q…, %d bytes; want %d", v, len(v), len(want))
	}
	large, _ := read(2 * n)
	t.Logf("%d bytes allocated for %d continuation lines, %d for %d", small, n, large, 2*n)
	if large > 3*small {
		t.Errorf("%d bytes allocated for %d continuation lines, %d for %d: not linear", small, n, large, 2*n)
	}
}
