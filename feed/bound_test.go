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

// otherLines is a channel of n <other> elements, one per line after the
// first: the 1,001st '<' of the document (counting <rss> and <channel>)
// is the start tag of the 500th, at line 501, column 1.
func otherLines(before string, n int) string {
	var b strings.Builder
	b.WriteString("<rss><channel>" + before)
	for i := range n {
		fmt.Fprintf(&b, "\n<other>%d</other>", i)
	}
	b.WriteString("</channel></rss>")
	return b.String()
}

// The entries bound's error is a *filter.PosError at the tag that passed
// the limit, says what the limit is, since where it counts and what was
// done, and still wraps ErrEntryTooLarge.
func TestEntriesBoundErrorIsAtTheTagPastTheLimit(t *testing.T) {
	recs, err := collectEntries(t, otherLines("", 3*feed.MaxEntryTags), "//item", robofilter.Options{})
	var pe *filter.PosError
	if !errors.As(err, &pe) || !errors.Is(err, feed.ErrEntryTooLarge) {
		t.Fatalf("err %v, want a *filter.PosError wrapping ErrRecordTooLarge", err)
	}
	if len(recs) != 0 || pe.Pos.String() != "501:1" {
		t.Errorf("%d records, error at %s, want none and 501:1 (the 1,001st tag)", len(recs), pe.Pos)
	}
	for _, want := range []string{"more than 1000 tags", "since the start of the document", "stops here"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}

	// After entries, the error comes after them and counts from the last.
	recs, err = collectEntries(t, otherLines("<item><title>a</title></item><item><title>b</title></item>", 3*feed.MaxEntryTags), "//item", robofilter.Options{})
	if !errors.As(err, &pe) || len(recs) != 2 || pe.Pos.Line <= feed.MaxEntryTags/2 {
		t.Fatalf("%d records, err %v, want 2 records, then a PosError past line %d", len(recs), err, feed.MaxEntryTags/2)
	}
	if !strings.Contains(err.Error(), "since record 2 ended") || !strings.Contains(err.Error(), "after record 2") {
		t.Errorf("error %q does not say it counts since record 2 and stops after it", err)
	}
}

// The bound counts bytes too: the error is at the first byte past
// MaxEntryBytes read without a entry.
func TestEntriesBoundErrorIsAtTheBytePastTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 32 MiB")
	}
	doc := "<rss>" + strings.Repeat("x", feed.MaxEntryBytes) + "</rss>"
	_, err := collectEntries(t, doc, "//item", robofilter.Options{})
	var pe *filter.PosError
	if !errors.As(err, &pe) || !errors.Is(err, feed.ErrEntryTooLarge) {
		t.Fatalf("err %v, want a *filter.PosError wrapping ErrRecordTooLarge", err)
	}
	if pe.Pos.Offset != feed.MaxEntryBytes || !strings.Contains(err.Error(), "more than 33554432 bytes") {
		t.Errorf("error %v at offset %d, want more than 33554432 bytes, at offset %d", err, pe.Pos.Offset, feed.MaxEntryBytes)
	}
}

// Only markup counts as tags: the '<' of a CDATA section's HTML (an RSS
// description), of a comment or of a PI are not tags, so a entry whose
// escaped HTML holds thousands of them is read.
func TestEntriesBoundCountsMarkupNotLessThanSigns(t *testing.T) {
	html := strings.Repeat("<p>x</p>", 2*feed.MaxEntryTags)
	doc := "<rss><channel><item><title>t</title><description><![CDATA[" + html + "]]></description>" +
		"<!-- " + html + " --><?pi " + html + "?></item></channel></rss>"
	recs, err := collectEntries(t, doc, "//item", robofilter.Options{})
	if err != nil || len(recs) != 1 || recs[0].Doc == nil || !strings.HasPrefix(recs[0].Doc.Text, "x\nx\n") {
		t.Fatalf("%d records, err %v", len(recs), err)
	}
}
