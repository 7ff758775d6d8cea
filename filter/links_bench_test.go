package filter

import (
	"strconv"
	"testing"
)

// benchLinks drives the core directly with n anchors shaped like the
// generated benchmark page's (<a href="/page/N.html">word</a>), so the
// per-link cost is measured without the parser around it.
func benchLinks(b *testing.B, base string, hrefs, rels [][]byte) {
	word := []byte("crawler")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := NewCore(Options{Base: base}, Outputs{Link: func(Link) error { return nil }})
		if err != nil {
			b.Fatal(err)
		}
		c.EndHead()
		root := c.Root()
		for j, h := range hrefs {
			el := Element{Tag: "a", Link: LinkAnchor, Href: h, Rel: rels[j%len(rels)], Pos: StartPos}
			s := c.Start(root, &el)
			c.Text(s, word)
			c.Release(s)
		}
		if _, err := c.Finish(); err != nil {
			b.Fatal(err)
		}
	}
}

func pageHrefs(n int) [][]byte {
	hrefs := make([][]byte, n)
	for i := range hrefs {
		hrefs[i] = []byte("/page/" + strconv.Itoa(i*7919%100000) + ".html")
	}
	return hrefs
}

func BenchmarkCoreLinks(b *testing.B) {
	const n = 1000
	b.Run("nobase", func(b *testing.B) { benchLinks(b, "", pageHrefs(n), [][]byte{nil}) })
	b.Run("base", func(b *testing.B) { benchLinks(b, "https://example.com/dir/page.html", pageHrefs(n), [][]byte{nil}) })
	b.Run("rel", func(b *testing.B) {
		benchLinks(b, "https://example.com/dir/page.html", pageHrefs(n), [][]byte{[]byte("nofollow"), []byte("noopener"), nil})
	})
}
