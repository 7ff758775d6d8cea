package robofilter

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/benchpage"
	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/net/html"
)

var (
	genPage  = flag.String("genpage", "", "write the generated benchmark page to this file and exit (for RSS measurements)")
	genBytes = flag.Int("genbytes", 20<<20, "size of the generated benchmark page")
)

// generatePage is the shared benchmark page (internal/benchpage).
func generatePage(n int) []byte { return benchpage.Generate(n) }

func TestMain(m *testing.M) {
	flag.Parse()
	if *genPage != "" {
		if err := os.WriteFile(*genPage, generatePage(*genBytes), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var benchPage []byte

func page(b *testing.B) []byte {
	if benchPage == nil {
		benchPage = generatePage(*genBytes)
	}
	return benchPage
}

// The bare tokenizer is the ceiling: a loop of Next, and Next with Text.
func BenchmarkTokenizerNext(b *testing.B) { benchTokenizer(b, page(b), false) }
func BenchmarkTokenizerText(b *testing.B) { benchTokenizer(b, page(b), true) }

func benchTokenizer(b *testing.B, src []byte, text bool) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tokenize(src, text)
	}
}

// tokenize is the bare x/net loop over src, with or without Text.
func tokenize(src []byte, text bool) {
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if text && tt == html.TextToken {
			z.Text()
		}
	}
}

// html.Parse, for scale: the whole DOM, the same tree-construction
// algorithm the stream replays.
func BenchmarkHTMLParse(b *testing.B) {
	src := page(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := html.Parse(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}

type outputKind int

const (
	textOnly outputKind = iota
	archiveOnly
	linksOnly
	allThree
)

func benchOutputs(kind outputKind) Outputs {
	var out Outputs
	if kind == textOnly || kind == allThree {
		out.Text = phrase.NewWriter(io.Discard)
	}
	if kind == archiveOnly || kind == allThree {
		out.Archive = io.Discard
	}
	if kind == linksOnly || kind == allThree {
		out.Link = func(filter.Link) error { return nil }
	}
	return out
}

func benchRobofilter(b *testing.B, src []byte, kind outputKind, dialects filter.Dialects) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	opts := Options{}
	opts.Dialects = dialects
	for i := 0; i < b.N; i++ {
		if _, err := Process(bytes.NewReader(src), opts, benchOutputs(kind)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkText(b *testing.B)     { benchRobofilter(b, page(b), textOnly, 0) }
func BenchmarkArchive(b *testing.B)  { benchRobofilter(b, page(b), archiveOnly, 0) }
func BenchmarkLinks(b *testing.B)    { benchRobofilter(b, page(b), linksOnly, 0) }
func BenchmarkAllThree(b *testing.B) { benchRobofilter(b, page(b), allThree, 0) }

// No output at all: the tokenizer, the tree and the scopes, which every
// output needs. The outputs' cost is what they add to this.
func BenchmarkNoOutputs(b *testing.B) {
	src := page(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Process(bytes.NewReader(src), Options{}, Outputs{}); err != nil {
			b.Fatal(err)
		}
	}
}

// With only the strict profile, for the cost of the other dialects.
func BenchmarkAllThreeProfileOnly(b *testing.B) {
	benchRobofilter(b, page(b), allThree, filter.DialectProfile)
}

// BenchmarkRatio measures what the targets are stated in: the
// share of the bare x/net tokenizer's speed that each output keeps. On a
// shared machine the speed of either alone drifts by more than the
// differences that matter, so each round runs the bare loop, the output
// and the bare loop again, back to back, and takes the output's ratio to
// the mean of the two bare runs. It reports the median ratio and the
// quartiles over the rounds (b.N): run it with -cpu 1 and -benchtime 21x.
func BenchmarkRatio(b *testing.B) {
	src := page(b)
	bare := func() { tokenize(src, false) }
	for _, k := range []struct {
		name string
		kind outputKind
	}{{"text", textOnly}, {"archive", archiveOnly}, {"links", linksOnly}, {"all", allThree}} {
		b.Run(k.name, func(b *testing.B) {
			benchRatio(b, bare, func() {
				if _, err := Process(bytes.NewReader(src), Options{}, benchOutputs(k.kind)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkCorpusRatio is BenchmarkRatio on the corpus's real pages, each
// run on its own, as a crawler runs them.
func BenchmarkCorpusRatio(b *testing.B) {
	pages := corpusPages(b)
	bare := func() {
		for _, p := range pages {
			tokenize(p, false)
		}
	}
	for _, k := range []struct {
		name string
		kind outputKind
	}{{"text", textOnly}, {"all", allThree}} {
		b.Run(k.name, func(b *testing.B) {
			benchRatio(b, bare, func() {
				for _, p := range pages {
					if _, err := Process(bytes.NewReader(p), Options{}, benchOutputs(k.kind)); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// benchRatio runs b.N rounds of bare, ours, bare and reports the median
// and quartiles of ours' speed as a share of bare's.
func benchRatio(b *testing.B, bare, ours func()) {
	timed := func(run func()) float64 {
		start := time.Now()
		run()
		return float64(time.Since(start))
	}
	ratios := make([]float64, 0, b.N)
	for i := 0; i < b.N; i++ {
		before := timed(bare)
		t := timed(ours)
		after := timed(bare)
		ratios = append(ratios, (before+after)/2/t)
	}
	slices.Sort(ratios)
	n := len(ratios)
	b.ReportMetric(ratios[n/2], "median-of-bare")
	b.ReportMetric(ratios[n/4], "q1-of-bare")
	b.ReportMetric(ratios[(3*n)/4], "q3-of-bare")
}

// corpusPages reads the corpus's HTML pages, or skips.
func corpusPages(b *testing.B) [][]byte {
	files := shared.Glob(b, "corpus/html/*.html")
	var pages [][]byte
	for _, f := range files {
		p, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, p)
	}
	return pages
}

// The corpus: real pages, each run through all three outputs.
func BenchmarkCorpus(b *testing.B) {
	pages := corpusPages(b)
	total := 0
	for _, p := range pages {
		total += len(p)
	}
	for _, kind := range []struct {
		name string
		run  func(src []byte)
	}{
		{"tokenizer", func(src []byte) {
			z := html.NewTokenizer(bytes.NewReader(src))
			for z.Next() != html.ErrorToken {
			}
		}},
		{"all-three", func(src []byte) {
			if _, err := Process(bytes.NewReader(src), Options{}, benchOutputs(allThree)); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		b.Run(kind.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, p := range pages {
					kind.run(p)
				}
			}
		})
	}
}

// A run allocates a constant amount for the text and the archive copy,
// whatever the size of the page: memory follows nesting depth, not document
// size. Links are strings handed to the caller, so each costs a few
// allocations (the link, its href, its anchor text), and no more.
func TestAllocationsAreFlatInPageSize(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counting is slow under -short")
	}
	allocs := func(src []byte, kind outputKind) float64 {
		return testing.AllocsPerRun(2, func() {
			if _, err := Process(bytes.NewReader(src), Options{}, benchOutputs(kind)); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := generatePage(256<<10), generatePage(2<<20)
	for _, kind := range []struct {
		name string
		kind outputKind
	}{{"text", textOnly}, {"archive", archiveOnly}} {
		a, b := allocs(small, kind.kind), allocs(large, kind.kind)
		t.Logf("%s: %.0f allocations on 256 KiB, %.0f on 2 MiB", kind.name, a, b)
		if b > a+64 {
			t.Errorf("%s: allocations grow with the page: %.0f on 256 KiB, %.0f on 2 MiB", kind.name, a, b)
		}
	}
	links := 0
	if _, err := Process(bytes.NewReader(large), Options{}, Outputs{Link: func(filter.Link) error { links++; return nil }}); err != nil {
		t.Fatal(err)
	}
	const perLink = 2 // one string per link, and its share of the slabs
	got, base := allocs(large, linksOnly), allocs(large, textOnly)
	t.Logf("links: %.0f allocations for %d links on 2 MiB (%.2f a link beyond text's)", got, links, (got-base)/float64(links))
	if got > base+perLink*float64(links) {
		t.Errorf("links: %.0f allocations for %d links, more than %d a link", got, links, perLink)
	}
}
