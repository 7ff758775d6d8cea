package htmlstream

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"
)

// generatePage makes a page of about n bytes shaped like real ones (a copy
// of the root package's benchmark page generator, so that the tokenizers
// are measured on the same bytes as the whole pipeline).
func generatePage(n int) []byte {
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

var tokenizerBenchPage []byte

// tokenizerLoops are the loops measured: Next alone; Next with Text for
// text; and Next with everything the driver reads of a token.
var tokenizerLoops = []struct {
	name string
	loop func(z tokenSource)
}{
	{"Next", func(z tokenSource) {
		for z.Next() != html.ErrorToken {
		}
	}},
	{"Text", func(z tokenSource) {
		for {
			switch z.Next() {
			case html.ErrorToken:
				return
			case html.TextToken:
				z.Text()
			}
		}
	}},
	{"All", func(z tokenSource) {
		for {
			switch z.Next() {
			case html.ErrorToken:
				return
			case html.TextToken, html.CommentToken, html.DoctypeToken:
				z.Text()
			case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
				_, more := z.TagName()
				for more {
					_, _, more = z.TagAttr()
				}
			}
		}
	}},
}

// benchTokenizers measures x/net's tokenizer and ours over the same pages.
func benchTokenizers(b *testing.B, pages [][]byte) {
	total := 0
	for _, p := range pages {
		total += len(p)
	}
	for _, l := range tokenizerLoops {
		for _, which := range []string{"xnet", "ours"} {
			b.Run(l.name+"/"+which, func(b *testing.B) {
				b.SetBytes(int64(total))
				b.ReportAllocs()
				for b.Loop() {
					for _, p := range pages {
						if which == "xnet" {
							l.loop(html.NewTokenizer(bytes.NewReader(p)))
						} else {
							l.loop(newTokenizer(bytes.NewReader(p), 0))
						}
					}
				}
			})
		}
	}
}

// BenchmarkTokenizerNext runs both tokenizers over the generated ~20 MB
// page of the root package's benchmarks.
func BenchmarkTokenizerNext(b *testing.B) {
	if tokenizerBenchPage == nil {
		tokenizerBenchPage = generatePage(20 << 20)
	}
	benchTokenizers(b, [][]byte{tokenizerBenchPage})
}

// BenchmarkTokenizerCorpus runs both tokenizers over the shared corpus's
// real pages, one tokenizer per page.
func BenchmarkTokenizerCorpus(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(sharedDir(b), "corpus", "html", "*.html"))
	if len(files) == 0 {
		b.Skip("skipping: no corpus pages")
	}
	var pages [][]byte
	for _, f := range files {
		p, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, p)
	}
	benchTokenizers(b, pages)
}
