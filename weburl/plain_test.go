package weburl

import (
	"math/rand"
	"net/url"
	"strings"
	"testing"
)

// resolvePlain is plainResolution's URL, for the tests that check it
// against net/url.
func resolvePlain(base *url.URL, href string) (string, bool) {
	scheme, host, ok := PlainResolution(base, href, plainURL([]byte(href)))
	if !ok || scheme == "" {
		return href, ok
	}
	return scheme + "://" + host + href, true
}

// The byte loops of trimHref and plainURL must decide as the plain
// definitions do (strings.TrimFunc and strings.Map for the one, a switch
// and strings.Count for the other), on generated near-misses that include
// whitespace, controls and invalid UTF-8.
func TestHrefFastPathsAgreeWithDefinitions(t *testing.T) {
	trimDefinition := func(b []byte) string {
		s := strings.TrimFunc(string(b), func(r rune) bool { return r <= ' ' })
		if strings.ContainsAny(s, "\t\n\r") {
			s = strings.Map(func(r rune) rune {
				if r == '\t' || r == '\n' || r == '\r' {
					return -1
				}
				return r
			}, s)
		}
		return s
	}
	plainDefinition := func(s string) bool {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			case c == '-' || c == '_' || c == '~' || c == '/' || c == ':' || c == '=' || c == '&' || c == ',' || c == ';' || c == '+':
			case c == '.':
				if i > 0 && s[i-1] == '/' && (i+1 == len(s) || s[i+1] == '/' || s[i+1] == '?' || s[i+1] == '#' ||
					s[i+1] == '.' && (i+2 == len(s) || s[i+2] == '/' || s[i+2] == '?' || s[i+2] == '#')) {
					return false
				}
			case c == '?' || c == '#':
				if i == len(s)-1 || strings.Count(s, "#") > 1 {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	rng := rand.New(rand.NewSource(5))
	parts := []string{" ", "\t", "\n", "\r", "\x00", "\x1f", "\x7f", "\xff", "\xc3", "é", "\u00a0", "/", "//", ".", "..", "?", "#", "a", "Z", "9", "%", "\\", ":", "-_~=&,;+", "x.html"}
	for i := 0; i < 50000; i++ {
		var b []byte
		for j := 0; j < rng.Intn(10); j++ {
			b = append(b, parts[rng.Intn(len(parts))]...)
		}
		if got, want := Trim(b), trimDefinition(b); got != want {
			t.Errorf("trimHref(%q) = %q, want %q", b, got, want)
		}
		if got, want := plainURL(b), plainDefinition(string(b)); got != want {
			t.Errorf("plainURL(%q) = %v, want %v", b, got, want)
		}
		if href, plain := AsParsed(b); plain != plainDefinition(string(href)) {
			t.Errorf("hrefAsParsed(%q) says plain %v for %q", b, plain, href)
		}
	}
}
