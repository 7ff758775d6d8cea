package filter

import (
	"strings"
	"testing"
)

func FuzzDirectives(f *testing.F) {
	for _, s := range []string{"noindex, nofollow", "unavailable_after: Sunday, 25-Jun-10 15:00:00 GMT", "googlebot: noindex, otherbot: none", "max-snippet:-1", ":,:",
		"googlebot: unavailable_after: Saturday, 15-Jan-94 10:00:00 GMT, nofollow", "unavailable_after: Monday ,x", "noindex\u00a0nofollow"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range ParseDirectives(s) {
			// Names are lower-cased in ASCII only (SPEC section 1).
			if strings.ContainsAny(d.Name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || d.Name != strings.TrimSpace(d.Name) {
				t.Fatalf("name %q not normalised", d.Name)
			}
		}
		var d Directives
		for _, sd := range ParseXRobotsTag(s) {
			d.Add(DirectiveSource{}, sd.Directives)
		}
		if d.MaxSnippet != nil && *d.MaxSnippet == 0 && !d.NoSnippet {
			t.Fatal("max-snippet:0 must withhold snippets")
		}
		// Read in place, as the reference reads it (the list it made).
		checkAgainstReference(t, s)
	})
}
