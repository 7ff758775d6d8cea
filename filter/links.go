package filter

import (
	"bytes"
	"net/url"
	"strings"
	"unsafe"
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
	// Truncated is set when the anchor text was cut at MaxAnchorText bytes.
	Truncated bool `json:"truncated,omitempty"`
}

// MaxAnchorText bounds the anchor text kept for one link, so an unclosed
// <a> at the top of a page cannot hold the whole page in memory.
const MaxAnchorText = 4 << 10

// maxQueuedLinks bounds the links waiting behind an open <a>: past it, the
// oldest is written with the anchor text it has so far.
const maxQueuedLinks = 1024

// maxAnchorSlab bounds the anchors allocated together (newAnchor): as many
// as fit in 32 KiB, the runtime's largest size class, with the 8-byte
// header it adds to such objects (128 of today's 224-byte anchors would
// take the next class up, wasting 4 KiB). Small beside the page buffers,
// large enough that the allocation is a small part of a link's cost.
const maxAnchorSlab = (32<<10 - 8) / int(unsafe.Sizeof(anchor{}))

// anchor is a link being collected: its text grows while its element is open.
type anchor struct {
	link Link
	text []byte
	done bool
	base *url.URL // resolve against this, not the document's base (xml:base)
	// short holds the text of most links (a few words), so that collecting
	// it costs no allocation of its own.
	short [48]byte
}

// relNoFollow reports whether a rel value has a token asking not to follow
// (nofollow, ugc, sponsored), split on spaces and commas, any case.
func relNoFollow(rel []byte) (string, bool) {
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
		for _, name := range [...]string{"nofollow", "ugc", "sponsored"} {
			if bytes.EqualFold(tok, []byte(name)) {
				return name, true
			}
		}
	}
	return "", false
}

func isRelSep(c byte) bool {
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// relNotAHyperlink reports whether a <link> rel value makes it a resource
// the page uses rather than a page a crawler would follow.
func relNotAHyperlink(rel []byte) bool {
	for _, f := range bytes.Fields(rel) {
		switch strings.ToLower(string(f)) {
		case "stylesheet", "icon", "shortcut", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon",
			"preload", "modulepreload", "prefetch", "prerender", "dns-prefetch", "preconnect", "manifest", "pingback":
			return true
		}
	}
	return false
}

// resolve makes href absolute against base; an href that does not parse is
// returned as written (trimmed), a base that is nil leaves href relative.
func resolve(base *url.URL, href string) string {
	if s, ok := resolvePlain(base, href); ok {
		return s
	}
	return resolveSlow(base, href)
}

// resolvePlain is resolve for the links most pages are made of, without a
// parse and a rebuild (they cost about 2 µs a link): an absolute http(s)
// URL, or a path from the root against an http(s) base, made only of
// characters that need no escaping and with no dot segments, resolves to
// itself (or to the base's origin followed by it). Anything else takes the
// general path; TestPlainResolutionAgreesWithNetURL checks the two agree.
func resolvePlain(base *url.URL, href string) (string, bool) {
	if !plainURL(href) {
		return "", false
	}
	switch {
	case strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "http://"):
		rest := href[strings.IndexByte(href, '/')+2:]
		host := rest[:pathStart(rest)]
		if host == "" || !plainHost(host) || host[0] == ':' || host[len(host)-1] == ':' {
			return "", false
		}
		return href, true
	case base == nil:
		// No base: a relative reference stays as written, unless a colon
		// in its first segment would read as a scheme.
		if strings.IndexByte(href[:pathStart(href)], ':') >= 0 || strings.HasPrefix(href, "//") {
			return "", false
		}
		return href, true
	case len(href) > 1 && href[0] == '/' && href[1] != '/':
		if (base.Scheme != "http" && base.Scheme != "https") || base.User != nil || base.Host == "" || base.Opaque != "" || !plainHost(base.Host) {
			return "", false
		}
		return base.Scheme + "://" + base.Host + href, true
	}
	return "", false
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
func plainURL(s string) bool {
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

func plainHost(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

func resolveSlow(base *url.URL, href string) string {
	ref, err := url.Parse(href)
	if err != nil {
		return href
	}
	if base == nil {
		return ref.String()
	}
	return base.ResolveReference(ref).String()
}

// trimHref strips the whitespace a URL parser strips (HTML's URL rules).
// WHATWG URL parsing removes tabs and newlines anywhere and C0 controls
// and spaces at the ends; Go's url.Parse would reject them instead.
// Trimming bytes up to ' ' is trimming those runes: every byte of a
// multi-byte or invalid sequence is above ' '.
func trimHref(b []byte) string {
	i, j := 0, len(b)
	for i < j && b[i] <= ' ' {
		i++
	}
	for j > i && b[j-1] <= ' ' {
		j--
	}
	b = b[i:j]
	for _, c := range b {
		if c == '\t' || c == '\n' || c == '\r' {
			// strings.Map also makes invalid UTF-8 U+FFFD; kept for
			// these rare hrefs so that they come out as they always have.
			return strings.Map(func(r rune) rune {
				if r == '\t' || r == '\n' || r == '\r' {
					return -1
				}
				return r
			}, string(b))
		}
	}
	return string(b)
}

func isJavaScriptURL(href string) bool {
	return len(href) >= 11 && strings.EqualFold(href[:11], "javascript:")
}
