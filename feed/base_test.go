package feed

import (
	"strings"
	"testing"

	"github.com/antchfx/xmlquery"
)

// The memo of bases holds the entries' ancestors only: a entry's own
// elements would keep the whole entry alive after it is done (4,096 of
// them kept about 1,400 entries of a feed in memory).
func TestBaseMemoHoldsOnlyTheEntriesAncestors(t *testing.T) {
	doc, err := xmlquery.Parse(strings.NewReader(`<feed xml:base="http://a.example/f/"><g xml:base="g/">` +
		`<entry xml:base="e/"><link href="x.html"/><content xml:base="c/">text</content></entry></g></feed>`))
	if err != nil {
		t.Fatal(err)
	}
	entry := xmlquery.FindOne(doc, "//entry")
	rb := newEntryBuffers()
	rb.entry, rb.entryBase = entry, rb.ancestorBase(entry.Parent, "")
	if got := rb.resolveAt(xmlquery.FindOne(entry, "link"), "x.html"); got != "http://a.example/f/g/e/x.html" {
		t.Errorf("link %q", got)
	}
	if got := rb.baseAt(xmlquery.FindOne(entry, "content")); got.String() != "http://a.example/f/g/e/c/" {
		t.Errorf("content's base %v", got)
	}
	for n := range rb.bases {
		for c := n; c != nil; c = c.Parent {
			if c == entry {
				t.Errorf("the memo holds <%s>, in the record", n.Data)
			}
		}
	}
	if len(rb.bases) == 0 {
		t.Error("the memo holds nothing")
	}
}
