package robotstxt

import (
	"bytes"

	"github.com/robofilter/robofilter/internal/ascii"
)

// normalizer says how a mode rewrites URLs and patterns before comparing them.
type normalizer uint8

const (
	// normRFC is RFC 9309's percent-normalisation, applied to both sides:
	// octets that may not stand bare in a URL (non-ASCII, controls, space,
	// `"<>\^{|}` and a stray "%") are percent-encoded, escapes of unreserved
	// characters are decoded and hex digits are upper-cased, so
	// /%7Euser, /~user and /%7euser are one path and /ツ is /%E3%83%84.
	// In a pattern "*" is the wildcard and a final "$" the end (section
	// 2.2.3), so a literal "*" or "$" is written %2A or %24 there: a URL's
	// own "*" and "$" are compared as %2A and %24 (the RFC's example: the
	// pattern /path/file-with-a-%2A.html matches /path/file-with-a-*.html),
	// and so is a "$" that does not end a pattern, which no reader takes
	// for the end.
	normRFC normalizer = iota
	// normGoogle is what Google's matcher does: patterns get non-ASCII octets
	// encoded and hex digits upper-cased, URLs are compared as given.
	normGoogle
	// normV1 is the 1996 draft's rule: %XX escapes are decoded on both sides
	// before comparing, except %2F, which must match exactly (it is not "/"),
	// and %25, which stays so that "%2F" cannot be spelled by decoding.
	normV1
)

const upperHex = "0123456789ABCDEF"

var (
	// rfcLiteral marks the octets RFC 3986 lets stand bare in a path or
	// query: unreserved, sub-delims, ":", "@", "/", "?" and the brackets;
	// but "$" (sub-delims), which a pattern keeps bare only at its end,
	// and which is otherwise %24 (normRFC).
	rfcLiteral [256]bool
	// rfcPathLiteral is rfcLiteral without "*", which a URL path has
	// encoded as %2A: a pattern's bare "*" is its wildcard.
	rfcPathLiteral [256]bool
	// unreserved marks RFC 3986's unreserved characters, whose escapes mean
	// the same as the characters themselves.
	unreserved [256]bool
)

func init() {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~") {
		unreserved[c] = true
		rfcLiteral[c] = true
	}
	for _, c := range []byte("!&'()*+,;=:@/?[]") {
		rfcLiteral[c] = true
	}
	rfcPathLiteral = rfcLiteral
	rfcPathLiteral['*'] = false
}

func toUpperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// escapeAt reports whether s holds a %XX escape at i.
func escapeAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && ascii.IsHexDigit(s[i+1]) && ascii.IsHexDigit(s[i+2])
}

// appendPath appends the normalised form of a URL path (with its query).
func (n normalizer) appendPath(dst []byte, s string) []byte {
	switch n {
	case normRFC:
		return appendRFC(dst, s, &rfcPathLiteral, false)
	case normV1:
		return appendV1(dst, s)
	}
	return append(dst, s...)
}

// pattern returns the normalised form of a rule's pattern.
func (n normalizer) pattern(s string) string {
	if n.unchanged(s) {
		return s
	}
	return string(n.appendPattern(nil, s))
}

// appendPattern appends the normalised form of a rule's pattern.
func (n normalizer) appendPattern(dst []byte, s string) []byte {
	switch {
	case n.unchanged(s):
		return append(dst, s...)
	case n == normRFC:
		return appendRFC(dst, s, &rfcLiteral, true)
	case n == normV1:
		return appendV1(dst, s)
	}
	return appendGooglePattern(dst, s)
}

// unchanged reports, cheaply, that normalising s would give s back.
func (n normalizer) unchanged(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' || c >= 0x80:
			return false
		case n == normRFC && !rfcLiteral[c] && (c != '$' || i < len(s)-1):
			return false
		}
	}
	return true
}

// appendRFC appends s normalised for normRFC: the octets literal marks
// stay bare, and so does a final "$" in a pattern (endAnchor).
func appendRFC(dst []byte, s string, literal *[256]bool, endAnchor bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if literal[c] || c == '$' && endAnchor && i == len(s)-1 {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch {
		case escapeAt(s, i):
			b := ascii.Unhex(s[i+1])<<4 | ascii.Unhex(s[i+2])
			if unreserved[b] {
				dst = append(dst, b)
			} else {
				dst = append(dst, '%', toUpperASCII(s[i+1]), toUpperASCII(s[i+2]))
			}
			i += 3
		default:
			// Includes a "%" that starts no escape: it stands for itself, %25.
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
			i++
		}
		start = i
	}
	return append(dst, s[start:]...)
}

// appendV1 decodes escapes but %2F; a "%" stays encoded, as %25, whether
// escaped or bare, so that an encoded slash and the text "%2F" (%252F)
// stay apart.
func appendV1(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		dst = append(dst, s[start:i]...)
		start = i + 1
		if !escapeAt(s, i) {
			dst = append(dst, "%25"...)
			continue
		}
		switch b := ascii.Unhex(s[i+1])<<4 | ascii.Unhex(s[i+2]); b {
		case '/':
			dst = append(dst, "%2F"...)
		case '%':
			dst = append(dst, "%25"...)
		default:
			dst = append(dst, b)
		}
		i += 2
		start = i + 1
	}
	return append(dst, s[start:]...)
}

func appendGooglePattern(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case escapeAt(s, i):
			dst = append(dst, '%', toUpperASCII(s[i+1]), toUpperASCII(s[i+2]))
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// pattern is a compiled path pattern. It matches a path when the path starts
// with head and the rest matches the tail: when star is set, the segments
// must occur in order (each "*" between them matching any run of bytes);
// when anchored, the match must reach the end of the path.
//
// Matching is greedy and leftmost, which is exact for patterns whose only
// wildcard is "*": taking each segment at its earliest place leaves the most
// room for the next. Each segment is searched once from where the previous
// one ended, so the time is linear in the path, whatever the pattern
// (no backtracking, no regular expressions).
type pattern struct {
	head     []byte
	segs     [][]byte
	star     bool
	anchored bool
}

// literalPattern matches every path that starts with p (or, anchored, is p).
// The pattern keeps p: the caller must not change it.
func literalPattern(p []byte, anchored bool) pattern {
	return pattern{head: p, anchored: anchored}
}

// wildcardPattern compiles RFC 9309 syntax: "*" anywhere, "$" at the end.
// The pattern keeps slices of p: the caller must not change it.
func wildcardPattern(p []byte) pattern {
	anchored := bytes.HasSuffix(p, []byte("$"))
	if anchored {
		p = p[:len(p)-1]
	}
	k := bytes.IndexByte(p, '*')
	if k < 0 {
		return literalPattern(p, anchored)
	}
	pt := pattern{head: p[:k:k], star: true}
	if n := bytes.Count(p[k+1:], []byte("*")); n > 0 {
		pt.segs = make([][]byte, 0, n+1)
	}
	for rest := p[k+1:]; len(rest) > 0; {
		j := bytes.IndexByte(rest, '*')
		if j < 0 {
			j = len(rest)
		}
		if j > 0 {
			pt.segs = append(pt.segs, rest[:j:j])
		}
		rest = rest[min(j+1, len(rest)):]
	}
	// After a final "*" the "$" adds nothing: the star already reaches the end.
	pt.anchored = anchored && !bytes.HasSuffix(p, []byte("*"))
	return pt
}

func (p *pattern) match(path []byte) bool {
	return bytes.HasPrefix(path, p.head) && p.matchTail(path[len(p.head):])
}

// matchTail matches what follows head.
func (p *pattern) matchTail(t []byte) bool {
	if !p.star {
		return !p.anchored || len(t) == 0
	}
	last := len(p.segs) - 1
	for k, seg := range p.segs {
		if p.anchored && k == last {
			// Comparing the last byte first rejects most paths without a call.
			return len(t) >= len(seg) && t[len(t)-1] == seg[len(seg)-1] && bytes.HasSuffix(t, seg)
		}
		j := bytes.Index(t, seg)
		if j < 0 {
			return false
		}
		t = t[j+len(seg):]
	}
	return true
}
