package warc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/hostile"
)

// FuzzReaderLongRuns builds a long run from a short seed (repeated up to
// 64 KiB) at one of hostile.WARCRunContexts (the version line, header
// names and values, header lines, Content-Length, a block, between
// records, an HTTP head in a block), ended or not and followed by a
// record, plain or as a gzip member (a record per member, or the whole
// file in one), and reads it whole and in reads of 1 to 64 bytes: the
// records, warnings and error must be the same, the work the reader
// counts at most 16 times the bytes read and decompressed (as FuzzReader
// bounds it), and the whole reading's CPU time and bytes allocated within
// hostile.FuzzWorkBound of the bytes decompressed.
func FuzzReaderLongRuns(f *testing.F) {
	for i, s := range []string{"a", "\r\n", "\n", "\r", "WARC/1.0\r\n", "\nWARC/1", "x: y\r\n", ":", "\x00", "0", "\x1f\x8b", " ", "WARC/1.1\r\nContent-Length: 0\r\n\r\n"} {
		f.Add([]byte(s), uint8(i), uint16(30000), uint8(i))
	}
	after := record("resource", "http://after/", "text/html", "<p>after")
	f.Fuzz(func(t *testing.T, seed []byte, place uint8, repeat uint16, how uint8) {
		if len(seed) == 0 || len(seed) > 64 {
			return
		}
		ctx := hostile.WARCRunContexts[int(place)%len(hostile.WARCRunContexts)]
		run := ctx.Open + hostile.Grow(seed, int(repeat), 64<<10)
		if int(place)/len(hostile.WARCRunContexts)%2 == 0 {
			run += ctx.End
		}
		in := run + after
		switch how % 3 {
		case 1:
			in = gzipMembers(run, after)
		case 2:
			in = gzipMembers(run + after)
		}
		var whole result
		decompressed := len(run) + len(after)
		if over := hostile.CheckFuzzWork(decompressed, func() { whole = readAll(strings.NewReader(in)) }); over != "" {
			t.Fatalf("%s, %d bytes of %q (%d): %s", ctx.Name, decompressed, seed, how%3, over)
		}
		n := 1 + int(how/3)%64
		got := readAll(chunked.Reader(strings.NewReader(in), n))
		if a, b := fmt.Sprint(got.records, got.warnings, got.err), fmt.Sprint(whole.records, whole.warnings, whole.err); a != b {
			t.Fatalf("%s, %q repeated (%d), read in reads of %d:\n%.2000s\nwhole:\n%.2000s", ctx.Name, seed, how%3, n, a, b)
		}
		if limit := 16*(int64(len(in))+whole.out) + 64; whole.work > limit {
			t.Fatalf("%s, %q repeated (%d): work %d for %d bytes (%d decompressed): over %d", ctx.Name, seed, how%3, whole.work, len(in), whole.out, limit)
		}
	})
}
