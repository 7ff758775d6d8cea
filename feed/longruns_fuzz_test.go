package feed_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/hostile"
)

// FuzzEntriesLongRuns builds a long run from a short seed (repeated up to
// 64 KiB) at one of hostile.FeedRunContexts, ended or not, under a token
// limit of 4 to 128 KiB, and reads the feed item by item whole, in reads
// of 1 to 64 bytes and (up to 8 KiB) a byte at a time: the entries, warnings and error
// must be the same, and the whole reading's work (CPU time, bytes
// allocated) within hostile.FuzzWorkBound of the input's length.
func FuzzEntriesLongRuns(f *testing.F) {
	for i, c := range hostile.RunClasses {
		f.Add([]byte(c.Lead+c.Cycle), uint8(i), uint16(20000), uint8(i))
	}
	for i, s := range []string{"&lt;", "&amp;", "]]>", "<x>", "</x>", "<item>", "--", "?>", "&#48;", "é"} {
		f.Add([]byte(s), uint8(i*5), uint16(30000), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed []byte, place uint8, repeat uint16, chunk uint8) {
		if len(seed) == 0 || len(seed) > 64 {
			return
		}
		ctx := hostile.FeedRunContexts[int(place)%len(hostile.FeedRunContexts)]
		src := `<?xml version="1.0"?>` + ctx.Open + hostile.Grow(seed, int(repeat), 64<<10)
		if int(place)/len(hostile.FeedRunContexts)%2 == 0 {
			src += ctx.End
		}
		opts := robofilter.Options{MaxTokenSize: 4 << 10 << (int(chunk) % 6), Base: "http://example.com/"}
		var whole string
		var errWhole error
		if over := hostile.CheckFuzzWork(len(src), func() { whole, errWhole = renderEntries(t, strings.NewReader(src), "//item", opts) }); over != "" {
			t.Fatalf("%s, %d bytes of %q, limit %d: %s", ctx.Name, len(src), seed, opts.MaxTokenSize, over)
		}
		readers := map[string]io.Reader{"in reads of n": chunked.Reader(strings.NewReader(src), 1+int(chunk)%64)}
		if len(src) <= 8<<10 {
			// A byte at a time, records mode reads 50 KB/s: only short
			// inputs, so that the target runs more than one a second.
			readers["a byte at a time"] = iotest.OneByteReader(strings.NewReader(src))
		}
		for name, r := range readers {
			got, err := renderEntries(t, r, "//item", opts)
			if got != whole || fmt.Sprint(err) != fmt.Sprint(errWhole) {
				t.Fatalf("%s, %q repeated, read %s (n %d) differs from whole:\n%.2000s(%v)\nwhole:\n%.2000s(%v)",
					ctx.Name, seed, name, 1+int(chunk)%64, got, err, whole, errWhole)
			}
		}
	})
}

// renderEntries reads the feed in r entry by entry (those xpath selects)
// and writes each entry, its document and its warnings.
func renderEntries(t *testing.T, r io.Reader, xpath string, opts robofilter.Options) (string, error) {
	var b bytes.Buffer
	next := 1
	_, err := feed.Process(r, xpath, opts, func(e feed.Entry) error {
		if e.Index != next {
			t.Fatalf("entry %d after %d", e.Index, next-1)
		}
		next++
		fmt.Fprintf(&b, "%d %q %q %q\n", e.Index, e.ID, e.Title, e.Link)
		if d := e.Doc; d != nil {
			fmt.Fprintf(&b, "  text %q\n  archive %q\n", d.Text, d.Archive)
			for _, l := range d.Links {
				fmt.Fprintf(&b, "  link %q %v %q\n", l.URL, l.Followed, l.Reason)
			}
		}
		for _, w := range e.Warnings {
			fmt.Fprintf(&b, "  warning %d:%d %s\n", w.Line, w.Col, w.Message)
		}
		return nil
	})
	return b.String(), err
}
