package filter

import (
	"bytes"
	"iter"
	"net/url"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/robofilter/robofilter/phrase"
)

// LinkKind says how an element carries a link.
type LinkKind uint8

const (
	NoLink     LinkKind = iota
	LinkAnchor          // a hyperlink whose content is its anchor text (HTML a, XHTML a, XLink elements)
	LinkRef             // a reference without anchor text (area, link, frame, iframe, feed and sitemap URLs)
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
		if SchemeEnd(href) < 0 {
			c.resolved++ // a relative reference: a later base would change it
		}
		// A view of the bytes for the checks alone: plainResolution
		// returns nothing made from it.
		scheme, host, plain = plainResolution(base, unsafe.String(unsafe.SliceData(href), len(href)), a.plain)
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
		a.link.URL, why = resolveSlow(base, a.link.Href)
		switch {
		case why != "":
			if a.link.Followed {
				a.link.Followed, a.link.Reason = false, why
			}
		case SchemeEnd(href) < 0 && a.link.Reason != "empty href":
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
	case isJavaScriptURL(u):
		return reasonJavaScript
	case !webScheme(u):
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
			if equalFoldASCII(tok, r[len("rel="):]) {
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
		switch asciiLower(string(tok)) {
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

// plainResolution is the resolution of the links most pages are made of,
// without a parse and a rebuild (they cost about 2 µs a link): an absolute
// http(s) URL, or a relative reference without a base, made only of
// characters that need no escaping and with no dot segments, resolves to
// itself (scheme ""); a path from the root against an http(s) base resolves
// to scheme://host followed by it. ok is false for anything else, which
// resolveSlow takes; TestPlainResolutionAgreesWithNetURL checks the two
// agree. plain is plainURL(href).
func plainResolution(base *url.URL, href string, plain bool) (scheme, host string, ok bool) {
	if !plain {
		return "", "", false
	}
	switch {
	case strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "http://"):
		rest := href[strings.IndexByte(href, '/')+2:]
		p := pathStart(rest)
		if p == 0 || p == len(rest) || rest[p] != '/' || !plainAuthority(href[:strings.IndexByte(href, ':')], rest[:p]) {
			return "", "", false // no host, no path ("/" to add), or a host or port to normalize
		}
		return "", "", true
	case base == nil:
		// No base: a relative reference stays as written, unless a colon
		// in its first segment would read as a scheme.
		if strings.IndexByte(href[:pathStart(href)], ':') >= 0 || strings.HasPrefix(href, "//") {
			return "", "", false
		}
		return "", "", true
	case len(href) > 1 && href[0] == '/' && href[1] != '/':
		if (base.Scheme != "http" && base.Scheme != "https") || base.User != nil || base.Host == "" || base.Opaque != "" || !plainAuthority(base.Scheme, base.Host) {
			return "", "", false
		}
		return base.Scheme, base.Host, true
	}
	return "", "", false
}

// SchemeEnd is the index of the ':' that ends the scheme u starts with
// (RFC 3986 section 3.1: a letter, then letters, digits, '+', '-' or '.'),
// or -1 when it starts with none: a URL with a scheme is absolute, and no
// base changes it.
func SchemeEnd[T ~string | ~[]byte](u T) int {
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case 'a' <= c|0x20 && c|0x20 <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i
		default:
			return -1
		}
	}
	return -1
}

// pathStart is the index of the first '/', '?' or '#' in s (len(s) if none):
// where the authority or first segment ends. A loop, because
// strings.IndexAny builds its byte set on every call.
func pathStart(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == '#' {
			return i
		}
	}
	return len(s)
}

// plainURL: only characters that stand for themselves in a URL, no dot
// segments, no empty fragment or query marker at the end, no backslash,
// at most one '#'.
func plainURL(s []byte) bool {
	hash := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if urlPlainByte[c] {
			continue
		}
		switch c {
		case '.':
			// "/." starts a dot segment when the segment is "." or "..".
			if i > 0 && s[i-1] == '/' && (i+1 == len(s) || s[i+1] == '/' || s[i+1] == '?' || s[i+1] == '#' ||
				s[i+1] == '.' && (i+2 == len(s) || s[i+2] == '/' || s[i+2] == '?' || s[i+2] == '#')) {
				return false
			}
		case '?', '#':
			if i == len(s)-1 || c == '#' && hash {
				return false
			}
			hash = hash || c == '#'
		default:
			return false
		}
	}
	return true
}

// urlPlainByte marks the bytes plainURL passes without a second look.
var urlPlainByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-_~/:=&,;+" {
		t[c] = true
	}
	return t
}()

// plainAuthority: a host, and a port if any, that the URL standard spells
// as they are written for scheme (http or https): see plainHost and
// canonicalPort.
func plainAuthority(scheme, hostPort string) bool {
	if i := strings.IndexByte(hostPort, ':'); i >= 0 {
		return plainHost(hostPort[:i]) && canonicalPort(scheme, hostPort[i+1:])
	}
	return plainHost(hostPort)
}

// canonicalPort: a port as the URL standard writes it for scheme (digits,
// no leading zero, at most 65535, not the scheme's default).
func canonicalPort(scheme, port string) bool {
	if port == "" || len(port) > 5 || len(port) > 1 && port[0] == '0' || port == defaultPort(scheme) {
		return false
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
		n = n*10 + int(port[i]-'0')
	}
	return n <= 65535
}

// plainHost: a host the URL standard spells as it is written (lower
// case, no port, not read as an IPv4 address).
func plainHost(h string) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return !endsInNumber(h) && !strings.Contains(h, "xn--")
}

// ResolveHref resolves an href as written (white space at its ends and
// tabs and newlines in it dropped) against base (nil: none), as the links
// output resolves it: http(s) by the WHATWG URL standard, with the
// repairs browsers make. When it gives no URL, u is the href and why says
// why; a relative href without a base is written as it is.
func ResolveHref(base *url.URL, href string) (u, why string) {
	return resolveSlow(base, trimHref([]byte(href)))
}

// resolveSlow resolves href against base: http(s) by the URL standard
// (parseWeb, ResolveReference, normalizeWeb, webString), other schemes
// with net/url. When it cannot, the URL is the href and why says why the
// link is not followed.
func resolveSlow(base *url.URL, href string) (u, why string) {
	s, web := webHref(base, href)
	if web {
		r, err := parseWeb(s)
		if err != nil {
			return href, "no URL: " + err.Error()
		}
		if r.Scheme == "" && base.Opaque != "" {
			// "http:x" as net/url reads it, given as a base: no base
			// for a relative reference (ResolveReference says why).
			var ok bool
			if r, ok = ResolveReference(base, r); !ok {
				return href, "no URL: the base " + base.String() + " takes no relative reference"
			}
		} else {
			resolveWeb(base, r) // r is ours to change
		}
		if why := normalizeWeb(r); why != "" {
			return href, why
		}
		fragment := ""
		if i := strings.IndexByte(s, '#'); i >= 0 {
			fragment = s[i:] // the reference's, even an empty one ("x#")
		}
		return webString(r, fragment), ""
	}
	ref, err := url.Parse(s)
	if err != nil {
		if base == nil && SchemeEnd(href) < 0 {
			return href, "" // a relative reference and no base: as written
		}
		// What net/url rejects and a reader of the URL takes as it is:
		// a "%" that starts no escape, a space or control byte, a colon
		// in a relative path's first segment ("100%", "a b", "1:2").
		var err2 error
		if ref, err2 = url.Parse(repairHref(s)); err2 != nil {
			return href, "no URL: " + err.Error()
		}
	}
	r, ok := ResolveReference(base, ref)
	if !ok {
		return href, "no URL: the base " + base.String() + " takes no relative reference"
	}
	// net/url leaves a space raw in a query: escaped, the URL stays one
	// token.
	r.RawQuery = percentEncode(r.RawQuery, queryEncodes)
	return r.String(), ""
}

// writePercent writes c percent-encoded ("%20").
func writePercent(b *strings.Builder, c byte) {
	b.WriteByte('%')
	b.WriteByte("0123456789ABCDEF"[c>>4])
	b.WriteByte("0123456789ABCDEF"[c&15])
}

// repairHref percent-encodes the bytes of href that net/url rejects in a
// URL a browser takes as it is: a "%" that starts no escape, spaces and
// control bytes; and it makes a relative path whose first segment holds a
// colon (but names no scheme) start with "./".
func repairHref(href string) string {
	var b strings.Builder
	for i := 0; i < len(href); i++ {
		switch c := href[i]; {
		case c == '%' && !escapeAt(href, i),
			c <= ' ' || c == 0x7f:
			writePercent(&b, c)
		default:
			b.WriteByte(c)
		}
	}
	fixed := b.String()
	if SchemeEnd(fixed) < 0 && strings.Contains(fixed[:pathStart(fixed)], ":") {
		fixed = "./" + fixed
	}
	return fixed
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// escapeAt: s[i] is the '%' of a percent-escape ('%' and two hex digits).
func escapeAt(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2])
}

// ResolveReference resolves ref against base (nil: none): an http(s) URL
// as the URL standard does (resolveWeb: on the paths as written, its dot
// segments, never the base's fragment; ref is not changed), others as
// url.URL.ResolveReference does, with two differences. A base with an
// opaque part (mailto:a@b, or what a javascript: or data: base would be)
// takes only absolute references and fragments: ok is false for others,
// where net/url would make "mailto:///x". A relative base (a <base href> or
// xml:base when the caller gave no document URL) gives a relative result:
// "sub/" and "x" give "sub/x", where net/url gives "/sub/x" (a ".." that
// would climb above the relative base's first segment is dropped, as
// net/url drops it: "../a/" and "x" give "a/x").
func ResolveReference(base, ref *url.URL) (u *url.URL, ok bool) {
	switch {
	case specialScheme(ref.Scheme) && ref.Opaque == "":
		r := *ref
		resolveWeb(nil, &r)
		return &r, true
	case base == nil && (ref.Scheme != "" || ref.Host != ""):
		return new(url.URL).ResolveReference(ref), true // which removes dot segments
	case base == nil:
		return ref, true
	case ref.Scheme != "":
		return base.ResolveReference(ref), true // which removes dot segments
	case base.Opaque != "":
		if ref.Host == "" && ref.Path == "" && ref.RawQuery == "" && !ref.ForceQuery && ref.Fragment != "" {
			r := *base
			r.Fragment, r.RawFragment = ref.Fragment, ref.RawFragment
			return &r, true
		}
		return nil, false
	case specialScheme(base.Scheme):
		r := *ref
		resolveWeb(base, &r)
		return &r, true
	}
	r := base.ResolveReference(ref)
	if base.Scheme == "" && base.Host == "" && !strings.HasPrefix(base.Path, "/") &&
		ref.Host == "" && !strings.HasPrefix(ref.Path, "/") && strings.HasPrefix(r.Path, "/") && r.Host == "" {
		r.Path = r.Path[1:]
		r.RawPath = strings.TrimPrefix(r.RawPath, "/")
	}
	return r, true
}

// hrefAsParsed is the href as a URL parser reads it (HTML's URL rules):
// WHATWG URL parsing removes tabs and newlines anywhere and C0 controls
// and spaces at the ends; Go's url.Parse would reject them instead.
// Trimming bytes up to ' ' is trimming those runes: every byte of a
// multi-byte or invalid sequence is above ' '. The result is part of b
// unless tabs or newlines had to be taken out. plain is plainURL(href):
// most hrefs are plain, and a plain one has no tab or newline to look for.
func hrefAsParsed(b []byte) (href []byte, plain bool) {
	i, j := 0, len(b)
	for i < j && b[i] <= ' ' {
		i++
	}
	for j > i && b[j-1] <= ' ' {
		j--
	}
	b = b[i:j]
	if plainURL(b) {
		return b, true
	}
	for _, c := range b {
		if c == '\t' || c == '\n' || c == '\r' {
			// strings.Map also makes invalid UTF-8 U+FFFD; kept for
			// these rare hrefs so that they come out as they always have.
			href = []byte(strings.Map(func(r rune) rune {
				if r == '\t' || r == '\n' || r == '\r' {
					return -1
				}
				return r
			}, string(b)))
			return href, plainURL(href)
		}
	}
	return b, false
}

// trimHref is hrefAsParsed as a string.
func trimHref(b []byte) string {
	href, _ := hrefAsParsed(b)
	return string(href)
}

// webScheme reports whether href is relative or names http or https: a
// crawler fetches pages, not mail addresses, local files, data or other
// protocols' resources (mailto:, file:, data:, tel:, ftp: …).
func webScheme[T ~string | ~[]byte](href T) bool {
	i := SchemeEnd(href)
	return i < 0 || equalFoldASCII(href[:i], "http") || equalFoldASCII(href[:i], "https")
}

func isJavaScriptURL[T ~string | ~[]byte](href T) bool {
	return len(href) >= 11 && href[0]|0x20 == 'j' && equalFoldASCII(href[:11], "javascript:")
}

// newLink decides whether a link is followed and why not. The href and rel
// are copied into the anchor (the element's bytes are the parser's); they
// become strings when the link is written (linkStrings).
func (c *Core) newLink(s *Scope, el *Element, own Override) *anchor {
	a := c.links.anchor()
	href, plain := hrefAsParsed(el.Href)
	a.raw, a.hrefLen, a.plain = c.links.keep(href, el.Rel), len(href), plain
	// The anchor is new and zeroed: only what is not zero is set.
	a.link.Tag, a.link.Line, a.link.Col, a.link.Offset, a.link.Followed = el.Tag, el.Pos.Line, el.Pos.Col, el.Pos.Offset, true
	a.base = c.linkBase
	a.text = a.short[:0]
	off := c.offAt(s)
	switch {
	case a.hrefLen == 0:
		a.link.Followed, a.link.Reason = false, "empty href"
	case isJavaScriptURL(a.raw[:a.hrefLen]):
		a.link.Followed, a.link.Reason = false, reasonJavaScript
	case !webScheme(a.raw[:a.hrefLen]):
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
	h := trimHref(href)
	if len(h) > MaxBaseLen {
		c.Warn(c.position(), "base href %q is longer than %d bytes; ignored", clip(h, 80), MaxBaseLen)
		return
	}
	u, err := ParseReference(c.base, h)
	if err != nil {
		c.Warn(c.position(), "base href %q does not parse (%v); ignored", clip(h, 80), err)
		return
	}
	if s := u.Scheme; s == "javascript" || s == "data" {
		// HTML's frozen base URL is then the document's own.
		c.Warn(c.position(), "base href %q has a %s: URL, which HTML does not take as a base; ignored", clip(h, 80), s)
		return
	}
	r, ok := ResolveReference(c.base, u)
	if !ok {
		c.Warn(c.position(), "base href %q does not resolve against %s; ignored", clip(h, 80), c.base)
		return
	}
	if why := normalizeWeb(r); why != "" {
		c.Warn(c.position(), "base href %q: %s; ignored", clip(h, 80), strings.TrimPrefix(why, "no URL: "))
		return
	}
	if n := len(r.String()); n > MaxBaseLen {
		c.Warn(c.position(), "base href %q resolves to a URL of %d bytes, longer than %d; ignored", clip(h, 80), n, MaxBaseLen)
		return
	}
	if c.resolved > 0 {
		// HTML resolves every link of the document against its first base;
		// the links before it have been written (holding every link to
		// the end would take memory in proportion to the page).
		c.Warn(c.position(), "base href %q comes after links already written (%d): they were resolved without it, the links after it are resolved against it", clip(h, 80), c.resolved)
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
