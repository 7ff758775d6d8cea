package filter

import (
	"bytes"
	"net/url"
	"strings"
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

// anchor is a link being collected: its text grows while its element is open.
type anchor struct {
	link Link
	text []byte
	done bool
	base *url.URL // resolve against this, not the document's base (xml:base)
}

// relNoFollow reports whether a rel value has a token asking not to follow
// (nofollow, ugc, sponsored), split on spaces and commas, any case.
func relNoFollow(rel []byte) (string, bool) {
	for _, f := range bytes.FieldsFunc(rel, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' }) {
		switch strings.ToLower(string(f)) {
		case "nofollow", "ugc", "sponsored":
			return strings.ToLower(string(f)), true
		}
	}
	return "", false
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
func trimHref(b []byte) string {
	s := strings.TrimFunc(string(b), func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	return s
}

func isJavaScriptURL(href string) bool {
	return len(href) >= 11 && strings.EqualFold(href[:11], "javascript:")
}
