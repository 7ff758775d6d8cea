package xmlstream

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
)

// benchDoc is a generated Atom feed of about 20 MB: entries with escaped
// HTML summaries, XHTML content (links, robots classes, data-nosnippet),
// XLink links and entity references.
var benchDoc = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="http://example.com/">
<title>Benchmark feed</title>
`)
	for i := 0; b.Len() < 20<<20; i++ {
		fmt.Fprintf(&b, `<entry>
 <id>urn:uuid:%08d</id><title>Entry %d &amp; more</title>
 <link rel="alternate" href="/posts/%d"/>
 <updated>2024-01-01T00:00:00Z</updated>
 <summary type="html">&lt;p&gt;Escaped &lt;b&gt;HTML&lt;/b&gt; summary number %d, with some words to index.&lt;/p&gt;</summary>
 <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Paragraph with <a href="/a/%d">a link</a> and <em>emphasis</em>, plus text &#8212; and more text.</p>
 <p class="robots-noindex">Excluded region text.</p><p>Kept <span data-nosnippet="">out of snippets</span> tail.</p><ul><li>one</li><li>two</li></ul></div></content>
 <source xlink:type="simple" xlink:href="/src/%d">Source text</source>
</entry>
`, i, i, i, i, i, i)
	}
	b.WriteString("</feed>\n")
	return b.Bytes()
})

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
	dir := filepath.Join("..", "..", "shared", "corpus", "xml")
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
