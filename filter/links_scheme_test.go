package filter_test

import (
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
)

const (
	notWeb       = "not a web page (a URL scheme other than http and https)"
	javaScriptJS = "javascript: URL"
)

// schemeCase is a document whose links take their scheme from a base:
// each link's URL, and whether it is followed, and why not.
type schemeCase struct {
	name, base, page string
	format           robofilter.Format
	want             []wantLink
}

type wantLink struct {
	url    string
	reason string // "" when followed
}

func runSchemeCases(t *testing.T, cases []schemeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, size := range []int{1, 7, 1 << 20} {
				var got []filter.Link
				opts := robofilter.Options{Format: c.format}
				opts.Base = c.base
				_, err := robofilter.Process(chunked.Reader(strings.NewReader(c.page), size), opts, robofilter.Outputs{Link: func(l filter.Link) error {
					got = append(got, l)
					return nil
				}})
				if err != nil {
					t.Fatal(err)
				}
				checkSchemeLinks(t, size, got, c.want)
			}
		})
	}
}

func checkSchemeLinks(t *testing.T, size int, got []filter.Link, want []wantLink) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("read %d bytes at a time: %d links %+v, want %d", size, len(got), got, len(want))
	}
	for i, w := range want {
		l := got[i]
		if l.URL != w.url || l.Followed != (w.reason == "") || l.Reason != w.reason {
			t.Errorf("read %d bytes at a time: link %d (href %q) is %q followed %v (%q), want %q followed %v (%q)",
				size, i, l.Href, l.URL, l.Followed, l.Reason, w.url, w.reason == "", w.reason)
		}
		if w.reason == notWeb && l.Cause != nil {
			t.Errorf("link %d: not followed for its scheme, but its cause is %+v", i, l.Cause)
		}
	}
}

// A link is followed or not for the scheme of the URL it resolves to, not
// of the href as written: a relative href under a file: or ftp: base is a
// local file or an FTP resource, and a pipeline that trusts the list must
// not be pointed at it. Every kind of base: <base href>, the caller's base
// (Options.Base, which the CLI also sets from a WARC-Target-URI), one
// relative to the other, in HTML.
func TestHTMLLinkFollowedForTheResolvedScheme(t *testing.T) {
	const links = `<a href="passwd">p</a><a href="#top">t</a><a href="//host/x">h</a><a href="https://abs.example/y">a</a>`
	page := func(base string) string { return `<head><base href="` + base + `"></head><body>` + links }
	const web = "https://example.com/d/page.html"
	runSchemeCases(t, []schemeCase{
		{"base file", "", page("file:///etc/"), robofilter.HTML, []wantLink{
			{"file:///etc/passwd", notWeb}, {"file:///etc/#top", notWeb}, {"file://host/x", notWeb}, {"https://abs.example/y", ""}}},
		{"base ftp", "", page("ftp://ftp.example/pub/"), robofilter.HTML, []wantLink{
			{"ftp://ftp.example/pub/passwd", notWeb}, {"ftp://ftp.example/pub/#top", notWeb}, {"ftp://host/x", notWeb}, {"https://abs.example/y", ""}}},
		// HTML takes no data: or javascript: base: the caller's applies.
		{"base data", web, page("data:text/html,x"), robofilter.HTML, []wantLink{
			{"https://example.com/d/passwd", ""}, {"https://example.com/d/page.html#top", ""}, {"https://host/x", ""}, {"https://abs.example/y", ""}}},
		{"base javascript", web, page("javascript:alert(1)"), robofilter.HTML, []wantLink{
			{"https://example.com/d/passwd", ""}, {"https://example.com/d/page.html#top", ""}, {"https://host/x", ""}, {"https://abs.example/y", ""}}},
		// An opaque base takes a fragment only, and gives a mail address.
		{"base mailto", "", page("mailto:a@b.example"), robofilter.HTML, []wantLink{
			{"passwd", "no URL: the base mailto:a@b.example takes no relative reference"}, {"mailto:a@b.example#top", notWeb},
			{"//host/x", "no URL: the base mailto:a@b.example takes no relative reference"}, {"https://abs.example/y", ""}}},
		{"base http", "", page("http://h.example/d/"), robofilter.HTML, []wantLink{
			{"http://h.example/d/passwd", ""}, {"http://h.example/d/#top", ""}, {"http://host/x", ""}, {"https://abs.example/y", ""}}},
		{"base https", "", page("https://h.example/d/"), robofilter.HTML, []wantLink{
			{"https://h.example/d/passwd", ""}, {"https://h.example/d/#top", ""}, {"https://host/x", ""}, {"https://abs.example/y", ""}}},
		// Relative bases: against a file: document, a file: URL; with no
		// document URL at all, relative links stay relative, as written.
		{"base relative, document file", "file:///srv/www/index.html", page("sub/"), robofilter.HTML, []wantLink{
			{"file:///srv/www/sub/passwd", notWeb}, {"file:///srv/www/sub/#top", notWeb}, {"file://host/x", notWeb}, {"https://abs.example/y", ""}}},
		{"base relative, document https", web, page("../sub/"), robofilter.HTML, []wantLink{
			{"https://example.com/sub/passwd", ""}, {"https://example.com/sub/#top", ""}, {"https://host/x", ""}, {"https://abs.example/y", ""}}},
		{"base relative, no document URL", "", page("sub/"), robofilter.HTML, []wantLink{
			{"sub/passwd", ""}, {"sub/#top", ""}, {"//host/x", ""}, {"https://abs.example/y", ""}}},
		{"base protocol-relative, document ftp", "ftp://ftp.example/a/b", page("//other.example/d/"), robofilter.HTML, []wantLink{
			{"ftp://other.example/d/passwd", notWeb}, {"ftp://other.example/d/#top", notWeb}, {"ftp://host/x", notWeb}, {"https://abs.example/y", ""}}},
		{"base protocol-relative, document https", web, page("//other.example/d/"), robofilter.HTML, []wantLink{
			{"https://other.example/d/passwd", ""}, {"https://other.example/d/#top", ""}, {"https://host/x", ""}, {"https://abs.example/y", ""}}},
		{"base https, document file", "file:///etc/", page("https://h.example/d/"), robofilter.HTML, []wantLink{
			{"https://h.example/d/passwd", ""}, {"https://h.example/d/#top", ""}, {"https://host/x", ""}, {"https://abs.example/y", ""}}},
		{"base file, document https", web, page("file:///etc/"), robofilter.HTML, []wantLink{
			{"file:///etc/passwd", notWeb}, {"file:///etc/#top", notWeb}, {"file://host/x", notWeb}, {"https://abs.example/y", ""}}},
		{"no base href, document file", "file:///etc/", links, robofilter.HTML, []wantLink{
			{"file:///etc/passwd", notWeb}, {"file:///etc/#top", notWeb}, {"file://host/x", notWeb}, {"https://abs.example/y", ""}}},
		{"no base href, document ftp", "ftp://ftp.example/pub/", links, robofilter.HTML, []wantLink{
			{"ftp://ftp.example/pub/passwd", notWeb}, {"ftp://ftp.example/pub/#top", notWeb}, {"ftp://host/x", notWeb}, {"https://abs.example/y", ""}}},
		// The scheme outranks the reasons after it: a nofollow region, a
		// rel=nofollow, a nofollow document, a resource <link>, as for an
		// ftp: URL written absolute; an empty href stays an empty href.
		{"scheme outranks nofollow", "", `<base href="file:///etc/"><a href="ftp://x/">f</a><a href="x" rel="nofollow">r</a>` +
			`<div class="robots-nofollow"><a href="y">n</a></div><a href="">e</a>`, robofilter.HTML, []wantLink{
			{"ftp://x/", notWeb}, {"file:///etc/x", notWeb}, {"file:///etc/y", notWeb}, {"", "empty href"}}},
		{"scheme outranks document nofollow", "file:///etc/", `<meta name="robots" content="nofollow"><link rel="stylesheet" href="s.css"><a href="x">x</a>`, robofilter.HTML, []wantLink{
			{"file:///etc/s.css", notWeb}, {"file:///etc/x", notWeb}}},
	})
}

// The same in XML: xml:base on the element or any ancestor, relative to
// the one above it or to the caller's base; links in attributes (Atom,
// XLink) and in an element's text (sitemap <loc>).
func TestXMLLinkFollowedForTheResolvedScheme(t *testing.T) {
	const atom = `<feed xmlns="http://www.w3.org/2005/Atom"`
	runSchemeCases(t, []schemeCase{
		{"xml:base file on the root", "", atom + ` xml:base="file:///etc/"><entry><link href="passwd"/></entry><link href="https://abs.example/"/></feed>`, robofilter.XML, []wantLink{
			{"file:///etc/passwd", notWeb}, {"https://abs.example/", ""}}},
		{"xml:base relative under file", "", atom + ` xml:base="file:///etc/"><entry xml:base="sub/"><link href="passwd"/></entry></feed>`, robofilter.XML, []wantLink{
			{"file:///etc/sub/passwd", notWeb}}},
		{"xml:base file under https", "https://example.com/feed.xml", atom + ` xml:base="https://h.example/"><entry xml:base="file:///home/"><link href="x"/></entry><link href="y"/></feed>`, robofilter.XML, []wantLink{
			{"file:///home/x", notWeb}, {"https://h.example/y", ""}}},
		{"xml:base https under file", "file:///etc/", atom + `><entry xml:base="https://h.example/e/"><link href="x"/></entry><link href="y"/></feed>`, robofilter.XML, []wantLink{
			{"https://h.example/e/x", ""}, {"file:///etc/y", notWeb}}},
		{"xml:base relative, document ftp", "ftp://ftp.example/pub/f.xml", atom + ` xml:base="d/"><link href="x"/></feed>`, robofilter.XML, []wantLink{
			{"ftp://ftp.example/pub/d/x", notWeb}}},
		{"xml:base protocol-relative, document file", "file:///srv/f.xml", atom + ` xml:base="//nas/share/"><link href="x"/></feed>`, robofilter.XML, []wantLink{
			{"file://nas/share/x", notWeb}}},
		{"xml:base relative, no document URL", "", atom + ` xml:base="d/"><link href="x"/></feed>`, robofilter.XML, []wantLink{
			{"d/x", ""}}},
		{"xml:base javascript", "", `<r xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="javascript:alert(1)"><a xlink:href="#f"/></r>`, robofilter.XML, []wantLink{
			{"javascript:alert(1)#f", javaScriptJS}}},
		{"xml:base data", "", `<r xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="data:text/html,x"><a xlink:href="#f"/></r>`, robofilter.XML, []wantLink{
			{"data:text/html,x#f", notWeb}}},
		{"xml:base mailto", "", `<r xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="mailto:a@b.example"><a xlink:href="#f"/></r>`, robofilter.XML, []wantLink{
			{"mailto:a@b.example#f", notWeb}}},
		{"xml:base http", "file:///etc/", atom + ` xml:base="http://h.example/"><link href="x"/></feed>`, robofilter.XML, []wantLink{
			{"http://h.example/x", ""}}},
		{"sitemap loc under xml:base file", "", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xml:base="file:///etc/"><url><loc>passwd</loc></url></urlset>`, robofilter.XML, []wantLink{
			{"file:///etc/passwd", notWeb}}},
		{"sitemap loc, document ftp", "ftp://ftp.example/", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>x.html</loc></url></urlset>`, robofilter.XML, []wantLink{
			{"ftp://ftp.example/x.html", notWeb}}},
		// An empty href under an xml:base resolves to the base, and is
		// still an empty href.
		{"empty href under xml:base file", "", atom + ` xml:base="file:///etc/"><link href=""/></feed>`, robofilter.XML, []wantLink{
			{"file:///etc/", "empty href"}}},
	})
}
