package feed_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/internal/benchpage"
)

// recordsBenchFeeds are generated feeds of about 4 MB each, the shapes
// entries mode is for: an Atom feed whose entries have an id, a title, a
// link, an escaped HTML summary and XHTML content (links, robots classes,
// data-nosnippet), like xmlstream's benchDoc; and an RSS feed whose items
// have a title, a link and a description, HTML in a CDATA section.
var entriesBenchFeeds = sync.OnceValue(func() map[string][]byte {
	atom := benchpage.AtomFeed(4<<20, false)
	var rss bytes.Buffer
	rss.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Benchmark feed</title><link>http://example.com/</link>
`)
	para := strings.Repeat(`<p>Some words of the item's text, <a href="/x">a link</a>, more words.</p>`, 4)
	for i := 0; rss.Len() < 4<<20; i++ {
		fmt.Fprintf(&rss, "<item><title>Item %d</title><link>http://example.com/%d</link><guid>%d</guid>\n<description><![CDATA[%s]]></description></item>\n", i, i, i, para)
	}
	rss.WriteString("</channel></rss>\n")
	return map[string][]byte{"atom": atom, "rss": rss.Bytes()}
})

// BenchmarkRecords runs entries mode over the generated feeds, every
// entry through the HTML pipeline (all outputs, as Entry.Doc has them).
func BenchmarkEntries(b *testing.B) {
	for _, bc := range []struct{ feed, xpath string }{{"atom", "/feed/entry"}, {"rss", "/rss/channel/item"}} {
		doc := entriesBenchFeeds()[bc.feed]
		b.Run(bc.feed, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				err := processEntries(bytes.NewReader(doc), bc.xpath, robofilter.Options{}, func(feed.Entry) error {
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
