package main

import (
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
	for _, want := range []string{
		`<a id="d0r0"></a><span class="noindex">&lt;b class=robots-noindex&gt;hid </span>`, // the region, not its end tag
		`<a id="d0r1"></a>&lt;i class=robots-index&gt;back<span class="noindex">&lt;/i&gt; den</span>&lt;/b&gt;`,
		`<span class="nofollow">&lt;div class=robots-nofollow&gt;&lt;a href=/x&gt;x&lt;/a&gt;</span>`,
		`<span class="noarchive">&lt;img data-nosnippet src=y.png&gt;</span> a&amp;amp;b &lt;é&gt;`, // an empty region: its tag
		`<td><a href="#d0r0">1:8–1:70</a></td><td><code>&lt;b&gt; class=&#34;robots-noindex&#34;</code></td><td>noindex</td>`,
		`<tr><td>2:28</td><td><code>/x</code></td><td>nofollow region</td></tr>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s\n%s", want, out)
		}
	}
}

func TestCheckPageShowsTheSourceInItsCharset(t *testing.T) {
	out, _, _ := runCLI(t, "<meta charset=windows-1252><p class=robots-noindex>caf\xe9</p>", "check", "--format", "html")
	if !strings.Contains(out, `<span class="noindex">&lt;p class=robots-noindex&gt;café</span>`) {
		t.Errorf("source not decoded or not marked:\n%s", out)
	}
}

func TestCheckPageLeavesOutASourceTooLongToShow(t *testing.T) {
	defer func(n int) { maxShownSource = n }(maxShownSource)
	maxShownSource = 100
	out, _, code := runCLI(t, "<p class=robots-noindex>"+strings.Repeat("x ", 100)+"</p>", "check", "--format", "html")
	if code != 0 || !strings.Contains(out, "its source is not shown") || strings.Contains(out, "<pre>") || !strings.Contains(out, "<h2>Regions: 1</h2>") {
		t.Errorf("status %d:\n%s", code, out)
	}
	if _, errOut, code := runCLI(t, "<p>x", "text", "--format", "html"); code != 2 || !strings.Contains(errOut, "for check only") {
		t.Errorf("text --format html: status %d, %q", code, errOut)
	}
}

// Several documents make one page, a section each, anchors apart.
func TestCheckPageOfSeveralDocumentsIsOnePage(t *testing.T) {
	dir := t.TempDir()
	a, b := writeFile(t, dir, "a.html", "<p class=robots-noindex>a"), writeFile(t, dir, "b.html", "<p class=robots-noindex>b")
	out, _, code := runCLI(t, "", "check", "--format", "html", a, b)
	if code != 0 || strings.Count(out, "<!DOCTYPE html>") != 1 || strings.Count(out, "<section>") != 2 ||
		!strings.Contains(out, `id="d0r0"`) || !strings.Contains(out, `id="d1r0"`) || !strings.Contains(out, `href="#d1r0"`) {
		t.Errorf("status %d:\n%s", code, out)
	}
}

// A byte order mark is no character of the page shown.
func TestCheckPageLeavesOutTheByteOrderMark(t *testing.T) {
	for _, in := range []string{"\xef\xbb\xbf<p>x", "\xff\xfe<\x00p\x00>\x00x\x00"} {
		out, _, _ := runCLI(t, in, "check", "--format", "html")
		if !strings.Contains(out, "<pre>&lt;p&gt;x</pre>") {
			t.Errorf("%q:\n%s", in, out)
		}
	}
}
