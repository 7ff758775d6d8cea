package filter_test

import (
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/phrase"
	"github.com/robofilter/robofilter/weburl"
)

// These go through robofilter.Process rather than the core's own calls, so
// that they hold whatever the parsers and the core say to each other.

// linkPage is a page of n links shaped like the generated benchmark page's
// (<a href="/page/N.html">word</a>), with rel values when rels is set.
func linkPage(n int, rels bool) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>links</title></head><body><p>")
	for i := 0; i < n; i++ {
		rel := ""
		if rels {
			rel = [...]string{"", ` rel="nofollow"`, ` rel="noopener noreferrer"`}[i%3]
		}
		fmt.Fprintf(&b, "<a href=\"/page/%d.html\"%s>crawler</a> text ", i*7919%100000, rel)
	}
	b.WriteString("</p></body></html>\n")
	return b.String()
}

// BenchmarkProcessLinks is the links output on a page that is nothing but
// links, so that allocs/op over 1,000 is close to the allocations per link.
func BenchmarkProcessLinks(b *testing.B) {
	for _, bc := range []struct {
		name string
		base string
		rels bool
	}{{"nobase", "", false}, {"base", "https://example.com/dir/page.html", false}, {"rel", "https://example.com/dir/page.html", true}} {
		b.Run(bc.name, func(b *testing.B) {
			page := linkPage(1000, bc.rels)
			opts := robofilter.Options{}
			opts.Base = bc.base
			out := robofilter.Outputs{Link: func(filter.Link) error { return nil }}
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := robofilter.Process(strings.NewReader(page), opts, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The links handed over are the caller's: read in small chunks, the parser
// reuses the buffer an element's href, rel and text come from, and a link
// written later must not change one written earlier.
func TestLinksHandedOverAreOwned(t *testing.T) {
	hrefs := []string{"/page/%d.html", " http://h.example/%d ", "rel/%d.html", "/a\tb/%d", "https://long.example/" + strings.Repeat("x", 80) + "/%d", ""}
	rels := []string{"", "nofollow", "noopener noreferrer"}
	var page strings.Builder
	type want struct{ href, rel, text string }
	var wants []want
	for i := 0; i < 400; i++ {
		href := strings.ReplaceAll(hrefs[i%len(hrefs)], "%d", fmt.Sprint(i))
		rel := rels[i%len(rels)]
		text := fmt.Sprintf(" anchor&nbsp;text\n%d ", i)
		fmt.Fprintf(&page, "<p><a href=\"%s\" rel=\"%s\">%s</a>\n", href, rel, text)
		wants = append(wants, want{strings.ReplaceAll(strings.TrimSpace(href), "\t", ""), rel, fmt.Sprintf("anchor text %d", i)})
	}
	for _, base := range []string{"", "https://example.com/dir/page.html"} {
		var got []filter.Link
		opts := robofilter.Options{}
		opts.Base = base
		out := robofilter.Outputs{Link: func(l filter.Link) error { got = append(got, l); return nil }}
		if _, err := robofilter.Process(chunked.Reader(strings.NewReader(page.String()), 7), opts, out); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(wants) {
			t.Fatalf("base %q: %d links, want %d", base, len(got), len(wants))
		}
		var b *url.URL
		if base != "" {
			b, _ = url.Parse(base)
		}
		for i, l := range got {
			w := wants[i]
			if l.Href != w.href || l.Rel != w.rel || l.Text != w.text {
				t.Errorf("base %q: link %d is href %q rel %q text %q, want %q %q %q", base, i, l.Href, l.Rel, l.Text, w.href, w.rel, w.text)
			}
			wantURL := ""
			if l.Href != "" {
				ref, err := url.Parse(l.Href)
				if err != nil {
					t.Fatal(err)
				}
				if b != nil {
					ref = b.ResolveReference(ref)
				}
				wantURL = ref.String()
			}
			if l.URL != wantURL {
				t.Errorf("base %q: link %d URL %q, want %q", base, i, l.URL, wantURL)
			}
		}
	}
}

// An empty href resolves to nothing against the document's base, but to
// the base itself against an xml:base (as net/url resolves it), also when
// the link has no text or rel at all.
func TestEmptyHrefResolution(t *testing.T) {
	doc := `<feed xmlns="http://www.w3.org/2005/Atom"><entry xml:base="https://other.example/feed/"><link href=""/></entry><link href=""/></feed>`
	var got []filter.Link
	opts := robofilter.Options{Format: robofilter.XML}
	opts.Base = "https://example.com/doc.xml"
	out := robofilter.Outputs{Link: func(l filter.Link) error { got = append(got, l); return nil }}
	if _, err := robofilter.Process(strings.NewReader(doc), opts, out); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].URL != "https://other.example/feed/" || got[1].URL != "" {
		t.Errorf("links %+v, want URLs the xml:base and \"\"", got)
	}
}

// A <base href> or xml:base is read as links are: a path the URL standard
// keeps as written ('|', a stray '%', which net/url refused or escaped)
// is the base of the links after it.
func TestBaseKeepsItsPathAsTheStandardReadsIt(t *testing.T) {
	for _, c := range []struct {
		name, page string
		format     robofilter.Format
		want       string
	}{
		{"base href", `<base href="/a|b/100%/"><a href="x">x</a>`, robofilter.HTML, "https://a.example/a|b/100%/x"},
		{"xml:base", `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="/a|b/100%/"><link href="x"/></feed>`,
			robofilter.XML, "https://a.example/a|b/100%/x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var urls []string
			opts := robofilter.Options{Format: c.format}
			opts.Base = "https://a.example/p/q.html"
			res, err := robofilter.Process(strings.NewReader(c.page), opts, robofilter.Outputs{Link: func(l filter.Link) error {
				urls = append(urls, l.URL)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			if len(urls) != 1 || urls[0] != c.want || len(res.Warnings) > 0 {
				t.Errorf("links %q, warnings %v; want %q and no warning", urls, res.Warnings, c.want)
			}
		})
	}
}

// A <base href> or xml:base whose host the URL standard refuses is
// ignored, with a warning that says why, and the links after it resolve
// against the base before it.
func TestBaseWithNoHostIsIgnored(t *testing.T) {
	for _, c := range []struct {
		name, page string
		format     robofilter.Format
	}{
		{"base href", `<base href="http://1.2.3.4.5/d/"><a href="x">x</a>`, robofilter.HTML},
		{"xml:base", `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://1.2.3.4.5/d/"><link href="x"/></feed>`, robofilter.XML},
	} {
		t.Run(c.name, func(t *testing.T) {
			var urls []string
			opts := robofilter.Options{Format: c.format}
			opts.Base = "https://a.example/p/q.html"
			res, err := robofilter.Process(strings.NewReader(c.page), opts, robofilter.Outputs{Link: func(l filter.Link) error {
				urls = append(urls, l.URL)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			if len(urls) != 1 || urls[0] != "https://a.example/p/x" {
				t.Errorf("links %q, want the document base's https://a.example/p/x", urls)
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "no IPv4 address") {
				t.Errorf("warnings %v, want one saying the host is no IPv4 address", res.Warnings)
			}
		})
	}
}

// An output callback's error is the run's error, whichever outputs are
// set: with no archive copy to write, it used to be dropped.
func TestCallbackErrorIsReturned(t *testing.T) {
	failing := fmt.Errorf("the output failed")
	for _, tc := range []struct {
		name string
		out  robofilter.Outputs
		page string
	}{
		{"links alone", robofilter.Outputs{Link: func(filter.Link) error { return failing }}, `<a href="/x">x</a>`},
		{"regions alone", robofilter.Outputs{Region: func(filter.Region) error { return failing }}, `<p class="robots-noindex">x</p>`},
		{"links beside text", robofilter.Outputs{Text: phrase.NewWriter(io.Discard), Link: func(filter.Link) error { return failing }}, `<a href="/x">x</a>`},
	} {
		if _, err := robofilter.Process(strings.NewReader(tc.page), robofilter.Options{}, tc.out); err != failing {
			t.Errorf("%s: Process returned %v, want the callback's error", tc.name, err)
		}
	}
}

// A <base href> after links already written applies from there on, with a
// warning that says how many were resolved without it; links held in the
// head are resolved when written, so a base later in the head reaches them.
func TestLateBaseHrefWarnsOfTheLinksBeforeIt(t *testing.T) {
	for _, c := range []struct {
		name, page string
		urls       []string
		warning    string
	}{
		{"in the body", `<html><body><a href="x.html">x</a><a href="z.html">z</a><base href="https://b.example/d/"><a href="y.html">y</a></body></html>`,
			[]string{"https://a.example/p/x.html", "https://a.example/p/z.html", "https://b.example/d/y.html"},
			`base href "https://b.example/d/" comes after links already written (2)`},
		{"in the head after a held link", `<html><head><link rel=alternate href=h.html><base href="https://b.example/d/"></head><body><a href="y.html">y</a></body></html>`,
			[]string{"https://b.example/d/h.html", "https://b.example/d/y.html"}, ""},
		{"before every link", `<base href="https://b.example/d/"><a href="y.html">y</a>`,
			[]string{"https://b.example/d/y.html"}, ""},
		{"after absolute links only", `<body><a href="http://abs/">x</a><a href="javascript:void(0)">j</a><a href="mailto:a@b">m</a><base href="https://b.example/d/"><a href="y">y</a>`,
			[]string{"http://abs/", "javascript:void(0)", "mailto:a@b", "https://b.example/d/y"}, ""},
		{"a fragment counts", `<body><a href="#top">t</a><a href="HTTP://abs/">x</a><base href="https://b.example/d/">`,
			[]string{"https://a.example/p/q.html#top", "http://abs/"}, "comes after links already written (1)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var urls []string
			opts := robofilter.Options{}
			opts.Base = "https://a.example/p/q.html"
			res, err := robofilter.Process(strings.NewReader(c.page), opts, robofilter.Outputs{Link: func(l filter.Link) error {
				urls = append(urls, l.URL)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(urls) != fmt.Sprint(c.urls) {
				t.Errorf("links %q, want %q", urls, c.urls)
			}
			var warned []string
			for _, w := range res.Warnings {
				if strings.Contains(w.Message, "base href") {
					warned = append(warned, w.Message)
				}
			}
			switch {
			case c.warning == "" && len(warned) > 0:
				t.Errorf("warnings %q, want none about the base", warned)
			case c.warning != "" && (len(warned) != 1 || !strings.Contains(warned[0], c.warning)):
				t.Errorf("warnings %q, want one containing %q", warned, c.warning)
			}
		})
	}
}

// A base longer than weburl.MaxBaseLen, as written or once resolved, is
// ignored with a warning (every relative link would repeat it: a 350 KB page
// with one long base gave 2 GB of links); a document URL that long is an
// error before anything is read.
func TestLongBaseIsIgnored(t *testing.T) {
	long := strings.Repeat("d", weburl.MaxBaseLen)
	for _, c := range []struct {
		name, base, page, url, warning string
	}{
		{"written", "https://a.example/p/q.html", `<base href="https://b.example/` + long + `/"><a href="y">y</a>`,
			"https://a.example/p/y", fmt.Sprintf("is longer than %d bytes; ignored", weburl.MaxBaseLen)},
		{"resolved", "https://a.example/" + long[:200] + "/", `<base href="` + long[:weburl.MaxBaseLen-100] + `/"><a href="y">y</a>`,
			"https://a.example/" + long[:200] + "/y", fmt.Sprintf("resolves to a URL of %d bytes, longer than %d; ignored", len("https://a.example/")+200+1+weburl.MaxBaseLen-100+1, weburl.MaxBaseLen)},
		{"at the bound", "https://a.example/p/q.html", `<base href="https://b.example/` + long[:weburl.MaxBaseLen-len("https://b.example//")] + `/"><a href="y">y</a>`,
			"https://b.example/" + long[:weburl.MaxBaseLen-len("https://b.example//")] + "/y", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var urls []string
			opts := robofilter.Options{}
			opts.Base = c.base
			res, err := robofilter.Process(strings.NewReader(c.page), opts, robofilter.Outputs{Link: func(l filter.Link) error {
				urls = append(urls, l.URL)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			if len(urls) != 1 || urls[0] != c.url {
				t.Errorf("links %.120q, want %.120q", urls, c.url)
			}
			var warned []string
			for _, w := range res.Warnings {
				warned = append(warned, w.Message)
			}
			if c.warning == "" && len(warned) > 0 || c.warning != "" && (len(warned) != 1 || !strings.Contains(warned[0], c.warning)) {
				t.Errorf("warnings %.200q, want one containing %q", warned, c.warning)
			}
		})
	}
	opts := robofilter.Options{}
	opts.Base = "https://a.example/" + long
	if _, err := robofilter.Process(strings.NewReader(`<a href="y">y</a>`), opts, robofilter.Outputs{}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("is longer than %d bytes", weburl.MaxBaseLen)) {
		t.Errorf("a document URL of %d bytes: error %v, want one saying it is too long", len(opts.Base), err)
	}
}
