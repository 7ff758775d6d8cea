package filter

import (
	"bytes"
	"iter"
	"net/url"
	"unicode/utf8"
	"unsafe"

	"github.com/robofilter/robofilter/internal/ascii"
	"github.com/robofilter/robofilter/internal/quote"
	"github.com/robofilter/robofilter/phrase"
	"github.com/robofilter/robofilter/weburl"
)

// LinkKind says how an element carries a link.
type LinkKind uint8

const (
	NoLink     LinkKind = iota // no link: the element carries none, or links are not wanted
	LinkAnchor                 // a hyperlink whose content is its anchor text (HTML a, XHTML a, XLink elements)
	LinkRef                    // a reference without anchor text (area, link, frame, iframe, feed and sitemap URLs)
)

// Link is one link of the document, in document order.
type Link struct {
	URL      string `json:"url"`  // resolved against the base; as written if it cannot be
	Href     string `json:"href"` // as written
	Tag      string `json:"tag"`
	Rel      string `json:"rel,omitempty"`
	Text     string `json:"text,omitempty"` // anchor text: the link's indexable text
	Followed bool   `json:"followed"`
	// Reason says why a link is not followed; Cause names the marker.
	Reason string  `json:"reason,omitempty"`
	Cause  *Region `json:"cause,omitempty"`
	Line   int     `json:"line"`
	Col    int     `json:"col"`
	Offset int64   `json:"offset"` // bytes before the link's element in the input
	// Truncated is set when the anchor text was cut at MaxAnchorText bytes.
	Truncated bool `json:"truncated,omitempty"`
}

// MaxAnchorText bounds the anchor text kept for one link, so an unclosed
// <a> at the top of a page cannot hold the whole page in memory.
const MaxAnchorText = 4 << 10

// maxQueuedLinks bounds the links waiting behind an open <a>: past it, the
// oldest is written with the anchor text it has so far.
const maxQueuedLinks = 1024

// maxHeldLinks bounds the links held while the head may still say
// nofollow (a page's head has a few dozen <link> elements).
const maxHeldLinks = 4096

// linkMemory allocates anchors, and the bytes of their hrefs and rels, in
// slabs: one allocation for many links. Slabs start small, for documents
// with few links, and double up to a bound. An anchor is reused once its
// link is written, under a new generation: a scope may still point at it,
// but holds the old generation, so it sees no anchor (Scope.link). Bytes
// are not reused; the garbage collector frees a byte slab once no anchor
// refers to it.
type linkMemory struct {
	anchors []anchor  // the anchor slab: its length is how many it has given out
	free    []*anchor // anchors of written links
	bytes   []byte    // the byte slab, likewise
}

// maxAnchorSlab is as many anchors as fit in 32 KiB, the runtime's largest
// size class, with the 8-byte header it adds to such objects (a round 128
// of today's anchors would take the next class up, wasting 4 KiB).
const maxAnchorSlab = (32<<10 - 8) / int(unsafe.Sizeof(anchor{}))

// maxByteSlab bounds the byte slab; a link longer than a quarter of it gets
// an allocation of its own, so a slab is never mostly left unused.
const maxByteSlab = 4 << 10

// anchor hands out a zeroed anchor.
func (m *linkMemory) anchor() *anchor {
	if k := len(m.free) - 1; k >= 0 {
		a := m.free[k]
		m.free = m.free[:k]
		*a = anchor{gen: a.gen + 1}
		return a
	}
	n := len(m.anchors)
	if n == cap(m.anchors) {
		m.anchors = make([]anchor, 0, min(max(2*n, 4), maxAnchorSlab))
		n = 0
	}
	m.anchors = m.anchors[:n+1]
	return &m.anchors[n]
}

// release takes back the anchor of a written link.
func (m *linkMemory) release(a *anchor) { m.free = append(m.free, a) }

// keep copies href followed by rel out of the parser's buffer.
func (m *linkMemory) keep(href, rel []byte) []byte {
	n := len(href) + len(rel)
	if n > cap(m.bytes)-len(m.bytes) {
		if n > maxByteSlab/4 {
			return append(append(make([]byte, 0, n), href...), rel...)
		}
		m.bytes = make([]byte, 0, max(min(2*cap(m.bytes), maxByteSlab), 256, n))
	}
	start := len(m.bytes)
	m.bytes = append(append(m.bytes, href...), rel...)
	return m.bytes[start:len(m.bytes):len(m.bytes)]
}

// anchor is a link being collected: its text grows while its element is open.
type anchor struct {
	link Link
	text []byte
	gen  uint32 // bumped each time the anchor is reused
	done bool
	// plain records plainURL of the href, found by hrefAsParsed's scan so
	// that resolving it needs no second one.
	plain bool
	base  *url.URL // resolve against this, not the document's base (xml:base)
	// short holds the text of most links (a few words), so that collecting
	// it costs no allocation of its own.
	short [48]byte
	// raw is the href as a URL parser reads it (its first hrefLen bytes)
	// followed by the rel value, kept (linkMemory.keep) until the link is
	// written.
	raw     []byte
	hrefLen int
}

// linkStrings fills in the URL, Href, Rel and Text of a link about to be
// written. They are parts of one string, so a link costs one allocation:
// the URL shares the href's bytes when it is the href itself or the base's
// origin followed by it. Resolved now, not when seen: a head link before
// <base> is held until the head has ended, and the base applies to it too.
func (c *Core) linkStrings(a *anchor) {
	href, rel := a.raw[:a.hrefLen], a.raw[a.hrefLen:]
	// An xml:base link resolves even an empty href (to the base, as
	// net/url does); against the document's base, an empty href has no URL.
	base, resolves := a.base, true
	if base == nil {
		base, resolves = c.base, len(href) > 0
	}
	var scheme, host string
	plain := false
	if resolves {
		if weburl.SchemeEnd(href) < 0 {
			c.resolved++ // a relative reference: a later base would change it
		}
		// A view of the bytes for the checks alone: plainResolution
		// returns nothing made from it.
		scheme, host, plain = weburl.PlainResolution(base, unsafe.String(unsafe.SliceData(href), len(href)), a.plain)
	}
	// The string is built in a slice of its own and then viewed as a
	// string: nothing else holds the slice, so the bytes never change.
	n := len(href) + len(rel) + len(a.text)
	if scheme != "" {
		n += len(scheme) + len("://") + len(host)
	}
	b := make([]byte, 0, n)
	if scheme != "" {
		b = append(append(append(b, scheme...), "://"...), host...)
	}
	hrefAt := len(b)
	b = append(b, href...)
	relAt := len(b)
	b = append(b, rel...)
	textAt := len(b)
	b = phrase.AppendWords(b, a.text)
	s := unsafe.String(unsafe.SliceData(b), len(b))
	a.link.Href, a.link.Rel, a.link.Text = s[hrefAt:relAt], s[relAt:textAt], s[textAt:]
	switch {
	case plain:
		a.link.URL = s[:relAt]
	case resolves:
		var why string
		a.link.URL, why = weburl.Resolve(base, a.link.Href)
		switch {
		case why != "":
			if a.link.Followed {
				a.link.Followed, a.link.Reason = false, why
			}
		case weburl.SchemeEnd(href) < 0 && a.link.Reason != "empty href":
			// newLink saw no scheme in the href: the base gave the URL
			// its scheme (a file: or ftp: <base href>, xml:base, --base),
			// and a crawler follows the URL, not what was written. The
			// plain path needs no look: it resolves to http(s) only.
			if why := schemeNotFollowed(a.link.URL); why != "" {
				a.link.Followed, a.link.Reason, a.link.Cause = false, why, nil
			}
		}
	}
}

// schemeNotFollowed is why a link to u is not followed for its scheme
// ("" when it names none, or http or https), ranked above the reasons
// that follow it in newLink, as there.
func schemeNotFollowed[T ~string | ~[]byte](u T) string {
	switch {
	case weburl.IsJavaScript(u):
		return reasonJavaScript
	case !weburl.IsWeb(u):
		return reasonNotWeb
	}
	return ""
}

const (
	reasonJavaScript = "javascript: URL"
	reasonNotWeb     = "not a web page (a URL scheme other than http and https)"
)

// relNoFollow reports whether a rel value has a token asking not to follow
// (nofollow, ugc, sponsored), split on spaces and commas, any case, and
// gives the reason that names it.
func relNoFollow(rel []byte) (reason string, ok bool) {
	for tok := range relTokens(rel) {
		for _, r := range [...]string{"rel=nofollow", "rel=ugc", "rel=sponsored"} {
			if ascii.EqualFold(tok, r[len("rel="):]) {
				return r, true
			}
		}
	}
	return "", false
}

// relTokens yields the tokens of a rel value: split on spaces and commas,
// typographic quotes around them stripped (rel=”nofollow”, as pasted
// examples have it).
func relTokens(rel []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for rest := rel; len(rest) > 0; {
			i := 0
			for i < len(rest) && isRelSep(rest[i]) {
				i++
			}
			j := i
			for j < len(rest) && !isRelSep(rest[j]) {
				j++
			}
			tok := rest[i:j]
			rest = rest[j:]
			if len(tok) > 0 && (tok[0] >= utf8.RuneSelf || tok[len(tok)-1] >= utf8.RuneSelf) {
				tok = bytes.Trim(tok, TypographicQuotes)
			}
			if len(tok) > 0 && !yield(tok) {
				return
			}
		}
	}
}

func isRelSep(c byte) bool {
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// relNotAHyperlink reports whether a <link> rel value makes it a resource
// the page uses rather than a page a crawler would follow (relTokens
// splits it, as for relNoFollow).
func relNotAHyperlink(rel []byte) bool {
	for tok := range relTokens(rel) {
		switch ascii.ToLower(string(tok)) {
		case "stylesheet", "icon", "shortcut", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon",
			"preload", "modulepreload", "prefetch", "prerender", "dns-prefetch", "preconnect", "manifest", "pingback",
			// Not in HTML's list, but common, and as much a resource: icons
			// and start-up images, the image to show for a shared page,
			// and blog editors' service descriptions.
			"fluid-icon", "apple-touch-startup-image", "image_src", "edituri", "wlwmanifest":
			return true
		}
	}
	return false
}

// newLink decides whether a link is followed and why not. The href and rel
// are copied into the anchor (the element's bytes are the parser's); they
// become strings when the link is written (linkStrings).
func (c *Core) newLink(s *Scope, el *Element, own Override) *anchor {
	a := c.links.anchor()
	href, plain := weburl.AsParsed(el.Href)
	a.raw, a.hrefLen, a.plain = c.links.keep(href, el.Rel), len(href), plain
	// The anchor is new and zeroed: only what is not zero is set.
	a.link.Tag, a.link.Line, a.link.Col, a.link.Offset, a.link.Followed = el.Tag, el.Pos.Line, el.Pos.Col, el.Pos.Offset, true
	a.base = c.linkBase
	a.text = a.short[:0]
	off := c.offAt(s)
	switch {
	case a.hrefLen == 0:
		a.link.Followed, a.link.Reason = false, "empty href"
	case weburl.IsJavaScript(a.raw[:a.hrefLen]):
		a.link.Followed, a.link.Reason = false, reasonJavaScript
	case !weburl.IsWeb(a.raw[:a.hrefLen]):
		// A relative href takes its scheme from the base: linkStrings
		// looks again at the URL it resolves to (schemeNotFollowed).
		a.link.Followed, a.link.Reason = false, reasonNotWeb
	case el.Tag == "link" && relNotAHyperlink(el.Rel):
		a.link.Followed, a.link.Reason = false, "rel names a resource, not a page"
	case c.docOff&NoFollow != 0:
		a.link.Followed, a.link.Reason = false, "document nofollow"
	case off&NoFollow != 0:
		a.link.Followed, a.link.Reason = false, "nofollow region"
		if s.Off&NoFollow == 0 || c.flatWhy.of(NoFollow) != nil && s.why.of(NoFollow) == nil {
			a.link.Cause = c.flatWhy.of(NoFollow)
		} else {
			a.link.Cause = s.why.of(NoFollow)
		}
	case c.dialects&DialectRel != 0 && own.On&NoFollow == 0:
		if reason, ok := relNoFollow(el.Rel); ok {
			a.link.Followed, a.link.Reason = false, reason
		}
	}
	return a
}

// BaseHref applies the document's first <base href> (or xml:base on the root).
func (c *Core) BaseHref(href []byte) {
	if c.baseSet {
		return
	}
	c.baseSet = true
	h := weburl.Trim(href)
	r, err := weburl.ResolveBase(c.base, h)
	if err != nil {
		c.Warn(c.position(), "base href %q %v; ignored", quote.Clip(h, 80), err)
		return
	}
	if s := r.Scheme; s == "javascript" || s == "data" {
		// HTML's frozen base URL is then the document's own.
		c.Warn(c.position(), "base href %q has a %s: URL, which HTML does not take as a base; ignored", quote.Clip(h, 80), s)
		return
	}
	if c.resolved > 0 {
		// HTML resolves every link of the document against its first base;
		// the links before it have been written (holding every link to
		// the end would take memory in proportion to the page).
		c.Warn(c.position(), "base href %q comes after links already written (%d): they were resolved without it, the links after it are resolved against it", quote.Clip(h, 80), c.resolved)
	}
	c.base = r
}

// Base returns the URL links are resolved against now (nil when none).
func (c *Core) Base() *url.URL { return c.base }

func (c *Core) enqueue(a *anchor) {
	c.queue = append(c.queue, a)
	if c.held && len(c.queue) > maxHeldLinks {
		// Bounded memory: the head's links are written now, and what
		// was held with them; a robots META after this applies from its
		// own position (and says so), as after body content.
		c.Warn(c.position(), "more than %d links before the body's first content: what was held is written now; a robots META after this point applies from there on", maxHeldLinks)
		c.bodyContent()
	}
	if len(c.queue) > maxQueuedLinks {
		c.queue[0].done = true
	}
	c.flushLinks()
}

func (c *Core) flushLinks() {
	if c.held {
		return
	}
	n := 0
	for n < len(c.queue) && c.queue[n].done {
		a := c.queue[n]
		c.linkStrings(a)
		if err := c.out.Link(a.link); err != nil {
			c.archive.fail(err)
		}
		c.written = true
		c.queue[n] = nil
		c.links.release(a)
		n++
	}
	switch {
	case n == len(c.queue): // the usual case: every link written
		c.queue = c.queue[:0]
	case n > 0:
		c.queue = append(c.queue[:0], c.queue[n:]...)
	}
}

// WantsLinks reports whether the links are wanted (a parser need not keep
// what only links use).
func (c *Core) WantsLinks() bool { return c.out.Link != nil }
