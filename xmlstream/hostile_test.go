package xmlstream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// followed lists the URLs of the followed links of an outcome.
func followed(oc outcome) []string {
	var urls []string
	for _, l := range oc.links {
		if l.Followed {
			urls = append(urls, l.URL)
		}
	}
	return urls
}

// Every name is resolved by one lookup, whatever the bindings in scope:
// 60,000 declarations on the root and 60,000 children looked through all
// of them for each name (24 s; now 0.7 s with the race detector off), and so did a
// deep nesting with a declaration per level.
func TestManyNamespaceBindingsStayLinear(t *testing.T) {
	const n = 60_000
	var b strings.Builder
	b.WriteString(`<r xmlns:xl="http://www.w3.org/1999/xlink"`)
	for i := range n {
		fmt.Fprintf(&b, ` xmlns:a%d="urn:%d"`, i, i)
	}
	b.WriteString(">")
	for range n {
		b.WriteString(`<c xl:href="/x"/>`)
	}
	b.WriteString("</r>")
	oc := runXML(t, strings.NewReader(b.String()), filter.Options{Base: "http://e.com/"}, Options{})
	if oc.err != nil {
		t.Fatal(oc.err)
	}
	if got := len(followed(oc)); got != n {
		t.Errorf("%d links, want %d", got, n)
	}

	deep := `<p:r xmlns:p="http://www.w3.org/1999/xlink">` + strings.Repeat(`<p:a xmlns:q="u" p:href="/d">`, n) +
		strings.Repeat("</p:a>", n) + "</p:r>"
	oc = runXML(t, strings.NewReader(deep), filter.Options{Base: "http://e.com/"}, Options{})
	if oc.err != nil {
		t.Fatal(oc.err)
	}
	if got := len(followed(oc)); got != n {
		t.Errorf("deep: %d links, want %d", got, n)
	}
}

// Past the bindings looked through one by one, an inner declaration still
// hides an outer one of the same prefix until its element ends, and the
// default namespace is a binding like the others.
func TestNamespaceScopesWithManyBindings(t *testing.T) {
	var many strings.Builder
	for i := range 2 * nsScan {
		fmt.Fprintf(&many, ` xmlns:a%d="urn:%d"`, i, i)
	}
	in := `<r xmlns:xl="http://www.w3.org/1999/xlink"` + many.String() + `>` +
		`<c xl:href="/1"/>` +
		`<s xmlns:xl="urn:not-xlink"` + many.String() + `><c xl:href="/hidden"/>` +
		`<t xmlns:xl="http://www.w3.org/1999/xlink"><c xl:href="/2"/></t><c xl:href="/hidden-again"/></s>` +
		`<c xl:href="/3"/>` +
		`<h xmlns="http://www.w3.org/1999/xhtml"` + many.String() + `><a href="/4">x</a></h>` +
		`<a href="/not-xhtml">x</a></r>`
	oc := runXML(t, strings.NewReader(in), filter.Options{Base: "http://e.com/"}, Options{})
	if oc.err != nil {
		t.Fatal(oc.err)
	}
	got := strings.Join(followed(oc), " ")
	if want := "http://e.com/1 http://e.com/2 http://e.com/3 http://e.com/4"; got != want {
		t.Errorf("links %s, want %s", got, want)
	}
}
