package feed_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
)

// xmlStageWords are the words the XML stage indexes in the document.
func xmlStageWords(t *testing.T, doc string, opts robofilter.Options) map[string]bool {
	t.Helper()
	opts.Format = robofilter.XML
	d, err := robofilter.Filter(strings.NewReader(doc), opts)
	if err != nil {
		t.Fatalf("the XML stage: %v", err)
	}
	words := map[string]bool{}
	for _, w := range strings.Fields(d.Text) {
		words[w] = true
	}
	return words
}

// noWordsBeyondTheXMLStage fails the test where entries mode indexes a word
// (in a title or a entry's text) that the XML stage does not index in the
// same document: text under noindex leaked. (Only for feeds without
// escaped HTML, which entries mode reads as HTML and the XML stage as
// text.)
func noWordsBeyondTheXMLStage(t *testing.T, doc string, recs []feed.Entry) {
	t.Helper()
	xml := xmlStageWords(t, doc, robofilter.Options{})
	for _, r := range recs {
		text := r.Title
		if r.Doc != nil {
			text += " " + r.Doc.Text
		}
		for _, w := range strings.Fields(text) {
			if !xml[w] {
				t.Errorf("record %d indexes %q, which the XML stage does not index", r.Index, w)
			}
		}
	}
}

// CDATA sections and PIs inside inline XHTML are what XML makes of them:
// a CDATA section is text, a PI nothing. Neither can open markup (entries
// mode wrote them out as XML for the HTML pipeline, which read "<![CDATA["
// and "<?" as bogus comments ending at the first '>', so the rest of their
// text became tags: a robots-index paragraph inside a noindex div, a link).
func TestEntriesCDATAAndPIsInInlineXHTMLAreNotMarkup(t *testing.T) {
	const feed = `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>1</id><title>T1</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml" class="robots-noindex"><![CDATA[><p class="robots-index">]]>secret text</div></content></entry>
<entry><id>2</id><title>T2</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><![CDATA[><a href="http://evil/">]]>click</div></content></entry>
<entry><id>3</id><title>T3</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><![CDATA[<b>cd</b>]]></div></content></entry>
<entry><id>4</id><title>T4</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml" class="robots-noindex"><?x ><p class="robots-index">?>pi secret</div></content></entry>
<entry><id>5</id><title>T5</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><?x ><a href="http://evil/">?>pi click</div></content></entry>
<entry><id>6</id><title>T6</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml" class="robots-noindex"><!--><p class="robots-index">-->comment secret</div></content></entry>
</feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil || len(recs) != 6 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for i, want := range []string{"", `><a href="http://evil/">click` + "\n", "<b>cd</b>\n", "", "pi click\n", ""} {
		r := recs[i]
		if r.Doc == nil || r.Doc.Text != want {
			t.Errorf("record %d: text %q, want %q", r.Index, r.Doc.Text, want)
			continue
		}
		if len(r.Doc.Links) != 0 {
			t.Errorf("record %d: links %+v, want none", r.Index, r.Doc.Links)
		}
	}
	noWordsBeyondTheXMLStage(t, feed, recs)
}

// Inline XHTML is read on the XML tree, as the XML stage reads it, not on
// the tree an HTML parser builds from the same tags (which closes a p at a
// div, moves what a table cannot hold before it, and does not know
// prefixed names): a region holds what XML puts inside it.
func TestEntriesInlineXHTMLFollowsTheXMLTree(t *testing.T) {
	const feed = `<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>1</id><title>T1</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p class="robots-noindex"><div>secret1</div></p><table class="robots-noindex"><b>secret2</b></table><p>kept</p></div></content></entry>
<entry><id>2</id><title>T2</title><content type="xhtml"><h:div xmlns:h="http://www.w3.org/1999/xhtml"><h:script>secret3()</h:script><h:p>one</h:p><h:p>two</h:p><h:a href="http://example.com/x">x</h:a><h:p class="robots-nofollow"><h:a href="http://example.com/nf">nf</h:a></h:p></h:div></content></entry>
</feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if got := recs[0].Doc.Text; got != "kept\n" {
		t.Errorf("record 1: text %q, want kept alone", got)
	}
	if got := recs[1].Doc.Text; got != "one\ntwo\nx\nnf\n" {
		t.Errorf("record 2: text %q, want one, two, x and nf as blocks (prefixed XHTML names follow the HTML rules)", got)
	}
	if l, ok := linkByHref(recs[1].Doc, "/x"); !ok || !l.Followed {
		t.Errorf("record 2: the prefixed XHTML link: %+v (listed %v), want followed", l, ok)
	}
	if l, ok := linkByHref(recs[1].Doc, "/nf"); !ok || l.Followed {
		t.Errorf("record 2: the link in robots-nofollow: %+v (listed %v), want listed, not followed", l, ok)
	}
	noWordsBeyondTheXMLStage(t, feed, recs)
}

// Atom content whose type is an XML media type (ending in +xml or /xml,
// RFC 4287 section 4.1.3.3) holds markup; so does any content element with
// child elements, whatever its type says: the children are read as the XML
// stage reads them (classes honoured, element boundaries separate words,
// XLink links listed), not as their text run together.
func TestEntriesContentWithXMLChildrenIsReadAsMarkup(t *testing.T) {
	const doc = `<doc xmlns="urn:d" xmlns:xlink="http://www.w3.org/1999/xlink"><p class="robots-noindex">secret</p><p>public</p><p>words</p>` +
		`<ref xlink:href="http://example.com/x">ref</ref><ref class="robots-nofollow" xlink:href="http://example.com/nf">nf</ref></doc>`
	for _, c := range []struct{ name, open, close string }{
		{"application/xml", `<content type="application/xml">`, `</content>`},
		{"text/xml", `<content type="text/xml">`, `</content>`},
		{"+xml with parameters", `<content type="Application/vnd.example+XML; charset=utf-8">`, `</content>`},
		{"no type (text, which has no child elements)", `<content>`, `</content>`},
		{"html with child elements", `<content type="html">`, `</content>`},
		{"a summary", `<summary type="text/xml">`, `</summary>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			feed := `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><title>T</title>` + c.open + doc + c.close + `</entry></feed>`
			recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
			if err != nil || len(recs) != 1 || recs[0].Doc == nil {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			d := recs[0].Doc
			if d.Text != "public words ref nf\n" {
				t.Errorf("text %q, want %q", d.Text, "public words ref nf\n")
			}
			if l, ok := linkByHref(d, "/x"); !ok || !l.Followed {
				t.Errorf("the XLink: %+v (listed %v), want followed", l, ok)
			}
			if l, ok := linkByHref(d, "/nf"); !ok || l.Followed {
				t.Errorf("the XLink in robots-nofollow: %+v (listed %v), want listed, not followed", l, ok)
			}
			noWordsBeyondTheXMLStage(t, feed, recs)
		})
	}
	// RSS: a description with unescaped markup.
	feed := `<rss><channel><item><title>T</title><description><p class="robots-noindex">secret</p><p>public</p></description></item></channel></rss>`
	recs, err := collectEntries(t, feed, "//item", robofilter.Options{})
	if err != nil || len(recs) != 1 || recs[0].Doc == nil || recs[0].Doc.Text != "public\n" {
		t.Fatalf("RSS description with child elements: %+v, %v", recs, err)
	}
}

// recordTexts checks each entry's title and text.
func entryTexts(t *testing.T, recs []feed.Entry, want [][2]string) {
	t.Helper()
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		r := recs[i]
		text := ""
		if r.Doc != nil {
			text = r.Doc.Text
		}
		if r.Title != w[0] || text != w[1] {
			t.Errorf("record %d: title %q, text %q; want %q, %q", r.Index, r.Title, text, w[0], w[1])
		}
	}
}

// A entry's title honours the robots markup on it and inside it, at the
// XML level, as its content does: robots classes on the title element and
// inside inline markup, the comment dialects inside it; so does text
// content with comments inside.
func TestEntriesTitlesHonourRobotsMarkupOnAndInside(t *testing.T) {
	const feed = `<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>1</id><title class="robots-noindex">Secret title</title><content type="html">body</content></entry>
<entry><id>2</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Public <span class="robots-noindex">hidden</span></div></title><content type="html">b</content></entry>
<entry><id>3</id><title>a<!--googleoff: index-->off<!--googleon: index-->b</title></entry>
<entry><id>4</id><title>T4<!--noindex--> off<!--/noindex--></title></entry>
<entry><id>5</id><title>T5</title><content type="text">x<!--googleoff: index-->secret5<!--googleon: index-->y</content></entry>
</feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	entryTexts(t, recs, [][2]string{{"", "body\n"}, {"Public", "b\n"}, {"a b", ""}, {"T4", ""}, {"T5", "x\n\ny\n"}})
	noWordsBeyondTheXMLStage(t, feed, recs)
}

// Comment regions hold in document order across entries and fields, as in
// the XML stage: around a title or a content, between entries, from inside
// one field to the next entry.
func TestEntriesCommentRegionsHoldAcrossEntriesAndFields(t *testing.T) {
	const feed = `<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>1</id><!--googleoff: index--><title>Off title</title><!--googleon: index--><content type="html">c</content></entry>
<entry><id>2</id><!--noindex--><title>Yandex title</title><!--/noindex--><content type="html">kept2</content></entry>
<entry><id>3</id><title>T3</title><!--googleoff: all--><content type="html">secret3</content><!--googleon: all--></entry>
<!--googleoff: index-->
<entry><id>4</id><title>Secret4</title><content type="text">secret4b</content></entry>
<!--googleon: index-->
<entry><id>5</id><title>T5</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">kept5<!--googleoff: index--></div></content></entry>
<entry><id>6</id><title>Secret6</title><content type="html">secret6b</content><!--googleon: index--></entry>
<entry><id>7</id><title>T7</title><content type="html">kept7</content></entry>
</feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	entryTexts(t, recs, [][2]string{{"", "c\n"}, {"", "kept2\n"}, {"T3", ""}, {"", ""}, {"T5", "kept5\n"}, {"", ""}, {"T7", "kept7\n"}})
	if a := recs[2].Doc.Archive; string(a) != "…" {
		t.Errorf("record 3: googleoff: all (snippet) around the content, archive %q", a)
	}
	if len(recs[3].Doc.Result.Warnings) != 0 {
		t.Errorf("record 4: the comments put before the field are warned about: %+v", recs[3].Doc.Result.Warnings)
	}
	noWordsBeyondTheXMLStage(t, feed, recs)
}

// An XML comment inside escaped HTML content is a comment of the feed: its
// region starts where it stands in the HTML, or, where it stands inside a
// tag (where no HTML comment can be), holds for the whole content.
func TestEntriesCommentRegionsInsideEscapedHTML(t *testing.T) {
	const feed = `<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>1</id><content type="html">&lt;p&gt;a&lt;/p&gt;<!--googleoff: index-->&lt;p&gt;secret1&lt;/p&gt;<!--googleon: index-->&lt;p&gt;b&lt;/p&gt;</content></entry>
<entry><id>2</id><content type="html">&lt;p title="<!--googleoff: index-->"&gt;secret2&lt;/p&gt;<!--googleon: index-->after</content></entry>
<entry><id>3</id><content type="html">&lt;script&gt;<!--googleoff: index-->&lt;/script&gt;secret3</content></entry>
</feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if got := recs[0].Doc.Text; got != "a\n\nb\n" {
		t.Errorf("record 1: text %q, want a and b in two phrases", got)
	}
	for _, r := range recs[1:] {
		if strings.Contains(r.Doc.Text, "secret") {
			t.Errorf("record %d: text %q: the region's comment was inside a tag", r.Index, r.Doc.Text)
		}
	}
}

// An element's attributes in many namespaces keep a prefix each when the
// markup is written out again, past the few a search handles too (a map
// takes over, so that a tag of many namespaces does not cost their square).
func TestEntriesAttributesInManyNamespacesKeepTheirPrefixes(t *testing.T) {
	var attrs strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&attrs, ` xmlns:a%d="urn:ns%d" a%d:x="%d"`, i, i, i, i)
	}
	attrs.WriteString(` a5:y="again" a30:y="again"`)
	feed := `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"` + attrs.String() + `>word</div></content></entry></feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil || len(recs) != 1 || recs[0].Doc == nil {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	archive := string(recs[0].Doc.Archive)
	for i := 0; i < 40; i++ {
		if want := fmt.Sprintf(` xmlns:p%d="urn:ns%d" p%d:x="%d"`, i+1, i, i+1, i); !strings.Contains(archive, want) {
			t.Fatalf("the copy lacks %q: %.300q", want, archive)
		}
	}
	if !strings.Contains(archive, ` p6:y="again" p31:y="again"`) || strings.Count(archive, `xmlns:p31=`) != 1 {
		t.Errorf("attributes of namespaces seen before take new prefixes: %.300q", archive[len(archive)-300:])
	}
	if recs[0].Doc.Text != "word\n" {
		t.Errorf("text %q", recs[0].Doc.Text)
	}
}

// Escaped HTML is text in the XML stage, so the markers it holds, read as
// HTML in entries mode, cannot end a no-index region the feed opened
// around the field (no word the XML stage keeps out is indexed, no anchor
// text). Media RSS's media:content and media:description are not the
// item's content.
func TestEntriesEscapedMarkersDoNotEndTheFeedsRegions(t *testing.T) {
	const feed = `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:h="http://www.w3.org/1999/xhtml">
<h:noindex>
<entry><id>1</id><title>T1</title><content type="html">hid1 &lt;/noindex&gt; &lt;!--/noindex--&gt; leak1</content></entry>
</h:noindex>
<!--googleoff: all-->
<entry><id>2</id><title>T2</title><content type="html">hid2 &lt;!--googleon: all--&gt; leak2 &lt;a href="http://follow.me/"&gt;anchor&lt;/a&gt;</content></entry>
<!--googleon: all-->
<entry><id>3</id><title>T3</title><content type="html">kept3</content></entry>
</feed>`
	recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	entryTexts(t, recs, [][2]string{{"", ""}, {"", ""}, {"T3", "kept3\n"}})
	if l, ok := linkByHref(recs[1].Doc, "follow.me"); !ok || l.Text != "" {
		t.Errorf("the link inside googleoff: all: %+v, want it listed without anchor text", l)
	}
	noWordsBeyondTheXMLStage(t, feed, recs)

	const rss = `<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><item><title>T1</title><media:content url="http://img/x.jpg"/><media:description>a photo</media:description><description>&lt;p&gt;body words&lt;/p&gt;</description></item></channel></rss>`
	recs, err = collectEntries(t, rss, "//item", robofilter.Options{})
	if err != nil || len(recs) != 1 || recs[0].Doc == nil || recs[0].Doc.Text != "body words\n" {
		t.Fatalf("an item with Media RSS: %+v, %v; want the description's text", recs, err)
	}
}

// robots-noanchortext on the entry (or an ancestor, or the content
// element) holds for the links of its content: no anchor text.
func TestEntriesNoAnchorTextAroundTheContent(t *testing.T) {
	for _, content := range []string{
		`<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="http://x/a">anchorword</a></div></content>`,
		`<content type="html">&lt;a href="http://x/a"&gt;anchorword&lt;/a&gt;</content>`,
	} {
		feed := `<feed xmlns="http://www.w3.org/2005/Atom"><entry class="robots-noanchortext"><id>1</id>` + content + `</entry></feed>`
		recs, err := collectEntries(t, feed, "//entry", robofilter.Options{})
		if err != nil || len(recs) != 1 || recs[0].Doc == nil {
			t.Fatalf("%d records, %v", len(recs), err)
		}
		if l, ok := linkByHref(recs[0].Doc, "x/a"); !ok || l.Text != "" || recs[0].Doc.Text != "anchorword\n" {
			t.Errorf("%s: link %+v, text %q; want the link without anchor text, the word indexed", content, l, recs[0].Doc.Text)
		}
	}
}
