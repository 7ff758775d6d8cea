package weburl

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robofilter/robofilter/internal/ascii"
	"github.com/robofilter/robofilter/internal/quote"
	"golang.org/x/net/idna"
)

// net/url parses URLs by RFC 3986; browsers, and so the pages' authors,
// by the WHATWG URL standard, which treats http and https ("special"
// schemes) differently in ways that change where a link goes or how the
// same URL is spelt. For those schemes, robofilter reads and writes URLs
// by the standard (webHref, parseWeb, resolveWeb, Normalize,
// webString), and leaves net/url the fields of url.URL to keep them in: a
// crawler that deduplicates URLs must see one spelling of each.

// webHref rewrites an href as the URL standard reads it when it names
// http(s), or is relative to an http(s) base (web is then true, and
// parseWeb reads the result): a backslash before the query is a slash;
// the slashes (two or more) before an authority are two; "http:x" against
// an http base is the relative "x", and against any other base (or none)
// "http://x"; and a scheme-relative reference takes the base's scheme, so
// that an empty host is no host. A web reference has a scheme (SchemeEnd)
// only when it has an authority.
func webHref(base *url.URL, href string) (s string, web bool) {
	if i := SchemeEnd(href); i >= 0 {
		scheme := href[:i]
		if !specialScheme(scheme) {
			return href, false
		}
		rest := backslashesAsSlashes(href[i+1:])
		if !strings.HasPrefix(rest, "//") && base != nil && strings.EqualFold(base.Scheme, scheme) {
			// The same special scheme and no authority: a reference
			// relative to the base, however it is written.
			if rest != "" && rest[0] != '/' && strings.IndexByte(rest[:pathStart(rest)], ':') >= 0 {
				rest = "./" + rest // not a scheme
			}
			return rest, true
		}
		return scheme + "://" + strings.TrimLeft(rest, "/"), true
	}
	if base == nil || !specialScheme(base.Scheme) {
		return href, false
	}
	href = backslashesAsSlashes(href)
	if strings.HasPrefix(href, "//") {
		return base.Scheme + "://" + strings.TrimLeft(href, "/"), true
	}
	return href, true
}

// parseWeb reads s, a reference as webHref writes it for http(s), as the
// URL standard reads it: the userinfo is what comes before the last '@'
// of the authority, the host and port are checked and written as
// Normalize has them (the error says why they are none), and the path,
// query and fragment are split off and kept as written (RawPath,
// RawQuery, RawFragment; Path and Fragment decoded, a '%' that starts no
// escape left as it is). net/url reads none of it: it refuses hosts and
// userinfo the standard takes ("h{x}", "a|b@h"), and a stray '%', and
// rewrites the escapes around a byte it escapes differently (see
// webEscapedPath).
func parseWeb(s string) (*url.URL, error) {
	u, rest := new(url.URL), s
	if i := SchemeEnd(s); i >= 0 {
		auth := s[i+len("://"):]
		end := pathStart(auth)
		auth, rest = auth[:end], auth[end:]
		u.Scheme = strings.ToLower(s[:i])
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			// Decoded, as net/url keeps it; webString escapes it again.
			name, pw, ok := strings.Cut(auth[:at], ":")
			if u.User = url.User(percentDecode(name)); ok {
				u.User = url.UserPassword(percentDecode(name), percentDecode(pw))
			}
			auth = auth[at+1:]
		}
		u.Host = auth
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		u.Fragment, u.RawFragment = percentDecode(rest[i+1:]), rest[i+1:]
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		u.RawQuery, u.ForceQuery = rest[i+1:], i == len(rest)-1
		rest = rest[:i]
	}
	u.Path, u.RawPath = percentDecode(rest), rest
	if why := Normalize(u); why != "" {
		return nil, errors.New(strings.TrimPrefix(why, "no URL: "))
	}
	return u, nil
}

// resolveWeb resolves r, a reference parseWeb has read, against base
// (nil: r is absolute), in place, as the URL standard resolves a reference
// for http(s): on the paths as written (webEscapedPath), with its dot
// segments (resolvePath); the base's query only for a reference without
// path or query, its fragment never. base is no opaque URL.
func resolveWeb(base, r *url.URL) {
	path := webEscapedPath(r)
	dir := ""
	if base != nil && r.Scheme == "" {
		r.Scheme = base.Scheme
		if r.Host == "" && r.User == nil {
			r.Host, r.User = base.Host, base.User
			switch {
			case path == "":
				path = webEscapedPath(base)
				if r.RawQuery == "" && !r.ForceQuery {
					r.RawQuery, r.ForceQuery = base.RawQuery, base.ForceQuery
				}
			case path[0] != '/':
				dir = webEscapedPath(base)
				dir = dir[:strings.LastIndexByte(dir, '/')+1]
			}
		}
	}
	path = resolvePath(dir, path)
	r.Path, r.RawPath = percentDecode(path), path
}

// resolvePath is the path p (from the root, or relative to dir, a base's
// path up to its last '/') as the URL standard reads its segments: "."
// (or "%2e", any case) is dropped, ".." (or ".%2e", "%2e.", "%2e%2e")
// drops it and the segment before it, if any; a dot segment at the end
// leaves an empty one ("/a/." is "/a/"); empty segments stay, even after
// ".." at the root ("/..//y" is "//y", where RFC 3986 and net/url give
// "/y"). dir's segments are taken as they are: a base has no dot
// segments. A relative path without dir is taken as from the root; ""
// stays "".
func resolvePath(dir, p string) string {
	if p == "" || p[0] == '/' {
		dir = ""
	} else if dir == "" {
		dir = "/"
	}
	if !hasDotSegment(p) {
		return dir + p
	}
	// out is "/" and a segment for each segment kept: dropping the last
	// one is cutting at out's last '/'.
	out := make([]byte, 0, len(dir)+len(p))
	if dir != "" {
		out = append(out, dir[:len(dir)-1]...)
	}
	if p[0] == '/' {
		p = p[1:]
	}
	for {
		seg, rest, more := strings.Cut(p, "/")
		switch {
		case isDoubleDot(seg):
			out = out[:max(bytes.LastIndexByte(out, '/'), 0)]
			if !more {
				out = append(out, '/')
			}
		case isSingleDot(seg):
			if !more {
				out = append(out, '/')
			}
		default:
			out = append(append(out, '/'), seg...)
		}
		if !more {
			return string(out)
		}
		p = rest
	}
}

// hasDotSegment: a segment of path p is a dot segment.
func hasDotSegment(p string) bool {
	for start := 0; start <= len(p); {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		if seg := p[start:end]; isSingleDot(seg) || isDoubleDot(seg) {
			return true
		}
		start = end + 1
	}
	return false
}

func isSingleDot(seg string) bool { return seg == "." || strings.EqualFold(seg, "%2e") }

func isDoubleDot(seg string) bool {
	switch len(seg) {
	case 2:
		return seg == ".."
	case 4:
		return strings.EqualFold(seg, ".%2e") || strings.EqualFold(seg, "%2e.")
	case 6:
		return strings.EqualFold(seg, "%2e%2e")
	}
	return false
}

// webEscapedPath is u's path as the URL standard writes it: as written
// (RawPath, when it is a spelling of Path; else net/url's spelling of
// Path), with the bytes of its path percent-encode set escaped. It
// differs from u.EscapedPath in what it leaves: '|', and a '%' that
// starts no escape ("100%"), which net/url turns into "%7C" and "%25".
func webEscapedPath(u *url.URL) string {
	p := u.RawPath
	if p == "" || percentDecode(p) != u.Path {
		p = u.EscapedPath()
	}
	return percentEncode(p, pathEncodes)
}

// webString writes u, an http(s) URL that parseWeb, resolveWeb and
// Normalize have made, as the URL standard serializes it, followed by
// fragment: "" for none, or '#' and the fragment as written (net/url
// cannot tell an empty one from none), which it escapes.
func webString(u *url.URL, fragment string) string {
	path := webEscapedPath(u)
	var b strings.Builder
	b.Grow(len(u.Scheme) + len("://") + len(u.Host) + len(path) + 1 + len(u.RawQuery) + len(fragment))
	b.WriteString(u.Scheme)
	b.WriteString("://")
	if u.User != nil {
		writeUserinfo(&b, u.User.Username())
		if pw, ok := u.User.Password(); ok {
			b.WriteByte(':')
			writeUserinfo(&b, pw)
		}
		b.WriteByte('@')
	}
	b.WriteString(u.Host)
	b.WriteString(path)
	if u.ForceQuery || u.RawQuery != "" {
		b.WriteByte('?')
		writeEncoded(&b, u.RawQuery, queryEncodes)
	}
	if fragment != "" {
		b.WriteByte('#')
		writeEncoded(&b, fragment[1:], fragmentEncodes)
	}
	return b.String()
}

// The URL standard's percent-encode sets, as far as robofilter writes
// them: the bytes it escapes in an http(s) URL's path, query and
// fragment. A byte past ASCII is part of a UTF-8 sequence, escaped byte
// by byte as the standard escapes the code point's UTF-8 bytes.
func pathEncodes(c byte) bool {
	switch c {
	case '"', '#', '<', '>', '?', '^', '`', '{', '}':
		return true
	}
	return c <= ' ' || c >= 0x7f
}

// queryEncodes is the special-query set: the apostrophe is escaped in
// http(s) queries alone.
func queryEncodes(c byte) bool {
	switch c {
	case '"', '#', '<', '>', '\'':
		return true
	}
	return c <= ' ' || c >= 0x7f
}

func fragmentEncodes(c byte) bool {
	switch c {
	case '"', '<', '>', '`':
		return true
	}
	return c <= ' ' || c >= 0x7f
}

// writeUserinfo writes s, a decoded user name or password, with the URL
// standard's userinfo set escaped, and a '%' that would read as an escape:
// decoding it gives s back. (The standard keeps the escapes as written:
// "%41" is "A" here.)
func writeUserinfo(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case pathEncodes(c), strings.IndexByte("/:;=@[\\]|", c) >= 0,
			escapeAt(s, i):
			writePercent(b, c)
		default:
			b.WriteByte(c)
		}
	}
}

// percentEncode is s with the bytes in set percent-encoded; s itself
// (no allocation) when it has none.
func percentEncode(s string, set func(byte) bool) string {
	i := 0
	for i < len(s) && !set(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	writeEncoded(&b, s, set)
	return b.String()
}

// writeEncoded writes s with the bytes in set percent-encoded.
func writeEncoded(b *strings.Builder, s string, set func(byte) bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; set(c) {
			writePercent(b, c)
		} else {
			b.WriteByte(c)
		}
	}
}

// percentDecode is the URL standard's percent-decoding: each '%' and two
// hex digits is the byte they spell; any other '%' stays.
func percentDecode(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if c := s[i]; escapeAt(s, i) {
			b = append(b, ascii.Unhex(s[i+1])<<4|ascii.Unhex(s[i+2]))
			i += 2
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// ParseBase reads a document's URL (Options.Base, --base) as links are
// read: ResolveBase with no base in effect.
func ParseBase(s string) (*url.URL, error) {
	u, err := ResolveBase(nil, s)
	if err != nil {
		return nil, fmt.Errorf("base URL %q %w", quote.Clip(s, 80), err)
	}
	return u, nil
}

// ResolveBase is the one rule for every base robofilter takes: the
// caller's (base nil), a <base href>, an xml:base. The value as written,
// white space at its ends dropped, is read as the URL standard reads it
// relative to the base in effect (nil: none), resolved against it, and
// spelt as the standard spells it. It is no base, and the error says why
// in words that follow the quoted value ("is longer than 2048 bytes"),
// when it is longer than MaxBaseLen as written or resolved (every
// relative link repeats its base), does not parse, does not resolve (a
// relative reference against an opaque base), or names a host that is
// none or a port out of range. HTML's rule that a javascript: or data:
// URL is no base is the HTML stage's own.
func ResolveBase(base *url.URL, value string) (*url.URL, error) {
	v := strings.TrimSpace(value)
	if len(v) > MaxBaseLen {
		return nil, fmt.Errorf("is longer than %d bytes", MaxBaseLen)
	}
	ref, err := ParseReference(base, strings.Clone(v)) // the URL keeps its text
	if err != nil {
		return nil, fmt.Errorf("does not parse (%v)", err)
	}
	u, ok := ResolveReference(base, ref)
	if !ok {
		return nil, fmt.Errorf("does not resolve against %s", base)
	}
	if why := Normalize(u); why != "" {
		return nil, fmt.Errorf("is no URL: %s", strings.TrimPrefix(why, "no URL: "))
	}
	if n := len(u.String()); n > MaxBaseLen {
		return nil, fmt.Errorf("resolves to a URL of %d bytes, longer than %d", n, MaxBaseLen)
	}
	return u, nil
}

// ParseReference parses a reference (an href, a <base href>, an xml:base
// value) as the URL standard reads it relative to base (nil: none), for
// ResolveReference: see webHref.
func ParseReference(base *url.URL, ref string) (*url.URL, error) {
	s, web := webHref(base, ref)
	if web {
		return parseWeb(s)
	}
	return url.Parse(s)
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

// Normalize spells an http(s) URL as the URL standard serializes it:
// the host lower-cased, an internationalized one in punycode, a numeric
// one as a dotted IPv4 address; the scheme's default port dropped; an
// empty path "/". It returns why the URL is no URL (a host that is none,
// a port out of range), or "". Other schemes are left as they are.
func Normalize(u *url.URL) string {
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

// webHost is host (as written, or as net/url decodes it) in the URL
// standard's form, or why it is not a host.
func webHost(host string) (string, string) {
	if host[0] == '[' {
		return ipv6Host(host)
	}
	// The standard reads a host's escapes ("h%41st.org"), then refuses
	// what they give that no host has ("a%2Fb").
	host = percentDecode(host)
	ascii := true
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			ascii = false
			break
		}
	}
	for label := range strings.SplitSeq(host, ".") {
		if strings.EqualFold(label, "xn--") {
			return "", fmt.Sprintf("no URL: host %q has an empty punycode label", quote.Clip(host, 80))
		}
	}
	var h string
	if !ascii && (!utf8.ValidString(host) || strings.ContainsRune(host, utf8.RuneError)) {
		return "", fmt.Sprintf("no URL: host %q is not valid UTF-8", quote.Clip(host, 80))
	}
	if !ascii || strings.Contains(strings.ToLower(host), "xn--") {
		var err error
		if h, err = hostProfile.ToASCII(host); err == nil && h != host {
			// The punycode it makes must pass the checks punycode gets
			// (a label the mapping made right-to-left, "0ℵ", may not).
			_, err = hostProfile.ToASCII(h)
		}
		if err != nil {
			return "", fmt.Sprintf("no URL: host %q is not a domain name (%v)", quote.Clip(host, 80), err)
		}
	} else {
		h = strings.ToLower(host)
	}
	if h == "" {
		return "", fmt.Sprintf("no URL: host %q is empty as a domain name", quote.Clip(host, 80))
	}

	for i := 0; i < len(h); i++ {
		if c := h[i]; c <= ' ' || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", fmt.Sprintf("no URL: host %q has the character %q, which no host has", quote.Clip(host, 80), c)
		}
	}
	if endsInNumber(h) {
		ip, ok := parseIPv4(h)
		if !ok {
			return "", fmt.Sprintf("no URL: host %q ends in a number but is no IPv4 address", quote.Clip(host, 80))
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
		return "", fmt.Sprintf("no URL: host %q is no IPv6 address", quote.Clip(host, 80))
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

// MaxBaseLen bounds a base URL (the document's, a <base href>, an
// xml:base), as written and resolved: every relative link's URL repeats
// its base, so a long one multiplies the links output. A page of one 8 KB
// <base href> and a million <a href=#> (15 MB) gave 8 GB of links; with
// 2 KiB, the links output is at most about 140 times the input. 2,048
// bytes is the bound sitemaps put on a URL, and about what browsers and
// crawlers have long taken (2,083); no real page's base comes near it.
const MaxBaseLen = 2 << 10
