package robofilter_test

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/internal/warcgen"
)

var (
	crawlOnce sync.Once
	crawlFile []byte // a generated Common Crawl-shaped .warc.gz
	crawlRaw  int64  // its bytes decompressed
)

func crawlWARC(b *testing.B) []byte {
	crawlOnce.Do(func() {
		var buf bytes.Buffer
		_, raw, err := warcgen.WriteSize(&buf, warcgen.Options{Bytes: 32 << 20, Gzip: true, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		crawlFile, crawlRaw = buf.Bytes(), raw
	})
	return crawlFile
}

// BenchmarkCrawl reads every page of a generated Common Crawl-shaped
// .warc.gz (32 MB decompressed) through input.Reader and gives each to
// Process with the text output, in turn, on one goroutine: the work of
// `robofilter text --warc --jobs 1`. MB/s count the file's decompressed
// bytes.
func BenchmarkCrawl(b *testing.B) {
	file := crawlWARC(b)
	b.SetBytes(crawlRaw)
	b.ReportAllocs()
	for b.Loop() {
		in := input.NewReader("crawl", bytes.NewReader(file), input.WARC, robofilter.Options{})
		for {
			doc, err := in.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if doc.Err != nil {
				continue
			}
			if _, err := robofilter.Process(doc.Body, doc.Options, robofilter.Outputs{Text: robofilter.NewTextWriter(io.Discard)}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
