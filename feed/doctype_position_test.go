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

// An error in a DOCTYPE longer than the feed reader's window of positions
// (16 to 32 KiB) stands where the XML stage puts it, however the input
// comes: the DOCTYPE's start for one past the token limit, the place in it
// for one it holds (found once the DOCTYPE ends). Records mode once put both at the window's start,
// wherever the window was when the error came: 1:49153 read whole and
// 1:49157 in reads of 29 for a DOCTYPE that starts at 1:22
// (FuzzEntriesLongRuns).
func TestErrorsInLongDOCTYPEsStandWhereTheXMLStagePutsThem(t *testing.T) {
	const limit = 64 << 10
	tests := []struct{ name, doc string }{
		{"a DOCTYPE past the limit", `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY e "` + strings.Repeat("0000", 19788) + `">]><rss><channel><item/></channel></rss>`},
		{"an error early in a long DOCTYPE", `<?xml version="1.0"?><!DOCTYPE rss [<!ELEMENT><!--` + strings.Repeat("0000\n", 8000) + `-->]><rss><channel><item/></channel></rss>`},
	}
	for _, tc := range tests {
		_, want := robofilter.Process(strings.NewReader(tc.doc), robofilter.Options{Format: robofilter.XML, MaxTokenSize: limit}, robofilter.Outputs{})
		var wantPE *filter.PosError
		if !errors.As(want, &wantPE) {
			t.Fatalf("%s: the XML stage's error %v, want a positioned one", tc.name, want)
		}
		for name, r := range map[string]func() io.Reader{
			"whole":            func() io.Reader { return strings.NewReader(tc.doc) },
			"a byte at a time": func() io.Reader { return iotest.OneByteReader(strings.NewReader(tc.doc)) },
			"reads of 29":      func() io.Reader { return chunked.Reader(strings.NewReader(tc.doc), 29) },
			"reads of 600":     func() io.Reader { return chunked.Reader(strings.NewReader(tc.doc), 600) },
		} {
			_, err := feed.Process(r(), "//item", robofilter.Options{MaxTokenSize: limit}, func(feed.Entry) error { return nil })
			var pe *filter.PosError
			if !errors.As(err, &pe) || !errors.Is(err, errors.Unwrap(wantPE)) && pe.Err.Error() != wantPE.Err.Error() {
				t.Errorf("%s, read %s: error %v, want %v", tc.name, name, err, want)
				continue
			}
			if pe.Pos.Line != wantPE.Pos.Line || pe.Pos.Col != wantPE.Pos.Col {
				t.Errorf("%s, read %s: error at %d:%d, the XML stage's at %d:%d (%v)", tc.name, name, pe.Pos.Line, pe.Pos.Col, wantPE.Pos.Line, wantPE.Pos.Col, err)
			}
		}
	}
}
