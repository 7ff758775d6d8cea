package xmlstream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// An attribute default declared in the internal subset is the attribute
// of every element of that name without it (XML 1.0 section 3.3.2): a
// robots class, an xml:base or a namespace given so counts as if written.
func TestAttributeDefaultsFromTheInternalSubset(t *testing.T) {
	for _, tc := range []struct {
		name, in, text, link string
	}{
		{"default class makes a region",
			`<!DOCTYPE d [<!ATTLIST p class CDATA "robots-noindex">]><d><p>hidden</p><p class="own">shown</p><q>free</q></d>`,
			"shown free\n", ""},
		{"fixed default, enumerated type, and several attributes in one declaration",
			`<!DOCTYPE d [<!ATTLIST p kind (a|b) 'a' class CDATA #FIXED "robots-noindex" id ID #IMPLIED>]><d><p>hidden</p>shown</d>`,
			"shown\n", ""},
		{"default xml:base resolves links",
			`<!DOCTYPE feed [<!ATTLIST feed xml:base CDATA "http://example.com/base/">]><feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="x.html"/></entry></feed>`,
			"", "http://example.com/base/x.html"},
		{"default namespace declaration binds a prefix",
			`<!DOCTYPE d [<!ATTLIST d xmlns:xl CDATA #FIXED "http://www.w3.org/1999/xlink">]><d><a xl:href="/l">l</a></d>`,
			"l\n", "/l"},
		{"references in a default are replaced",
			`<!DOCTYPE d [<!ATTLIST p class CDATA "robots-&#110;oindex x&amp;y">]><d><p>hidden</p>shown</d>`,
			"shown\n", ""},
		{"the first declaration of an attribute binds",
			`<!DOCTYPE d [<!ATTLIST p class CDATA "robots-noindex"><!ATTLIST p class CDATA "robots-index">]><d><p>hidden</p>shown</d>`,
			"shown\n", ""},
		{"no default for #IMPLIED or #REQUIRED",
			`<!DOCTYPE d [<!ATTLIST p class CDATA #IMPLIED id ID #REQUIRED>]><d><p>shown</p></d>`,
			"shown\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ch := range chunkings([]byte(tc.in), 12) {
				oc := runXML(t, ch.r(), filter.Options{}, Options{})
				if oc.err != nil {
					t.Fatalf("%s: %v", ch.name, oc.err)
				}
				if oc.text != tc.text {
					t.Fatalf("%s: text %q, want %q", ch.name, oc.text, tc.text)
				}
				var links []string
				for _, l := range oc.links {
					links = append(links, l.URL)
				}
				if got := strings.Join(links, " "); got != tc.link {
					t.Fatalf("%s: links %q, want %q", ch.name, got, tc.link)
				}
			}
		})
	}
}

// A DOCTYPE may declare any number of defaults; a start tag of a few bytes
// gets at most maxElementDefaults of them, and what is left out is said.
func TestAttributeDefaultsAreBounded(t *testing.T) {
	var in strings.Builder
	in.WriteString("<!DOCTYPE d [")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&in, `<!ATTLIST a x%d CDATA "v">`, i)
	}
	in.WriteString(`<!ATTLIST p class CDATA "robots-noindex">]><d>` + strings.Repeat("<a/>", 1000) + "<p>hidden</p>shown</d>")
	oc := runXML(t, strings.NewReader(in.String()), filter.Options{}, Options{})
	if oc.err != nil || oc.text != "shown\n" {
		t.Fatalf("text %q, error %v", oc.text, oc.err)
	}
	if len(oc.res.Warnings) != 1 || !strings.Contains(oc.res.Warnings[0].Message, "attribute defaults of the internal subset are not applied") {
		t.Errorf("warnings %v", oc.res.Warnings)
	}
}
