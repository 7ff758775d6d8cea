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

// The positions of the PIs of an internal subset, and of the references a
// long token warns about, are each found from the one before: each was
// counted from the token's start, so that the 200,000 PIs of a 1 MB
// DOCTYPE below took 61 s, and 1,000 references after 100 KB of
// ISO-8859-1 text (each character re-encoded to count it) 6 s.
func TestPositionsInLongTokensStayLinear(t *testing.T) {
	t.Run("PIs in the internal subset", func(t *testing.T) {
		in := "<!DOCTYPE r [\n" + strings.Repeat("<?a?>", 200_000) + "\n<?a\r\n?> <?robots index='no'?>]><r/>"
		oc := runXML(t, strings.NewReader(in), filter.Options{}, Options{})
		if oc.err != nil {
			t.Fatal(oc.err)
		}
		if ws := oc.res.Warnings; len(ws) != 1 || ws[0].Line != 4 || ws[0].Col != 4 {
			t.Errorf("warnings %v, want one at 4:4", ws)
		}
	})
	t.Run("references in ISO-8859-1 text", func(t *testing.T) {
		const n = 1000
		head := `<?xml version="1.0" encoding="ISO-8859-1"?>` + "\n" + `<!DOCTYPE r SYSTEM "r.dtd"><r>` + strings.Repeat("\xe9", 100_000)
		var refs strings.Builder
		for i := range n {
			fmt.Fprintf(&refs, "&u%d;", i)
		}
		in := head + refs.String() + "\n\xe9&u0;&last;</r>"
		oc := runXML(t, strings.NewReader(in), filter.Options{}, Options{})
		if oc.err != nil {
			t.Fatal(oc.err)
		}
		ws := oc.res.Warnings
		if len(ws) != n {
			t.Fatalf("%d warnings, want %d", len(ws), n)
		}
		line2 := len(head) - strings.IndexByte(head, '\n') - 1 // original bytes: one per é
		for _, i := range []int{0, 1, n - 1} {
			col := 1 + line2 + len(refs.String()[:strings.Index(refs.String(), fmt.Sprintf("&u%d;", i))])
			if ws[i].Line != 2 || ws[i].Col != col {
				t.Errorf("warning %d at %d:%d, want 2:%d", i, ws[i].Line, ws[i].Col, col)
			}
		}
	})
}

// A name as long as a token is clipped in a warning, and what is kept of
// it to warn once is its start: neither grows with the document.
func TestLongNamesInWarningsAreClipped(t *testing.T) {
	long := strings.Repeat("n", 100_000)
	in := `<!DOCTYPE r SYSTEM "r.dtd"><r>&` + long + `1;&` + long + `2;<` + long + `:e/></r>`
	oc := runXML(t, strings.NewReader(in), filter.Options{}, Options{})
	if oc.err != nil {
		t.Fatal(oc.err)
	}
	ws := oc.res.Warnings
	if len(ws) != 2 {
		t.Fatalf("%d warnings, want 2 (one entity, one prefix): %v", len(ws), ws)
	}
	for _, w := range ws {
		if len(w.Message) > 300 {
			t.Errorf("warning of %d bytes: %.120s…", len(w.Message), w.Message)
		}
	}
}

// Resolving an xml:base goes through the base above it and the URL it
// makes, up to maxBaseLen bytes each for a value of a few bytes: 100,000
// nested xml:base="x/" (2 MB) took 8 s, and as many short values under one
// long base, nested or side by side, 5 to 6 s. Past a bound on that work
// in proportion to the bytes read, the values are ignored with a warning
// each: each document below now takes 0.3 to 0.8 s. The test counts the
// work (the bytes of URL gone through) rather than timing it. A feed with
// an xml:base on each of many short entries stays under the bound.
func TestManyXMLBasesStayLinear(t *testing.T) {
	n := 100_000
	if raceDetector {
		n = 20_000
	}
	long := "http://example.com/" + strings.Repeat("p", maxBaseLen-100) + "/"
	nested := func(root, level string) string {
		return root + strings.Repeat(level, n) + strings.Repeat("</e>", n) + "</r>"
	}
	for _, tc := range []struct {
		name, in string
		// warned: the first warning is the bound's (the nested bases
		// pass maxBaseLen first, and the warnings kept are about that).
		warned bool
	}{
		{"nested x/", nested("<r>", `<e xml:base="x/">`), false},
		{"nested under a long base", nested(`<r xml:base="`+long+`">`, `<e xml:base="x">`), false},
		{"side by side under a long base", `<r xml:base="` + long + `">` + strings.Repeat(`<e xml:base="x"/>`, n) + "</r>", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The work counted is the bytes of URL resolving went
			// through, what its time is proportional to: it stays within
			// the bound, plus the one resolution that passes it.
			var work, read int64
			o := Options{finished: func(d *driver) { work, read = int64(d.baseWork), d.scan.end()+int64(d.ents.expanded) }}
			oc := runXML(t, strings.NewReader(tc.in), filter.Options{Base: "http://e.com/"}, o)
			if oc.err != nil {
				t.Fatal(oc.err)
			}
			if limit := baseWorkFree + baseWorkPerByte*read + 3*maxBaseLen; work > limit {
				t.Errorf("resolving went through %d bytes of URLs for %d bytes read, more than %d", work, read, limit)
			}
			if ws := oc.res.Warnings; tc.warned && (len(ws) == 0 || !strings.Contains(ws[0].Message, "resolving the document's xml:base values")) {
				t.Errorf("warnings %.200v, want the first about the bound on resolving", ws)
			}
		})
	}

	const feed = 20_000
	var b strings.Builder
	b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/blog/2024/">`)
	for i := range feed {
		fmt.Fprintf(&b, `<entry xml:base="entries/%d/"><link href="post.html"/></entry>`, i)
	}
	b.WriteString("</feed>")
	oc := runXML(t, strings.NewReader(b.String()), filter.Options{}, Options{})
	if oc.err != nil || len(oc.res.Warnings) != 0 {
		t.Fatalf("error %v, warnings %v", oc.err, oc.res.Warnings)
	}
	got := followed(oc)
	if want := fmt.Sprintf("http://example.com/blog/2024/entries/%d/post.html", feed-1); len(got) != feed || got[feed-1] != want {
		t.Errorf("%d links, want %d, the last %s", len(got), feed, want)
	}
}
