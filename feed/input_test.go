package feed_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
)

var errBroke = errors.New("the connection broke")

// A reader that returns its last bytes together with its error loses none
// of them: the entries and the error are those of a reader that fails on
// the next read, at every read size.
func TestInputFailingWithItsLastBytesLosesNone(t *testing.T) {
	pad := strings.Repeat("word ", 300) // past the first KiB, the charset's head
	feeds := []string{
		"<feed><entry><title>a</title></entry><entry><title>b " + pad + "</title></entry></feed>",
		"<feed><entry><title>a</title></entry>",
	}
	for _, doc := range feeds {
		var want string
		for _, together := range []bool{false, true} {
			for _, n := range []int{0, 1, 7, 1000} {
				var titles []string
				err := processEntries(chunked.Failing([]byte(doc), n, together, errBroke), "//entry", robofilter.Options{}, func(r feed.Entry) error {
					titles = append(titles, r.Title)
					return nil
				})
				got := fmt.Sprintf("%q, error %v", titles, err)
				if want == "" {
					want = got
				} else if got != want {
					t.Errorf("entries of %.40q, reads of %d, together %v:\n got %.200s\nwant %.200s", doc, n, together, got, want)
				}
			}
		}
	}
}

// Records mode counts positions as the XML stage does, exactly, in
// multi-byte charsets too: a character the charset decodes but cannot
// encode (Shift_JIS's byte 0x80, U+0080) counts the one byte it was, not
// the six of the character reference x/net's encoder writes for it; a
// malformed sequence of two bytes read as one U+FFFD counts two; a byte
// read as a character the encoder writes longer (gb18030's 0x80, €) or a
// sequence read as two characters (Big5's 0x88 0x62) count their bytes.
func TestEntryPositionsCountTheOriginalBytes(t *testing.T) {
	for _, tc := range []struct{ charset, odd string }{
		{"Shift_JIS", "\x80"},
		{"Shift_JIS", "\x81\xff"},
		{"Big5", "\x81\x7f"},
		{"Big5", "\x88\x62"},
		{"gb18030", "\x80"},
		{"EUC-JP", "\x8f\xa1"},
	} {
		doc := `<?xml version="1.0" encoding="` + tc.charset + `"?><feed><entry><title>` + tc.odd + " a\n" + tc.odd + " &x</title></entry></feed>"
		want := strings.Index(doc, "&x")
		for _, r := range []io.Reader{strings.NewReader(doc), iotest.OneByteReader(strings.NewReader(doc))} {
			err := processEntries(r, "//entry", robofilter.Options{}, func(feed.Entry) error { return nil })
			var pe *filter.PosError
			if !errors.As(err, &pe) {
				t.Fatalf("%s %q: error %v, want a position", tc.charset, tc.odd, err)
			}
			if col := want - strings.LastIndex(doc, "\n"); pe.Pos.Offset != int64(want) || pe.Pos.Col != col {
				t.Errorf("%s %q: error at offset %d, column %d; want %d, %d (the &)", tc.charset, tc.odd, pe.Pos.Offset, pe.Pos.Col, want, col)
			}
		}
	}
}

// A robots PI in a DOCTYPE is placed when the DOCTYPE ends, perhaps long
// after the position window moved past its start: the irregular
// characters between (a malformed two-byte sequence) still count.
func TestEntryPositionsInALongDoctype(t *testing.T) {
	doc := `<?xml version="1.0" encoding="Shift_JIS"?><!DOCTYPE feed [ <!-- ` + "\x81\xff" + ` --> <!--` + strings.Repeat("y", 40000) + `--> <?robots index='no' follow="no"?> ]><feed><entry/></feed>`
	var warnings []filter.Warning
	if err := processEntries(strings.NewReader(doc), "//entry", robofilter.Options{}, func(r feed.Entry) error {
		warnings = append(warnings, r.Warnings...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := strings.Index(doc, "<?robots")
	if len(warnings) != 1 || warnings[0].Pos.Offset != int64(want) || warnings[0].Col != want+1 {
		t.Fatalf("warnings %+v; want one at offset %d, column %d (the PI)", warnings, want, want+1)
	}
}
