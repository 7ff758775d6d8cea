package weburl

import (
	"net/url"
	"strings"

	"github.com/robofilter/robofilter/internal/ascii"
)

// PlainResolution is the resolution of the links most pages are made of,
// without a parse and a rebuild (they cost about 2 µs a link): an absolute
// http(s) URL, or a relative reference without a base, made only of
// characters that need no escaping and with no dot segments, resolves to
// itself (scheme ""); a path from the root against an http(s) base resolves
// to scheme://host followed by it. ok is false for anything else, which
// Resolve takes; TestPlainResolutionAgreesWithNetURL checks the two
// agree. plain is plainURL(href).
func PlainResolution(base *url.URL, href string, plain bool) (scheme, host string, ok bool) {
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
	return Resolve(base, Trim([]byte(href)))
}

// Resolve resolves href against base: http(s) by the URL standard
// (parseWeb, ResolveReference, Normalize, webString), other schemes
// with net/url. When it cannot, the URL is the href and why says why the
// link is not followed.
func Resolve(base *url.URL, href string) (u, why string) {
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
		if why := Normalize(r); why != "" {
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

// escapeAt: s[i] is the '%' of a percent-escape ('%' and two hex digits).
func escapeAt(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && ascii.IsHexDigit(s[i+1]) && ascii.IsHexDigit(s[i+2])
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

// AsParsed is the href as a URL parser reads it (HTML's URL rules):
// WHATWG URL parsing removes tabs and newlines anywhere and C0 controls
// and spaces at the ends; Go's url.Parse would reject them instead.
// Trimming bytes up to ' ' is trimming those runes: every byte of a
// multi-byte or invalid sequence is above ' '. The result is part of b
// unless tabs or newlines had to be taken out. plain is plainURL(href):
// most hrefs are plain, and a plain one has no tab or newline to look for.
func AsParsed(b []byte) (href []byte, plain bool) {
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

// Trim is AsParsed as a string.
func Trim(b []byte) string {
	href, _ := AsParsed(b)
	return string(href)
}

// IsWeb reports whether href is relative or names http or https: a
// crawler fetches pages, not mail addresses, local files, data or other
// protocols' resources (mailto:, file:, data:, tel:, ftp: …).
func IsWeb[T ~string | ~[]byte](href T) bool {
	i := SchemeEnd(href)
	return i < 0 || ascii.EqualFold(href[:i], "http") || ascii.EqualFold(href[:i], "https")
}

// IsJavaScript reports whether href, as trimmed (Trim), is a javascript:
// URL, its scheme in any case: no crawler follows one.
func IsJavaScript[T ~string | ~[]byte](href T) bool {
	return len(href) >= 11 && href[0]|0x20 == 'j' && ascii.EqualFold(href[:11], "javascript:")
}
