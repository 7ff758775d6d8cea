package feed_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/weburl"
	"github.com/robofilter/robofilter/xmlstream"
)

// processEntries runs Process for its error alone.
func processEntries(r io.Reader, xpath string, opts robofilter.Options, fn func(feed.Entry) error) error {
	_, err := feed.Process(r, xpath, opts, fn)
	return err
}

// entries runs Process and collects the entries.
func collectEntries(t *testing.T, doc, xpath string, opts robofilter.Options) ([]feed.Entry, error) {
	t.Helper()
	var recs []feed.Entry
	err := processEntries(strings.NewReader(doc), xpath, opts, func(r feed.Entry) error {
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

func linkByHref(doc *robofilter.Document, part string) (filter.Link, bool) {
	for _, l := range doc.Links {
		if strings.Contains(l.Href, part) {
			return l, true
		}
	}
	return filter.Link{}, false
}

// TestRecordsSeedFeedExamples runs the seed Atom feed (the microformats wiki
// page "robots-exclusion" as escaped HTML) entry by entry. The entry's
// HTML is a wiki diff whose examples are code shown on the page (escaped
// twice in the feed): the entry's text shows them as written, and read as
// the HTML they are, the Nantucket div is excluded and the bogus links are
// not followed.
func TestEntriesSeedFeedExamples(t *testing.T) {
	feed, err := os.ReadFile(shared.Path(t, "seeds", "002_61219928c099cc24.txt"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := collectEntries(t, string(feed), "/feed/entry", robofilter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	r := recs[0]
	wantLink := "http://microformats.org/wiki/index.php?title=robots-exclusion&diff=17890"
	if r.Index != 1 || r.ID != wantLink || r.Title != "robots-exclusion" || r.Link != wantLink {
		t.Errorf("record %d id=%q title=%q link=%q", r.Index, r.ID, r.Title, r.Link)
	}
	if r.Doc == nil {
		t.Fatal("no content")
	}
	shown := "<div class=”robots-noindex”>There once was a man from Nantucket…</div>"
	if !strings.Contains(r.Doc.Text, shown) {
		t.Fatalf("the entry's text does not show the example %q", shown)
	}
	// The examples, read as HTML.
	ex, err := robofilter.Filter(strings.NewReader(r.Doc.Text), robofilter.Options{Format: robofilter.HTML})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ex.Text, "Nantucket") || strings.Contains(ex.Text, "pornography") {
		t.Errorf("robots-noindex content indexed:\n%s", ex.Text)
	}
	if !strings.Contains(ex.Text, "This page is not about") {
		t.Errorf("the text around the excluded span is missing:\n%s", ex.Text)
	}
	for _, bogus := range []string{"example.com/bogus", "example.net/bogus", "example.com/disagree"} {
		l, ok := linkByHref(ex, bogus)
		if !ok || l.Followed {
			t.Errorf("link %s: listed=%v followed=%v, want listed and not followed", bogus, ok, l.Followed)
		}
	}
	if l, ok := linkByHref(ex, "example.com/agree"); !ok || !l.Followed {
		t.Errorf("link example.com/agree: listed=%v followed=%v, want followed", ok, l.Followed)
	}
}

func TestEntriesHonourRobotsMarkupInEntries(t *testing.T) {
	feed := `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/blog/">
  <title>Feed</title>
  <entry>
    <id>urn:1</id><title>  One
      entry </title>
    <link rel="self" href="self-1"/><link href="one.html"/>
    <content type="html">&lt;p&gt;kept&lt;/p&gt;&lt;p class="robots-noindex"&gt;secret&lt;/p&gt;&lt;!--googleoff: index--&gt;&lt;p&gt;off&lt;/p&gt;&lt;!--googleon: index--&gt;&lt;a href="rel.html"&gt;relative&lt;/a&gt;</content>
  </entry>
  <entry xml:base="sub/">
    <id>urn:2</id><title>Two</title><link rel="alternate" href="two.html"/>
    <summary>plain &lt;b&gt;text&lt;/b&gt; is not markup</summary>
  </entry>
  <entry>
    <id>urn:3</id><title>Three</title>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p class="robots-nofollow"><a href="nf.html">nf</a></p><p data-nosnippet="">nosnip</p></div></content>
  </entry>
  <entry><id>urn:4</id><title>No content</title></entry>
</feed>`
	recs, err := collectEntries(t, feed, "/feed/entry", robofilter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	one, two, three, four := recs[0], recs[1], recs[2], recs[3]
	if one.ID != "urn:1" || one.Title != "One entry" || one.Link != "http://example.com/blog/one.html" {
		t.Errorf("record 1: id=%q title=%q link=%q", one.ID, one.Title, one.Link)
	}
	if one.Doc.Text != "kept\n\nrelative\n" {
		t.Errorf("record 1 text %q", one.Doc.Text)
	}
	if l, ok := linkByHref(one.Doc, "rel.html"); !ok || l.URL != "http://example.com/blog/rel.html" || !l.Followed {
		t.Errorf("record 1 link %+v (listed %v), want http://example.com/blog/rel.html followed", l, ok)
	}
	if two.Link != "http://example.com/blog/sub/two.html" || two.Doc.Text != "plain <b>text</b> is not markup\n" {
		t.Errorf("record 2: link=%q text=%q", two.Link, two.Doc.Text)
	}
	if l, ok := linkByHref(three.Doc, "nf.html"); !ok || l.Followed {
		t.Errorf("record 3: link in robots-nofollow followed (listed %v)", ok)
	}
	if !strings.Contains(three.Doc.Text, "nosnip") || strings.Contains(three.Doc.ArchiveText, "nosnip") {
		t.Errorf("record 3: text %q archive text %q", three.Doc.Text, three.Doc.ArchiveText)
	}
	if four.Doc != nil || four.Index != 4 {
		t.Errorf("record 4: index %d doc %v, want 4 and no content", four.Index, four.Doc)
	}
}

func TestEntriesRSSWithFeedRobotsPI(t *testing.T) {
	feed := `<?xml version="1.0" encoding="windows-1251"?>
<!DOCTYPE rss [ <?robots index="yes" follow="no"?> ]>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>C</title><link>http://example.com/</link>
<item><title>` + "\xcf\xf0\xe8\xe2\xe5\xf2" + `</title><link>http://example.com/1</link><guid>g1</guid>
  <description>&lt;p&gt;short&lt;/p&gt;</description>
  <content:encoded><![CDATA[<p class="robots-noindex">hidden</p><p>full &nbsp;text</p><a href="/x">x</a>]]></content:encoded>
</item>
<item><title>2</title><link>http://example.com/2</link><description>only description</description></item>
</channel></rss>`
	recs, err := collectEntries(t, feed, "/rss/channel/item", robofilter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	if r.Title != "Привет" || r.ID != "g1" || r.Link != "http://example.com/1" {
		t.Errorf("record 1: title=%q id=%q link=%q", r.Title, r.ID, r.Link)
	}
	if r.Doc.Text != "full text\nx\n" {
		t.Errorf("record 1: content:encoded is not the content: %q", r.Doc.Text)
	}
	if l, ok := linkByHref(r.Doc, "/x"); !ok || l.Followed || l.Reason != "document nofollow" {
		t.Errorf("record 1: the feed's robots PI (follow=no) not applied: %+v", l)
	}
	if recs[1].Doc.Text != "only description\n" {
		t.Errorf("record 2 text %q", recs[1].Doc.Text)
	}
}

func TestEntriesErrors(t *testing.T) {
	t.Run("not well-formed", func(t *testing.T) {
		recs, err := collectEntries(t, `<feed><entry><id>1</id></entry><entry><id>2</wrong></entry></feed>`, "//entry", robofilter.Options{})
		var pe *filter.PosError
		if !errors.As(err, &pe) || pe.Pos.Line != 1 || pe.Pos.Col != 44 || !errors.Is(err, xmlstream.ErrNotWellFormed) || len(recs) != 1 {
			t.Errorf("err %v after %d records, want a PosError at 1:44 (the end tag) and 1 record", err, len(recs))
		}
	})
	t.Run("bad XPath", func(t *testing.T) {
		if _, err := collectEntries(t, `<feed/>`, "//entry[", robofilter.Options{}); err == nil {
			t.Error("no error")
		}
	})
	t.Run("callback error stops", func(t *testing.T) {
		stop := errors.New("stop")
		n := 0
		err := processEntries(strings.NewReader(`<f><e/><e/><e/></f>`), "//e", robofilter.Options{}, func(feed.Entry) error {
			n++
			return stop
		})
		if !errors.Is(err, stop) || n != 1 {
			t.Errorf("err %v after %d calls", err, n)
		}
	})
	t.Run("undeclared entity with an external subset is read, not fatal", func(t *testing.T) {
		recs, err := collectEntries(t, `<!DOCTYPE rss SYSTEM "rss.dtd"><rss><channel><item><title>caf&eacute; &bogus;</title></item></channel></rss>`, "//item", robofilter.Options{})
		if err != nil || len(recs) != 1 || recs[0].Title != "café &bogus;" {
			t.Errorf("err %v records %+v", err, recs)
		}
	})
	t.Run("undeclared entity without a DTD is not well-formed", func(t *testing.T) {
		recs, err := collectEntries(t, `<rss><channel><item><title>a</title></item><item><title>caf&eacute;</title></item></channel></rss>`, "//item", robofilter.Options{})
		var pe *filter.PosError
		if !errors.As(err, &pe) || pe.Pos.String() != "1:60" || !errors.Is(err, xmlstream.ErrNotWellFormed) || len(recs) != 1 {
			t.Errorf("err %v after %d records, want a PosError at 1:60 (&eacute;) and 1 record", err, len(recs))
		}
	})
}

// TestRecordsBound checks the entries mode's bound: an XPath that matches
// nothing fails after MaxEntryTags tags instead of holding and searching
// a growing tree, and a feed whose entries are separated by many other
// elements still runs in time linear in its size (everything outside the
// current entry's path is pruned).
func TestEntriesBound(t *testing.T) {
	// An XPath that matches nothing fails at the bound, however long the
	// document: the work does not grow with what comes after it.
	noMatch := func(tags int) string {
		var b bytes.Buffer
		b.WriteString("<rss><channel>")
		for i := 0; i < tags; i++ {
			fmt.Fprintf(&b, "<other>%d</other>", i)
		}
		b.WriteString("</channel></rss>")
		return b.String()
	}
	// What it reads before it fails does not grow with the document (the
	// bound, and the reader's buffers), nor does what it allocates.
	var read [2]int64
	var work [2]uint64
	for i, tags := range []int{3 * feed.MaxEntryTags, 6 * feed.MaxEntryTags} {
		doc := noMatch(tags)
		in := &countingReader{r: strings.NewReader(doc)}
		var err error
		work[i] = mallocs(func() {
			err = processEntries(in, "//item", robofilter.Options{}, func(feed.Entry) error { return nil })
		})
		if !errors.Is(err, feed.ErrEntryTooLarge) {
			t.Fatalf("err %v, want ErrEntryTooLarge", err)
		}
		read[i] = in.n
	}
	if read[1] > read[0]+128<<10 || float64(work[1]) > 1.3*float64(work[0]) {
		t.Errorf("no match: %d bytes read and %d allocations for %d tags, %d and %d for twice as many; want about as many (the bound)",
			read[0], work[0], 3*feed.MaxEntryTags, read[1], work[1])
	}

	// Entries among many other elements, each in a group of its own:
	// pruning keeps the parser's tree to the path to the entry (xmlquery
	// drops only the entry's own earlier siblings), so twice the entries
	// cost about twice the allocations, and what the run holds does not
	// grow with the document (measured after a collection at the 100th
	// entry and at the last).
	withJunk := func(items int) string {
		var b bytes.Buffer
		b.WriteString("<rss><channel>")
		for i := 0; i < items; i++ {
			b.WriteString("<group>")
			for j := 0; j < 50; j++ {
				fmt.Fprintf(&b, "<junk a='%d'>%d</junk>", j, j)
			}
			fmt.Fprintf(&b, "<item><title>t%d</title><link>http://example.com/%d</link><description>d</description></item></group>", i, i)
		}
		b.WriteString("</channel></rss>")
		return b.String()
	}
	for _, xpath := range []string{"/rss/channel/group/item", "//item"} {
		var work [2]uint64
		for i, items := range []int{300, 600} {
			doc := withJunk(items)
			var held [2]uint64
			n := 0
			var err error
			work[i] = mallocs(func() {
				_, err = feed.Process(strings.NewReader(doc), xpath, robofilter.Options{}, func(feed.Entry) error {
					if n++; n == 100 || n == items {
						held[min(n/items, 1)] = liveHeap()
					}
					return nil
				})
			})
			if err != nil || n != items {
				t.Fatalf("%s: %d entries, err %v; want %d", xpath, n, err, items)
			}
			if grown := int64(held[1]) - int64(held[0]); grown > 1<<20 {
				t.Errorf("%s, %d entries: %d bytes more held at the last entry than at the 100th; want what one entry holds", xpath, items, grown)
			}
		}
		if float64(work[1]) > 2.5*float64(work[0]) {
			t.Errorf("%s: %d allocations for 300 entries, %d for 600: more than linear", xpath, work[0], work[1])
		}
	}
}

// liveHeap is the bytes the heap holds after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// mallocs counts the heap allocations fn makes.
func mallocs(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

func TestEntriesHonourTheFeedAroundEachEntry(t *testing.T) {
	const feed = `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<entry class="robots-noindex"><id>1</id><title>T1</title><content type="html">secret1</content></entry>
<entry><id>2</id><content type="html" class="robots-nofollow">&lt;a href="/x"&gt;x&lt;/a&gt;</content></entry>
<?robots index='no' follow="yes"?>
<entry><id>3</id><title type="html">Cats &amp;amp; &lt;b&gt;dogs&lt;/b&gt;</title><content type="html">c</content></entry>
<?robots index="no" follow="yes"?>
<entry><id>4</id><title>T4</title><content type="html">secret4</content></entry>
</feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if recs[0].Doc.Text != "" || recs[0].Title != "" {
		t.Errorf("class robots-noindex on the entry ignored: text %q, title %q", recs[0].Doc.Text, recs[0].Title)
	}
	if l, ok := linkByHref(recs[1].Doc, "/x"); !ok || l.Followed {
		t.Errorf("class robots-nofollow on the content ignored: %+v", l)
	}
	if recs[2].Title != "Cats & dogs" || recs[2].Doc.Text != "c\n" {
		t.Errorf("record 3: title %q (an HTML title is read as HTML), text %q", recs[2].Title, recs[2].Doc.Text)
	}
	if len(recs[2].Warnings) != 1 || !strings.Contains(recs[2].Warnings[0].Message, "illegal robots PI") {
		t.Errorf("the illegal PI before record 3 is not reported: %+v", recs[2].Warnings)
	}
	if recs[3].Doc.Text != "" || recs[3].Title != "" {
		t.Errorf("a legal PI between records applies from there on: text %q, title %q", recs[3].Doc.Text, recs[3].Title)
	}
}

// The charset's warnings reach entries mode as they reach the XML stage:
// on the first entry, at the document's start.
func TestEntriesGiveTheCharsetWarnings(t *testing.T) {
	const entries = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><content type="html">café</content></entry><entry><id>2</id><content type="html">b</content></entry></feed>`
	for _, c := range []struct {
		name, doc, charset, warning string
	}{
		{"unknown encoding", `<?xml version="1.0" encoding="x-no-such"?>` + entries, "", `names encoding "x-no-such", which is not known`},
		{"BOM over the declaration", "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>" + entries, "", "the byte order mark says utf-8"},
		{"BOM over --charset", "\xEF\xBB\xBF" + entries, "iso-8859-1", "--charset iso-8859-1 is not used"},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := collectEntries(t, c.doc, "//entry", robofilter.Options{Charset: c.charset})
			if err != nil || len(recs) != 2 {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			if got := recs[0].Doc.Text; got != "café\n" {
				t.Errorf("record 1's text is %q, want café read as UTF-8", got)
			}
			w := recs[0].Warnings
			if len(w) != 1 || !strings.Contains(w[0].Message, c.warning) || w[0].Line != 1 || w[0].Col != 1 {
				t.Fatalf("record 1's warnings: %+v, want one at 1:1 containing %q", w, c.warning)
			}
			if len(recs[1].Warnings) != 0 {
				t.Errorf("record 2 repeats the charset's warnings: %+v", recs[1].Warnings)
			}
			// The XML stage gives the same message.
			res, err := robofilter.Process(strings.NewReader(c.doc), robofilter.Options{Format: robofilter.XML, Charset: c.charset}, robofilter.Outputs{})
			if err != nil || len(res.Warnings) == 0 || res.Warnings[0].Message != w[0].Message {
				t.Errorf("the XML stage says %+v (%v), records mode %q", res.Warnings, err, w[0].Message)
			}
		})
	}
}

// Process returns the feed's Result, as Process a document's, when the
// feed ends and when an error stops it: the charset and the document-level
// directives, the feed's first legal robots PI among them (the one that
// applied to the entries, else one read after the last entry, before the
// error or the end), as the XML stage gives them; no warnings (the entries
// have them). It is nil only for options no run takes.
func TestProcessFeedResult(t *testing.T) {
	for _, tc := range []struct {
		name, doc  string
		opts       robofilter.Options
		entries    int
		err        string // "": none
		charset    string
		directives string // noindex nofollow noarchive, then each source
	}{
		{name: "well_formed", doc: `<f><e>a</e><e>b</e></f>`, entries: 2, charset: "utf-8",
			directives: "false false false"},
		{name: "pi_before_the_records_and_x_robots_tag", doc: `<?robots index="no" follow="no"?><f><e>a</e></f>`,
			opts: robofilter.Options{XRobotsTag: []string{"noarchive"}}, entries: 1, charset: "utf-8",
			directives: `true true true x-robots-tag "noarchive" 0:0; robots PI "index=\"no\" follow=\"no\"" 1:1`},
		{name: "pi_after_the_last_record", doc: "<f><e>a</e>\n<?robots index=\"yes\" follow=\"no\"?></f>", entries: 1, charset: "utf-8",
			directives: `false true false robots PI "index=\"yes\" follow=\"no\"" 2:1`},
		{name: "pi_before_the_error", doc: "<f><e>a</e><?robots index=\"no\" follow=\"yes\"?><e>b &x</e></f>", entries: 1,
			err: "1:51: not well-formed XML: invalid character entity &x (no semicolon)", charset: "utf-8",
			directives: `true false false robots PI "index=\"no\" follow=\"yes\"" 1:12`},
		{name: "illegal_pi_is_no_directive", doc: `<?robots index='no' follow='no'?><f><e>a</e></f>`, entries: 1, charset: "utf-8",
			directives: "false false false"},
		{name: "declared_charset", doc: `<?xml version="1.0" encoding="ISO-8859-1"?><f><e>caf` + "\xe9" + `</e></f>`, entries: 1, charset: "windows-1252",
			directives: "false false false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			res, err := feed.Process(strings.NewReader(tc.doc), "//e", tc.opts, func(feed.Entry) error { n++; return nil })
			if got := fmt.Sprint(err); n != tc.entries || (tc.err == "" && err != nil) || (tc.err != "" && got != tc.err) {
				t.Errorf("%d records, error %v; want %d, %q", n, err, tc.entries, tc.err)
			}
			if res == nil {
				t.Fatal("no Result")
			}
			d := res.Directives
			got := fmt.Sprint(d.NoIndex, d.NoFollow, d.NoArchive)
			for i, s := range d.Sources {
				sep := " "
				if i > 0 {
					sep = "; "
				}
				got += fmt.Sprintf("%s%s %q %d:%d", sep, s.Origin, s.Value, s.Line, s.Col)
			}
			if got != tc.directives || res.Format != "xml" || res.Charset != tc.charset || len(res.Warnings) != 0 {
				t.Errorf("directives %s, format %q, charset %q, warnings %v; want %s, xml, %q, none", got, res.Format, res.Charset, res.Warnings, tc.directives, tc.charset)
			}
		})
	}
	if res, _ := feed.Process(strings.NewReader(`<f/>`), "//e", robofilter.Options{Base: "http://[::1"}, func(feed.Entry) error { return nil }); res != nil {
		t.Errorf("a base that does not parse: Result %+v, want nil", res)
	}
}

// A entry's link and its content's links resolve against the xml:base
// values above them as the XML stage resolves them (the WHATWG reading of
// http(s), a long base ignored), and each element's base is resolved once:
// entries under many nested xml:base values cost one resolution each
// (900 levels and 5,000 entries took minutes when every entry resolved
// every ancestor's value again).
func TestEntriesResolveXMLBaseAsTheXMLStage(t *testing.T) {
	const depth, entries = 900, 1000
	var b strings.Builder
	b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="HTTP://Example.COM:80/">`)
	b.WriteString(strings.Repeat(`<g xml:base="x/">`, depth))
	b.WriteString(`<g xml:base="` + strings.Repeat("y", weburl.MaxBaseLen) + `/">`) // too long: ignored
	for i := 0; i < entries; i++ {
		fmt.Fprintf(&b, `<entry><link href="p%d.html"/><content type="html">&lt;a href="q\r.html">q&lt;/a></content></entry>`, i)
	}
	b.WriteString(`</g>` + strings.Repeat(`</g>`, depth) + `</feed>`)
	recs, err := collectEntries(t, b.String(), "//entry", robofilter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := "http://example.com/" + strings.Repeat("x/", depth)
	if len(recs) != entries || recs[entries-1].Link != base+fmt.Sprintf("p%d.html", entries-1) {
		t.Fatalf("%d records, the last link %.80q…, want %d and %.80q…", len(recs), recs[len(recs)-1].Link, entries, base)
	}
	if l, ok := linkByHref(recs[0].Doc, "q"); !ok || l.URL != base+"q/r.html" {
		t.Errorf("the content's link %+v, want %.80q…", l, base+"q/r.html")
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A feed that is no text (a sitemap left gzipped) is not read, as the XML
// stage does not read it: no entry, no error, one warning that says what
// it is.
func TestProcessNotText(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`<urlset><url><loc>http://example.com/</loc></url></urlset>`))
	zw.Close()
	n := 0
	res, err := feed.Process(bytes.NewReader(gz.Bytes()), "//url", robofilter.Options{}, func(feed.Entry) error { n++; return nil })
	if err != nil || n != 0 {
		t.Fatalf("%d entries, error %v: want none, no error", n, err)
	}
	xres, xerr := robofilter.Process(bytes.NewReader(gz.Bytes()), robofilter.Options{Format: robofilter.XML}, robofilter.Outputs{})
	if xerr != nil {
		t.Fatal(xerr)
	}
	if res.Format != "" || len(res.Warnings) != 1 || !reflect.DeepEqual(res.Warnings, xres.Warnings) {
		t.Errorf("format %q, warnings %v: want no format and the XML stage's %v", res.Format, res.Warnings, xres.Warnings)
	}
}
