package filter

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// net/url parses URLs by RFC 3986; browsers, and so the pages' authors,
// by the WHATWG URL standard, which treats http and https ("special"
// schemes) differently in ways that change where a link goes or how the
// same URL is spelt. webHref and normalizeWeb bring the links output to
// the standard's reading for those schemes: a crawler that deduplicates
// URLs must see one spelling of each.

// webHref rewrites an href as the URL standard reads it when it names
// http(s), or is relative to an http(s) base, into the form net/url reads
// the same way: a backslash before the query is a slash; the slashes (two
// or more) before an authority are two; "http:x" against an http base is
// the relative "x", and against any other base (or none) "http://x"; a
// scheme-relative reference takes the base's scheme, so that an empty
// host is no host; a host's percent-escapes are decoded; and in the path,
// "%2e" segments are dot segments and the bytes net/url would escape are
// escaped already (see webPath).
func webHref(base *url.URL, href string) string {
	if i := SchemeEnd(href); i >= 0 {
		scheme := href[:i]
		if !specialScheme(scheme) {
			return href
		}
		rest := backslashesAsSlashes(href[i+1:])
		if !strings.HasPrefix(rest, "//") && base != nil && strings.EqualFold(base.Scheme, scheme) {
			// The same special scheme and no authority: a reference
			// relative to the base, however it is written.
			if rest != "" && rest[0] != '/' && strings.IndexByte(rest[:pathStart(rest)], ':') >= 0 {
				rest = "./" + rest // not a scheme
			}
			return webPath(rest)
		}
		return scheme + "://" + webAuthority(strings.TrimLeft(rest, "/"))
	}
	if base == nil || !specialScheme(base.Scheme) {
		return href
	}
	href = backslashesAsSlashes(href)
	if strings.HasPrefix(href, "//") {
		return base.Scheme + "://" + webAuthority(strings.TrimLeft(href, "/"))
	}
	return webPath(href)
}

// webAuthority is s, an authority and what follows it, with the host's
// percent-escapes decoded (the URL standard decodes them before it reads
// the host; net/url refuses them) and the path as webPath has it. Escapes
// that decode to a byte that would end the host or make it no host stay,
// and the host is refused as it would be.
func webAuthority(s string) string {
	end := pathStart(s)
	auth, rest := s[:end], s[end:]
	at := strings.LastIndexByte(auth, '@') + 1
	if host := auth[at:]; strings.IndexByte(host, '%') >= 0 {
		if h, err := url.PathUnescape(host); err == nil && !strings.ContainsAny(h, "/?#@[]\\:%") && !strings.ContainsFunc(h, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			auth = auth[:at] + h
		}
	}
	return auth + webPath(rest)
}

// webPath is s, a path and what follows it, with the path as the URL
// standard reads it, in a form net/url keeps: a "%2e" segment (any case,
// or ".%2e", "%2e.", "%2e%2e") is a dot segment, and the bytes net/url
// would escape in a path are escaped already, so that it keeps the path as
// written (given one it must escape, it re-escapes the decoded path,
// turning "%2F" into "/").
func webPath(s string) string {
	end := strings.IndexAny(s, "?#")
	if end < 0 {
		end = len(s)
	}
	path := s[:end]
	if !strings.Contains(path, "%2") && strings.IndexFunc(path, func(r rune) bool { return r >= 0x80 || pathEscapes(byte(r)) }) < 0 {
		return s
	}
	var b strings.Builder
	for i, seg := range strings.Split(path, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		switch strings.ToLower(seg) {
		case "%2e":
			seg = "."
		case ".%2e", "%2e.", "%2e%2e":
			seg = ".."
		}
		for j := 0; j < len(seg); j++ {
			if c := seg[j]; c >= 0x80 || pathEscapes(c) {
				writePercent(&b, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	return b.String() + s[end:]
}

// pathEscapes: net/url escapes c in a path (and the URL standard does, or
// leaves it raw where net/url cannot: '^', '|'), '%' and the delimiters
// aside.
func pathEscapes(c byte) bool {
	switch c {
	case '"', '<', '>', '^', '`', '{', '|', '}', 0x7f:
		return true
	}
	return c <= ' '
}

// ParseBase reads a document's URL (Options.Base, --base) as links are
// read, in the URL standard's spelling for http(s); one longer than
// MaxBaseLen, as written or so spelt, is an error.
func ParseBase(s string) (*url.URL, error) {
	if len(s) > MaxBaseLen {
		return nil, fmt.Errorf("base URL %q is longer than %d bytes", clip(s, 80), MaxBaseLen)
	}
	u, err := ParseReference(nil, s)
	if err != nil {
		return nil, fmt.Errorf("base URL %q: %w", s, err)
	}
	u, _ = ResolveReference(nil, u) // an absolute URL without dot segments
	if why := normalizeWeb(u); why != "" {
		return nil, fmt.Errorf("base URL %q: %s", clip(s, 80), strings.TrimPrefix(why, "no URL: "))
	}
	if n := len(u.String()); n > MaxBaseLen {
		return nil, fmt.Errorf("base URL %q is %d bytes long once written as a URL, longer than %d", clip(s, 80), n, MaxBaseLen)
	}
	return u, nil
}

// ParseReference parses a reference (an href, a <base href>, an xml:base
// value) as the URL standard reads it relative to base (nil: none), for
// ResolveReference: see webHref.
func ParseReference(base *url.URL, ref string) (*url.URL, error) {
	return url.Parse(webHref(base, ref))
}

// defaultPort is the port the URL standard leaves out for scheme (lower
// case; "" for those it has none for).
func defaultPort(scheme string) string {
	switch scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

func specialScheme(s string) bool {
	return strings.EqualFold(s, "http") || strings.EqualFold(s, "https")
}

// backslashesAsSlashes turns the backslashes before the query or fragment
// into slashes, as the URL standard reads them in a special URL.
func backslashesAsSlashes(s string) string {
	end := strings.IndexAny(s, "?#")
	if end < 0 {
		end = len(s)
	}
	if strings.IndexByte(s[:end], '\\') < 0 {
		return s
	}
	return strings.ReplaceAll(s[:end], `\`, "/") + s[end:]
}

// normalizeWeb spells an http(s) URL as the URL standard serializes it:
// the host lower-cased, an internationalized one in punycode, a numeric
// one as a dotted IPv4 address; the scheme's default port dropped; an
// empty path "/". It returns why the URL is no URL (a host that is none,
// a port out of range), or "". Other schemes are left as they are.
func normalizeWeb(u *url.URL) string {
	if u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	if u.Opaque != "" {
		return "no URL: no host" // http:x that nothing made relative
	}
	host, port := u.Host, ""
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host, port = host[:i], host[i+1:]
	}
	if host == "" {
		return "no URL: no host"
	}
	host, why := webHost(host)
	if why != "" {
		return why
	}
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 32)
		if err != nil || n > 65535 {
			return fmt.Sprintf("no URL: port %q is out of range", port)
		}
		if port = strconv.FormatUint(n, 10); port == defaultPort(u.Scheme) {
			port = ""
		}
	}
	if u.User != nil {
		// An empty password, or an empty userinfo, is not written.
		name := u.User.Username()
		if pw, set := u.User.Password(); set && pw == "" || !set {
			u.User = url.User(name)
			if name == "" {
				u.User = nil
			}
		}
	}
	u.Host = host
	if port != "" {
		u.Host += ":" + port
	}
	if u.Path == "" {
		u.Path, u.RawPath = "/", ""
	}
	return ""
}

// hostProfile is the URL standard's domain to ASCII (UTS #46 processing,
// not transitional, no STD3 rules, no hyphen checks, no DNS lengths).
var hostProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false), idna.VerifyDNSLength(false))

// webHost is host (as net/url decodes it) in the URL standard's form, or
// why it is not a host.
func webHost(host string) (string, string) {
	if host[0] == '[' {
		return ipv6Host(host)
	}
	ascii := true
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			ascii = false
			break
		}
	}
	for label := range strings.SplitSeq(host, ".") {
		if strings.EqualFold(label, "xn--") {
			return "", fmt.Sprintf("no URL: host %q has an empty punycode label", clip(host, 80))
		}
	}
	var h string
	if !ascii && (!utf8.ValidString(host) || strings.ContainsRune(host, utf8.RuneError)) {
		return "", fmt.Sprintf("no URL: host %q is not valid UTF-8", clip(host, 80))
	}
	if !ascii || strings.Contains(strings.ToLower(host), "xn--") {
		var err error
		if h, err = hostProfile.ToASCII(host); err == nil && h != host {
			// The punycode it makes must pass the checks punycode gets
			// (a label the mapping made right-to-left, "0ℵ", may not).
			_, err = hostProfile.ToASCII(h)
		}
		if err != nil {
			return "", fmt.Sprintf("no URL: host %q is not a domain name (%v)", clip(host, 80), err)
		}
	} else {
		h = strings.ToLower(host)
	}
	if h == "" {
		return "", fmt.Sprintf("no URL: host %q is empty as a domain name", clip(host, 80))
	}

	for i := 0; i < len(h); i++ {
		if c := h[i]; c <= ' ' || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", fmt.Sprintf("no URL: host %q has the character %q, which no host has", clip(host, 80), c)
		}
	}
	if endsInNumber(h) {
		ip, ok := parseIPv4(h)
		if !ok {
			return "", fmt.Sprintf("no URL: host %q ends in a number but is no IPv4 address", clip(host, 80))
		}
		h = ip
	}
	return h, ""
}

// endsInNumber: the host's last label (a final empty one aside) is a
// number, so the URL standard reads the host as an IPv4 address.
func endsInNumber(h string) bool {
	last := h
	if i := strings.LastIndexByte(h, '.'); i >= 0 {
		last = h[i+1:]
		if last == "" {
			if i == 0 {
				return false // "." alone: one empty label
			}
			rest := h[:i]
			last = rest[strings.LastIndexByte(rest, '.')+1:]
		}
	}
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	// A hex number, however large (too large is no address, not a name).
	return len(last) >= 2 && last[0] == '0' && last[1]|0x20 == 'x' && strings.Trim(last[2:], "0123456789abcdefABCDEF") == ""
}

// parseIPv4 is the URL standard's IPv4 parser: up to four numbers
// (decimal, 0x hex, 0 octal), the last filling the bytes the others leave.
func parseIPv4(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return "", false
	}
	var ip uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok || p == "" {
			return "", false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return "", false
			}
			ip += n << (8 * (3 - i))
		} else {
			if n >= 1<<(8*(5-len(parts))) {
				return "", false
			}
			ip += n
		}
	}
	return fmt.Sprintf("%d.%d.%d.%d", ip>>24, ip>>16&255, ip>>8&255, ip&255), true
}

// ipv4Number reads one part of an IPv4 address: "0x" or "0X" then hex
// digits (none is 0), "0" then octal digits, or decimal digits.
func ipv4Number(p string) (uint64, bool) {
	base := uint64(10)
	switch {
	case len(p) >= 2 && p[0] == '0' && p[1]|0x20 == 'x':
		p, base = p[2:], 16
	case len(p) >= 2 && p[0] == '0':
		p, base = p[1:], 8
	case p == "":
		return 0, false
	}
	var n uint64
	for i := 0; i < len(p); i++ {
		d := uint64(255)
		switch c := p[i]; {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			d = uint64(c|0x20-'a') + 10
		}
		if d >= base {
			return 0, false
		}
		if n = n*base + d; n > 1<<32 {
			return 0, false // no part of an address is that large
		}
	}
	return n, true
}

// ipv6Host is an IPv6 literal ("[…]") as the URL standard writes it: hex
// in lower case, without leading zeros, the first longest run of two or
// more zero pieces as "::", and no dotted IPv4 part ("[::ffff:1.2.3.4]"
// is "[::ffff:102:304]"); or why it is none (a zone is none).
func ipv6Host(host string) (string, string) {
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if err != nil || !a.Is6() || a.Zone() != "" {
		return "", fmt.Sprintf("no URL: host %q is no IPv6 address", clip(host, 80))
	}
	b := a.As16()
	var piece [8]uint16
	for i := range piece {
		piece[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	// The first longest run of zero pieces, if two or more long.
	runAt, runLen := -1, 1
	for i := 0; i < 8; {
		j := i
		for j < 8 && piece[j] == 0 {
			j++
		}
		if j-i > runLen {
			runAt, runLen = i, j-i
		}
		i = max(j, i+1)
	}
	var out strings.Builder
	out.WriteByte('[')
	for i := 0; i < 8; i++ {
		if i == runAt {
			out.WriteString("::")
			i += runLen - 1
			continue
		}
		if i > 0 && i != runAt+runLen {
			out.WriteByte(':')
		}
		out.WriteString(strconv.FormatUint(uint64(piece[i]), 16))
	}
	out.WriteByte(']')
	return out.String(), ""
}
