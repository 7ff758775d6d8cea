package benchpage

import (
	"bytes"
	"fmt"
)

// AtomFeed makes an Atom feed of about n bytes: entries with an id, a
// title, a link, an escaped HTML summary and XHTML content (links, robots
// classes, data-nosnippet); with xlink, each entry also has an XLink
// source. The XML benchmarks and records mode's run on it.
func AtomFeed(n int, xlink bool) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
	if xlink {
		b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom" xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="http://example.com/">`)
	} else {
		b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/">`)
	}
	b.WriteString("\n<title>Benchmark feed</title>\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `<entry>
 <id>urn:uuid:%08d</id><title>Entry %d &amp; more</title>
 <link rel="alternate" href="/posts/%d"/>
 <updated>2024-01-01T00:00:00Z</updated>
 <summary type="html">&lt;p&gt;Escaped &lt;b&gt;HTML&lt;/b&gt; summary number %d, with some words to index.&lt;/p&gt;</summary>
 <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Paragraph with <a href="/a/%d">a link</a> and <em>emphasis</em>, plus text &#8212; and more text.</p>
 <p class="robots-noindex">Excluded region text.</p><p>Kept <span data-nosnippet="">out of snippets</span> tail.</p><ul><li>one</li><li>two</li></ul></div></content>
`, i, i, i, i, i)
		if xlink {
			fmt.Fprintf(&b, " <source xlink:type=\"simple\" xlink:href=\"/src/%d\">Source text</source>\n", i)
		}
		b.WriteString("</entry>\n")
	}
	b.WriteString("</feed>\n")
	return b.Bytes()
}
