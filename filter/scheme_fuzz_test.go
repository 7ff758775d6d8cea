package filter

import (
	"net/url"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/weburl"
)

// FuzzLinkScheme writes any href as a link under every kind of base and
// checks that it is followed or not as the scheme of the URL it resolves
// to says (checkFollowedScheme).
func FuzzLinkScheme(f *testing.F) {
	for _, s := range []string{"/a/b.html", `\\host\x`, "http:x", "HTTP://B.Example:80", "mailto:a@b", "?q=%zz",
		"passwd", "#top", "", "//host/x", "javascript:x", "file:///etc/passwd", "ftp:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, href string) { checkFollowedScheme(t, href) })
}

// linkBaseKinds are the bases a link can resolve against: the caller's
// (Options.Base, or a WARC-Target-URI), a <base href> and an xml:base,
// each one relative to the one before it.
var (
	docBases  = []string{"", "https://example.com/d/page.html", "file:///srv/www/index.html", "ftp://ftp.example/pub/"}
	baseHrefs = []string{"", "file:///etc/", "ftp://ftp.example/x/", "data:text/html,x", "javascript:alert(1)", "mailto:a@b.example",
		"http://h.example/d/", "https://h.example/d/", "sub/", "../up/", "//other.example/o/", "/root/"}
)

// checkFollowedScheme writes href as a link under every kind of base and
// checks that whether it is followed goes by the scheme of the URL it
// resolves to: an http(s) URL is followed (the documents say nothing
// against it), a URL of another scheme is not, for its scheme; a URL with
// no scheme at all (no absolute base anywhere) stays followed, as written.
func checkFollowedScheme(t *testing.T, href string) {
	for _, doc := range docBases {
		var docURL *url.URL
		if doc != "" {
			docURL, _ = weburl.ParseBase(doc)
		}
		for _, bh := range baseHrefs {
			// As a <base href> in HTML.
			l, ok := linkUnder(t, doc, func(c *Core) {
				if bh != "" {
					c.BaseHref([]byte(bh))
				}
			}, nil, href)
			if ok {
				checkLinkScheme(t, "base href "+bh+" in document "+doc, href, l)
			}
			// As an xml:base, resolved as xmlstream resolves it.
			if bh == "" {
				continue
			}
			ref, err := weburl.ParseReference(docURL, bh)
			if err != nil {
				continue
			}
			xb, ok := weburl.ResolveReference(docURL, ref)
			if !ok {
				continue
			}
			if l, ok := linkUnder(t, doc, nil, xb, href); ok {
				checkLinkScheme(t, "xml:base "+bh+" in document "+doc, href, l)
			}
		}
	}
}

// linkUnder runs a document whose one link is href, with the caller's base
// doc, setup called before the link (a <base href>), and xmlBase (nil:
// none) as the link's own base.
func linkUnder(t *testing.T, doc string, setup func(*Core), xmlBase *url.URL, href string) (Link, bool) {
	var links []Link
	c, err := NewCore(Options{Base: doc}, Outputs{Link: func(l Link) error { links = append(links, l); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(c)
	}
	c.EndHead()
	root := c.Root()
	var s Scope
	c.StartBased(&s, &root, &Element{Tag: "a", Link: LinkAnchor, Href: []byte(href)}, xmlBase)
	c.End(&s, Inline)
	if _, err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 {
		t.Fatalf("href %q: %d links", href, len(links))
	}
	return links[0], true
}

func checkLinkScheme(t *testing.T, where, href string, l Link) {
	t.Helper()
	if l.Reason == "empty href" || strings.HasPrefix(l.Reason, "no URL: ") {
		if l.Followed {
			t.Fatalf("%s, href %q: followed, with the reason %q", where, href, l.Reason)
		}
		return
	}
	i := weburl.SchemeEnd(l.URL)
	if i < 0 {
		if !l.Followed && weburl.SchemeEnd(l.Href) < 0 {
			t.Fatalf("%s, href %q: URL %q, with no scheme, not followed (%q)", where, href, l.URL, l.Reason)
		}
		return
	}
	scheme := strings.ToLower(l.URL[:i])
	web := scheme == "http" || scheme == "https"
	if l.Followed != web {
		t.Fatalf("%s, href %q: URL %q followed %v (%q)", where, href, l.URL, l.Followed, l.Reason)
	}
	want := reasonNotWeb
	if scheme == "javascript" {
		want = reasonJavaScript
	}
	if !web && l.Reason != want {
		t.Fatalf("%s, href %q: URL %q not followed for %q, want %q", where, href, l.URL, l.Reason, want)
	}
}
