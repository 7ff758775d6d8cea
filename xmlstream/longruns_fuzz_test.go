package xmlstream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/hostile"
)

// xmlRunPlaces are the places FuzzXMLLongRuns puts a run in: text, which
// comes in pieces, and the tokens held to the limit.
var xmlRunPlaces = append(append([]hostile.RunContext(nil), hostile.XMLRunContexts...), hostile.XMLTokenContexts...)

// FuzzXMLLongRuns builds a long run from a short seed (repeated up to
// 64 KiB) at one of xmlRunPlaces, ended or not, under a token limit of 4
// to 128 KiB (so that the run is longer than the limit or the piece, or
// both, or neither), and reads it whole and then a few bytes at a time in
// pieces of 1 to 4,096 bytes: the results must be the same, and the
// whole reading's work (its CPU time and bytes allocated) within
// hostile.FuzzWorkBound of the input's length, whatever the seed.
func FuzzXMLLongRuns(f *testing.F) {
	for i, c := range hostile.XMLRunClasses {
		f.Add([]byte(c.Lead+c.Cycle), uint8(i), uint16(20000), uint16(i*97), uint8(i))
	}
	for i, s := range []string{"]]>", "]]", "--", "-->", "?>", "&#1", "&a", "\r\n", "<a>", "</a>", "<![CDATA[", "é]"} {
		f.Add([]byte(s), uint8(i*7), uint16(30000), uint16(7), uint8(3))
	}
	f.Fuzz(func(t *testing.T, seed []byte, place uint8, repeat, piece uint16, chunk uint8) {
		if len(seed) == 0 || len(seed) > 64 {
			return
		}
		ctx := xmlRunPlaces[int(place)%len(xmlRunPlaces)]
		src := `<?xml version="1.0"?>` + ctx.Open + hostile.Grow(seed, int(repeat), 64<<10)
		if int(place)/len(xmlRunPlaces)%2 == 0 {
			src += ctx.End
		}
		opts := Options{MaxDepth: 200, MaxTokenSize: 4 << 10 << (int(chunk) % 6)}
		fo := filter.Options{Base: "http://example.com/"}
		var whole outcome
		if over := hostile.CheckFuzzWork(len(src), func() { whole = runXML(t, strings.NewReader(src), fo, opts) }); over != "" {
			t.Fatalf("%s, %d bytes of %q, limit %d: %s", ctx.Name, len(src), clip(seed), opts.MaxTokenSize, over)
		}
		inPieces := opts
		inPieces.piece = 1 + int(piece)%4096
		got := runXML(t, chunked.Reader(strings.NewReader(src), 1+int(chunk)%64), fo, inPieces)
		if a, b := whole.render([]byte(src)), got.render([]byte(src)); a != b || fmt.Sprint(whole.err) != fmt.Sprint(got.err) {
			t.Fatalf("%s, %q repeated, read whole and in pieces of %d, reads of %d, differ:\n%.2000s\n(%v)\n---\n%.2000s\n(%v)",
				ctx.Name, clip(seed), inPieces.piece, 1+int(chunk)%64, a, whole.err, b, got.err)
		}
	})
}

// clip is b cut to 40 bytes, for messages.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
