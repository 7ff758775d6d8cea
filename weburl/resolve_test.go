package weburl

import (
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
				if want, _ := Resolve(base, h); got != want {
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
