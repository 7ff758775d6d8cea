package main

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"strings"

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

type scanState uint8

const (
	sData      scanState = iota
	sTagOpen             // after '<'
	sEndOpen             // after "</"
	sMarkup              // after "<!"
	sTag                 // a start tag, after its name's first letter
	sEndTag              // an end tag
	sComment             // after "<!--"
	sBogus               // a bogus comment or doctype, to '>'
	sCDATA               // a CDATA section, to "]]>"
	sRaw                 // raw text (script, style, textarea, title…)
	sPlaintext           // after <plaintext>: all text
)

type attrState uint8

const (
	aName attrState = iota // the tag name
	aBeforeName
	aAttrName
	aAfterName
	aBeforeValue
	aValueDQ
	aValueSQ
	aValueUnquoted
	aAfterValue
	aSelfClosing
)

type commentState uint8

const (
	cStart commentState = iota
	cStartDash
	cBody
	cEndDash
	cEnd
	cEndBang
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
	if !cspHost.MatchString(host) {
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

var cspHost = regexp.MustCompile(`^[a-z0-9-]+(\.[a-z0-9-]+)*$`)

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

// markup decides what a "<!" starts, once its first bytes tell.
func (o *overlay) markup() {
	rest := o.tok[2:]
	switch {
	case bytes.HasPrefix(rest, []byte("--")):
		o.notDrawnHere("")
		o.outBytes(o.tok)
		o.comment, o.st = cStart, sComment
	case len(rest) > 0 && (rest[0] == 'd' || rest[0] == 'D'):
		if len(rest) < len("doctype") && hasPrefixFold(string(rest), "doctype"[:len(rest)]) {
			return
		}
		o.outBytes(o.tok)
		o.st = sBogus
		if rest[len(rest)-1] == '>' {
			o.st = sData
		}
	case len(rest) > 0 && rest[0] == '[' && o.foreign > 0:
		if len(rest) < len("[CDATA[") && string(rest) == "[CDATA["[:len(rest)] {
			return
		}
		o.outBytes(o.tok)
		if string(rest) == "[CDATA[" {
			o.cdataEnd, o.st = 0, sCDATA
		} else {
			o.st = sBogus
		}
	case len(rest) == 1 && rest[0] == '-':
		return // one more byte tells
	default:
		o.notDrawnHere("")
		o.outBytes(o.tok)
		o.st = sBogus
		if rest[len(rest)-1] == '>' {
			o.st = sData
		}
	}
}

// commentByte follows a comment to its end (HTML's comment states).
func (o *overlay) commentByte(c byte) {
	switch o.comment {
	case cStart:
		switch c {
		case '-':
			o.comment = cStartDash
		case '>':
			o.st = sData
		default:
			o.comment = cBody
		}
	case cStartDash:
		switch c {
		case '-':
			o.comment = cEnd
		case '>':
			o.st = sData
		default:
			o.comment = cBody
		}
	case cBody:
		if c == '-' {
			o.comment = cEndDash
		}
	case cEndDash:
		if c == '-' {
			o.comment = cEnd
		} else {
			o.comment = cBody
		}
	case cEnd:
		switch c {
		case '>':
			o.st = sData
		case '!':
			o.comment = cEndBang
		case '-':
		default:
			o.comment = cBody
		}
	case cEndBang:
		switch c {
		case '-':
			o.comment = cEndDash
		case '>':
			o.st = sData
		default:
			o.comment = cBody
		}
	}
}

// tagByte reads a tag's byte (HTML's tag and attribute states), noting
// where its attributes are; at its '>' the tag is written.
func (o *overlay) tagByte(c byte) {
	o.tok = append(o.tok, c)
	i := len(o.tok) - 1
	space := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
	switch o.at {
	case aName:
		switch {
		case space:
			o.nameEnd, o.at = i, aBeforeName
		case c == '/':
			o.nameEnd, o.at = i, aSelfClosing
		case c == '>':
			o.nameEnd = i
			o.tagDone()
		}
	case aBeforeName:
		switch {
		case space:
		case c == '/':
			o.at = aSelfClosing
		case c == '>':
			o.tagDone()
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	case aAttrName:
		switch {
		case space:
			o.endName(i)
			o.at = aAfterName
		case c == '/':
			o.endName(i)
			o.at = aSelfClosing
		case c == '=':
			o.endName(i)
			o.at = aBeforeValue
		case c == '>':
			o.endName(i)
			o.tagDone()
		}
	case aAfterName:
		switch {
		case space:
		case c == '/':
			o.at = aSelfClosing
		case c == '=':
			o.at = aBeforeValue
		case c == '>':
			o.tagDone()
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	case aBeforeValue:
		switch {
		case space:
		case c == '"':
			o.lastAttr().val, o.at = i+1, aValueDQ
		case c == '\'':
			o.lastAttr().val, o.at = i+1, aValueSQ
		case c == '>':
			o.tagDone()
		default:
			o.lastAttr().val, o.at = i, aValueUnquoted
		}
	case aValueDQ, aValueSQ:
		if c == '"' && o.at == aValueDQ || c == '\'' && o.at == aValueSQ {
			o.lastAttr().valEnd, o.at = i, aAfterValue
		}
	case aValueUnquoted:
		switch {
		case space:
			o.lastAttr().valEnd, o.at = i, aBeforeName
		case c == '>':
			o.lastAttr().valEnd = i
			o.tagDone()
		}
	case aAfterValue:
		switch {
		case space:
			o.at = aBeforeName
		case c == '/':
			o.at = aSelfClosing
		case c == '>':
			o.tagDone()
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	case aSelfClosing:
		switch {
		case c == '>':
			o.selfClose = true
			o.tagDone()
		case space:
			o.at = aBeforeName
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	}
}

func (o *overlay) lastAttr() *attrSpan {
	if len(o.attrs) == 0 {
		// '=' straight after the name is a name's first character: a
		// value needs a name before it.
		o.attrs = append(o.attrs, attrSpan{name: len(o.tok) - 1, nameEnd: len(o.tok) - 1, val: -1, valEnd: -1})
	}
	return &o.attrs[len(o.attrs)-1]
}

func (o *overlay) endName(i int) {
	if a := o.lastAttr(); a.nameEnd < 0 {
		a.nameEnd = i
	}
}

// attr returns the value of the tag's first attribute of a name.
func (o *overlay) attr(name string) (string, bool) {
	for _, a := range o.attrs {
		if a.nameEnd >= 0 && strings.EqualFold(string(o.tok[a.name:a.nameEnd]), name) {
			if a.val < 0 {
				return "", true
			}
			end := a.valEnd
			if end < 0 {
				end = len(o.tok) - 1
			}
			return html.UnescapeString(string(o.tok[a.val:end])), true
		}
	}
	return "", false
}

// rawElements are the elements whose content a tokenizer reads as text to
// their end tag (scripting on, as in a browser: <noscript> too).
var rawElements = map[string]bool{"script": true, "style": true, "xmp": true, "iframe": true, "noembed": true,
	"noframes": true, "noscript": true, "textarea": true, "title": true}

var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
	"param": true, "keygen": true, "frame": true, "basefont": true, "bgsound": true, "image": true}

// breakout are the HTML elements that end foreign content (SVG, MathML)
// where they start.
var breakout = map[string]bool{"b": true, "big": true, "blockquote": true, "body": true, "br": true, "center": true,
	"code": true, "dd": true, "div": true, "dl": true, "dt": true, "em": true, "embed": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "head": true, "hr": true, "i": true, "img": true, "li": true,
	"listing": true, "menu": true, "meta": true, "nobr": true, "ol": true, "p": true, "pre": true, "ruby": true,
	"s": true, "small": true, "span": true, "strong": true, "strike": true, "sub": true, "sup": true, "table": true,
	"tt": true, "u": true, "ul": true, "var": true}

// tagDone writes a tag read whole: a start tag with what the overlay adds.
func (o *overlay) tagDone() {
	if o.st == sEndTag {
		name := asciiLower(string(o.tok[2:o.nameEnd]))
		o.notDrawnHere("")
		o.ensurePrologue()
		o.outBytes(o.tok)
		o.closeElement(name)
		if (name == "svg" || name == "math") && o.foreign > 0 {
			o.foreign--
		}
		o.st = sData
		return
	}
	name := asciiLower(string(o.tok[1:o.nameEnd]))
	var add strings.Builder
	o.marks(name, &add)
	switch name {
	case "script":
		add.WriteString(` type="text/x-robofilter-inert"`)
	case "meta":
		add.WriteString(` http-equiv="x-robofilter-inert"`)
	case "link":
		if rel, _ := o.attr("rel"); !hasToken(rel, "stylesheet") {
			add.WriteString(` rel="x-robofilter-inert"`)
		}
	case "iframe", "frame", "embed":
		// The CSP forbids frames and plugins; a browser may still open a
		// connection to where they point before it asks.
		add.WriteString(` src="about:blank"`)
	case "object":
		add.WriteString(` data="about:blank"`)
	}
	if name == "plaintext" {
		o.out("<rf-plaintext")
	} else {
		o.outBytes(o.tok[:o.nameEnd])
	}
	o.out(add.String())
	// The rest of the tag, its event handlers renamed.
	at := o.nameEnd
	for _, a := range o.attrs {
		if a.nameEnd-a.name > 2 && (o.tok[a.name]|0x20) == 'o' && (o.tok[a.name+1]|0x20) == 'n' {
			o.outBytes(o.tok[at:a.name])
			o.out("data-rf-")
			at = a.name
		}
	}
	o.outBytes(o.tok[at:])
	o.st = sData
	if o.foreign > 0 && breakout[name] {
		o.foreign = 0
	}
	switch {
	case name == "plaintext":
		o.st, o.rawName = sPlaintext, name
	case rawElements[name] && !(o.foreign > 0 && o.selfClose):
		o.rawName, o.rawHold, o.stripping, o.st = name, o.rawHold[:0], name == "script", sRaw
		o.openElement(name)
	case (name == "svg" || name == "math") && !o.selfClose:
		o.foreign++
		o.openElement(name)
	case voidElements[name] || o.foreign > 0 && o.selfClose:
	default:
		o.openElement(name)
	}
}

// asciiLower lowercases ASCII letters only, as HTML does tag names.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// raw reads raw text from b[i:] to its end tag, returning where it
// stopped: after "</name" and the byte after it, which go on as an end
// tag's bytes.
func (o *overlay) raw(b []byte, i int) int {
	end := "</" + o.rawName
	for i < len(b) {
		if len(o.rawHold) == 0 {
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				o.rawContent(b[i:])
				return len(b)
			}
			o.rawContent(b[i : i+j])
			o.rawHold = append(o.rawHold, '<')
			i += j + 1
			continue
		}
		c, k := b[i], len(o.rawHold)
		switch {
		case k < len(end) && lowerByte(c) == end[k]:
			o.rawHold = append(o.rawHold, c)
			i++
			continue
		case k == len(end) && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>'):
			// The end tag: from here on, an end tag's bytes.
			o.tok = append(o.tok[:0], o.rawHold...)
			o.rawHold = o.rawHold[:0]
			o.attrs, o.at, o.stripping = o.attrs[:0], aName, false
			o.st = sEndTag
			o.tagByte(c)
			return i + 1
		}
		// Not the end tag: what was held is content, and c is read again
		// with nothing held (it may be a '<').
		o.rawContent(o.rawHold)
		o.rawHold = o.rawHold[:0]
	}
	return i
}

// rawContent writes raw text on, but a script's, which is dropped.
func (o *overlay) rawContent(b []byte) {
	if !o.stripping {
		o.outBytes(b)
	}
}

// marks adds to a start tag the attributes of the regions and links that
// start with it, and of the comment regions open, and notes the regions
// whose tag this is not.
func (o *overlay) marks(name string, add *strings.Builder) {
	var ids, offs, labels, titles []string
	linkKind := ""
	for _, m := range o.next {
		switch {
		case m.region != nil && strings.EqualFold(m.region.Tag, name):
			r := m.region
			if unrendered[name] {
				o.notDrawn(*r, fmt.Sprintf("its element, <%s>, is never shown on a page", name))
			} else {
				o.drawnRegions++
			}
			ids = append(ids, regionID(r))
			offs = append(offs, switchWords(r.Off, r.On)...)
			labels = append(labels, fmt.Sprintf("%s %d:%d", clipText(r.Marker, maxLabelLen), r.Line, r.Col))
			titles = append(titles, regionTitle(r))
		case m.region != nil:
			o.notDrawn(*m.region, "its element has no tag of its own here (the parser makes it)")
		case m.link != nil && strings.EqualFold(m.link.Tag, name):
			l := m.link
			switch {
			case l.Followed:
				linkKind = "followed"
				o.links[0]++
			case robotsReason(l.Reason):
				linkKind = "robots"
				o.links[1]++
				titles = append(titles, "link not followed: "+l.Reason+causeOf(*l))
			default:
				linkKind = "notpage"
				o.links[2]++
				titles = append(titles, "link no crawler follows: "+l.Reason)
			}
		}
	}
	o.next = o.next[:0]
	in, flatOff, flatLabel, flatTitle := o.flatMarks(name)
	if len(ids) > 0 && flatLabel != "" {
		labels, flatLabel = append(labels, flatLabel), "" // one label shows
	}
	if len(ids) > 0 {
		fmt.Fprintf(add, ` data-rf-region="%s" data-rf-off="%s" data-rf-label="%s"`, attrEscape(strings.Join(ids, " ")),
			attrEscape(strings.Join(dedupe(offs), " ")), attrEscape(strings.Join(labels, " + ")))
	}
	if linkKind != "" {
		fmt.Fprintf(add, ` data-rf-link="%s"`, linkKind)
	}
	if in != "" {
		fmt.Fprintf(add, ` data-rf-in="%s" data-rf-flat="%s"`, attrEscape(in), flatOff)
		if flatLabel != "" {
			fmt.Fprintf(add, ` data-rf-flat-label="%s"`, attrEscape(flatLabel))
		}
		titles = append(titles, flatTitle)
	}
	if len(titles) > 0 {
		fmt.Fprintf(add, ` title="%s"`, attrEscape(strings.Join(titles, "\n")))
	}
}

// unrendered are the elements a page never shows: a comment region that
// holds nothing else is not drawn, and its label waits for what is shown.
var unrendered = map[string]bool{"head": true, "title": true, "meta": true, "link": true, "base": true,
	"style": true, "script": true, "template": true, "noscript": true}

// flatMarks are the attributes of what is drawn inside the comment regions
// open (element, "" for text): their ids, what they turn off, a label for
// the first thing shown in a region, and the title.
func (o *overlay) flatMarks(element string) (in, off, label, title string) {
	if len(o.flats) == 0 {
		return
	}
	var ids, offs, labels, titles []string
	for _, f := range o.flats {
		ids = append(ids, f.id)
		offs = append(offs, switchWords(f.off, 0)...)
		if !f.labelled && !unrendered[element] {
			f.labelled = true
			o.drawnRegions++
			labels = append(labels, fmt.Sprintf("%s %s", clipText(f.r.Marker, maxLabelLen), f.id))
		}
		titles = append(titles, regionTitle(&f.r))
	}
	return strings.Join(ids, " "), strings.Join(dedupe(offs), " "), strings.Join(labels, " + "), strings.Join(titles, "\n")
}

func regionID(r *filter.Region) string { return fmt.Sprintf("%d:%d", r.Line, r.Col) }

// regionTitle says what a region does and what makes it, for the outline's
// tooltip.
func regionTitle(r *filter.Region) string {
	var effects []string
	for _, sc := range switchClasses {
		if r.Off&sc.bit != 0 {
			effects = append(effects, sc.meaning)
		}
	}
	if _, on := r.Switches(); on != "" {
		effects = append(effects, "turns back on: "+on)
	}
	return fmt.Sprintf("%s: %s%s (%s) at line %d, column %d", strings.Join(effects, ", "), tagOf(*r), r.Marker, r.Dialect, r.Line, r.Col)
}

// switchWords names the switches off (and "on-…" those turned back on).
func switchWords(off, on filter.Switch) []string {
	var w []string
	for _, sc := range switchClasses {
		if off&sc.bit != 0 {
			w = append(w, sc.name)
		}
		if on&sc.bit != 0 {
			w = append(w, "on-"+strings.TrimPrefix(sc.name, "no"))
		}
	}
	return w
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
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

// StartRegion is told where a region starts: an element's, whose start
// tag is the next token; or a comment region's, drawn from here to its
// end.
func (o *overlay) StartRegion(r filter.Region) {
	o.flushText()
	if o.st == sRaw || o.st == sPlaintext {
		// The parser reads elements where a browser, scripts on, reads
		// text (<noscript>), or past where the overlay's reading ends.
		o.notDrawn(r, fmt.Sprintf("it is inside <%s>, whose content a browser shows as text, or not at all", o.rawName))
		return
	}
	if r.Tag == "" {
		o.flats = append(o.flats, &flatRegion{r: r, off: r.Off, id: regionID(&r)})
		return
	}
	if r.Offset < o.read && r.Tag == "html" && o.prologue {
		// The html element's classes count once a later <head profile>
		// names the profile: its tag has passed, and a second <html>
		// tag adds attributes to it.
		var add strings.Builder
		waiting := o.next
		o.next = []overlayMark{{region: &r}}
		o.marks("html", &add)
		o.out("<html" + add.String() + ">")
		o.next = waiting
		return
	}
	o.next = append(o.next, overlayMark{region: &r})
}

// StartLink is told where a link's element starts.
func (o *overlay) StartLink(l filter.Link) {
	o.flushText()
	if o.st == sRaw || o.st == sPlaintext {
		return
	}
	o.next = append(o.next, overlayMark{link: &l})
}

// endRegion is told where a region ends (the Region output): a comment
// region's part ends, or all of it.
func (o *overlay) endRegion(r filter.Region) {
	if r.Tag != "" {
		return
	}
	o.flushText()
	for i, f := range o.flats {
		if f.r.Offset != r.Offset || f.r.Dialect != r.Dialect {
			continue
		}
		f.off &^= r.Off
		if f.off == 0 {
			if !f.labelled {
				o.notDrawn(f.r, "nothing of it is drawn: it holds no element and no text (it is in the head, or white space only)")
			}
			o.flats = append(o.flats[:i], o.flats[i+1:]...)
		}
		return
	}
}

// notDrawnHere notes the regions waiting for a start tag as not drawn: the
// token here is another ("" when it is a comment or an end tag: the
// element then starts before it, as the parser makes it).
func (o *overlay) notDrawnHere(why string) {
	if why == "" {
		why = "its element has no tag of its own here (the parser makes it)"
	}
	for _, m := range o.next {
		if m.region != nil {
			o.notDrawn(*m.region, why)
		}
	}
	o.next = o.next[:0]
}

func (o *overlay) notDrawn(r filter.Region, why string) {
	o.undrawnCount++
	if len(o.undrawn) < maxUndrawn {
		o.undrawn = append(o.undrawn, undrawnRegion{r, why})
	}
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
