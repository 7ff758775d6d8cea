package hostile

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"strconv"
	"strings"

	"github.com/robofilter/robofilter/internal/benchpage"
)

// Mode is how an input is read: the modes of the CLI.
type Mode int

const (
	HTML    Mode = iota // a document read as HTML
	XML                 // a document read as XML
	Records             // an RSS feed read item by item (--records //item)
	HTTP                // a saved HTTP response (--http)
	WARC                // a WARC file (--warc)
)

func (m Mode) String() string {
	return [...]string{"html", "xml", "records", "http", "warc"}[m]
}

// Holding says what the memory of reading a shape may grow with, under
// the documented limits (docs/limits.md).
type Holding int

const (
	// HoldsNothing: a constant (pieces of text, bounded lists).
	HoldsNothing Holding = iota
	// HoldsToken: one token as long as the input, held whole up to the
	// token limit (--max-token).
	HoldsToken
	// HoldsDepth: the open elements, as many as the input has, up to the
	// depth limit (--max-depth).
	HoldsDepth
	// HoldsEntry: in records mode, one entry (or what stands between
	// two) as long as the input, up to feed.MaxEntryBytes.
	HoldsEntry
	// HoldsBounded: a list a limit bounds by its count (the head's links,
	// the title's words, robot numbers), which grows with the input until
	// it is full: a constant, but one that inputs of a few hundred KiB do
	// not reach.
	HoldsBounded
)

func (h Holding) String() string {
	return [...]string{"nothing", "a token", "the depth", "an entry", "a bounded list"}[h]
}

// A Shape is an input of a hostile shape.
type Shape struct {
	Name  string
	Mode  Mode    // how it is read; HTML and XML documents are read as saved HTTP responses and WARC files too (Wrap)
	Holds Holding // what its memory may grow with
	// Heavy tells that each byte costs far more work than an ordinary
	// page's, within a bound (the formatting elements re-created in each
	// paragraph, a URL resolved for each xml:base): a test reads it at a
	// smaller size.
	Heavy bool
	Make  func(n int) string
}

// units repeats unit to about n bytes, whole units, between head and tail.
func units(head, unit, tail string, n int) string {
	return head + strings.Repeat(unit, max(1, n/len(unit))) + tail
}

// numbered writes f(i) for i = 0, 1, … until about n bytes.
func numbered(head string, f func(i int) string, tail string, n int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < n; i++ {
		b.WriteString(f(i))
	}
	b.WriteString(tail)
	return b.String()
}

// Shapes are every shape of the matrix: long runs of each class in each
// context, deep nesting of every element kind, many of each thing the
// filter keeps count of, long X-Robots-Tag values and header blocks, and
// the HTTP and WARC framing.
func Shapes() []Shape {
	var s []Shape
	add := func(name string, m Mode, h Holding, f func(n int) string) {
		s = append(s, Shape{Name: name, Mode: m, Holds: h, Make: f})
	}
	heavy := func() { s[len(s)-1].Heavy = true }

	// Runs in HTML: every class in every context, ended or not.
	for _, ctx := range HTMLRunContexts {
		for _, c := range RunClasses {
			for _, ended := range []bool{true, false} {
				ctx, c, ended := ctx, c, ended
				hold := HoldsNothing
				if ctx.Name == "bogus comment" {
					hold = HoldsToken
				}
				add(fmt.Sprintf("run/%s/%s/ended=%v", ctx.Name, c.Name, ended), HTML, hold, func(n int) string {
					return Run(ctx, c, n, ended, "<p>after")
				})
			}
		}
	}
	for _, ctx := range HTMLTokenContexts {
		for _, c := range TokenClasses {
			for _, ended := range []bool{true, false} {
				ctx, c, ended := ctx, c, ended
				add(fmt.Sprintf("token/%s/%s/ended=%v", ctx.Name, c.Name, ended), HTML, HoldsToken, func(n int) string {
					return Run(ctx, c, n, ended, "<p>after")
				})
			}
		}
	}

	// Deep nesting of every kind of element.
	for _, open := range []string{
		"<div>", "<span>", "<b>", "<i><u>", "<a href=/x>", "<b><i><a href=/x>x ", "<table>", "<table><tr><td>",
		"<ul><li>", "<template>", "<svg><g>", "<math><mi>", "<select><option>", "<object>", "<blockquote><p>",
		"<div class=robots-noindex>", "<div data-nosnippet>", "<noindex>", "<font color=red>", "<b id=1>x",
	} {
		open := open
		add("nesting/"+open, HTML, HoldsDepth, func(n int) string { return units("", open, "x", n) })
	}
	add("nesting/<p> in <p>", HTML, HoldsNothing, func(n int) string { return units("", "<p>x", "", n) })
	add("nesting/distinct formatting elements", HTML, HoldsDepth, func(n int) string {
		return numbered("", func(i int) string { return "<b id=" + strconv.Itoa(i) + ">" }, "x<p>y", n)
	})
	add("nesting/formatting reconstructed in each paragraph", HTML, HoldsBounded, func(n int) string {
		return numbered("", func(i int) string { return "<p><b id=" + strconv.Itoa(i%600) + ">x</p>" }, "", n)
	})
	heavy()
	add("nesting/end tags of a formatting element far down", HTML, HoldsDepth, func(n int) string {
		return "<a href=/x>" + strings.Repeat("<div>", n/10) + strings.Repeat("</a>x", n/10)
	})
	add("nesting/unmatched end tags under deep spans", HTML, HoldsDepth, func(n int) string {
		return "<div>" + strings.Repeat("<span>", n/12) + strings.Repeat("</x>", n/8)
	})
	// Each </b> leaves its div open (and a clone of the b in it).
	add("nesting/misnested </b> over divs", HTML, HoldsDepth, func(n int) string {
		return units("<b>", "<div>x</b>", "", n)
	})

	// Many of one thing.
	add("many/attributes in one tag", HTML, HoldsToken, func(n int) string {
		return numbered("<p", func(i int) string { return " a" + strconv.Itoa(i) + "=x" }, ">x", n)
	})
	add("many/one attribute repeated in one tag", HTML, HoldsToken, func(n int) string { return units("<p", " a=x", ">x", n) })
	add("many/tags of 1,100 attributes", HTML, HoldsNothing, func(n int) string {
		tag := numbered("<p", func(i int) string { return " a" + strconv.Itoa(i) + "=x" }, ">x</p>", 1100*7)
		return units("", tag, "", n)
	})
	add("many/classes in one attribute", HTML, HoldsToken, func(n int) string {
		return numbered(`<p class="`, func(i int) string { return "robots-foo" + strconv.Itoa(i) + " " }, `">x`, n)
	})
	add("many/elements with robots classes", HTML, HoldsNothing, func(n int) string {
		return units("", `<p class="robots-noindex robots-nofollow robots-noarchive c">x</p><a href=/y>y</a>`, "", n)
	})
	add("many/unknown robots classes", HTML, HoldsNothing, func(n int) string {
		return numbered("", func(i int) string { return `<p class="robots-x` + strconv.Itoa(i) + `">x</p>` }, "", n)
	})
	add("many/regions of every dialect", HTML, HoldsNothing, func(n int) string {
		return units("", `<div class=robots-noindex>a</div><span data-nosnippet>b</span><noindex>c</noindex>`+
			`<!--googleoff: all-->d<!--googleon: all--><!--noindex-->e<!--/noindex--><div class=robots-nocontent>f</div>`, "", n)
	})
	add("many/googleoff markers unmatched", HTML, HoldsNothing, func(n int) string { return units("<p>", "<!--googleoff: index-->x", "", n) })
	add("many/googleon markers unmatched", HTML, HoldsNothing, func(n int) string { return units("<p>", "<!--googleon: index-->x", "", n) })
	add("many/comment openers", HTML, HoldsNothing, func(n int) string { return units("<p>", "<!--x--><!-", "", n) })
	add("many/links", HTML, HoldsNothing, func(n int) string {
		return numbered("<body>", func(i int) string { return `<a href="/p` + strconv.Itoa(i) + `">x</a> ` }, "", n)
	})
	add("many/nofollow links", HTML, HoldsNothing, func(n int) string {
		return units("<body>", `<a href="x" rel="nofollow ugc sponsored">x</a>`, "", n)
	})
	add("many/links of 2 KiB URLs", HTML, HoldsNothing, func(n int) string {
		return units("<body>", `<a href="/`+strings.Repeat("a", 2000)+`">x</a>`, "", n)
	})
	add("many/base elements", HTML, HoldsBounded, func(n int) string {
		return units("<head>", `<base href="http://e.example/a/b/"><link href=x rel=next>`, "", n)
	})
	add("many/links in the head", HTML, HoldsBounded, func(n int) string {
		return numbered("<head>", func(i int) string { return `<link rel=alternate href="/p` + strconv.Itoa(i) + `">` }, "<body>x", n)
	})
	add("many/robots META", HTML, HoldsNothing, func(n int) string {
		return units("<head>", `<meta name=robots content="noindex, nofollow, max-snippet:20">`, "<body>x", n)
	})
	add("many/META for distinct robots", HTML, HoldsNothing, func(n int) string {
		return numbered("<head>", func(i int) string { return `<meta name=bot` + strconv.Itoa(i) + ` content=noindex>` }, "<body>x", n)
	})
	add("many/RobotExclusion.RobotNameN META", HTML, HoldsBounded, func(n int) string {
		return numbered("<head>", func(i int) string {
			return `<meta name="RobotExclusion.RobotName` + strconv.Itoa(i) + `" content="bot` + strconv.Itoa(i) + `">`
		}, "<body>x", n)
	})
	add("many/unknown directive tokens", HTML, HoldsNothing, func(n int) string {
		return numbered("<head>", func(i int) string { return `<meta name=robots content="x` + strconv.Itoa(i) + `">` }, "<body>x", n)
	})
	add("many/charset META", HTML, HoldsNothing, func(n int) string {
		return units("<head>", `<meta http-equiv=content-type content="text/html; charset=utf-8"><meta charset=latin1>`, "<body>x", n)
	})
	add("many/empty elements before the first word", HTML, HoldsNothing, func(n int) string {
		return units("<body>", "<p></p><br><span></span>", "x", n)
	})
	add("many/elements in the head", HTML, HoldsNothing, func(n int) string { return units("<head>", "<style></style>", "<body>x", n) })
	add("many/title elements", HTML, HoldsBounded, func(n int) string { return units("", "<title>t</title>", "<body>x", n) })
	// The b, i and u of each stay open, one inside the last.
	add("many/forms in tables", HTML, HoldsDepth, func(n int) string {
		return units("", "<table><form></table></form><b id=K><i><u>", "", n)
	})
	// <a\x00 is an element "a\uFFFD" that </a> does not close.
	add("many/NULs", HTML, HoldsDepth, func(n int) string { return units("<p>", "\x00a\x00<a\x00 href=/y>y</a>", "", n) })

	// XML.
	for _, ctx := range XMLRunContexts {
		for _, c := range XMLRunClasses {
			for _, ended := range []bool{true, false} {
				ctx, c, ended := ctx, c, ended
				add(fmt.Sprintf("run/%s/%s/ended=%v", ctx.Name, c.Name, ended), XML, HoldsNothing, func(n int) string {
					return `<?xml version="1.0"?>` + Run(ctx, c, n, ended, "")
				})
			}
		}
	}
	for _, ctx := range XMLTokenContexts {
		for _, c := range TokenClasses {
			for _, ended := range []bool{true, false} {
				ctx, c, ended := ctx, c, ended
				add(fmt.Sprintf("token/%s/%s/ended=%v", ctx.Name, c.Name, ended), XML, HoldsToken, func(n int) string {
					return `<?xml version="1.0"?>` + Run(ctx, c, n, ended, "")
				})
			}
		}
	}
	const decl = `<?xml version="1.0"?>`
	add("nesting/elements", XML, HoldsDepth, func(n int) string { return units(decl, "<a>", "", n) })
	add("nesting/elements closed", XML, HoldsDepth, func(n int) string {
		return decl + strings.Repeat("<a>", n/7) + strings.Repeat("</a>", n/7)
	})
	add("nesting/namespace declarations", XML, HoldsDepth, func(n int) string {
		return units(decl+`<r xmlns:xl="http://www.w3.org/1999/xlink">`, `<p:a xmlns:p="urn:p" xmlns="urn:d" xl:href="/d">`, "", n)
	})
	add("nesting/xml:base", XML, HoldsDepth, func(n int) string {
		return units(decl+`<r xml:base="http://e.example/">`, `<a xml:base="x/">`, "", n)
	})
	heavy()
	add("nesting/regions", XML, HoldsDepth, func(n int) string { return units(decl, `<a class="robots-noindex">`, "", n) })
	add("many/attributes in one tag", XML, HoldsToken, func(n int) string {
		return numbered(decl+"<r", func(i int) string { return " a" + strconv.Itoa(i) + `="x"` }, "/>", n)
	})
	add("many/namespace declarations on the root", XML, HoldsToken, func(n int) string {
		return numbered(decl+"<r", func(i int) string { return " xmlns:a" + strconv.Itoa(i) + `="urn:` + strconv.Itoa(i) + `"` }, "><c/></r>", n)
	})
	add("many/elements", XML, HoldsNothing, func(n int) string { return units(decl+"<r>", "<a>x</a>", "</r>", n) })
	add("many/XLinks", XML, HoldsNothing, func(n int) string {
		return numbered(decl+`<r xmlns:xl="http://www.w3.org/1999/xlink">`, func(i int) string { return `<a xl:href="/p` + strconv.Itoa(i) + `">x</a>` }, "</r>", n)
	})
	add("many/xml:base siblings", XML, HoldsNothing, func(n int) string {
		return units(decl+`<r xml:base="http://e.example/a/">`, `<a xml:base="b/c/d/"><l xmlns="http://www.w3.org/2005/Atom" href="e"/></a>`, "</r>", n)
	})
	add("many/regions", XML, HoldsNothing, func(n int) string {
		return units(decl+"<r>", `<a class="robots-noindex">x</a><b data-nosnippet="">y</b><!--googleoff: all-->z<!--googleon: all-->`, "</r>", n)
	})
	add("many/robots PIs", XML, HoldsNothing, func(n int) string {
		return units(decl+"<r>", `<?robots index="no" follow="no"?>`, "</r>", n)
	})
	add("many/robots PIs in the prolog", XML, HoldsNothing, func(n int) string {
		return units(decl, `<?robots index="no" follow="no"?>`, "<r/>", n)
	})
	add("many/comments", XML, HoldsNothing, func(n int) string { return units(decl+"<r>", "<!--x-->", "</r>", n) })
	add("many/CDATA sections", XML, HoldsNothing, func(n int) string { return units(decl+"<r>", "<![CDATA[x]]>", "</r>", n) })
	add("many/entity references", XML, HoldsNothing, func(n int) string {
		return units(decl+`<!DOCTYPE r [<!ENTITY e "x&#48;y">]><r>`, "&e;&amp;&#x30;", "</r>", n)
	})
	add("many/entity declarations", XML, HoldsToken, func(n int) string {
		return numbered(decl+"<!DOCTYPE r [", func(i int) string { return `<!ENTITY e` + strconv.Itoa(i) + ` "x">` }, "]><r>&e1;</r>", n)
	})
	add("many/attribute defaults", XML, HoldsToken, func(n int) string {
		return numbered(decl+"<!DOCTYPE r [", func(i int) string { return `<!ATTLIST a b` + strconv.Itoa(i) + ` CDATA "x">` }, "]><r>", n) + "<a/></r>"
	})
	add("many/entity expansions", XML, HoldsNothing, func(n int) string {
		return units(decl+`<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><r>`, "&c;", "</r>", n)
	})
	add("many/sitemap locs", XML, HoldsNothing, func(n int) string {
		return numbered(decl+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`, func(i int) string {
			return "<url><loc>http://e.example/p" + strconv.Itoa(i) + "</loc></url>"
		}, "</urlset>", n)
	})

	// Records mode: an RSS feed read item by item.
	const rss, rssEnd = `<?xml version="1.0"?><rss version="2.0"><channel>`, `</channel></rss>`
	add("records/items", Records, HoldsNothing, func(n int) string {
		return numbered(rss, func(i int) string {
			return "<item><title>t" + strconv.Itoa(i) + "</title><link>/p" + strconv.Itoa(i) + "</link><description>&lt;p&gt;x</description></item>"
		}, rssEnd, n)
	})
	for _, c := range []RunClass{RunClasses[0], RunClasses[1], RunClasses[2], RunClasses[8], {"&amp;", "", "&amp;"}, {"&lt;", "", "&lt;"}, {"]", "", "]"}} {
		c := c
		add("records/escaped HTML of "+c.Name, Records, HoldsEntry, func(n int) string {
			return rss + "<item><title>t</title><description>&lt;p&gt;" + RepeatTo(c.Cycle, n) + "</description></item>" + rssEnd
		})
		add("records/title of "+c.Name, Records, HoldsEntry, func(n int) string {
			return rss + "<item><title>" + RepeatTo(c.Cycle, n) + "</title></item>" + rssEnd
		})
	}
	for _, c := range []RunClass{RunClasses[0], RunClasses[1], RunClasses[2], {"<", "", "<"}, {"]", "", "]"}} {
		c := c
		add("records/HTML in CDATA of "+c.Name, Records, HoldsEntry, func(n int) string {
			return rss + "<item><description><![CDATA[<p>" + RepeatTo(c.Cycle, n) + "]]></description></item>" + rssEnd
		})
	}
	add("records/text between items", Records, HoldsEntry, func(n int) string {
		return rss + "<item/>" + RepeatTo("between ", n) + "<item/>" + rssEnd
	})
	add("records/tags between items", Records, HoldsNothing, func(n int) string {
		return units(rss, "<x/><x/><item><title>t</title></item>", rssEnd, n)
	})
	add("records/nesting in an item", Records, HoldsNothing, func(n int) string {
		return units(rss+"<item><description>", "<x>", "", n)
	})
	add("records/robots PIs between items", Records, HoldsNothing, func(n int) string {
		return units(rss, `<?robots index="no"?><item><title>t</title></item>`, rssEnd, n)
	})
	add("records/xml:base on items", Records, HoldsNothing, func(n int) string {
		return units(`<?xml version="1.0"?><rss version="2.0" xml:base="http://e.example/a/"><channel>`,
			`<item xml:base="b/"><link>c</link><description>&lt;a href=d&gt;d&lt;/a&gt;</description></item>`, rssEnd, n)
	})
	add("records/regions in items", Records, HoldsNothing, func(n int) string {
		return units(rss, `<!--googleoff: index--><item><title>t</title><description>&lt;p class=robots-noindex&gt;x</description></item><!--googleon: index-->`, rssEnd, n)
	})

	// Saved HTTP responses: heads of every hostile shape, long
	// X-Robots-Tag values, chunked and coded bodies, many responses.
	for _, name := range sortedHeadNames() {
		head := HTTPHeads[name]
		add("head/"+name, HTTP, HoldsToken, func(n int) string { return "HTTP/1.1 200 OK\r\n" + head(n) + "\r\n<p>x" })
	}
	add("X-Robots-Tag/one long value", HTTP, HoldsToken, func(n int) string {
		return "HTTP/1.1 200 OK\r\nX-Robots-Tag: " + units("", "noindex, nofollow, ", "", n) + "\r\n\r\n<p>x"
	})
	add("X-Robots-Tag/many robots", HTTP, HoldsToken, func(n int) string {
		return numbered("HTTP/1.1 200 OK\r\n", func(i int) string { return "X-Robots-Tag: bot" + strconv.Itoa(i) + ": noindex\r\n" }, "\r\n<p>x", n)
	})
	add("X-Robots-Tag/unknown tokens", HTTP, HoldsToken, func(n int) string {
		return numbered("HTTP/1.1 200 OK\r\nX-Robots-Tag: ", func(i int) string { return "x" + strconv.Itoa(i) + ", " }, "\r\n\r\n<p>x", n)
	})
	add("X-Robots-Tag/long unavailable_after", HTTP, HoldsToken, func(n int) string {
		return "HTTP/1.1 200 OK\r\nX-Robots-Tag: unavailable_after: " + RepeatTo("25 Jun 2010 ", n) + "\r\n\r\n<p>x"
	})
	add("body/chunks of one byte", HTTP, HoldsNothing, func(n int) string {
		return units("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "1\r\nx\r\n", "0\r\n\r\n", n)
	})
	add("body/chunk extensions", HTTP, HoldsNothing, func(n int) string {
		return units("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "1;a=b;c=d\r\nx\r\n", "0\r\n\r\n", n)
	})
	add("body/past its Content-Length", HTTP, HoldsNothing, func(n int) string {
		return "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n<p>" + RepeatTo("0123456789", n)
	})
	add("body/gzip of one run", HTTP, HoldsNothing, func(n int) string {
		return "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + compressed("gzip", "<p>"+RepeatTo("0", n*4))
	})
	add("body/deflate of one run", HTTP, HoldsNothing, func(n int) string {
		return "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + compressed("deflate", "<p>"+RepeatTo("abcdef", n*4))
	})
	add("body/gzip of a mixed page", HTTP, HoldsNothing, func(n int) string {
		return "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + compressed("gzip", pseudoPage(n*3))
	})
	add("responses/interim responses", HTTP, HoldsNothing, func(n int) string {
		return units("", "HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 200 OK\r\n\r\n<p>x", n)
	})

	// WARC files: many records, hostile headers, bytes that are no record.
	page := Response("<p>x <a href=/y>y</a>")
	add("warc/many records", WARC, HoldsNothing, func(n int) string {
		return numbered("", func(i int) string {
			return Record("response", "http://e.example/"+strconv.Itoa(i), "application/http; msgtype=response", page)
		}, "", n)
	})
	add("warc/many gzip members", WARC, HoldsNothing, func(n int) string {
		member := compressed("gzip", Record("response", "http://e.example/", "application/http; msgtype=response", page))
		return units("", member, "", n)
	})
	add("warc/one long header line", WARC, HoldsToken, func(n int) string {
		return "WARC/1.1\r\nWARC-Type: resource\r\nX-Long: " + RepeatTo("a", n) + "\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n" + Record("resource", "http://c/", "text/html", "<p>c")
	})
	add("warc/many header lines", WARC, HoldsToken, func(n int) string {
		return units("WARC/1.1\r\nWARC-Type: resource\r\n", "X-A: b\r\n", "Content-Length: 3\r\n\r\n<p>\r\n\r\n", n) + Record("resource", "http://c/", "text/html", "<p>c")
	})
	add("warc/folded header lines", WARC, HoldsToken, func(n int) string {
		return units("WARC/1.1\r\nWARC-Type: resource\r\nX-Folded: a\r\n", " 0000\r\n", "Content-Length: 3\r\n\r\n<p>\r\n\r\n", n) + Record("resource", "http://c/", "text/html", "<p>c")
	})
	add("warc/header lines without a colon", WARC, HoldsToken, func(n int) string {
		return units("WARC/1.1\r\n", "x\r\n", "\r\n", n) + Record("resource", "http://c/", "text/html", "<p>c")
	})
	for _, g := range []struct{ name, unit string }{
		{"letters", "abcdefgh"}, {"line ends", "\n\r"}, {"zeros", "\x00"}, {"near-miss lines", "\nWARC/1\n\nWARC/0.\nWARC\r"},
		{"records with no Content-Length", "WARC/1.0\r\nX: y\r\n\r\n"}, {"version lines", "WARC/1.0\r\n"},
	} {
		g := g
		add("warc/garbage: "+g.name, WARC, HoldsNothing, func(n int) string {
			return units(Record("resource", "http://a/", "text/html", "<p>a"), g.unit, "\r\n", n) + Record("resource", "http://c/", "text/html", "<p>c")
		})
	}
	add("warc/fake gzip magic", WARC, HoldsNothing, func(n int) string {
		return compressed("gzip", Record("resource", "http://a/", "text/html", "<p>a")) + units("", "\x1f\x8b\x08\xff", "", n) +
			compressed("gzip", Record("resource", "http://c/", "text/html", "<p>c"))
	})
	add("warc/tiny gzip members of garbage", WARC, HoldsNothing, func(n int) string {
		return units("", compressed("gzip", "x"), "", n) + compressed("gzip", Record("resource", "http://c/", "text/html", "<p>c"))
	})
	add("warc/a response of a hostile head", WARC, HoldsToken, func(n int) string {
		return Record("response", "http://e.example/", "application/http; msgtype=response",
			units("HTTP/1.1 200 OK\r\n", "X-Robots-Tag: noarchive\r\n", "\r\n<p>x", n))
	})
	add("warc/requests and metadata between responses", WARC, HoldsNothing, func(n int) string {
		return units("", Record("request", "http://e.example/", "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n")+
			Record("metadata", "http://e.example/", "application/warc-fields", "a: b\r\n")+
			Record("response", "http://e.example/", "application/http; msgtype=response", page), "", n)
	})
	return s
}

// sortedHeadNames are HTTPHeads' names in order.
func sortedHeadNames() []string {
	names := make([]string, 0, len(HTTPHeads))
	for name := range HTTPHeads {
		names = append(names, name)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[j] < names[i] {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	return names
}

// pseudoPage is about n bytes of an ordinary page: text, links, markup.
func pseudoPage(n int) string {
	return numbered("<html><head><title>t</title></head><body>", func(i int) string {
		return "<p>Paragraph " + strconv.Itoa(i) + " with <a href=\"/p" + strconv.Itoa(i) + "\">a link</a> and <b>some</b> text.</p>\n"
	}, "</body></html>", n)
}

// compressed is s in a content coding: "gzip" or "deflate" (zlib).
func compressed(coding, s string) string {
	var b bytes.Buffer
	switch coding {
	case "gzip":
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
	case "deflate":
		// HTTP's deflate is zlib: a 2-byte header, the stream, an Adler-32.
		b.WriteString("\x78\x9c")
		w, _ := flate.NewWriter(&b, flate.DefaultCompression)
		w.Write([]byte(s))
		w.Close()
		a, c := uint32(1), uint32(0)
		for i := 0; i < len(s); i++ {
			a = (a + uint32(s[i])) % 65521
			c = (c + a) % 65521
		}
		sum := c<<16 | a
		b.Write([]byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)})
	default:
		panic("unknown coding " + coding)
	}
	return b.String()
}

// Response is an HTTP response of an HTML page with the body doc.
func Response(doc string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + strconv.Itoa(len(doc)) + "\r\n\r\n" + doc
}

// Record is a WARC record.
func Record(typ, uri, contentType, block string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: <urn:uuid:%08d-0000-0000-0000-000000000000>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n", typ, len(block))
	if uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", uri)
	}
	if contentType != "" {
		fmt.Fprintf(&b, "Content-Type: %s\r\n", contentType)
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	return b.String()
}

// Wrap puts a document of a shape read as HTML or XML in what mode m
// holds it: a saved HTTP response (chunked, so that the body's framing is
// read too) or a WARC response record.
func Wrap(doc string, format, m Mode) string {
	ct := "text/html; charset=utf-8"
	if format == XML {
		ct = "application/xml"
	}
	switch m {
	case HTTP:
		return "HTTP/1.1 200 OK\r\nContent-Type: " + ct + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(doc, 4<<10)
	case WARC:
		resp := "HTTP/1.1 200 OK\r\nContent-Type: " + ct + "\r\nContent-Length: " + strconv.Itoa(len(doc)) + "\r\n\r\n" + doc
		return Record("response", "http://e.example/dir/page", "application/http; msgtype=response", resp)
	}
	return doc
}

// chunked is s in HTTP chunks of size bytes.
func chunked(s string, size int) string {
	var b strings.Builder
	for len(s) > 0 {
		k := min(size, len(s))
		fmt.Fprintf(&b, "%x\r\n%s\r\n", k, s[:k])
		s = s[k:]
	}
	b.WriteString("0\r\n\r\n")
	return b.String()
}

// Floors are ordinary inputs of each mode, for what the shapes' speed is
// measured beside: the benchmark page, an Atom feed (as XML and item by
// item), a saved response of the page, a WARC file of many.
func Floors() []Shape {
	page := func(n int) string { return string(benchpage.Generate(n)) }
	return []Shape{
		{Name: "floor/the benchmark page", Mode: HTML, Make: page},
		{Name: "floor/an Atom feed", Mode: XML, Make: func(n int) string { return string(benchpage.AtomFeed(n, true)) }},
		{Name: "floor/an RSS feed", Mode: Records, Make: func(n int) string {
			return numbered(`<?xml version="1.0"?><rss version="2.0"><channel>`, func(i int) string {
				return "<item><title>Item " + strconv.Itoa(i) + "</title><link>/p" + strconv.Itoa(i) +
					"</link><description>&lt;p&gt;Some &lt;b&gt;text&lt;/b&gt; and &lt;a href=/q" + strconv.Itoa(i) + "&gt;a link&lt;/a&gt;.</description></item>\n"
			}, "</channel></rss>", n)
		}},
		{Name: "floor/the benchmark page", Mode: HTTP, Make: func(n int) string { return Response(page(n)) }},
		{Name: "floor/pages", Mode: WARC, Make: func(n int) string {
			p := Response(page(16 << 10))
			return numbered("", func(i int) string {
				return Record("response", "http://e.example/"+strconv.Itoa(i), "application/http; msgtype=response", p)
			}, "", n)
		}},
	}
}
