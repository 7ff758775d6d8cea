package main

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	htmlcharset "golang.org/x/net/html/charset"
	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/transform"
)

// overlay draws a document as a browser renders it (check --format
// overlay), from the document's own bytes as the core passes them
// (filter.Source), as they are read: every region's element outlined and
// labelled where its start tag passes, the stretch between comment
// markers tinted, links told apart, and at the end a bar with the verdict
// and a legend.
//
// It reads the bytes as a browser's tokenizer does, far enough to find
// tags, comments and raw text, and writes them on with:
//
//   - before the page's first tag or text (after its doctype, so quirks
//     stay quirks), a byte order mark, a Content-Security-Policy that
//     forbids every script and every request but for images, style sheets
//     and fonts of the --base URL's site, a <base href> of --base, and the
//     style of the outlines;
//   - attributes it adds right after a start tag's name, which come
//     before the author's and so win over them: the outline's
//     (data-rf-*, title), and those that disarm the tag (a script's type,
//     a META's http-equiv, a <link>'s rel but for style sheets);
//   - event handler attributes renamed (onload= is data-rf-onload=),
//     scripts' content dropped, <plaintext> shown as text;
//   - at the end, the open elements closed and the bar, in a shadow root
//     of its own that the page's style does not reach.
//
// What the author wrote stays the author's markup, parsed by the browser
// as it would be; everything the overlay adds is escaped. Its memory is a
// token (a tag is held whole), a stretch of text while a comment region
// is open (at most maxTextRun), and bounded lists.
type overlay struct {
	w    io.Writer
	name string
	base string // --base, "" for none
	// allowed is the CSP source list of the --base URL's site ("" for
	// none): its images, style sheets and fonts may load.
	allowed string

	dec       transform.Transformer // nil for UTF-8
	undecoded []byte                // a character a write cut
	decoded   []byte
	charset   string
	started   bool  // a byte of the page came (the first: a byte order mark is dropped)
	wrote     bool  // the overlay's byte order mark is written
	prologue  bool  // the head of the overlay is written
	read      int64 // bytes of the page written so far

	// The tokenizer's state: st, and the token being read.
	st        scanState
	tok       []byte // a tag, or the start of a markup declaration, from its '<'
	attrs     []attrSpan
	at        attrState
	nameEnd   int // the tag name's end in tok
	selfClose bool
	comment   commentState
	rawName   string // the raw text element the content is of
	rawHold   []byte // a possible "</name" held back in raw text
	stripping bool   // the raw text is a script's: dropped
	cdataEnd  int    // "]]" seen at a CDATA section's end
	foreign   int    // open svg and math elements: no text is wrapped in them

	// text is the text being held while a comment region is open, to be
	// written in a wrapper that tints it (never cut inside a character
	// reference or character).
	text []byte

	// next are the regions and links whose start tag is the next token.
	next []overlayMark
	// flats are the comment (and <noindex>) regions open.
	flats []*flatRegion
	// open are the names of the elements open, as far as a tokenizer
	// can tell (the outermost maxOpen of them, deeper counts the rest),
	// closed before the bar so no hidden element holds it.
	open   []string
	deeper int

	drawnRegions int
	undrawn      []undrawnRegion
	undrawnCount int
	links        [3]int // drawn links: followed, not followed by robots markup, no page
}

type overlayMark struct {
	region *filter.Region
	link   *filter.Link
}

// flatRegion is a comment region open: what it turns off still, and
// whether any of it was drawn.
type flatRegion struct {
	r        filter.Region
	off      filter.Switch
	id       string
	labelled bool
}

type undrawnRegion struct {
	r   filter.Region
	why string
}

// Bounds of what the overlay holds.
const (
	maxTextRun  = 64 << 10 // text held while a comment region is open
	maxOpen     = 1024     // open elements remembered
	maxUndrawn  = 100      // regions not drawn that the bar lists
	maxLabelLen = 48       // of a marker in a label
)

// attrSpan is where an attribute's name and value are in tok.
type attrSpan struct {
	name, nameEnd, val, valEnd int
}

func newOverlay(w io.Writer, name, base string) *overlay {
	o := &overlay{w: w, name: name, base: base}
	o.allowed = siteSources(base)
	return o
}

// siteSources is the CSP source list of a base URL's site: its host and
// every host of its registrable domain, http and https ("" when the base
// names no host a CSP can spell).
func siteSources(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if !cspHost().MatchString(host) {
		return "" // an IP literal of IPv6, or a host to spell in punycode first
	}
	site := host
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		site = d
	}
	port := ""
	if p := u.Port(); p != "" {
		port = ":" + p
	}
	var s []string
	for _, scheme := range []string{"https", "http"} {
		s = append(s, scheme+"://"+host+port, scheme+"://"+site+port, scheme+"://*."+site+port)
	}
	return strings.Join(s, " ")
}

// cspHost is what a host in a CSP source list must look like: compiled
// at its first use, not at every start.
var cspHost = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9-]+(\.[a-z0-9-]+)*$`) })

func (o *overlay) Charset(name string) {
	o.charset = name
	if enc, canon := htmlcharset.Lookup(name); enc != nil && canon != "utf-8" {
		o.dec = enc.NewDecoder()
	}
}

func (o *overlay) Write(p []byte) (int, error) {
	n := len(p)
	o.read += int64(n)
	if o.dec == nil {
		o.page(p)
		return n, nil
	}
	src := p
	if len(o.undecoded) > 0 {
		src = append(o.undecoded, p...)
	}
	for {
		if cap(o.decoded) < 2*len(src)+16 {
			o.decoded = make([]byte, 2*len(src)+16)
		}
		buf := o.decoded[:cap(o.decoded)]
		nDst, nSrc, err := o.dec.Transform(buf, src, false)
		o.page(buf[:nDst])
		src = src[nSrc:]
		if err != transform.ErrShortDst || nSrc == 0 && nDst == 0 {
			break
		}
	}
	o.undecoded = append(o.undecoded[:0], src...)
	return n, nil
}

// page takes the next bytes of the page, as UTF-8.
func (o *overlay) page(b []byte) {
	if !o.started && len(b) > 0 {
		o.started = true
		b = bytes.TrimPrefix(b, []byte("\uFEFF")) // the overlay has its own
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch o.st {
		case sData:
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				o.textBytes(b[i:])
				return
			}
			o.textBytes(b[i : i+j])
			i += j
			o.flushText()
			o.tok = append(o.tok[:0], '<')
			o.st = sTagOpen
		case sTagOpen:
			switch {
			case c == '!':
				o.tok = append(o.tok, c)
				o.st = sMarkup
			case c == '/':
				o.tok = append(o.tok, c)
				o.st = sEndOpen
			case isASCIIAlpha(c):
				o.ensurePrologue()
				o.tok = append(o.tok, c)
				o.attrs, o.at, o.selfClose = o.attrs[:0], aName, false
				o.st = sTag
			case c == '?':
				o.notDrawnHere("its element has no tag of its own here (the parser makes it)")
				o.out("<?")
				o.st = sBogus
			default:
				// A '<' that starts no tag is text.
				o.st = sData
				o.textBytes([]byte("<"))
				i--
			}
		case sEndOpen:
			switch {
			case isASCIIAlpha(c):
				o.tok = append(o.tok, c)
				o.attrs, o.at = o.attrs[:0], aName
				o.st = sEndTag
			case c == '>':
				o.out("</>") // ignored by browsers, as here
				o.st = sData
			default:
				o.out("</")
				o.st = sBogus
				i--
			}
		case sMarkup:
			o.tok = append(o.tok, c)
			o.markup()
		case sTag, sEndTag:
			j := i
			for j < len(b) && o.st != sData && o.st != sRaw && o.st != sPlaintext {
				o.tagByte(b[j])
				j++
			}
			i = j - 1
		case sComment:
			j := i
			for ; j < len(b) && o.st == sComment; j++ {
				o.commentByte(b[j])
			}
			o.outBytes(b[i:j])
			if o.st != sComment {
				o.st = sData
			}
			i = j - 1
		case sBogus:
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				o.outBytes(b[i:])
				return
			}
			o.outBytes(b[i : i+j+1])
			i += j
			o.st = sData
		case sCDATA:
			o.outBytes(b[i : i+1])
			switch {
			case c == ']':
				o.cdataEnd = min(o.cdataEnd+1, 2)
			case c == '>' && o.cdataEnd == 2:
				o.st = sData
			default:
				o.cdataEnd = 0
			}
		case sRaw:
			i = o.raw(b, i) - 1
		case sPlaintext:
			o.out(html.EscapeString(string(b[i:])))
			return
		}
	}
}

// attrEscape escapes a value the overlay writes between double quotes.
func attrEscape(s string) string {
	return strings.ReplaceAll(html.EscapeString(s), "\n", "&#10;")
}

// textBytes takes text: written on, or held to be tinted while a comment
// region is open.
func (o *overlay) textBytes(b []byte) {
	if len(b) == 0 {
		return
	}
	if len(o.next) > 0 {
		o.notDrawnHere("its element has no tag of its own here (the parser makes it)")
	}
	if !o.prologue && !isHTMLSpace(b) {
		o.ensurePrologue()
	}
	if len(o.flats) == 0 || o.foreign > 0 {
		o.outBytes(b)
		return
	}
	o.text = append(o.text, b...)
	if len(o.text) > maxTextRun {
		// Written up to its last white space: never inside a character
		// reference or a character.
		cut := bytes.LastIndexAny(o.text, " \t\n\r\f")
		if cut <= 0 {
			cut = safeCut(o.text)
		}
		o.wrapText(o.text[:cut])
		o.text = append(o.text[:0], o.text[cut:]...)
	}
}

// safeCut is where text with no white space can be cut: before a
// character reference that is not finished, and between characters.
func safeCut(b []byte) int {
	cut := len(b)
	if amp := bytes.LastIndexByte(b, '&'); amp >= 0 && bytes.IndexByte(b[amp:], ';') < 0 && len(b)-amp < 40 {
		cut = amp
	}
	for cut > 0 && cut < len(b) && b[cut]&0xC0 == 0x80 {
		cut--
	}
	return cut
}

// flushText writes the text held.
func (o *overlay) flushText() {
	if len(o.text) > 0 {
		o.wrapText(o.text)
		o.text = o.text[:0]
	}
}

// wrapText writes text inside comment regions, tinted: in an element of
// its own, which a browser puts where it puts the text (into a table's
// foster parent, or nowhere in a <select>), white space alone as it is.
func (o *overlay) wrapText(b []byte) {
	if isHTMLSpace(b) {
		o.outBytes(b)
		return
	}
	in, off, label, title := o.flatMarks("")
	o.out(fmt.Sprintf(`<rf-text data-rf-in="%s" data-rf-flat="%s"`, attrEscape(in), off))
	if label != "" {
		o.out(fmt.Sprintf(` data-rf-flat-label="%s"`, attrEscape(label)))
	}
	o.out(fmt.Sprintf(` title="%s">`, attrEscape(title)))
	o.outBytes(b)
	o.out("</rf-text>")
}

func (o *overlay) openElement(name string) {
	if len(o.open) < maxOpen && o.deeper == 0 {
		o.open = append(o.open, name)
	} else {
		o.deeper++
	}
}

// closeElement follows an end tag: it closes the innermost element of its
// name, and those inside it.
func (o *overlay) closeElement(name string) {
	if o.deeper > 0 {
		o.deeper--
		return
	}
	for i := len(o.open) - 1; i >= 0; i-- {
		if o.open[i] == name {
			o.open = o.open[:i]
			return
		}
	}
}

func (o *overlay) out(s string) {
	o.bom()
	io.WriteString(o.w, s)
}

func (o *overlay) outBytes(b []byte) {
	o.bom()
	o.w.Write(b)
}

// bom starts the overlay with a byte order mark: it is UTF-8 whatever
// the page's META says, and a mark before the doctype leaves it the
// page's first token.
func (o *overlay) bom() {
	if !o.wrote {
		o.wrote = true
		io.WriteString(o.w, "\uFEFF")
	}
}

// ensurePrologue writes the overlay's head before the page's first tag or
// text: its doctype and comments before stay first.
func (o *overlay) ensurePrologue() {
	if o.prologue {
		return
	}
	o.prologue = true
	csp := "default-src 'none'; script-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; connect-src 'none'; media-src 'none'; form-action 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:"
	if o.allowed != "" {
		csp = fmt.Sprintf("default-src 'none'; script-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; connect-src 'none'; media-src 'none'; form-action 'none'; style-src 'unsafe-inline' %[1]s; img-src data: %[1]s; font-src data: %[1]s", o.allowed)
	}
	o.out(fmt.Sprintf("<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">", attrEscape(csp)))
	o.out("<meta name=\"referrer\" content=\"no-referrer\"><meta http-equiv=\"x-dns-prefetch-control\" content=\"off\"><meta name=\"robots\" content=\"noindex, nofollow, noarchive\">")
	if o.base != "" {
		o.out(fmt.Sprintf("<base href=\"%s\">", attrEscape(o.base)))
	}
	o.out("<style>" + overlayStyle + "</style>")
}

// overlayStyle draws the outlines on the page: it outranks the page's
// style (!important), but for what the page's own !important rules say
// of the same elements.
const overlayStyle = `html{padding-top:66px!important}
[data-rf-region]{outline:2px solid var(--rf-c)!important;outline-offset:-1px!important;--rf-c:#d4145a}
[data-rf-region]:not([data-rf-off~=noindex])[data-rf-off~=nofollow]{--rf-c:#1d5fd1;outline-style:dashed!important}
[data-rf-region]:not([data-rf-off~=noindex]):not([data-rf-off~=nofollow])[data-rf-off~=noarchive]{--rf-c:#d98a00}
[data-rf-region]:not([data-rf-off~=noindex]):not([data-rf-off~=nofollow]):not([data-rf-off~=noarchive])[data-rf-off~=noanchortext]{--rf-c:#8a2be2}
[data-rf-region]:not([data-rf-off~=noindex]):not([data-rf-off~=nofollow]):not([data-rf-off~=noarchive]):not([data-rf-off~=noanchortext]){--rf-c:#2a8a3a;outline-style:dotted!important}
[data-rf-region]::before,[data-rf-flat-label]::before{content:attr(data-rf-label)!important;display:inline-block!important;font:600 11px/1.3 system-ui,sans-serif!important;color:#fff!important;background:var(--rf-c)!important;padding:0 4px!important;margin:0 4px 0 0!important;border-radius:2px!important;white-space:nowrap!important;max-width:40em!important;overflow:hidden!important;text-overflow:ellipsis!important;vertical-align:baseline!important;text-transform:none!important;letter-spacing:normal!important;position:static!important;float:none!important;visibility:visible!important;opacity:1!important}
[data-rf-flat-label]::before{content:attr(data-rf-flat-label)!important}
[data-rf-flat]{--rf-c:#b3124d;--rf-t:rgba(212,20,90,.13)}
[data-rf-flat]:not([data-rf-flat~=noindex]){--rf-c:#b87400;--rf-t:rgba(230,150,0,.15)}
[data-rf-flat]:not([data-rf-flat] [data-rf-flat]){box-shadow:inset 0 0 0 100vmax var(--rf-t)!important;outline:1px dashed var(--rf-c)!important;outline-offset:-1px!important}
rf-text[data-rf-flat]:not([data-rf-flat] rf-text){box-shadow:inset 0 0 0 100vmax var(--rf-t)!important}
rf-plaintext{display:block;white-space:pre;font-family:monospace}
a[data-rf-link=followed]{text-decoration:underline 2px #2a8a3a!important}
a[data-rf-link=robots],area[data-rf-link=robots]{text-decoration:line-through 2px #1d5fd1!important;outline:2px dashed #1d5fd1!important;outline-offset:1px!important}
a[data-rf-link=robots]::after{content:"nofollow"!important;font:600 10px/1.2 system-ui,sans-serif!important;color:#fff!important;background:#1d5fd1!important;padding:0 3px!important;margin-left:3px!important;border-radius:2px!important;vertical-align:super!important;text-decoration:none!important}`

// finish ends the page: what is open of the page's markup is closed, and
// the bar written.
func (o *overlay) finish(res *robofilter.Result, v verdict, err error) {
	o.flushText()
	o.notDrawnHere("its element has no tag of its own (the document ends)")
	if len(o.undecoded) > 0 {
		o.page([]byte("\uFFFD"))
		o.undecoded = nil
	}
	switch o.st {
	case sTagOpen, sEndOpen:
		o.out(html.EscapeString(string(o.tok)))
	case sMarkup, sTag, sEndTag:
		// A tag the document's end cuts off is no tag to a browser either:
		// left out.
	case sComment:
		o.out("-->")
	case sBogus:
		o.out(">")
	case sCDATA:
		o.out("]]>")
	case sRaw:
		if !o.stripping {
			o.outBytes(o.rawHold)
		}
		o.out("</" + o.rawName + ">")
		o.closeElement(o.rawName)
	}
	for _, f := range o.flats {
		if !f.labelled {
			o.notDrawn(f.r, "nothing of it is drawn: it holds no element and no text")
		}
	}
	o.ensurePrologue()
	for i := len(o.open) - 1; i >= 0; i-- {
		o.out("</" + o.open[i] + ">")
	}
	if o.st == sPlaintext {
		o.out("</rf-plaintext>") // a browser's <plaintext> never ends; the overlay's does
	}
	o.writeBar(res, v, err)
}

const overlayBarStyle = `:host{all:initial}
.bar{position:fixed;top:0;left:0;right:0;box-sizing:border-box;height:64px;padding:6px 12px;background:#1e2430;color:#eef;font:13px/1.45 system-ui,sans-serif;box-shadow:0 2px 6px rgba(0,0,0,.35);z-index:2147483647}
.line{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding-right:6em}
b.name{color:#fff}.yes{color:#7ee787}.no{color:#ff9b9b}.dim{color:#aab}
.sw{display:inline-block;padding:0 5px;margin-right:6px;border-radius:2px;color:#fff;font-weight:600;font-size:11px}
details{position:absolute;right:12px;top:6px}
summary{cursor:pointer;color:#9cf;list-style:none}
summary::-webkit-details-marker{display:none}
.panel{position:fixed;top:64px;right:0;width:min(46em,100vw);max-height:calc(100vh - 80px);overflow:auto;box-sizing:border-box;padding:10px 16px;background:#fff;color:#222;border:1px solid #889;box-shadow:0 4px 12px rgba(0,0,0,.3);white-space:normal}
.panel a{color:#0645ad}.panel code{font-size:12px;overflow-wrap:anywhere}
.panel .yes{color:#1a7f37}.panel .no{color:#c00}
.panel ul{padding-left:1.2em}.panel li{margin:.15em 0}
.verdict .rules{display:flex;flex-wrap:wrap;gap:.2em 1.2em;margin:.2em 0}
.verdict .yes::before{content:"✓ ";font-weight:bold}.verdict .no::before{content:"✗ ";font-weight:bold}
.bar .bar{display:none}
span.bar{display:inline-block;width:6em;height:.6em;background:#dde;margin:0 .4em;vertical-align:middle}
span.bar span{display:block;height:100%;background:#c33}`

// writeBar writes the bar: the verdict in a line, the legend, and a panel
// with the verdict in full and the regions not drawn.
func (o *overlay) writeBar(res *robofilter.Result, v verdict, err error) {
	d := res.Directives
	yn := func(yes bool, y, n string) string {
		if yes {
			return `<span class="yes">✓ ` + y + `</span>`
		}
		return `<span class="no">✗ ` + n + `</span>`
	}
	// What the bar says of the regions, in attributes of its element too,
	// for tools that read the page's DOM (the shadow root is not in it).
	var undrawn []string
	for _, u := range o.undrawn {
		undrawn = append(undrawn, regionID(&u.r))
	}
	o.out(fmt.Sprintf("<rf-overlay data-rf-regions=\"%d\" data-rf-drawn=\"%d\" data-rf-undrawn=\"%s\" data-rf-undrawn-count=\"%d\" ", v.Regions, o.drawnRegions, strings.Join(undrawn, " "), o.undrawnCount))
	o.out("style=\"all:initial!important;display:block!important;position:fixed!important;top:0!important;left:0!important;right:0!important;height:64px!important;z-index:2147483647!important;visibility:visible!important;opacity:1!important;transform:none!important\"><template shadowrootmode=\"open\"><style>" + overlayBarStyle + "</style><div class=\"bar\">")
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="line"><b class="name">%s</b> &nbsp; %s · %s · %s`, html.EscapeString(displayName(o.name)),
		yn(v.Indexed, "indexed", "not indexed"), yn(v.Followed, "links followed", "links not followed"), yn(v.Archived, "archived", "not archived"))
	if v.Leaks > 0 {
		fmt.Fprintf(&b, ` · <span class="no">⚠ %s</span>`, count(v.Leaks, "warning"))
	}
	if v.TextBytes > 0 {
		fmt.Fprintf(&b, ` · %s of the text not indexed, %s not in snippets`, percent(v.TextBytes-v.IndexedBytes, v.TextBytes), percent(v.TextBytes-v.SnippetBytes, v.TextBytes))
	}
	fmt.Fprintf(&b, ` · %s · %s not followed`, count(v.Regions, "region"), count(v.notFollowedByRobots(), "link"))
	b.WriteString("</div>\n<div class=\"line\">")
	b.WriteString(`<span class="sw" style="background:#d4145a">not indexed</span><span class="sw" style="background:#1d5fd1">links not followed</span><span class="sw" style="background:#d98a00">out of the archive copy</span><span class="sw" style="background:#8a2be2">not anchor text</span><span class="sw" style="background:#2a8a3a">back on</span> <span class="dim">outlined: element regions · tinted: comment regions · links</span> <span style="text-decoration:underline 2px #7ee787">followed</span> <span style="text-decoration:line-through 2px #9cf">not followed</span> <span class="dim">· hover: marker, line</span>`)
	b.WriteString("</div>\n<details><summary>details ▾</summary><div class=\"panel\">")
	o.out(b.String())
	writeVerdict(o.w, v, &d, res.Warnings, func(n int) string { return fmt.Sprint(n) })
	fmt.Fprintf(o.w, "<p>Drawn: %d of %d regions; %d followed links, %d not followed because of robots markup, %d that are not pages.</p>\n",
		o.drawnRegions, v.Regions, o.links[0], o.links[1], o.links[2])
	if o.undrawnCount > 0 {
		fmt.Fprintf(o.w, "<p>Not drawn on the page: %d regions</p>\n<ul class=\"undrawn\">\n", o.undrawnCount)
		for _, u := range o.undrawn {
			fmt.Fprintf(o.w, "<li data-rf-undrawn=\"%s\"><code>%s</code> at %d:%d: %s</li>\n", regionID(&u.r), html.EscapeString(tagOf(u.r)+u.r.Marker), u.r.Line, u.r.Col, html.EscapeString(u.why))
		}
		if o.undrawnCount > len(o.undrawn) {
			fmt.Fprintf(o.w, "<li>and %d more</li>\n", o.undrawnCount-len(o.undrawn))
		}
		fmt.Fprint(o.w, "</ul>\n")
	}
	fmt.Fprint(o.w, "<p class=\"dim\">The page's scripts are off; ")
	if o.allowed != "" {
		fmt.Fprintf(o.w, "only its site's images, style sheets and fonts load (%s).", html.EscapeString(o.base))
	} else {
		fmt.Fprint(o.w, "nothing loads: pass <code>--base URL</code> to see the page's own images and style sheets.")
	}
	fmt.Fprint(o.w, " Regions the page hides (display:none) are outlined but not seen.</p>\n")
	if o.charset == "replacement" {
		fmt.Fprint(o.w, "<p class=\"no\">The page's charset is WHATWG's replacement encoding, which browsers do not read: nothing of it is drawn.</p>\n")
	}
	if err != nil {
		fmt.Fprintf(o.w, "<p class=\"no\">The document stopped: %s</p>\n", html.EscapeString(err.Error()))
	}
	o.out("</div></details></div></template></rf-overlay>\n")
}

func isASCIIAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isHTMLSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			return false
		}
	}
	return true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// hasToken reports whether a space-separated list holds a token (ASCII
// case-insensitive).
func hasToken(list, token string) bool {
	for _, t := range strings.Fields(list) {
		if strings.EqualFold(t, token) {
			return true
		}
	}
	return false
}
