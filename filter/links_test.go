package filter

import (
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var hrefAttr = regexp.MustCompile(`(?i)href\s*=\s*["']([^"']*)["']`)

// The fast path for plain URLs must give what net/url gives, on every
// href of the corpus pages and on generated near-misses.
func TestPlainResolutionAgreesWithNetURL(t *testing.T) {
	bases := []string{"https://example.com/dir/page.html", "http://Example.COM:8080/a/b/", "https://h.example/?q=1#f"}
	var hrefs []string
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "html", "*.html"))
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
				if want := resolveSlow(base, h); got != want {
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
