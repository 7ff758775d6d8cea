package feed_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"golang.org/x/text/encoding/charmap"
)

// xmlStageWarningAt finds the XML stage's warning with this message.
func xmlStageWarningAt(t *testing.T, doc string, message string) (filter.Warning, bool) {
	t.Helper()
	res, err := robofilter.Process(strings.NewReader(doc), robofilter.Options{Format: robofilter.XML}, robofilter.Outputs{})
	if err != nil {
		t.Fatalf("the XML stage: %v", err)
	}
	for _, w := range res.Warnings {
		if w.Message == message {
			return w, true
		}
	}
	return filter.Warning{}, false
}

// A robots PI counts wherever the XML stage reads it: nested in an element
// between entries, inside a entry (in its content too), in the DOCTYPE's
// internal subset. The first legal one applies to the entry that holds
// it or follows it, and to every entry after; the others are reported
// with their line and column, in the XML stage's words and at its
// positions, whatever the charset and however the input arrives.
func TestEntriesRobotsPIsAnywhere(t *testing.T) {
	const feed = `<?xml version="1.0" encoding="windows-1251"?>
<!DOCTYPE feed [ <!ENTITY e "x"> <?robots index='no' follow="no"?> ]>
<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>1</id><title>Привет T1</title><content type="html">kept1</content></entry>
<x:meta xmlns:x="urn:x">Привет <?robots index="no" follow="no"?></x:meta>
<entry><id>2</id><title>T2</title><content type="html">&lt;a href="http://example.com/l"&gt;secret2&lt;/a&gt;</content></entry>
<entry><id>3</id><title>T3</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Привет <?robots index="yes" follow="yes"?>secret3</div></content></entry>
<entry><id>4</id><title>T4 <?robots index="yes"?></title></entry>
</feed>`
	doc := strings.Replace(encode(t, charmap.Windows1251.NewEncoder(), feed), "windows-1251", "windows-1251", 1)
	want := []struct {
		text     string
		warnings []string // messages, each at the XML stage's position
	}{
		{"kept1\n", []string{`illegal robots PI <?robots index='no' follow="no"?>: the index value is in single quotes: double quotes are required; it is ignored`}},
		{"", []string{"robots PI says noindex, nofollow after record 1: the records before it were already written, it applies from record 2 on"}},
		{"", []string{`a second robots PI (index="yes" follow="yes") is ignored: the first legal one, at 5:32, decides`}},
		{"", []string{`illegal robots PI <?robots index="yes"?>: no follow attribute after index (both are required); it is ignored`}},
	}
	var whole string
	for chunking, r := range entryChunkings([]byte(doc)) {
		recs, err := entriesFrom(r, "//entry", robofilter.Options{})
		if err != nil || len(recs) != len(want) {
			t.Fatalf("%s: %d records, %v", chunking, len(recs), err)
		}
		var got strings.Builder
		for i, w := range want {
			r := recs[i]
			text := ""
			if r.Doc != nil {
				text = r.Doc.Text
			}
			if text != w.text || i > 0 && r.Title != "" {
				t.Errorf("%s: record %d: title %q, text %q, want no title and %q", chunking, r.Index, r.Title, text, w.text)
			}
			if len(r.Warnings) != len(w.warnings) {
				t.Errorf("%s: record %d: warnings %+v, want %q", chunking, r.Index, r.Warnings, w.warnings)
				continue
			}
			for j, msg := range w.warnings {
				rw := r.Warnings[j]
				if rw.Message != msg {
					t.Errorf("%s: record %d: warning %q, want %q", chunking, r.Index, rw.Message, msg)
				}
				xw, ok := xmlStageWarningAt(t, doc, msg)
				if !ok {
					// Entries mode's own words: about entries. The
					// position is the PI's, as the XML stage's warning
					// about it after content gives it.
					xw, ok = xmlStageWarningAt(t, doc, "robots PI says noindex,nofollow after content was written: earlier content was already written, the rules apply from here on")
				}
				if !ok || rw.Line != xw.Line || rw.Col != xw.Col || rw.Pos.Offset != xw.Pos.Offset {
					t.Errorf("%s: record %d: warning at %d:%d (offset %d), the XML stage's at %d:%d (offset %d, found %v)", chunking, r.Index, rw.Line, rw.Col, rw.Pos.Offset, xw.Line, xw.Col, xw.Pos.Offset, ok)
				}
			}
			if r.Doc != nil {
				if l, ok := linkByHref(r.Doc, "example.com/l"); ok && l.Followed {
					t.Errorf("%s: record %d: link followed under the PI's nofollow", chunking, r.Index)
				}
			}
			fmt.Fprintf(&got, "%d %+v\n", r.Index, r.Warnings)
		}
		if whole == "" {
			whole = got.String()
		} else if got.String() != whole {
			t.Errorf("%s: warnings differ:\n%s\nfrom another reading:\n%s", chunking, got.String(), whole)
		}
	}
}

// A legal PI inside a entry applies to the whole entry (the XML stage
// applies it from where it stands: entries mode gives the entry whole or
// not at all) and to the entries after it, wherever it stands in the
// entry.
func TestEntriesRobotsPIInsideAEntryHoldsForIt(t *testing.T) {
	for _, where := range []string{
		`<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">secret1<?robots index="no" follow="yes"?></div></content>`,
		`<content type="html">secret1</content><x:ext xmlns:x="urn:x"><y><?robots index="no" follow="yes"?></y></x:ext>`,
		`<title>secret1 <?robots index="no" follow="yes"?></title><content type="html">secret1</content>`,
	} {
		feed := `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id>` + where + `</entry><entry><id>2</id><title>secret2</title><content type="html">secret2</content></entry></feed>`
		recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
		if err != nil || len(recs) != 2 {
			t.Fatalf("%s: %d records, %v", where, len(recs), err)
		}
		for _, r := range recs {
			if r.Title != "" || r.Doc != nil && r.Doc.Text != "" || len(r.Warnings) != 0 {
				t.Errorf("%s: record %d: title %q, text %q, warnings %+v: want nothing indexed, no warning", where, r.Index, r.Title, r.Doc.Text, r.Warnings)
			}
		}
	}
}

// A PI at the end of a long internal subset (longer than what the feed
// reader keeps of the bytes it handed out) is at its position too.
func TestEntriesRobotsPIAtTheEndOfALongDOCTYPE(t *testing.T) {
	doc := "<!DOCTYPE feed [\n" + strings.Repeat("<!ENTITY e \"é\">\n", 3000) + "<?robots index='no'?>]>\n<feed><entry><title>s</title></entry></feed>"
	msg := "illegal robots PI <?robots index='no'?>: the index value is in single quotes: double quotes are required; it is ignored"
	xw, ok := xmlStageWarningAt(t, doc, msg)
	if !ok {
		t.Fatal("the XML stage does not warn about the PI")
	}
	for chunking, r := range entryChunkings([]byte(doc)) {
		recs, err := entriesFrom(r, "//entry", robofilter.Options{})
		if err != nil || len(recs) != 1 || len(recs[0].Warnings) != 1 {
			t.Fatalf("%s: %d records, %v", chunking, len(recs), err)
		}
		if w := recs[0].Warnings[0]; w.Message != msg || w.Line != xw.Line || w.Col != xw.Col || w.Pos.Offset != xw.Pos.Offset {
			t.Errorf("%s: %+v at offset %d, want %+v at offset %d", chunking, w, w.Pos.Offset, xw, xw.Pos.Offset)
		}
	}
}

// A PI holding a '>' in the internal subset makes encoding/xml end the
// DOCTYPE early; the feed reader then keeps the rest up to the root as the
// DOCTYPE's. A robots PI after the subset, or in it after that PI, still
// counts, and a later PI does not wipe what was kept (the entities
// declared there stay declared).
func TestEntriesRobotsPIAfterADOCTYPEEncodingXMLEndsEarly(t *testing.T) {
	for _, tc := range []struct{ name, feed, title, text string }{
		{"robots PI after the subset", "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [\n<?other a > b?>\n]>\n<?robots index=\"no\" follow=\"no\"?>\n<feed><entry><title>secret</title><content>secret2</content></entry></feed>", "", ""},
		{"robots PI in the subset, another PI after it", "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [<?other a > b?><?robots index=\"no\" follow=\"no\"?><?z?>]>\n<feed><entry><title>secret</title><content>secret2</content></entry></feed>", "", ""},
		{"entities stay declared past a later PI", "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [\n<?other a > b?>\n<!ENTITY e \"x\">\n]>\n<?xml-stylesheet href=\"s.xsl\"?>\n<feed><entry><title>a&e;</title><content>c</content></entry></feed>", "ax", "c\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for chunking, r := range entryChunkings([]byte(tc.feed)) {
				recs, err := entriesFrom(r, "//entry", robofilter.Options{})
				if err != nil || len(recs) != 1 {
					t.Fatalf("%s: %d records, %v", chunking, len(recs), err)
				}
				if recs[0].Title != tc.title || recs[0].Doc == nil || recs[0].Doc.Text != tc.text {
					t.Errorf("%s: title %q, text %+v; want %q, %q", chunking, recs[0].Title, recs[0].Doc, tc.title, tc.text)
				}
			}
		})
	}
}
