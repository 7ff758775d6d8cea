package filter

import (
	"strings"
	"testing"
)

func FuzzDirectives(f *testing.F) {
	for _, s := range []string{"noindex, nofollow", "unavailable_after: Sunday, 25-Jun-10 15:00:00 GMT", "googlebot: noindex, otherbot: none", "max-snippet:-1", ":,:"} {
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
	})
}
