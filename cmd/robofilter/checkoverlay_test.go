package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter/internal/chunked"
	"golang.org/x/net/html"
)

func overlayOf(t *testing.T, in []byte, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"robofilter", "check", "-q", "--format", "overlay"}, args...), bytes.NewReader(in), &out, &errb)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errb.String())
	}
	return out.String()
}

// The overlay does not depend on how the document is read: the core passes
// its bytes in other pieces, and tells the starts between other writes.
func TestOverlayAtEveryChunking(t *testing.T) {
	for _, path := range []string{filepath.Join("..", "..", "testdata", "example.html"), filepath.Join("testdata", "overlay", "dialects.html"), filepath.Join("testdata", "overlay", "hostile.html")} {
		in, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		want := overlayOf(t, in, "--base", "http://x.test/")
		// The sizes that cut every tag and "</script" anywhere, and a
		// few more.
		sizes := []int{100, 127, 256, 333, 1000}
		for n := 1; n <= 64; n++ {
			sizes = append(sizes, n)
		}
		for _, n := range sizes {
			var out, errb bytes.Buffer
			run([]string{"robofilter", "check", "-q", "--format", "overlay", "--base", "http://x.test/"}, chunked.Reader(bytes.NewReader(in), n), &out, &errb)
			if out.String() != want {
				t.Fatalf("%s read in chunks of %d: the overlay differs", name, n)
			}
		}
		for how, r := range map[string]func([]byte) *bytes.Buffer{
			"one byte": func(b []byte) *bytes.Buffer {
				var out bytes.Buffer
				run([]string{"robofilter", "check", "-q", "--format", "overlay", "--base", "http://x.test/"}, iotest.OneByteReader(bytes.NewReader(b)), &out, &bytes.Buffer{})
				return &out
			},
			"half": func(b []byte) *bytes.Buffer {
				var out bytes.Buffer
				run([]string{"robofilter", "check", "-q", "--format", "overlay", "--base", "http://x.test/"}, iotest.HalfReader(bytes.NewReader(b)), &out, &bytes.Buffer{})
				return &out
			},
		} {
			if got := r(in).String(); got != want {
				t.Errorf("%s read %s: the overlay differs", name, how)
			}
		}
	}
}

// overlayPages are the pages the overlay's properties are checked on.
func overlayPages(t *testing.T) map[string][]byte {
	pages := map[string][]byte{}
	for _, p := range []string{filepath.Join("testdata", "overlay", "dialects.html"), filepath.Join("testdata", "overlay", "hostile.html"), filepath.Join("..", "..", "testdata", "example.html")} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pages[filepath.Base(p)] = b
	}
	for _, p := range corpusSample(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pages[filepath.Base(p)] = b
	}
	for name, doc := range overlayShapes {
		pages[name] = []byte(doc)
	}
	return pages
}

// overlayShapes are documents whose markup a tokenizer reads in ways the
// overlay must follow.
var overlayShapes = map[string]string{
	"unclosed comment":      `<p class=robots-noindex>x<!-- never closed <script>alert(1)</script>`,
	"unclosed raw text":     `<p data-nosnippet>x<textarea>never closed <b>`,
	"unclosed script":       `<p>x<script>alert(1)`,
	"unclosed tag":          `<p class=robots-noindex>x<a href="/y`,
	"plaintext":             `<p class=robots-noindex>x</p><plaintext><script>alert(1)</script></plaintext>`,
	"script escapes":        `<script><!--<script>alert(1)</script>x</script><p class=robots-noindex>after</p>`,
	"quotes in tags":        `<p title='a>b' class=robots-noindex data-x="c>d">x</p><a href=/z title=">" onclick="alert(1)">z</a>`,
	"attributes odd":        `<p =x class=robots-noindex/onmouseover=alert(1) >x</p><img/src=a.png/onerror=alert(1)>`,
	"svg":                   `<svg><style>p{}</style><script>alert(1)</script><![CDATA[ a > b ]]><g class=robots-noindex><text>t</text></g></svg><p class=robots-noindex>x</p>`,
	"svg self-closing":      `<svg><script/><title/></svg><p class=robots-noindex>after</p>`,
	"comments everywhere":   `<!-- before --><!DOCTYPE html><!-- after --><html><!--googleoff: all--><head><title>t</title></head><body>x<!--googleon: all-->y`,
	"bogus and end tags":    `<p>a</ p><? pi ?></><!bogus><p class=robots-noindex>x</P></p>`,
	"upper case":            `<P CLASS=robots-noindex>x</P><SCRIPT>alert(1)</SCRIPT><A HREF=/a REL=NOFOLLOW>a</A>`,
	"table and select open": `<table><tr><td><select><option class=robots-noindex>x`,
	"hidden open":           `<div hidden><details><p class=robots-noindex>x`,
	"meta refresh":          `<meta http-equiv=refresh content="0;url=http://evil.test/"><p>x`,
	"noindex tag":           `<noindex><p>y</p></noindex><p>z`,
	"clone":                 `<b class=robots-noindex><p>one</b>two</p>`,
	"no markup":             `just text`,
	"empty":                 ``,
	"text with a lone <":    `a < b <p class=robots-noindex>x`,
	"head profile":          `<html class=robots-noindex><head profile="http://example.org/xmdp/robots-profile#"><title>t</title></head><body>x`,
	"frames":                `<frameset><frame src=a class=robots-noindex></frameset>`,
	"entity cut":            `<!--googleoff: all-->` + strings.Repeat("&amp;", 20000) + `<!--googleon: all-->`,
	"long text in a region": `<!--googleoff: index-->` + strings.Repeat("word ", 30000) + `<!--googleon: index-->`,
}

// The overlay read by an HTML parser (golang.org/x/net/html, which parses
// as browsers do): the overlay's head comes first, every script is
// disarmed and empty, no element keeps an event handler, no META acts,
// no <link> but a style sheet's, frames and plugins point nowhere, and the
// bar is the body's last child.
func TestOverlayParsesAsItMeans(t *testing.T) {
	for name, in := range overlayPages(t) {
		out := overlayOf(t, in, "--base", "http://x.test/dir/")
		if !strings.HasPrefix(out, "\uFEFF") {
			t.Errorf("%s: no byte order mark first", name)
		}
		// A browser's decoder takes the byte order mark; Go's parser
		// would read it as text.
		doc, err := html.Parse(strings.NewReader(strings.TrimPrefix(out, "\uFEFF")))
		if err != nil {
			t.Fatal(err)
		}
		var first *html.Node // the first element of the head
		var bars []*html.Node
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				attr := func(k string) (string, bool) {
					for _, a := range n.Attr {
						if a.Key == k {
							return a.Val, true
						}
					}
					return "", false
				}
				if first == nil && n.Parent != nil && n.Parent.Data == "head" {
					first = n
				}
				for _, a := range n.Attr {
					if strings.HasPrefix(a.Key, "on") {
						t.Errorf("%s: <%s> keeps the event handler %s", name, n.Data, a.Key)
					}
				}
				switch n.Data {
				case "script":
					if ty, _ := attr("type"); ty != "text/x-robofilter-inert" {
						t.Errorf("%s: a script of type %q", name, ty)
					}
					if n.FirstChild != nil && strings.TrimSpace(n.FirstChild.Data) != "" && n.Namespace == "" {
						t.Errorf("%s: a script keeps its content %q", name, n.FirstChild.Data)
					}
				case "meta":
					v, _ := attr("http-equiv")
					if n != first && v != "x-robofilter-inert" && v != "x-dns-prefetch-control" && n.PrevSibling != nil {
						if c, _ := attr("name"); c != "referrer" && c != "robots" {
							t.Errorf("%s: a META with http-equiv %q", name, v)
						}
					}
				case "link":
					if rel, _ := attr("rel"); rel != "x-robofilter-inert" && !hasToken(rel, "stylesheet") {
						t.Errorf("%s: a <link rel=%q>", name, rel)
					}
				case "iframe", "frame", "embed":
					if src, _ := attr("src"); src != "about:blank" {
						t.Errorf("%s: <%s src=%q>", name, n.Data, src)
					}
				case "rf-overlay":
					if _, ok := attr("data-rf-regions"); ok {
						bars = append(bars, n)
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		if first == nil || first.Data != "meta" || !strings.Contains(fmt.Sprint(first.Attr), "Content-Security-Policy") {
			t.Errorf("%s: the head does not start with the CSP: %v", name, first)
		}
		if name == "frames" {
			continue // a frameset document shows no body, nor the bar
		}
		if len(bars) != 1 {
			t.Errorf("%s: %d bars", name, len(bars))
			continue
		}
		if b := bars[0]; b.Parent == nil || b.Parent.Data != "body" || b.NextSibling != nil && strings.TrimSpace(b.NextSibling.Data) != "" {
			t.Errorf("%s: the bar is not the body's last child (in <%s>)", name, b.Parent.Data)
		}
	}
}

// Where the overlay is told a region starts, it draws it: each shape's
// regions are outlined, or listed as not drawn with the reason.
func TestOverlayDrawsOrListsEveryRegion(t *testing.T) {
	for _, c := range []struct {
		doc     string
		drawn   []string
		undrawn []string
	}{
		{`<p class=robots-noindex>x</p>`, []string{`<p data-rf-region="1:1" data-rf-off="noindex" data-rf-label="class=&#34;robots-noindex&#34; 1:1" title="not indexed: &lt;p&gt; class=&#34;robots-noindex&#34; (profile) at line 1, column 1" class=robots-noindex>`}, nil},
		{`<a href=/a rel=nofollow>a</a><a href=/b>b</a><a href="mailto:x">m</a>`, []string{`<a data-rf-link="robots" title="link not followed: rel=nofollow" href=/a`, `<a data-rf-link="followed" href=/b>`, `<a data-rf-link="notpage" title="link no crawler follows: not a web page`}, nil},
		{`<b class=robots-noindex><p>one</b>two</p>`, []string{`<b data-rf-region="1:1"`}, []string{"1:31"}},
		{`<head><title class=robots-noindex>t</title></head>x`, nil, []string{"1:7"}},
		{`<head><!--googleoff: all--><title>t</title><!--googleon: all--></head><p>x`, nil, []string{"1:7"}},
		{`<p>a<!--googleoff: index-->b<i>c</i><!--googleon: index-->d`, []string{`<rf-text data-rf-in="1:5" data-rf-flat="noindex" data-rf-flat-label="&lt;!--googleoff: index--&gt; 1:5"`, `<i data-rf-in="1:5" data-rf-flat="noindex" title=`}, nil},
		{`<p data-nosnippet>a<noindex>b</noindex>`, []string{`<noindex data-rf-in="1:20" data-rf-flat="noindex" data-rf-flat-label="&lt;noindex&gt; 1:20"`}, nil},
		{`<html class=robots-noindex><head profile="http://example.org/xmdp/robots-profile#"><title>t</title></head><body>x`, []string{`<html data-rf-region="1:1" data-rf-off="noindex"`}, nil},
		{`<noscript><p class=robots-noindex>x</p></noscript>`, nil, nil},
	} {
		var args []string
		if strings.Contains(c.doc, "profile=") {
			args = append(args, "--require-profile")
		}
		out := overlayOf(t, []byte(c.doc), args...)
		for _, want := range c.drawn {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the overlay lacks %s\n%s", c.doc, want, out)
			}
		}
		want := fmt.Sprintf(`data-rf-undrawn="%s" data-rf-undrawn-count="%d"`, strings.Join(c.undrawn, " "), len(c.undrawn))
		if !strings.Contains(out, want) {
			t.Errorf("%s: the bar lacks %s\n%s", c.doc, want, out[strings.LastIndex(out, "<rf-overlay"):][:300])
		}
	}
}

// The overlay is written as the document is read: its memory does not
// grow with the page, and its work doubles as the page does.
func TestOverlayIsLinear(t *testing.T) {
	page := func(n int) []byte {
		var b bytes.Buffer
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `<div class="robots-noindex"><p>x <a href="/%d" rel=nofollow>l</a></p></div><!--googleoff: all--><span>y</span><!--googleon: all-->`+"\n", i)
		}
		b.WriteString(strings.Repeat("<div>", 1500)) // left open: closed before the bar (the first maxOpen)
		return b.Bytes()
	}
	measure := func(in []byte) (allocs, written uint64) {
		var out, errb bytes.Buffer
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		run([]string{"robofilter", "check", "-q", "--format", "overlay"}, bytes.NewReader(in), &out, &errb)
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs, uint64(out.Len())
	}
	a1, w1 := measure(page(2000))
	a2, w2 := measure(page(4000))
	if a2 > 5*a1/2 || w2 > 5*w1/2 {
		t.Errorf("doubling the page: allocations %d -> %d, output %d -> %d bytes", a1, a2, w1, w2)
	}
	t.Logf("2,000 and 4,000 lines of regions: %d and %d allocations, %d and %d bytes", a1, a2, w1, w2)
	out := overlayOf(t, page(2000))
	if n := strings.Count(out, "</div>"); n < 2000+maxOpen {
		t.Errorf("%d end tags of div: the open ones (the first %d) were not closed", n, maxOpen)
	}
}

// An XML document is no page a browser draws: the overlay writes the
// report and the source, and says so.
func TestOverlayOfXMLIsTheSourceView(t *testing.T) {
	out, errOut, code := runCLI(t, `<?xml version="1.0"?><feed><title>t</title></feed>`, "check", "--format", "overlay")
	if code != 0 || !strings.Contains(out, "<pre>") || !strings.Contains(errOut, "an XML document is not drawn as a page") {
		t.Errorf("status %d, stderr %q:\n%s", code, errOut, out)
	}
}

// One overlay draws one document; the others are noted, not drawn.
func TestOverlayDrawsTheFirstDocument(t *testing.T) {
	dir := t.TempDir()
	a, b := writeFile(t, dir, "a.html", "<p class=robots-noindex>a"), writeFile(t, dir, "b.html", "<p class=robots-noindex>b")
	out, errOut, code := runCLI(t, "", "check", "--format", "overlay", a, b)
	if code != 0 || strings.Count(out, "<rf-overlay") != 1 || !strings.Contains(errOut, b+": note: --format overlay draws one document") {
		t.Errorf("status %d, stderr %q:\n%s", code, errOut, out)
	}
}
