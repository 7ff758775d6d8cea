package main

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"sort"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	htmlcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/transform"
)

// maxShownSource bounds the source a check page shows (the page holds
// it whole): past it, the page has the report without the source.
var maxShownSource = 16 << 20 // a variable for the tests

// foldAfter is how many rows of a table, or items of a list, a check page
// shows open: the rest are folded (a <details> the reader opens), so that
// a page of 10,000 regions stays quick to read and to lay out.
var foldAfter = 100 // a variable for the tests

// maxContents bounds the documents a page's table of contents names.
const maxContents = 1000

// sourceCapture keeps what a document's reader gives, up to
// maxShownSource bytes, for the check page.
type sourceCapture struct {
	r         io.Reader
	buf       bytes.Buffer
	truncated bool
}

func (s *sourceCapture) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if room := maxShownSource - s.buf.Len(); n > room {
		s.truncated = true
		s.buf.Write(p[:max(room, 0)])
	} else {
		s.buf.Write(p[:n])
	}
	return n, err
}

// switchClasses name the switches a region turns off, as CSS classes of
// the check page, in the order of filter's switch bits, with what each
// means to the page's author.
var switchClasses = []struct {
	bit     filter.Switch
	name    string
	meaning string
}{
	{filter.NoIndex, "noindex", "not indexed"},
	{filter.NoFollow, "nofollow", "links not followed"},
	{filter.NoArchive, "noarchive", "out of the archive copy and snippets"},
	{filter.NoAnchorText, "noanchortext", "not anchor text"},
}

// checkPageCSP lets the page style itself and do nothing else: it loads
// nothing, and nothing the document held can run.
const checkPageCSP = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'`

const checkPageStyle = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5em;color:#222;max-width:110em}
body:has(nav.toc){margin-right:19em}
h1{font-size:1.35em;margin:.2em 0 .6em}h1 small{font-weight:normal;color:#666;font-size:.7em}
h2{font-size:1.1em;margin-top:1.8em}
a{color:#0645ad}
table{border-collapse:collapse;table-layout:fixed;width:100%}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f4f4f4}
col.where{width:9em}col.bytes{width:6em}col.dialect{width:7em}col.switches{width:13em}col.why{width:22em}
details.fold>summary{cursor:pointer;color:#0645ad;margin:.4em 0}
code{font-size:.92em;overflow-wrap:anywhere}
.verdict{border:2px solid #888;border-radius:6px;padding:.6em 1em;background:#fafafa}
.verdict .rules{font-size:1.15em;margin:.2em 0 .5em;display:flex;flex-wrap:wrap;gap:.4em 1.6em}
.verdict .yes::before{content:"✓ ";color:#1a7f37;font-weight:bold}
.verdict .no::before{content:"✗ ";color:#c00;font-weight:bold}
.verdict .no{color:#a00}
.verdict ul{margin:.3em 0;padding-left:1.2em}
.verdict li.leak{color:#8a4b00}
.bar{display:inline-block;width:10em;height:.7em;background:#dde;vertical-align:middle;margin:0 .4em;border-radius:2px;overflow:hidden}
.bar span{display:block;height:100%;background:#c33}
pre{white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #ccc;padding:.6em .8em .6em 0;font:13px/1.45 ui-monospace,monospace;counter-reset:none}
pre a.ln{display:inline-block;width:4.5em;margin-right:.8em;text-align:right;color:#999;text-decoration:none;user-select:none}
pre a.ln::before{content:attr(data-n)}
pre a.ln:target{background:#ffef9e;color:#000}
.noindex{background:#ffe1e1}.noarchive{box-shadow:inset 0 -3px #e0a800}
.nofollow{text-decoration:underline dotted #0050c0 2px}.noanchortext{color:#8000a8}
.legend span{padding:0 .4em;margin-right:.6em}
nav.toc{position:fixed;top:0;right:0;width:17em;max-height:100vh;overflow:auto;box-sizing:border-box;padding:.6em 1em;background:#f7f7f7;border-left:1px solid #ccc;font-size:.9em}
nav.toc ol{padding-left:1.6em}nav.toc li{overflow-wrap:anywhere}`

// displayName is how a page names a document: standard input by that
// name, not "-".
func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// writeCheckPage writes the check report of one document as an HTML page
// that shows its source with each region's switches marked (regions that
// turn a switch back on, robots-index inside robots-noindex, unmark it where
// they are the innermost that says anything of it).
//
// Several documents (files, WARC records) make one page, a section each:
// the page's head comes with the first (doc, the document's number in
// the page, is 0), a table of contents after the last (writeContents), and
// its end tags, which HTML lets a page leave out, never. Document doc's
// section is d<doc>, its region i d<doc>r<i>, its source line n d<doc>L<n>.
func writeCheckPage(w io.Writer, doc int, name string, res *robofilter.Result, v verdict, rep reported, src *sourceCapture) {
	d := res.Directives
	shown := !src.truncated
	line := func(n int) string { // a link to line n of the source, when shown
		if n <= 0 || !shown {
			return fmt.Sprint(n)
		}
		return fmt.Sprintf(`<a href="#d%dL%d">%d</a>`, doc, n, n)
	}
	if doc == 0 {
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>robofilter check: %s</title>\n<style>%s</style></head><body>\n",
			checkPageCSP, html.EscapeString(displayName(name)), checkPageStyle)
	}
	fmt.Fprintf(w, "<section id=\"d%d\">\n<h1>robofilter check: %s <small>%s", doc, html.EscapeString(displayName(name)), html.EscapeString(res.Format))
	if res.Charset != "" {
		fmt.Fprintf(w, ", %s", html.EscapeString(res.Charset))
	}
	fmt.Fprint(w, "</small></h1>\n")
	writeVerdict(w, v, &d, res.Warnings, line)

	fmt.Fprintf(w, "<h2>Document-level rules</h2>\n<p><b>%s</b></p>\n", html.EscapeString(docSummary(&d)))
	if len(d.Sources) > 0 {
		fmt.Fprint(w, "<ul>\n")
		for _, s := range d.Sources {
			where := "given by the caller"
			if s.Line > 0 {
				where = fmt.Sprintf("at %s:%d", line(s.Line), s.Col)
			}
			fmt.Fprintf(w, "<li>%s <code>%s</code> %s</li>\n", html.EscapeString(s.Origin), html.EscapeString(s.Value), where)
		}
		fmt.Fprint(w, "</ul>\n")
	}
	if d.SourcesDropped > 0 {
		fmt.Fprintf(w, "<p>And %d more sources, not listed.</p>\n", d.SourcesDropped)
	}
	if ai := aiprefSummary(d.AI); len(ai) > 0 {
		fmt.Fprintf(w, "<pre class=\"ai\">%s</pre>\n", html.EscapeString(strings.Join(ai, "\n")))
	}

	fmt.Fprintf(w, "<h2>Regions: %d</h2>\n", len(rep.regions)+rep.regionsDropped)
	const regionHead = "<table><colgroup><col class=where><col><col class=switches><col class=dialect><col class=bytes></colgroup><tr><th>where</th><th>marker</th><th>switches</th><th>dialect</th><th>bytes</th></tr>\n"
	folded(w, len(rep.regions), regionHead, "</table>\n", "regions", func(i int) {
		r := rep.regions[i]
		where := fmt.Sprintf("%d:%d–%d:%d", r.Line, r.Col, r.EndLine, r.EndCol)
		if shown {
			where = fmt.Sprintf(`<a href="#d%dr%d">%s</a>`, doc, i, where)
		}
		fmt.Fprintf(w, "<tr><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%d</td></tr>\n",
			where, html.EscapeString(tagOf(r)+r.Marker), html.EscapeString(strings.ReplaceAll(switchesOf(r), ",", ", ")), html.EscapeString(r.Dialect), r.Size)
	})
	if rep.regionsDropped > 0 {
		fmt.Fprintf(w, "<p>And %d more regions, not listed or marked (at most %d are).</p>\n", rep.regionsDropped, maxReported)
	}

	// The links robots markup keeps a crawler from, then, folded, those
	// no crawler follows anyway: style sheets, icons, mailto:, javascript:.
	var robots, notPages []filter.Link
	for _, l := range rep.links {
		if robotsReason(l.Reason) {
			robots = append(robots, l)
		} else {
			notPages = append(notPages, l)
		}
	}
	const linkHead = "<table><colgroup><col class=where><col><col class=why></colgroup><tr><th>where</th><th>URL</th><th>why</th></tr>\n"
	linkRow := func(list []filter.Link) func(int) {
		return func(i int) {
			l := list[i]
			fmt.Fprintf(w, "<tr><td>%s:%d</td><td><code>%s</code></td><td>%s%s</td></tr>\n", line(l.Line), l.Col, html.EscapeString(linkURL(l)), html.EscapeString(l.Reason), html.EscapeString(causeOf(l)))
		}
	}
	fmt.Fprintf(w, "<h2>Links not followed because of robots markup: %d</h2>\n", v.notFollowedByRobots())
	folded(w, len(robots), linkHead, "</table>\n", "links", linkRow(robots))
	if v.NotPages > 0 {
		fmt.Fprintf(w, "<details class=\"fold\"><summary>And %d links no crawler follows, robots markup or not: style sheets, icons, <code>mailto:</code>, <code>javascript:</code>, hrefs that are no URL</summary>\n", v.NotPages)
		folded(w, len(notPages), linkHead, "</table>\n", "links", linkRow(notPages))
		fmt.Fprint(w, "</details>\n")
	}
	if rep.linksDropped > 0 {
		fmt.Fprintf(w, "<p>And %d more links not followed, not listed (at most %d are).</p>\n", rep.linksDropped, maxReported)
	}

	fmt.Fprintf(w, "<h2>Warnings: %d</h2>\n", len(res.Warnings)+res.WarningsDropped)
	folded(w, len(res.Warnings), "<ul>\n", "</ul>\n", "warnings", func(i int) {
		x := res.Warnings[i]
		fmt.Fprintf(w, "<li>%s:%d: %s</li>\n", line(x.Line), x.Col, html.EscapeString(x.Message))
	})
	if res.WarningsDropped > 0 {
		fmt.Fprintf(w, "<p>And %d more warnings, not listed.</p>\n", res.WarningsDropped)
	}

	fmt.Fprint(w, "<h2>Source</h2>\n")
	if !shown {
		fmt.Fprintf(w, "<p>The document is longer than %d MiB: its source is not shown.</p>\n", maxShownSource>>20)
	} else {
		fmt.Fprint(w, "<p class=\"legend\">Marked: <span class=\"noindex\">not indexed</span><span class=\"nofollow\">links not followed</span><span class=\"noarchive\">kept out of the archive copy</span><span class=\"noanchortext\">not anchor text</span> (by regions; the document-level rules above apply everywhere). Hover a marked stretch for the markers that make it.</p>\n<pre>")
		writeMarkedSource(w, doc, src.buf.Bytes(), rep.regions, res.Charset)
		fmt.Fprint(w, "</pre>\n")
	}
	fmt.Fprint(w, "</section>\n")
}

// folded writes n rows (row(i)) between head and tail: the first
// foldAfter open, the rest in a <details> the reader opens.
func folded(w io.Writer, n int, head, tail, what string, row func(int)) {
	if n == 0 {
		return
	}
	io.WriteString(w, head)
	for i := 0; i < min(n, foldAfter); i++ {
		row(i)
	}
	io.WriteString(w, tail)
	if n <= foldAfter {
		return
	}
	fmt.Fprintf(w, "<details class=\"fold\"><summary>%d more %s</summary>\n", n-foldAfter, what)
	io.WriteString(w, head)
	for i := foldAfter; i < n; i++ {
		row(i)
	}
	io.WriteString(w, tail)
	fmt.Fprint(w, "</details>\n")
}

// writeVerdict writes the verdict: what the document-level rules let
// robots do, and why not; how much of the text is kept out of the index
// and of snippets; the links robots markup keeps a crawler from; the
// warnings of markup that does not do what it seems to. line(n) links to
// line n of the source where there is one.
func writeVerdict(w io.Writer, v verdict, d *filter.Directives, warnings []filter.Warning, line func(int) string) {
	rule := func(yes bool, y, n string, names ...string) {
		class, text := "yes", y
		if !yes {
			class, text = "no", n
		}
		fmt.Fprintf(w, "<span class=\"%s\">%s", class, text)
		if !yes {
			var parts []string
			for _, s := range sourcesSaying(d, names...) {
				where := html.EscapeString(sourceWhere(s))
				if s.Line > 0 {
					where = "at line " + line(s.Line)
				}
				parts = append(parts, fmt.Sprintf("%s <code>%s</code> %s", html.EscapeString(s.Origin), html.EscapeString(clipText(s.Value, 80)), where))
			}
			if len(parts) > 0 {
				fmt.Fprintf(w, ": %s", strings.Join(parts, "; "))
			}
		}
		fmt.Fprint(w, "</span>")
	}
	fmt.Fprint(w, "<div class=\"verdict\">\n<p class=\"rules\">")
	rule(v.Indexed, "Indexed", "Not indexed", "noindex", "none")
	rule(v.Followed, "Links followed", "Links not followed", "nofollow", "none")
	archived := "Not archived"
	if d.NoSnippet && !d.NoArchive {
		archived = "No snippets, no archive copy"
	}
	rule(v.Archived, "Archived (a copy kept, snippets shown)", archived, "noarchive", "nocache", "nosnippet", "max-snippet")
	fmt.Fprint(w, "</p>\n<ul>\n")
	if v.TextBytes == 0 {
		fmt.Fprint(w, "<li>The page has no text.</li>\n")
	} else {
		bar := func(n int64) string {
			return fmt.Sprintf(`<span class="bar" title="%s"><span style="width:%.1f%%"></span></span>`, percent(n, v.TextBytes), float64(n)*100/float64(v.TextBytes))
		}
		fmt.Fprintf(w, "<li>Text: %s. Kept out of the index: %s%s, by %s and the document's rules.</li>\n",
			bytesOf(v.TextBytes), bar(v.TextBytes-v.IndexedBytes), share(v.TextBytes-v.IndexedBytes, v.TextBytes), count(v.Regions, "region"))
		fmt.Fprintf(w, "<li>Kept out of snippets and the archive copy: %s%s.</li>\n", bar(v.TextBytes-v.SnippetBytes), share(v.TextBytes-v.SnippetBytes, v.TextBytes))
	}
	fmt.Fprintf(w, "<li>Links: %s, %s followed. Not followed because of robots markup: <b>%s</b>", thousands(int64(v.Links)), thousands(int64(v.LinksFollowed)), thousands(int64(v.notFollowedByRobots())))
	if v.notFollowedByRobots() > 0 {
		fmt.Fprintf(w, " (%s)", html.EscapeString(reasonCounts(v.NotFollowed)))
	}
	if v.NotPages > 0 {
		fmt.Fprintf(w, "; and %s that are not pages (style sheets, icons, <code>mailto:</code>, <code>javascript:</code>…), which no crawler follows", thousands(int64(v.NotPages)))
	}
	fmt.Fprint(w, ".</li>\n")
	if v.Leaks > 0 {
		fmt.Fprintf(w, "<li class=\"leak\"><b>%s of markup that does not do what it seems to:</b><ul>\n", count(v.Leaks, "warning"))
		listed := 0
		for _, x := range warnings {
			if !leakWarning(x.Message) {
				continue
			}
			if listed == 5 {
				fmt.Fprint(w, "<li>… (all in the warnings below)</li>\n")
				break
			}
			listed++
			fmt.Fprintf(w, "<li>%s:%d: %s</li>\n", line(x.Line), x.Col, html.EscapeString(x.Message))
		}
		fmt.Fprint(w, "</ul></li>\n")
	}
	fmt.Fprint(w, "</ul>\n</div>\n")
}

// writeContents ends a page of several documents with their table of
// contents (shown beside them).
func writeContents(w io.Writer, names []string, total int) {
	fmt.Fprintf(w, "<nav class=\"toc\"><b>%d documents</b>\n<ol>\n", total)
	for i, n := range names {
		fmt.Fprintf(w, "<li><a href=\"#d%d\">%s</a></li>\n", i, html.EscapeString(displayName(n)))
	}
	fmt.Fprint(w, "</ol>\n")
	if total > len(names) {
		fmt.Fprintf(w, "<p>And %d more, not listed.</p>\n", total-len(names))
	}
	fmt.Fprint(w, "</nav>\n")
}

// writeMarkedSource writes the source, escaped, in pieces over which the
// same regions are open, each in a span whose classes are the switches
// those regions leave off and whose title names the markers; each region's
// start has the anchor d<doc>r<index>, and each line d<doc>L<n>, with its
// number.
func writeMarkedSource(w io.Writer, doc int, src []byte, regions []filter.Region, charsetName string) {
	type boundary struct {
		at    int64
		start bool
		index int
	}
	var bounds []boundary
	for i, r := range regions {
		start := min(max(r.Offset, 0), int64(len(src)))
		end := min(start+max(r.Size, 0), int64(len(src)))
		if end == start && r.Tag != "" {
			// An empty region (a void element, or one with no content):
			// its start tag is marked, to show where it is.
			end = tagEnd(src, start)
		}
		bounds = append(bounds, boundary{start, true, i}, boundary{end, false, i})
	}
	// At one place, ends before starts: a region that ends where another
	// starts is not open in it.
	sort.SliceStable(bounds, func(i, j int) bool {
		if bounds[i].at != bounds[j].at {
			return bounds[i].at < bounds[j].at
		}
		return !bounds[i].start && bounds[j].start
	})
	decode := func(b []byte) []byte { return b }
	if enc, name := htmlcharset.Lookup(charsetName); enc != nil && name != "utf-8" {
		// One decoder for the whole source, in pieces: ISO-2022-JP's
		// shifts last from one piece to the next.
		dec, pending := enc.NewDecoder(), []byte(nil)
		var out []byte
		decode = func(b []byte) []byte {
			src := append(pending, b...)
			out = out[:0]
			for {
				buf := make([]byte, 2*len(src)+16)
				nDst, nSrc, err := dec.Transform(buf, src, false)
				out = append(out, buf[:nDst]...)
				src = src[nSrc:]
				if err != transform.ErrShortDst || nSrc == 0 && nDst == 0 {
					break
				}
			}
			pending = append([]byte(nil), src...) // a character cut by the piece's end
			return out
		}
	}
	lines := &lineNumbers{w: w, doc: doc, pending: true}
	// deciders[k] are the open regions that say something of switch k,
	// in the order they opened: the last decides (the innermost).
	var deciders [4][]int
	at := int64(0)
	emit := func(to int64) {
		if to <= at {
			return
		}
		text := strings.ToValidUTF8(string(decode(src[at:to])), "\uFFFD")
		if at == 0 {
			text = strings.TrimPrefix(text, "\uFEFF") // a byte order mark, no character of the page
		}
		classes, title := offClasses(regions, &deciders)
		lines.write(text, classes, title)
		at = to
	}
	for _, b := range bounds {
		emit(b.at)
		r := regions[b.index]
		if b.start {
			fmt.Fprintf(w, "<a id=\"d%dr%d\"></a>", doc, b.index)
		}
		for k, sc := range switchClasses {
			if (r.Off|r.On)&sc.bit == 0 {
				continue
			}
			if b.start {
				deciders[k] = append(deciders[k], b.index)
				continue
			}
			// Nearly always the last: regions nest, but for comment
			// regions, which may cross elements.
			for j := len(deciders[k]) - 1; j >= 0; j-- {
				if deciders[k][j] == b.index {
					deciders[k] = append(deciders[k][:j], deciders[k][j+1:]...)
					break
				}
			}
		}
	}
	emit(int64(len(src)))
}

// lineNumbers writes the source's text escaped, with each line's number
// and anchor at its start (written when the line's first text comes: a
// source that ends with a line break has no empty line after it).
type lineNumbers struct {
	w       io.Writer
	doc     int
	n       int
	pending bool // a line starts at the next text
}

// write writes text, in a span of classes and title where classes is not
// "": a line's number stands outside any span, so a span stops at each
// line's end.
func (l *lineNumbers) write(text, classes, title string) {
	for len(text) > 0 {
		if l.pending {
			l.pending = false
			l.n++
			fmt.Fprintf(l.w, "<a class=\"ln\" id=\"d%dL%d\" data-n=\"%d\"></a>", l.doc, l.n, l.n)
		}
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, l.pending = text[:i+1], true
		}
		text = text[len(line):]
		if classes != "" {
			fmt.Fprintf(l.w, "<span class=\"%s\" title=\"%s\">%s</span>", classes, html.EscapeString(title), html.EscapeString(line))
		} else {
			io.WriteString(l.w, html.EscapeString(line))
		}
	}
}

// tagEnd is the end of the tag that starts at i: after its '>' outside
// quoted values, looked for within 64 KiB (i itself if there is no tag).
func tagEnd(src []byte, i int64) int64 {
	if i >= int64(len(src)) || src[i] != '<' {
		return i
	}
	var quote byte
	for j := i + 1; j < int64(len(src)) && j < i+64<<10; j++ {
		switch c := src[j]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return j + 1
		}
	}
	return i
}

// offClasses names the switches the open regions leave off: for each, the
// innermost open region (the last opened) that says anything of it
// decides. The title names those regions' markers and where they start.
func offClasses(regions []filter.Region, deciders *[4][]int) (classes, title string) {
	for k, sc := range switchClasses {
		d := deciders[k]
		if len(d) == 0 {
			continue
		}
		r := &regions[d[len(d)-1]]
		if r.Off&sc.bit == 0 {
			continue
		}
		classes += " " + sc.name
		title += fmt.Sprintf("\n%s: %s%s (%s) at %d:%d", sc.meaning, tagOf(*r), r.Marker, r.Dialect, r.Line, r.Col)
	}
	return strings.TrimPrefix(classes, " "), strings.TrimPrefix(title, "\n")
}
