package weburl

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzLinkResolution checks, for any href against a few bases: no panic;
// the fast path, where it applies, agrees with the full resolution; and a
// followed http(s) URL is written in its final spelling (resolving it again
// gives it back) as one token (no white space or control byte in it).
// filter's FuzzLinkScheme checks that a link is followed or not as the
// scheme of the URL it resolves to says.
func FuzzLinkResolution(f *testing.F) {
	for _, s := range []string{"/a/b.html", `\\host\x`, "http:x", "HTTP://B.Example:80", "https:////h/x?q=a b#f",
		"http://0x7f.1/", "http://[::1]:8080/", "//xn--bcher-kva.example", "http://bücher.example/", "../..\\a",
		"http://a:99999/", "mailto:a@b", "?q=%zz", "http://a.example?#", "passwd", "#top", "", "//host/x"} {
		f.Add(s)
	}
	bases := []string{"", "http://a.example/p/q.html", "https://Example.COM:8443/d/", "mailto:x@y", "file:///etc/", "ftp://ftp.example/pub/"}
	f.Fuzz(func(t *testing.T, href string) {
		for _, b := range bases {
			var base *url.URL
			if b != "" {
				var err error
				if base, err = url.Parse(b); err != nil {
					t.Fatal(err)
				}
			}
			got, why := Resolve(base, href)
			if fast, ok := resolvePlain(base, href); ok && (fast != got || why != "") {
				t.Fatalf("base %q, href %q: fast path %q, full resolution %q (%q)", b, href, fast, got, why)
			}
			if why != "" || !(strings.HasPrefix(got, "http://") || strings.HasPrefix(got, "https://")) {
				continue
			}
			if strings.ContainsFunc(got, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
				t.Fatalf("base %q, href %q: URL %q is not one token", b, href, got)
			}
			if again, why2 := Resolve(nil, got); again != got || why2 != "" {
				t.Fatalf("base %q, href %q: URL %q resolves again to %q (%q)", b, href, got, again, why2)
			}
		}
	})
}
