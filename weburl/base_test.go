package weburl

import (
	"net/url"
	"strings"
	"testing"
)

// ResolveBase is the one rule every base goes through: the caller's, a
// <base href>, an xml:base.
func TestResolveBase(t *testing.T) {
	long := "http://h.example/" + strings.Repeat("a", MaxBaseLen)
	for _, tc := range []struct {
		base, value string
		want        string // the base, or the error's words
		ok          bool
	}{
		{"", " https://H.Example:443/d/ ", "https://h.example/d/", true},
		{"https://h.example/d/p.html", "sub/", "https://h.example/d/sub/", true},
		{"https://h.example/d/", "//other.example/o/", "https://other.example/o/", true},
		{"https://h.example/d/", `\x\`, "https://h.example/x/", true},
		{"", "sub/", "sub/", true}, // no base in effect: it stays relative
		{"file:///etc/", "x/", "file:///etc/x/", true},
		{"", long, "is longer than 2048 bytes", false},
		{"", "http://a b/", "does not parse (host ", false},
		{"", "http://h.example:99999/", "does not parse (port ", false},
		{"", "http://1.2.3.4.5/", "does not parse (host ", false},
		{"mailto:a@b.example", "x", "does not resolve against mailto:a@b.example", false},
		{"http://h.example/" + strings.Repeat("b", MaxBaseLen-40) + "/", strings.Repeat("c", 60), "resolves to a URL of ", false},
	} {
		var base *url.URL
		if tc.base != "" {
			var err error
			if base, err = ParseBase(tc.base); err != nil {
				t.Fatal(err)
			}
		}
		u, err := ResolveBase(base, tc.value)
		switch {
		case tc.ok && (err != nil || u.String() != tc.want):
			t.Errorf("%.40q against %q: %v, %v; want %s", tc.value, tc.base, u, err, tc.want)
		case !tc.ok && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%.40q against %.40q: %v, %v; want an error starting %q", tc.value, tc.base, u, err, tc.want)
		}
	}
}

// ParseBase is ResolveBase with no base in effect, its error quoting the
// value.
func TestParseBaseSaysWhy(t *testing.T) {
	if _, err := ParseBase("http://a b/"); err == nil || !strings.HasPrefix(err.Error(), `base URL "http://a b/" does not parse (`) {
		t.Errorf("error %v", err)
	}
}
