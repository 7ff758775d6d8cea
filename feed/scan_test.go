package feed_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
)

// The feed reader skips runs of plain bytes in text, attribute values and
// CDATA sections; what ends a run is still seen, wherever the run starts
// and however long it is (across the reader's 512-byte chunks too): an
// illegal character, invalid UTF-8, "]]>" in text, a quote, and a CDATA
// section's end after any number of ']'. Errors are where the XML stage
// puts them; well-formed titles read as the XML stage reads them.
func TestEntriesFeedReaderSkipsPlainRunsWithoutMissingWhatEndsThem(t *testing.T) {
	for _, n := range []int{0, 1, 2, 509, 510, 511, 512, 1500} {
		run := strings.Repeat("a b>", n/4) + strings.Repeat("x", n%4)
		for _, tc := range []struct{ name, input, title string }{
			{"control character in text", "<d><title>" + run + "\x01</title></d>", ""},
			{"control character in an attribute value", `<d a="` + run + "\x01\"><title>t</title></d>", ""},
			{"control character in a CDATA section", "<d><title><![CDATA[" + run + "<\x01]]></title></d>", ""},
			{"invalid UTF-8 in a CDATA section", "<d><title><![CDATA[" + run + "\xff]]></title></d>", ""},
			{"noncharacter in text", "<d><title>" + run + "\uFFFE</title></d>", ""},
			{"CDATA end in text", "<d><title>" + run + "]]></title></d>", ""},
			{"CDATA section ends after brackets", "<d><title><![CDATA[" + run + "]]]]>-<![CDATA[<p>" + run + "]>]]></title></d>", run + "]]-<p>" + run + "]>"},
			{"attribute value ends at its quote", `<d a='` + run + `"'><title>` + run + `'"</title></d>`, run + `'"`},
			{"text with characters past ASCII", "<d><title>" + run + "é€😀" + run + "</title></d>", run + "é€😀" + run},
		} {
			t.Run(fmt.Sprintf("%s after %d plain bytes", tc.name, n), func(t *testing.T) {
				xerr := xmlStageError(t, []byte(tc.input), robofilter.Options{})
				var xpe, pe *filter.PosError
				if (xerr != nil) != (tc.title == "") || xerr != nil && !errors.As(xerr, &xpe) {
					t.Fatalf("the XML stage gives %v", xerr)
				}
				for chunking, r := range entryChunkings([]byte(tc.input)) {
					recs, err := entriesFrom(r, "/d", robofilter.Options{})
					switch {
					case xpe != nil && (!errors.As(err, &pe) || pe.Pos != xpe.Pos):
						t.Errorf("%s: error %v, want one at %s (%v)", chunking, err, xpe.Pos, xerr)
					case xpe == nil && (err != nil || len(recs) != 1 || recs[0].Title != strings.Join(strings.Fields(tc.title), " ")):
						t.Errorf("%s: %d records, err %v, want the title %q", chunking, len(recs), err, tc.title)
					}
				}
			})
		}
	}
}

// The feed reader reads on after a CDATA section: its tokenizer skipped the
// '>' after "]]" in a run of plain bytes and stayed in the section to the
// end of the document, so that after the first CDATA section (an RSS
// description's HTML) nothing was counted for the entries bound and no
// entity reached the decoder's map (a declared entity was then an error).
func TestEntriesFeedReaderReadsOnAfterACDATASection(t *testing.T) {
	item := `<item><title>a</title><description><![CDATA[<p>x</p>]]></description></item>`
	_, err := collectEntries(t, otherLines(item, 3*feed.MaxEntryTags), "//item", robofilter.Options{})
	var pe *filter.PosError
	if !errors.Is(err, feed.ErrEntryTooLarge) || !errors.As(err, &pe) || pe.Pos.Line < feed.MaxEntryTags/2 {
		t.Errorf("err %v, want ErrRecordTooLarge past line %d", err, feed.MaxEntryTags/2)
	}

	doc := `<!DOCTYPE rss [<!ENTITY e "caf&#233;">]><rss><channel>` + item + `<item><title>&e;</title></item></channel></rss>`
	for chunking, r := range entryChunkings([]byte(doc)) {
		recs, err := entriesFrom(r, "//item", robofilter.Options{})
		if err != nil || len(recs) != 2 || recs[1].Title != "café" {
			t.Errorf("%s: %d records, err %v, want the second titled café", chunking, len(recs), err)
		}
	}
}
