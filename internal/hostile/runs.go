package hostile

import "strings"

// A RunContext is a place a long run stands in: what opens it and what
// ends it.
type RunContext struct{ Name, Open, End string }

// A RunClass is a run of one character class: a lead (perhaps none) and a
// cycle of bytes repeated.
type RunClass struct{ Name, Lead, Cycle string }

// HTMLRunContexts are the HTML contexts a run stands in: every one that
// comes in pieces (htmlstream/pieces.go), and the bogus comment, which
// does not.
var HTMLRunContexts = []RunContext{
	{"text", "<p>", "</p>"},
	{"pre", "<pre>", "</pre>"},
	{"script", "<script>", "</script>"},
	{"script escaped", "<script><!-- ", " --></script>"},
	{"script double escaped", "<script><!--<script> ", " </script> --></script>"},
	{"style", "<style>", "</style>"},
	{"title", "<title>", "</title>"},
	{"textarea", "<textarea>", "</textarea>"},
	{"plaintext", "<plaintext>", "</plaintext>"},
	{"xmp", "<xmp>", "</xmp>"},
	{"noscript", "<noscript>", "</noscript>"},
	{"noembed", "<noembed>", "</noembed>"},
	{"noframes", "<noframes>", "</noframes>"},
	{"iframe", "<iframe>", "</iframe>"},
	{"comment", "<!--", "-->"},
	{"bogus comment", "<?", ">"},
}

// HTMLTokenContexts are the HTML contexts whose run is one token, held to
// the token limit (tag names, attributes, DOCTYPEs, CDATA in foreign
// content).
var HTMLTokenContexts = []RunContext{
	{"attribute value", `<p title="`, `">`},
	{"unquoted attribute value", `<p title=`, ` >`},
	{"attribute name", `<p `, `=x>`},
	{"tag name", `<p`, `>`},
	{"end tag name", `</p`, `>`},
	{"DOCTYPE", `<!DOCTYPE `, `>`},
	{"CDATA in SVG", `<svg><![CDATA[`, `]]></svg>`},
}

// RunClasses are the runs of HTMLRunContexts.
var RunClasses = []RunClass{
	{"letters", "", "ghijklmnopqrstuvwyz"},
	{"decimal digits", "", "0123456789"},
	{"hex letters", "", "abcdefABCDEF"},
	{"x", "", "x"},
	{"&", "", "&"},
	{"#", "", "#"},
	{";", "", ";"},
	{"<", "", "<"},
	{"spaces", "", " "},
	{"CR", "", "\r"},
	{"UTF-8", "", "é中😀"},
	{"named reference's letters", "&", "amp"},
	{"decimal reference's digits", "&#", "0123456789"},
	{"hex reference's digits", "&#x", "0123456789abcdefABCDEF"},
}

// TokenClasses are the runs of the contexts that are one token (HTML and
// XML alike): a few classes, since a token's end is looked for by one
// byte or two.
var TokenClasses = []RunClass{
	{"letters", "", "ghijklmnopqrstuvwyz"},
	{"hex digits", "", "0123456789abcdef"},
	{"spaces", "", " "},
	{"-", "", "-"},
	{"]", "", "]"},
	{"?", "", "?"},
}

// XMLRunContexts are the XML contexts a run stands in. Text inside the
// root comes in pieces; the others are one token each (held to the
// token limit).
var XMLRunContexts = []RunContext{
	{"text", "<r>", "</r>"},
	{"text in a nested element", "<r><a><b>", "</b></a></r>"},
}

// XMLTokenContexts are the XML contexts whose run is one token.
var XMLTokenContexts = []RunContext{
	{"attribute value", `<r a="`, `"/>`},
	{"single-quoted attribute value", `<r a='`, `'/>`},
	{"comment", `<r><!--`, `--></r>`},
	{"CDATA", `<r><![CDATA[`, `]]></r>`},
	{"PI", `<r><?pi `, `?></r>`},
	{"DOCTYPE internal subset comment", `<!DOCTYPE r [<!--`, `-->]><r/>`},
	{"entity value", `<!DOCTYPE r [<!ENTITY e "`, `">]><r>&e;</r>`},
	{"tag name", `<r`, `/>`},
	{"attribute name", `<r a`, `="x"/>`},
}

// XMLRunClasses are the runs of XMLRunContexts: those well-formed in
// text, and a few that are not.
var XMLRunClasses = []RunClass{
	{"letters", "", "ghijklmnopqrstuvwyz"},
	{"decimal digits", "", "0123456789"},
	{"hex letters", "", "abcdefABCDEF"},
	{"spaces", "", " "},
	{"CR LF", "", "\r\n"},
	{"UTF-8", "", "é中😀"},
	{"]", "", "]"},
	{"]]", "", "]]"},
	{">", "", ">"},
	{"-", "", "-"},
	{"?", "", "?"},
	{"&amp;", "", "&amp;"},
	{"&#48;", "", "&#48;"},
	{"&#x30;", "", "&#x30;"},
	{"&", "", "&"},
	{"<", "", "<"},
}

// RepeatTo returns s repeated to n bytes (cut at a byte; a cut character
// is part of what the run is).
func RepeatTo(s string, n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(s, n/len(s)+1)[:n]
}

// Run is a run of class c of n bytes in context ctx, ended (and followed
// by more document) or not.
func Run(ctx RunContext, c RunClass, n int, ended bool, after string) string {
	s := ctx.Open + c.Lead + RepeatTo(c.Cycle, n)
	if ended {
		s += ctx.End + after
	}
	return s
}

// FeedRunContexts are the places of a run in an RSS feed read item by
// item: the fields, escaped HTML and CDATA, attributes, what stands
// between items.
var FeedRunContexts = []RunContext{
	{"title", `<rss><channel><item><title>`, `</title></item><item><title>t</title></item></channel></rss>`},
	{"link", `<rss><channel><item><link>`, `</link></item></channel></rss>`},
	{"escaped HTML", `<rss><channel><item><description>&lt;p&gt;`, `</description></item><item/></channel></rss>`},
	{"HTML in CDATA", `<rss><channel><item><description><![CDATA[<p>`, `]]></description></item><item/></channel></rss>`},
	{"attribute value", `<rss><channel><item><guid isPermaLink="`, `">g</guid></item></channel></rss>`},
	{"comment in an item", `<rss><channel><item><!--`, `--><title>t</title></item></channel></rss>`},
	{"between items", `<rss><channel><item/>`, `<item><title>t</title></item></channel></rss>`},
	{"PI between items", `<rss><channel><item/><?robots `, `?><item/></channel></rss>`},
	{"DOCTYPE", `<!DOCTYPE rss [<!ENTITY e "`, `">]><rss><channel><item><title>&e;</title></item></channel></rss>`},
}

// HTTPRunContexts are the places of a run in a saved HTTP response: the
// status line, header names and values, folded lines, the chunked
// framing, the body, interim responses.
var HTTPRunContexts = []RunContext{
	{"status line", "HTTP/1.1 200 ", "\r\n\r\n<p>x"},
	{"header name", "HTTP/1.1 200 OK\r\nX-", ": v\r\n\r\n<p>x"},
	{"header value", "HTTP/1.1 200 OK\r\nX-A: ", "\r\n\r\n<p>x"},
	{"X-Robots-Tag value", "HTTP/1.1 200 OK\r\nX-Robots-Tag: ", "\r\nX-Robots-Tag: noindex\r\n\r\n<p>x"},
	{"header lines", "HTTP/1.1 200 OK\r\n", "\r\n\r\n<p>x"},
	{"folded line", "HTTP/1.1 200 OK\r\nX-Robots-Tag: noarchive\r\n ", "\r\n\r\n<p>x"},
	{"chunk size line", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "\r\nx\r\n0\r\n\r\n"},
	{"chunk extension", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;", "\r\nx\r\n0\r\n\r\n"},
	{"chunk data", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\n", "\r\n0\r\n\r\n"},
	{"trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n", "\r\n\r\n"},
	{"body past its Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n<p>", ""},
	{"between interim responses", "HTTP/1.1 100 Continue\r\n", "\r\nHTTP/1.1 200 OK\r\n\r\n<p>x"},
	{"Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: ", "\r\n\r\n<p>x"},
	{"coded body", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", ""},
}

// WARCRunContexts are the places of a run in a WARC file: the version
// line, header names and values, header lines, a record's block and
// Content-Length, what stands between records.
var WARCRunContexts = []RunContext{
	{"version line", "WARC/", "\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n"},
	{"header name", "WARC/1.1\r\nX-", ": v\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n"},
	{"header value", "WARC/1.1\r\nWARC-Target-URI: ", "\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n"},
	{"header lines", "WARC/1.1\r\nWARC-Type: resource\r\n", "\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n"},
	{"Content-Length", "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: ", "\r\n\r\n<p>\r\n\r\n"},
	{"block", "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 65536\r\n\r\n", "\r\n\r\n"},
	{"between records", "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n", ""},
	{"HTTP head in a block", "WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http\r\nContent-Length: 65536\r\n\r\nHTTP/1.1 200 OK\r\n", "\r\n\r\n"},
}
