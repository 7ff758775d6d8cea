package htmlstream

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/benchpage"
	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/net/html"
)

// generatePage is the root package's benchmark page, so that the
// tokenizers are measured on the same bytes as the whole pipeline.
func generatePage(n int) []byte { return benchpage.Generate(n) }

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
	files := shared.Glob(b, "corpus/html/*.html")
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

// BenchmarkLongRuns measures pages of one long run (longruns_test.go), 4
// MiB each, in pieces of the default size: x/net's tokenizer (which reads
// each run as one token) and ours, with Next alone, then the whole stage.
// A page of words is the floor.
func BenchmarkLongRuns(b *testing.B) {
	const n = 4 << 20
	pages := []struct{ name, src string }{
		{"words", "<p>" + repeatTo("word ", n) + "</p>"},
		{"digits", "<p>" + repeatTo("0123456789", n) + "</p>"},
		{"hex letters in a comment", "<!--" + repeatTo("abcdef", n) + "-->"},
		{"one numeric reference", "<p>&#" + repeatTo("0", n) + "</p>"},
		{"hex in a script", "<script>" + repeatTo("0x", n) + "</script>"},
		{"CR", "<pre>" + repeatTo("\r", n) + "</pre>"},
	}
	piece := filter.TextPiece(filter.DefaultMaxTokenSize)
	for _, p := range pages {
		src := []byte(p.src)
		b.Run(p.name+"/xnet", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				tokenizerLoops[0].loop(html.NewTokenizer(bytes.NewReader(src)))
			}
		})
		b.Run(p.name+"/ours", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				z := newTokenizer(bytes.NewReader(src), filter.DefaultMaxTokenSize)
				z.piece, z.cutInWords = piece, true
				tokenizerLoops[0].loop(z)
			}
		})
		b.Run(p.name+"/stage", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Text: phrase.NewWriter(io.Discard)})
				if err := Run(bytes.NewReader(src), c, Options{Charset: "utf-8"}); err != nil {
					b.Fatal(err)
				}
				c.Finish()
			}
		})
	}
}
