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
// the check page, in the order of filter's switch bits.
var switchClasses = []struct {
	bit  filter.Switch
	name string
}{
	{filter.NoIndex, "noindex"}, {filter.NoFollow, "nofollow"}, {filter.NoArchive, "noarchive"}, {filter.NoAnchorText, "noanchortext"},
}

const checkPageStyle = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.6em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;word-break:break-all;border:1px solid #ccc;padding:.8em;font:13px/1.4 ui-monospace,monospace}
.noindex{background:#ffd2d2}.noarchive{box-shadow:inset 0 -3px #e0a800}
.nofollow{text-decoration:underline dotted #0050c0 2px}.noanchortext{color:#8000a8}
.legend span{padding:0 .4em;margin-right:.6em}code{font-size:.95em}`

// writeCheckPage writes the check report of one document as an HTML page
// that shows its source with each region's switches marked (regions that
// turn a switch back on, robots-index inside robots-noindex, unmark it where
// they are the innermost that says anything of it).
//
// Several documents (files, WARC records) make one page, a section each:
// the page's head comes with the first (doc, the document's number in
// the page, is 0), and its end tags, which HTML lets a page leave out,
// never. Region i of document doc is anchored at d<doc>r<i>.
func writeCheckPage(w io.Writer, doc int, name string, res *robofilter.Result, rep reported, src *sourceCapture) {
	d := res.Directives
	if doc == 0 {
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>robofilter check: %s</title>\n<style>%s</style></head><body>\n", html.EscapeString(name), checkPageStyle)
	}
	fmt.Fprintf(w, "<section>\n<h1>robofilter check: %s</h1>\n<p>%s", html.EscapeString(name), html.EscapeString(res.Format))
	if res.Charset != "" {
		fmt.Fprintf(w, ", %s", html.EscapeString(res.Charset))
	}
	fmt.Fprintf(w, ". Document: <b>%s</b>.</p>\n", html.EscapeString(docSummary(&d)))
	if len(d.Sources) > 0 {
		fmt.Fprint(w, "<ul>\n")
		for _, s := range d.Sources {
			where := "given by the caller"
			if s.Line > 0 {
				where = fmt.Sprintf("at %d:%d", s.Line, s.Col)
			}
			fmt.Fprintf(w, "<li>%s <code>%s</code> %s</li>\n", html.EscapeString(s.Origin), html.EscapeString(s.Value), where)
		}
		fmt.Fprint(w, "</ul>\n")
	}
	if ai := aiprefSummary(d.AI); len(ai) > 0 {
		fmt.Fprintf(w, "<pre class=\"ai\">%s</pre>\n", html.EscapeString(strings.Join(ai, "\n")))
	}
	fmt.Fprintf(w, "<h2>Regions: %d</h2>\n", len(rep.regions)+rep.regionsDropped)
	if len(rep.regions) > 0 {
		fmt.Fprint(w, "<table><tr><th>where</th><th>marker</th><th>switches</th><th>dialect</th><th>bytes</th></tr>\n")
		for i, r := range rep.regions {
			off, on := r.Switches()
			sw := strings.TrimPrefix(strings.TrimPrefix(off, "none")+","+on, ",")
			sw = strings.TrimSuffix(sw, ",")
			tag := ""
			if r.Tag != "" {
				tag = "<" + r.Tag + "> "
			}
			fmt.Fprintf(w, "<tr><td><a href=\"#d%dr%d\">%d:%d–%d:%d</a></td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%d</td></tr>\n",
				doc, i, r.Line, r.Col, r.EndLine, r.EndCol, html.EscapeString(tag+r.Marker), html.EscapeString(sw), html.EscapeString(r.Dialect), r.Size)
		}
		fmt.Fprint(w, "</table>\n")
	}
	if rep.regionsDropped > 0 {
		fmt.Fprintf(w, "<p>And %d more regions, not listed or marked (at most %d are).</p>\n", rep.regionsDropped, maxReported)
	}
	fmt.Fprintf(w, "<h2>Links not followed: %d</h2>\n", len(rep.links)+rep.linksDropped)
	if len(rep.links) > 0 {
		fmt.Fprint(w, "<table><tr><th>where</th><th>URL</th><th>why</th></tr>\n")
		for _, l := range rep.links {
			fmt.Fprintf(w, "<tr><td>%d:%d</td><td><code>%s</code></td><td>%s</td></tr>\n", l.Line, l.Col, html.EscapeString(l.URL), html.EscapeString(l.Reason))
		}
		fmt.Fprint(w, "</table>\n")
	}
	if rep.linksDropped > 0 {
		fmt.Fprintf(w, "<p>And %d more, not listed.</p>\n", rep.linksDropped)
	}
	fmt.Fprintf(w, "<h2>Warnings: %d</h2>\n", len(res.Warnings)+res.WarningsDropped)
	if len(res.Warnings) > 0 {
		fmt.Fprint(w, "<ul>\n")
		for _, x := range res.Warnings {
			fmt.Fprintf(w, "<li>%d:%d: %s</li>\n", x.Line, x.Col, html.EscapeString(x.Message))
		}
		fmt.Fprint(w, "</ul>\n")
	}
	fmt.Fprint(w, "<h2>Source</h2>\n")
	switch {
	case src.truncated:
		fmt.Fprintf(w, "<p>The document is longer than %d MiB: its source is not shown.</p>\n", maxShownSource>>20)
	default:
		fmt.Fprint(w, "<p class=\"legend\">Marked: <span class=\"noindex\">not indexed</span><span class=\"nofollow\">links not followed</span><span class=\"noarchive\">kept out of the archive copy</span><span class=\"noanchortext\">not anchor text</span> (by regions; the document-level directives above apply everywhere).</p>\n<pre>")
		writeMarkedSource(w, doc, src.buf.Bytes(), rep.regions, res.Charset)
		fmt.Fprint(w, "</pre>\n")
	}
	fmt.Fprint(w, "</section>\n")
}

// writeMarkedSource writes the source, escaped, in pieces over which the
// same regions are open, each in a span whose classes are the switches
// those regions leave off; each region's start has the anchor
// d<doc>r<index>.
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
		text = html.EscapeString(text)
		if classes := offClasses(regions, &deciders); classes != "" {
			fmt.Fprintf(w, "<span class=\"%s\">%s</span>", classes, text)
		} else {
			io.WriteString(w, text)
		}
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
// decides.
func offClasses(regions []filter.Region, deciders *[4][]int) string {
	classes := ""
	for k, sc := range switchClasses {
		if d := deciders[k]; len(d) > 0 && regions[d[len(d)-1]].Off&sc.bit != 0 {
			classes += " " + sc.name
		}
	}
	return strings.TrimPrefix(classes, " ")
}
