package robotstxt

import (
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Encodings a body can be read in. Anything that is not UTF-16 is taken as
// UTF-8 bytes: robots.txt content is ASCII in practice, and invalid UTF-8 is
// kept byte for byte (patterns percent-encode it like any non-ASCII octet).
const (
	EncodingUTF8    = "UTF-8"
	EncodingUTF16LE = "UTF-16LE"
	EncodingUTF16BE = "UTF-16BE"
)

// ReadLimit is how many bytes of a body Parse can use under opts: the
// MaxBytes of text it reads come from at most twice as many bytes (UTF-16),
// after a byte order mark, and the encoding is sniffed from the first 512.
// A body that long or longer gives the same Robots as its first ReadLimit
// bytes, the warning that the rest is ignored included.
func ReadLimit(opts Options) int64 {
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return max(2*int64(maxBytes)+8, 512)
}

// ReadBody reads a robots.txt body from r for Parse or FromResponse: at
// most ReadLimit(opts) bytes, whatever r holds, so that memory does not
// grow with the file (a server may send gigabytes). The rest of r is left
// unread; Parse still sees that the file was longer and warns that the rest
// is ignored. Its error is r's, with what was read before it.
func ReadBody(r io.Reader, opts Options) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, ReadLimit(opts)))
}

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = [3]byte{0xEF, 0xBB, 0xBF}

// decodeBody turns the raw body into UTF-8 text of at most maxBytes bytes.
// It reports the encoding it read and whether text had to be cut.
func decodeBody(body []byte, maxBytes int) (text string, encoding string, cut bool) {
	switch {
	case len(body) >= 2 && body[0] == 0xFF && body[1] == 0xFE:
		return decodeUTF16(body[2:], false, maxBytes)
	case len(body) >= 2 && body[0] == 0xFE && body[1] == 0xFF:
		return decodeUTF16(body[2:], true, maxBytes)
	}
	if enc := sniffUTF16(body); enc != "" {
		return decodeUTF16(body, enc == EncodingUTF16BE, maxBytes)
	}
	// A UTF-8 BOM, or the first one or two bytes of one, is skipped: editors
	// and broken converters leave partial marks, and Google's parser skips
	// them the same way (the conformance cases hold files starting EF or EF BB).
	skip := 0
	for skip < len(utf8BOM) && skip < len(body) && body[skip] == utf8BOM[skip] {
		skip++
	}
	body = body[skip:]
	if len(body) > maxBytes {
		return string(body[:maxBytes]), EncodingUTF8, true
	}
	return string(body), EncodingUTF8, false
}

// sniffUTF16 recognises UTF-16 without a byte order mark by its NULs: ASCII
// text in UTF-16LE has a NUL at every odd offset, in UTF-16BE at every even
// one. It looks at the first 512 bytes only.
func sniffUTF16(body []byte) string {
	n := min(len(body), 512) &^ 1
	if n < 4 {
		return ""
	}
	var evenNUL, oddNUL int
	for i := 0; i < n; i += 2 {
		if body[i] == 0 {
			evenNUL++
		}
		if body[i+1] == 0 {
			oddNUL++
		}
	}
	pairs := n / 2
	switch {
	case oddNUL*10 >= pairs*7 && evenNUL*10 < pairs:
		return EncodingUTF16LE
	case evenNUL*10 >= pairs*7 && oddNUL*10 < pairs:
		return EncodingUTF16BE
	}
	return ""
}

// decodeUTF16 transcodes UTF-16 to UTF-8, replacing unpaired surrogates
// with U+FFFD and dropping an odd trailing byte.
func decodeUTF16(b []byte, bigEndian bool, maxBytes int) (string, string, bool) {
	enc := EncodingUTF16LE
	if bigEndian {
		enc = EncodingUTF16BE
	}
	unit := func(i int) rune {
		if bigEndian {
			return rune(b[i])<<8 | rune(b[i+1])
		}
		return rune(b[i+1])<<8 | rune(b[i])
	}
	out := make([]byte, 0, min(len(b), maxBytes+4))
	for i := 0; i+1 < len(b); i += 2 {
		r := unit(i)
		if utf16.IsSurrogate(r) && i+3 < len(b) {
			if pair := utf16.DecodeRune(r, unit(i+2)); pair != utf8.RuneError {
				r = pair
				i += 2
			} else {
				r = utf8.RuneError
			}
		} else if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		if len(out)+utf8.RuneLen(r) > maxBytes {
			return string(out), enc, true
		}
		out = utf8.AppendRune(out, r)
	}
	// Skip a BOM written twice or kept after a conversion.
	s := string(out)
	if len(s) >= 3 && s[:3] == string(utf8BOM[:]) {
		s = s[3:]
	}
	return s, enc, false
}
