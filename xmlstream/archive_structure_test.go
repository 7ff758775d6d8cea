package xmlstream

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// A comment region that turns archiving off (googleoff: snippet or all)
// may start in one element and end in another. The archive copy keeps the
// tags that cross it, so that it stays well-formed: the end tags of
// elements opened before it, and, where it ends, the start tags of the
// elements still open then.
func TestArchiveOfCrossingCommentRegionsIsWellFormed(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"region ends in a later sibling",
			`<d><a>x<!--googleoff: snippet-->y</a><b>z<!--googleon: snippet-->w</b></d>`,
			`<d><a>x<!--googleoff: snippet-->…</a>…<b><!--googleon: snippet-->w</b></d>`},
		{"region ends two levels down",
			`<d><a>x<!--googleoff: snippet-->y<c>q</c>r</a><b>z<i>n<!--googleon: snippet-->w</i></b></d>`,
			`<d><a>x<!--googleoff: snippet-->…</a>…<b><i><!--googleon: snippet-->w</i></b></d>`},
		{"region ends inside a no-archive element, which keeps its tags",
			`<d><!--googleoff: snippet--><p class="robots-noarchive">a<!--googleon: snippet-->b</p>c</d>`,
			`<d><!--googleoff: snippet-->…<p class="robots-noarchive">…</p>c</d>`},
		{"region from the prolog: the root keeps its tags",
			"<?xml version=\"1.0\"?>\n<!--googleoff: snippet-->\n<r>x<!--googleon: snippet-->y</r>",
			"<?xml version=\"1.0\"?>\n<!--googleoff: snippet-->\n<r>…<!--googleon: snippet-->y</r>"},
		{"region around the whole root",
			"<!--googleoff: snippet--><r>x</r><!--googleon: snippet-->\n",
			"<!--googleoff: snippet--><r>…</r><!--googleon: snippet-->\n"},
		{"elements wholly inside the region go",
			`<d><!--googleoff: all--><p>a<!--x--></p><q>b<!--googleon: all-->c</q></d>`,
			`<d><!--googleoff: all-->…<q><!--googleon: all-->c</q></d>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ch := range chunkings([]byte(tc.in), 16) {
				oc := runXML(t, ch.r(), filter.Options{}, Options{})
				if oc.err != nil || string(oc.archive) != tc.want {
					t.Fatalf("%s: %q (%v), want %q", ch.name, oc.archive, oc.err, tc.want)
				}
			}
		})
	}
}

// The same over random documents: comment regions and no-archive classes
// at random places; every archive copy of a well-formed input parses.
func TestArchiveOfRandomCommentRegionsIsWellFormed(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	pieces := []string{"<!--googleoff: snippet-->", "<!--googleon: snippet-->", "<!--googleoff: all-->", "<!--googleon: all-->", "word ", "<!--c-->"}
	for round := 0; round < 2000; round++ {
		var b strings.Builder
		var gen func(depth int)
		gen = func(depth int) {
			for i := rng.Intn(4); i >= 0; i-- {
				switch k := rng.Intn(6); {
				case k < 2 && depth < 6:
					class := ""
					if rng.Intn(5) == 0 {
						class = ` class="robots-noarchive"`
					}
					fmt.Fprintf(&b, "<e%d%s>", depth, class)
					gen(depth + 1)
					fmt.Fprintf(&b, "</e%d>", depth)
				case k == 2:
					fmt.Fprintf(&b, "<v%d/>", depth)
				default:
					b.WriteString(pieces[rng.Intn(len(pieces))])
				}
			}
		}
		if rng.Intn(4) == 0 {
			b.WriteString("<!--googleoff: snippet-->\n") // a region from the prolog
		}
		b.WriteString("<doc>")
		gen(0)
		b.WriteString("</doc>")
		if rng.Intn(4) == 0 {
			b.WriteString("\n<!--googleon: snippet-->")
		}
		in := b.String()
		oc := runXML(t, strings.NewReader(in), filter.Options{}, Options{})
		if oc.err != nil {
			t.Fatalf("%s: %v", in, oc.err)
		}
		dec := xml.NewDecoder(bytes.NewReader(oc.archive))
		for {
			_, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("archive copy of\n%s\nis not well-formed (%v):\n%s", in, err, oc.archive)
			}
		}
	}
}

// Comments inside elements whose start tags a region holds cost nothing
// each: held tags are looked at only where the last region ends. (Every
// comment walked the open elements: 40,000 of each took 15 s.)
func TestCommentsUnderHeldTagsStayLinear(t *testing.T) {
	const n = 100_000
	in := "<r><!--googleoff: snippet-->" + strings.Repeat("<a>", n) + strings.Repeat("<!---->", n) +
		"<!--googleon: snippet-->" + strings.Repeat("</a>", n) + "</r>"
	oc := runXML(t, strings.NewReader(in), filter.Options{}, Options{})
	if oc.err != nil {
		t.Fatal(oc.err)
	}
	want := "<r><!--googleoff: snippet-->…" + strings.Repeat("<a>", n) + "<!--googleon: snippet-->" + strings.Repeat("</a>", n) + "</r>"
	if string(oc.archive) != want {
		t.Errorf("archive copy of %d bytes, want %d", len(oc.archive), len(want))
	}
}
