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
