package feed_test

import (
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
)

// In feed mode an entry's content runs with the base in effect at it
// (xml:base on the content, the record, its ancestors, the caller's base):
// its links are followed or not for the scheme of the URL they resolve
// to, as in the XML stage.
func TestEntryLinksFollowedForTheResolvedScheme(t *testing.T) {
	const notWeb = "not a web page (a URL scheme other than http and https)"
	doc := `<feed xmlns="http://www.w3.org/2005/Atom"%s>` +
		`<entry><id>html</id><content type="html">&lt;a href="passwd"&gt;p&lt;/a&gt;&lt;a href="https://abs.example/"&gt;a&lt;/a&gt;</content></entry>` +
		`<entry xml:base="sub/"><id>xhtml</id><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="x">x</a></div></content></entry>` +
		`<entry xml:base="https://h.example/e/"><id>web</id><content type="html">&lt;a href="y"&gt;y&lt;/a&gt;</content></entry>` +
		`<entry><id>base href</id><content type="html">&lt;base href="file:///home/"&gt;&lt;a href="z"&gt;z&lt;/a&gt;</content></entry>` +
		`</feed>`
	type link struct{ url, reason string }
	for _, c := range []struct {
		name, base, rootBase string
		want                 [][]link
	}{
		{"xml:base file", "", ` xml:base="file:///etc/"`, [][]link{
			{{"file:///etc/passwd", notWeb}, {"https://abs.example/", ""}},
			{{"file:///etc/sub/x", notWeb}},
			{{"https://h.example/e/y", ""}},
			{{"file:///home/z", notWeb}}}},
		{"caller's base ftp", "ftp://ftp.example/pub/feed.xml", "", [][]link{
			{{"ftp://ftp.example/pub/passwd", notWeb}, {"https://abs.example/", ""}},
			{{"ftp://ftp.example/pub/sub/x", notWeb}},
			{{"https://h.example/e/y", ""}},
			{{"file:///home/z", notWeb}}}},
		{"caller's base https", "https://example.com/feed.xml", "", [][]link{
			{{"https://example.com/passwd", ""}, {"https://abs.example/", ""}},
			{{"https://example.com/sub/x", ""}},
			{{"https://h.example/e/y", ""}},
			{{"file:///home/z", notWeb}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got [][]filter.Link
			err := processEntries(strings.NewReader(strings.Replace(doc, "%s", c.rootBase, 1)), "//entry", robofilter.Options{Base: c.base}, func(r feed.Entry) error {
				got = append(got, r.Doc.Links)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d entries, want %d", len(got), len(c.want))
			}
			for i, want := range c.want {
				if len(got[i]) != len(want) {
					t.Errorf("entry %d: links %+v, want %+v", i+1, got[i], want)
					continue
				}
				for j, w := range want {
					l := got[i][j]
					if l.URL != w.url || l.Followed != (w.reason == "") || l.Reason != w.reason {
						t.Errorf("entry %d link %d: %q followed %v (%q), want %q (%q)", i+1, j, l.URL, l.Followed, l.Reason, w.url, w.reason)
					}
				}
			}
		})
	}
}
