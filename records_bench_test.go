package robofilter_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/robofilter/robofilter"
)

// recordsBenchFeeds are generated feeds of about 4 MB each, the shapes
// records mode is for: an Atom feed whose entries have an id, a title, a
// link, an escaped HTML summary and XHTML content (links, robots classes,
// data-nosnippet), like xmlstream's benchDoc; and an RSS feed whose items
// have a title, a link and a description, HTML in a CDATA section.
var recordsBenchFeeds = sync.OnceValue(func() map[string][]byte {
	var atom, rss bytes.Buffer
	atom.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/">
<title>Benchmark feed</title>
`)
	for i := 0; atom.Len() < 4<<20; i++ {
		fmt.Fprintf(&atom, `<entry>
 <id>urn:uuid:%08d</id><title>Entry %d &amp; more</title>
 <link rel="alternate" href="/posts/%d"/>
 <updated>2024-01-01T00:00:00Z</updated>
 <summary type="html">&lt;p&gt;Escaped &lt;b&gt;HTML&lt;/b&gt; summary number %d, with some words to index.&lt;/p&gt;</summary>
 <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Paragraph with <a href="/a/%d">a link</a> and <em>emphasis</em>, plus text &#8212; and more text.</p>
 <p class="robots-noindex">Excluded region text.</p><p>Kept <span data-nosnippet="">out of snippets</span> tail.</p><ul><li>one</li><li>two</li></ul></div></content>
</entry>
`, i, i, i, i, i)
	}
	atom.WriteString("</feed>\n")
	rss.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Benchmark feed</title><link>http://example.com/</link>
`)
	para := strings.Repeat(`<p>Some words of the item's text, <a href="/x">a link</a>, more words.</p>`, 4)
	for i := 0; rss.Len() < 4<<20; i++ {
		fmt.Fprintf(&rss, "<item><title>Item %d</title><link>http://example.com/%d</link><guid>%d</guid>\n<description><![CDATA[%s]]></description></item>\n", i, i, i, para)
	}
	rss.WriteString("</channel></rss>\n")
	return map[string][]byte{"atom": atom.Bytes(), "rss": rss.Bytes()}
})

// BenchmarkRecords runs records mode over the generated feeds, every
// record through the HTML pipeline (all outputs, as Record.Doc has them).
func BenchmarkRecords(b *testing.B) {
	for _, bc := range []struct{ feed, xpath string }{{"atom", "/feed/entry"}, {"rss", "/rss/channel/item"}} {
		doc := recordsBenchFeeds()[bc.feed]
		b.Run(bc.feed, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				err := robofilter.ProcessRecords(bytes.NewReader(doc), bc.xpath, robofilter.Options{}, func(robofilter.Record) error {
					n++
					return nil
				})
				if err != nil || n == 0 {
					b.Fatalf("%d records, %v", n, err)
				}
			}
		})
	}
}
