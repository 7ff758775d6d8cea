package filter

import (
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"regexp"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
)

var hrefAttr = regexp.MustCompile(`(?i)href\s*=\s*["']([^"']*)["']`)

// The fast path for plain URLs must give what net/url gives, on every
// href of the corpus pages and on generated near-misses.
func TestPlainResolutionAgreesWithNetURL(t *testing.T) {
	bases := []string{"https://example.com/dir/page.html", "http://Example.COM:8080/a/b/", "https://h.example/?q=1#f"}
	var hrefs []string
	files := shared.Files("corpus/html/*.html")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hrefAttr.FindAllSubmatch(b, -1) {
			hrefs = append(hrefs, string(m[1]))
		}
	}
	rng := rand.New(rand.NewSource(3))
	parts := []string{"http://", "https://", "/", "//", ".", "..", "a", "B", "%20", "?", "#", "&", "=", " ", "x.html", ":", "@", "~", "é", "\\", "[", "]", "80"}
	for i := 0; i < 20000; i++ {
		s := ""
		for j := 0; j < 1+rng.Intn(8); j++ {
			s += parts[rng.Intn(len(parts))]
		}
		hrefs = append(hrefs, s)
	}
	fast := 0
	for _, b := range append(bases, "") {
		var base *url.URL
		if b != "" {
			base, _ = url.Parse(b)
		}
		for _, h := range hrefs {
			if got, ok := resolvePlain(base, h); ok {
				fast++
				if want, _ := resolveSlow(base, h); got != want {
					t.Errorf("base %s, href %q: fast %q, net/url %q", b, h, got, want)
				}
			}
		}
	}
	t.Logf("%d hrefs (%d from the corpus), %d resolutions on the fast path", len(hrefs), len(hrefs)-20000, fast)
	if fast == 0 {
		t.Error("the fast path never applied")
	}
}

// An anchor is reused once its link is written. A scope that outlives its
// link (an <a> written early because more than maxQueuedLinks links queued
// behind it) must then neither add text to the link that took its anchor
// over nor end that link when it ends.
func TestReusedAnchorTakesNoStaleText(t *testing.T) {
	var links []Link
	c, err := NewCore(Options{}, Outputs{Link: func(l Link) error { links = append(links, l); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	c.EndHead()
	root := c.Root()
	var first, next, area Scope
	c.Start(&first, &root, &Element{Tag: "a", Link: LinkAnchor, Href: []byte("/first")})
	c.Text(&first, []byte("start"))
	for i := 0; i <= maxQueuedLinks; i++ {
		c.Start(&area, &first, &Element{Tag: "area", Link: LinkRef, Href: []byte(fmt.Sprint("/area/", i))})
		c.End(&area, Inline)
	}
	if len(links) != maxQueuedLinks+2 || links[0].Href != "/first" {
		t.Fatalf("the overflow wrote %d links, the first %q", len(links), links[0].Href)
	}
	// Hand the first link's anchor to the next link, whatever the order
	// of the free list.
	for k, a := range c.links.free {
		if a == first.anchor {
			c.links.free = append(append(c.links.free[:k:k], c.links.free[k+1:]...), a)
			break
		}
	}
	c.Start(&next, &root, &Element{Tag: "a", Link: LinkAnchor, Href: []byte("/next")})
	if next.anchor != first.anchor {
		t.Fatal("the next link did not take the first one's anchor")
	}
	c.Text(&first, []byte("stale"))
	c.End(&first, Inline)
	c.Text(&next, []byte("next"))
	c.End(&next, Inline)
	if _, err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	last := links[len(links)-1]
	if len(links) != maxQueuedLinks+3 || last.Href != "/next" || last.Text != "next" {
		t.Fatalf("last of %d links: %q with text %q, want /next with text \"next\"", len(links), last.Href, last.Text)
	}
}

func TestRelTokensFoldOnlyASCIICase(t *testing.T) {
	for _, tc := range []struct {
		rel      string
		nofollow bool
	}{
		{"NoFollow", true},
		{"\u017fponsored", false}, // long s: not "sponsored"
		{"ugc,noopener", true},
	} {
		if _, got := relNoFollow([]byte(tc.rel)); got != tc.nofollow {
			t.Errorf("relNoFollow(%q) = %v", tc.rel, got)
		}
	}
	for _, tc := range []struct {
		rel      string
		resource bool
	}{
		{"StyleSheet", true},
		{"\u017ftylesheet", false},
		{"alternate,stylesheet", true}, // split on commas, as rel=nofollow is
		{"preload,prefetch", true},
		{"alternate", false},
		{"fluid-icon", true},
		{"image_src", true},
		{"apple-touch-startup-image", true},
		{"EditURI", true},
		{"wlwmanifest", true},
		{"canonical", false},
		{"”stylesheet”", true}, // pasted with typographic quotes
	} {
		if got := relNotAHyperlink([]byte(tc.rel)); got != tc.resource {
			t.Errorf("relNotAHyperlink(%q) = %v", tc.rel, got)
		}
	}
}

func TestResolveReferenceAgainstOpaqueAndRelativeBases(t *testing.T) {
	for _, tc := range []struct {
		base, ref, want string
		ok              bool
	}{
		{"http://e.com/d/p.html", "x", "http://e.com/d/x", true},
		{"sub/", "x", "sub/x", true},
		{"sub/", "../y", "y", true},
		{"sub/a", "?q", "sub/a?q", true},
		{"sub/", "/abs", "/abs", true},
		{"sub/", "//h/p", "//h/p", true},
		{"/dir/", "x", "/dir/x", true},
		{"mailto:a@b", "x", "", false},
		{"mailto:a@b", "#f", "mailto:a@b#f", true},
		{"mailto:a@b", "http://e.com/", "http://e.com/", true},
		{"http://e.com/", "https://g.com/a/./b/../c", "https://g.com/a/c", true},
	} {
		base, _ := url.Parse(tc.base)
		ref, _ := url.Parse(tc.ref)
		u, ok := ResolveReference(base, ref)
		if ok != tc.ok || ok && u.String() != tc.want {
			t.Errorf("%q against %q: %v %v, want %q %v", tc.ref, tc.base, u, ok, tc.want, tc.ok)
		}
	}
}
