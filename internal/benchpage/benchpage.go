// Package benchpage makes the generated HTML page the benchmarks and some
// tests run on, so that every package measures the same bytes.
package benchpage

import (
	"bytes"
	"fmt"
	"math/rand"
)

// Generate makes a page of about n bytes of the constructs real ones
// have: nested blocks, paragraphs with inline markup and links, tables,
// scripts, and a sprinkling of robots markup (seeded, so every run sees the
// same bytes). It is denser in markup than real pages, on purpose: a token
// every 10 bytes, where the corpus's pages have one every 71.
func Generate(n int) []byte {
	rng := rand.New(rand.NewSource(1))
	words := []string{"robots", "index", "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "search", "engine", "crawler", "phrase", "archive", "link", "café", "naïve"}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Benchmark page</title>\n<link rel=stylesheet href=/s.css><script>var x = 1 < 2 && '<p>';</script></head>\n<body>\n")
	sentence := func() {
		for i := 0; i < 8+rng.Intn(20); i++ {
			switch rng.Intn(12) {
			case 0:
				fmt.Fprintf(&b, `<a href="/page/%d.html">%s</a> `, rng.Intn(100000), words[rng.Intn(len(words))])
			case 1:
				fmt.Fprintf(&b, "<b>%s</b> ", words[rng.Intn(len(words))])
			case 2:
				fmt.Fprintf(&b, "<span class=\"c%d\">%s</span> ", rng.Intn(50), words[rng.Intn(len(words))])
			default:
				b.WriteString(words[rng.Intn(len(words))])
				b.WriteByte(' ')
			}
		}
	}
	for b.Len() < n {
		switch rng.Intn(10) {
		case 0:
			b.WriteString("<div class=\"robots-noindex\"><p>")
			sentence()
			b.WriteString("</p></div>\n")
		case 1:
			b.WriteString("<table><tr><td>")
			sentence()
			b.WriteString("<td>")
			sentence()
			b.WriteString("</table>\n")
		case 2:
			b.WriteString("<ul><li>")
			sentence()
			b.WriteString("<li>")
			sentence()
			b.WriteString("</ul>\n<script>for (var i = 0; i < 10; i++) { document.title += '<b>'; }</script>\n")
		case 3:
			b.WriteString("<p class=\"robots-nofollow\">")
			sentence()
			b.WriteString("<img src=x.png class=\"robots-noarchive\"></p>\n<!-- a comment -->\n")
		default:
			b.WriteString("<div class=\"section\"><h2>")
			sentence()
			b.WriteString("</h2><p>")
			sentence()
			b.WriteString("</p></div>\n")
		}
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}
