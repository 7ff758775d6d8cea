package xmlstream

import (
	"bytes"
	"encoding/xml"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/benchpage"
	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/phrase"
)

// benchDoc is a generated Atom feed of about 20 MB: entries with escaped
// HTML summaries, XHTML content (links, robots classes, data-nosnippet),
// XLink links and entity references.
var benchDoc = sync.OnceValue(func() []byte { return benchpage.AtomFeed(20<<20, true) })

// BenchmarkRawTokenBaseline is the bare encoding/xml RawToken loop: the
// ceiling for the XML stage.
func BenchmarkRawTokenBaseline(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		d := xml.NewDecoder(bytes.NewReader(doc))
		for {
			if _, err := d.RawToken(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

func BenchmarkRun(b *testing.B) {
	doc := benchDoc()
	noLinks := func(filter.Link) error { return nil }
	for _, bc := range []struct {
		name string
		out  func() filter.Outputs
	}{
		{"text+archive+links", func() filter.Outputs {
			return filter.Outputs{Text: phrase.NewWriter(io.Discard), Archive: io.Discard, Link: noLinks}
		}},
		{"text", func() filter.Outputs { return filter.Outputs{Text: phrase.NewWriter(io.Discard)} }},
		{"archive", func() filter.Outputs { return filter.Outputs{Archive: io.Discard} }},
		{"links", func() filter.Outputs { return filter.Outputs{Link: noLinks} }},
		{"no-outputs", func() filter.Outputs { return filter.Outputs{} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				core, err := filter.NewCore(filter.Options{Base: "http://example.com/feed"}, bc.out())
				if err != nil {
					b.Fatal(err)
				}
				if err := Run(bytes.NewReader(doc), core, Options{}); err != nil {
					b.Fatal(err)
				}
				if _, err := core.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCorpus runs the well-formed UTF-8 documents of the shared XML
// corpus (feeds, sitemaps, DocBook): a bare RawToken loop beside the stage
// with all three outputs.
func BenchmarkCorpus(b *testing.B) {
	dir := shared.Path(b, "corpus", "xml")
	var docs [][]byte
	total := 0
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		doc, err := os.ReadFile(p)
		if err != nil || !isUTF8Doc(doc) {
			return nil
		}
		d := xml.NewDecoder(bytes.NewReader(doc))
		d.Strict = false // the baseline must read the document through
		for {
			if _, err := d.RawToken(); err != nil {
				if err != io.EOF {
					return nil
				}
				break
			}
		}
		docs = append(docs, doc)
		total += len(doc)
		return nil
	})
	if len(docs) == 0 {
		b.Skip("skipping: no shared corpus beside the checkout")
	}
	noLinks := func(filter.Link) error { return nil }
	b.Run("rawtoken", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				d := xml.NewDecoder(bytes.NewReader(doc))
				d.Strict = false
				for {
					if _, err := d.RawToken(); err != nil {
						break
					}
				}
			}
		}
	})
	b.Run("all-three", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				core, err := filter.NewCore(filter.Options{Base: "http://example.com/feed"},
					filter.Outputs{Text: phrase.NewWriter(io.Discard), Archive: io.Discard, Link: noLinks})
				if err != nil {
					b.Fatal(err)
				}
				_ = Run(bytes.NewReader(doc), core, Options{}) // a few documents stop at an error, as they should
				if _, err := core.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
