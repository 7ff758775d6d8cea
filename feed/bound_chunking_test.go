package feed_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
)

// The bound between two entries counts from the end of the last entry,
// however the input comes: the error is at the 1,001st tag after it, and
// an entry of up to 1,000 tags after one is read. The count once started
// afresh where the feed reader had got to when the entry was returned
// (up to 512 bytes past its end when the input came whole), so the tags
// read ahead went uncounted: the error stood up to 512 bytes late, and
// later still with more entries before.
func TestEntriesBoundCountsFromTheEntrysEndAtEveryChunking(t *testing.T) {
	const head = `<?xml version="1.0"?><rss><channel>`
	const tail = "</channel></rss>"
	tags := strings.Repeat("<x/>", 3*feed.MaxEntryTags)
	tests := []struct {
		name, doc string
		entries   int
		errCol    int // 0: no error
	}{
		// The 1,001st <x/> after <item/> starts at byte 42 + 4,000.
		{"tags after an entry", head + "<item/>" + tags + tail, 1, len(head) + len("<item/>") + 4*feed.MaxEntryTags + 1},
		{"tags after three entries", head + "<item/><item/><item/>" + tags + tail, 3, len(head) + 3*len("<item/>") + 4*feed.MaxEntryTags + 1},
		// 998 tags after an entry, then an entry of two (<item> and
		// </item>): 1,000, within the bound; with 999 before, its end tag
		// is the 1,001st.
		{"998 tags, then an entry", head + "<item/>" + tags[:4*(feed.MaxEntryTags-2)] + "<item></item>" + tail, 2, 0},
		{"999 tags, then an entry", head + "<item/>" + tags[:4*(feed.MaxEntryTags-1)] + "<item></item>" + tail, 1,
			len(head) + len("<item/>") + 4*(feed.MaxEntryTags-1) + len("<item>") + 1},
	}
	for _, tc := range tests {
		for name, r := range map[string]func() io.Reader{
			"whole":            func() io.Reader { return strings.NewReader(tc.doc) },
			"a byte at a time": func() io.Reader { return iotest.OneByteReader(strings.NewReader(tc.doc)) },
			"reads of 7":       func() io.Reader { return chunked.Reader(strings.NewReader(tc.doc), 7) },
			"reads of 600":     func() io.Reader { return chunked.Reader(strings.NewReader(tc.doc), 600) },
		} {
			n := 0
			_, err := feed.Process(r(), "//item", robofilter.Options{}, func(feed.Entry) error { n++; return nil })
			var pe *filter.PosError
			switch {
			case n != tc.entries:
				t.Errorf("%s, read %s: %d entries, want %d (error %v)", tc.name, name, n, tc.entries, err)
			case tc.errCol == 0 && err != nil:
				t.Errorf("%s, read %s: error %v", tc.name, name, err)
			case tc.errCol != 0 && (!errors.As(err, &pe) || !errors.Is(err, feed.ErrEntryTooLarge)):
				t.Errorf("%s, read %s: error %v, want the bound's", tc.name, name, err)
			case tc.errCol != 0 && (pe.Pos.Line != 1 || pe.Pos.Col != tc.errCol):
				t.Errorf("%s, read %s: error at %d:%d, want 1:%d", tc.name, name, pe.Pos.Line, pe.Pos.Col, tc.errCol)
			}
		}
	}
}
