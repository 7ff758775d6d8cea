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
		b.WriteString("<doc>")
		gen(0)
		b.WriteString("</doc>")
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
