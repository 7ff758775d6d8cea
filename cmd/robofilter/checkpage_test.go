package main

import (
	"fmt"
	"html"
	"strings"
	"testing"
)

func TestCheckPageMarksTheRegionsInTheSource(t *testing.T) {
	in := "<p>one <b class=robots-noindex>hid <i class=robots-index>back</i> den</b> two</p>\n" +
		"<div class=robots-nofollow><a href=/x>x</a></div><img data-nosnippet src=y.png> a&amp;b <é>\n"
	out, errOut, code := runCLI(t, in, "check", "--format", "html")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	noindex := `<span class="noindex" title="not indexed: &lt;b&gt; class=&#34;robots-noindex&#34; (profile) at 1:8">`
	for _, want := range []string{
		`<pre><a class="ln" id="d0L1" data-n="1"></a>&lt;p&gt;one <a id="d0r0"></a>` + noindex + `&lt;b class=robots-noindex&gt;hid </span>`, // the region, not its end tag
		`<a id="d0r1"></a>&lt;i class=robots-index&gt;back` + noindex + `&lt;/i&gt; den</span>&lt;/b&gt;`,
		`<a class="ln" id="d0L2" data-n="2"></a><span class="nofollow" title="links not followed: &lt;div&gt; class=&#34;robots-nofollow&#34; (profile) at 2:1">&lt;div class=robots-nofollow&gt;&lt;a href=/x&gt;x&lt;/a&gt;</span>`,
		`<span class="noarchive" title="out of the archive copy and snippets: &lt;img&gt; data-nosnippet (nosnippet) at 2:50">&lt;img data-nosnippet src=y.png&gt;</span> a&amp;amp;b &lt;é&gt;` + "\n</pre>", // an empty region: its tag; no empty last line
		`<td><a href="#d0r0">1:8–1:70</a></td><td><code>&lt;b&gt; class=&#34;robots-noindex&#34;</code></td><td>noindex</td>`,
		`<tr><td><a href="#d0L2">2</a>:28</td><td><code>/x</code></td><td>nofollow region (class=&#34;robots-nofollow&#34; at 2:1)</td></tr>`,
		`<h1>robofilter check: standard input <small>html, utf-8</small></h1>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s\n%s", want, out)
		}
	}
}

// A line's number stands outside the spans: a region over several lines
// is a span on each.
func TestCheckPageNumbersTheLinesOutsideTheMarks(t *testing.T) {
	out, _, _ := runCLI(t, "<div class=robots-noindex>a\nb\n\nc</div>", "check", "--format", "html")
	span := `<span class="noindex" title="not indexed: &lt;div&gt; class=&#34;robots-noindex&#34; (profile) at 1:1">`
	want := `<a class="ln" id="d0L1" data-n="1"></a>` + span + "&lt;div class=robots-noindex&gt;a\n</span>" +
		`<a class="ln" id="d0L2" data-n="2"></a>` + span + "b\n</span>" +
		`<a class="ln" id="d0L3" data-n="3"></a>` + span + "\n</span>" +
		`<a class="ln" id="d0L4" data-n="4"></a>` + span + "c</span>&lt;/div&gt;</pre>"
	if !strings.Contains(out, want) {
		t.Errorf("page lacks\n%s\n%s", want, out)
	}
}

func TestCheckPageShowsTheSourceInItsCharset(t *testing.T) {
	out, _, _ := runCLI(t, "<meta charset=windows-1252><p class=robots-noindex>caf\xe9</p>", "check", "--format", "html")
	if !strings.Contains(out, `">&lt;p class=robots-noindex&gt;café</span>`) {
		t.Errorf("source not decoded or not marked:\n%s", out)
	}
}

func TestCheckPageLeavesOutASourceTooLongToShow(t *testing.T) {
	defer func(n int) { maxShownSource = n }(maxShownSource)
	maxShownSource = 100
	out, _, code := runCLI(t, "<p class=robots-noindex>"+strings.Repeat("x ", 100)+"</p><a href=/a rel=nofollow>a</a>", "check", "--format", "html")
	if code != 0 || !strings.Contains(out, "its source is not shown") || strings.Contains(out, "<pre>") || !strings.Contains(out, "<h2>Regions: 1</h2>") {
		t.Errorf("status %d:\n%s", code, out)
	}
	if strings.Contains(out, `href="#d0`) {
		t.Errorf("links into a source not shown:\n%s", out)
	}
	for _, format := range []string{"html", "overlay"} {
		if _, errOut, code := runCLI(t, "<p>x", "text", "--format", format); code != 2 || !strings.Contains(errOut, "for check only") {
			t.Errorf("text --format %s: status %d, %q", format, code, errOut)
		}
	}
}

// Several documents make one page, a section each, anchors apart, and a
// table of contents.
func TestCheckPageOfSeveralDocumentsIsOnePage(t *testing.T) {
	dir := t.TempDir()
	a, b := writeFile(t, dir, "a.html", "<p class=robots-noindex>a"), writeFile(t, dir, "b <&>.html", "<p class=robots-noindex>b")
	out, _, code := runCLI(t, "", "check", "--format", "html", a, b)
	if code != 0 || strings.Count(out, "<!DOCTYPE html>") != 1 || strings.Count(out, "<section ") != 2 ||
		!strings.Contains(out, `<section id="d1">`) || !strings.Contains(out, `id="d0r0"`) || !strings.Contains(out, `id="d1r0"`) || !strings.Contains(out, `href="#d1r0"`) {
		t.Errorf("status %d:\n%s", code, out)
	}
	want := fmt.Sprintf("<nav class=\"toc\"><b>2 documents</b>\n<ol>\n<li><a href=\"#d0\">%s</a></li>\n<li><a href=\"#d1\">%s</a></li>\n</ol>\n</nav>\n", a, html.EscapeString(b))
	if !strings.HasSuffix(out, want) {
		t.Errorf("page does not end with its contents\n%s\n%s", want, out)
	}
	if out, _, _ := runCLI(t, "<p>x", "check", "--format", "html"); strings.Contains(out, "<nav") {
		t.Errorf("a page of one document has contents:\n%s", out)
	}
}

// A byte order mark is no character of the page shown.
func TestCheckPageLeavesOutTheByteOrderMark(t *testing.T) {
	for _, in := range []string{"\xef\xbb\xbf<p>x", "\xff\xfe<\x00p\x00>\x00x\x00"} {
		out, _, _ := runCLI(t, in, "check", "--format", "html")
		if !strings.Contains(out, `<pre><a class="ln" id="d0L1" data-n="1"></a>&lt;p&gt;x</pre>`) {
			t.Errorf("%q:\n%s", in, out)
		}
	}
}

// Past foldAfter rows, a table folds; the links that are no pages fold
// apart from those robots markup keeps a crawler from.
func TestCheckPageFoldsLongTablesAndTheLinksThatAreNoPages(t *testing.T) {
	defer func(n int) { foldAfter = n }(foldAfter)
	foldAfter = 3
	page := strings.Repeat("<p class=robots-noindex>x</p>\n", 5) + `<link rel=stylesheet href=s.css><a href="mailto:a@b">m</a>` +
		strings.Repeat(`<a href=/n rel=nofollow>n</a>`, 4) + "<a href=/f>f</a>"
	out, _, _ := runCLI(t, page, "check", "--format", "html")
	for _, want := range []string{
		"<h2>Regions: 5</h2>",
		"</table>\n<details class=\"fold\"><summary>2 more regions</summary>\n<table>",
		"<h2>Links not followed because of robots markup: 4</h2>",
		"</table>\n<details class=\"fold\"><summary>1 more links</summary>",
		"<details class=\"fold\"><summary>And 2 links no crawler follows, robots markup or not",
		"<li>Links: 7, 1 followed. Not followed because of robots markup: <b>4</b> (4 rel=nofollow); and 2 that are not pages",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q\n%s", want, out)
		}
	}
	robots := out[strings.Index(out, "because of robots markup: 4</h2>"):strings.Index(out, "links no crawler follows")]
	if strings.Contains(robots, "s.css") || strings.Contains(robots, "mailto:") {
		t.Errorf("a link that is no page among those robots markup keeps out:\n%s", robots)
	}
}

// What the author wrote is text on the page: a class or comment that
// holds </style><script>, a URL of 300 characters (which wraps).
func TestCheckPageEscapesWhatTheAuthorWrote(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 280)
	page := `<p class="robots-noindex </style><script>alert(1)</script>">x</p><!--googleoff: index </style><script>alert(2)</script>-->y` +
		`<div class=robots-nofollow><a href="` + long + `">l</a></div>`
	for _, format := range []string{"html", "overlay"} {
		out, _, code := runCLI(t, page, "check", "-q", "--format", format)
		if code != 0 {
			t.Fatal(code)
		}
		if strings.Contains(out, "<script>alert") && format == "html" {
			t.Errorf("%s: the author's markup is markup of the page:\n%s", format, out)
		}
		if format == "html" && (!strings.Contains(out, "<code>"+long+"</code>") || !strings.Contains(out, "td,th{") || !strings.Contains(out, "overflow-wrap:anywhere")) {
			t.Errorf("the long URL is not listed in a cell that wraps:\n%s", out)
		}
	}
}
