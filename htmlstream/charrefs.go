package htmlstream

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Character references (HTML Standard 13.2.5.72 onwards): numeric ones,
// the common named ones in a table, and the rest through x/net's entity
// map.

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendCharRef appends the character reference at s[i] ('&') replaced as
// x/net's unescape does, and returns where the text goes on. A reference
// is replaced on its own bytes alone ("&", then a number or a name, then
// perhaps ';'), except that in an attribute value a name without ';'
// followed by '=' is left alone; numbers and the most common names are
// decoded here, any other name by x/net (and remembered).
func (z *tokenizer) appendCharRef(out, s []byte, i int, attribute bool) ([]byte, int) {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		r, n := numericCharRef(s[i:])
		if n == 0 {
			return append(out, '&'), i + 1
		}
		if r < 0 {
			return append(out, z.rareCharRef(s[i:i+n], false)...), i + n
		}
		return utf8.AppendRune(out, r), i + n
	}
	for j < len(s) && isASCIIAlnum(s[j]) {
		j++
	}
	if j == i+1 {
		return append(out, '&'), i + 1
	}
	semicolon := j < len(s) && s[j] == ';'
	if semicolon {
		j++
	} else if attribute && j < len(s) && s[j] == '=' {
		return append(out, s[i:j]...), j
	}
	if v, ok := commonCharRef(s[i+1 : j]); ok {
		return append(out, v...), j
	}
	return append(out, z.rareCharRef(s[i:j], attribute)...), j
}

func isASCIIAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// numericCharRef decodes "&#digits" or "&#xhex", with perhaps ';', at
// the start of s. n is 0 when no digit follows (no reference). r is -1
// for the numbers 0x80 to 0x9F, which stand for Windows-1252 characters
// (left to x/net's table).
func numericCharRef(s []byte) (r rune, n int) {
	i := 2
	hex := i < len(s) && s[i]|0x20 == 'x'
	if hex {
		i++
	}
	digits := i
	for ; i < len(s); i++ {
		c := s[i]
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case hex && 'a' <= c|0x20 && c|0x20 <= 'f':
			d = rune(c|0x20-'a') + 10
		default:
			goto done
		}
		if r <= utf8.MaxRune {
			if hex {
				r = r*16 + d
			} else {
				r = r*10 + d
			}
		}
	}
done:
	if i == digits {
		return 0, 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	switch {
	case 0x80 <= r && r <= 0x9F:
		return -1, i
	case r == 0, 0xD800 <= r && r <= 0xDFFF, r > utf8.MaxRune:
		return utf8.RuneError, i
	}
	return r, i
}

// commonCharRef decodes the named references that make up most of those
// on real pages (name is what follows '&', with its ';' if any). Each is
// in x/net's table with the same value (a test checks), so the lookup
// x/net does first would find it.
func commonCharRef(name []byte) (string, bool) {
	switch string(name) {
	case "amp;", "amp":
		return "&", true
	case "lt;", "lt":
		return "<", true
	case "gt;", "gt":
		return ">", true
	case "quot;", "quot":
		return `"`, true
	case "apos;":
		return "'", true
	case "nbsp;", "nbsp":
		return "\u00a0", true
	case "copy;", "copy":
		return "©", true
	case "reg;", "reg":
		return "®", true
	case "middot;", "middot":
		return "·", true
	case "raquo;", "raquo":
		return "»", true
	case "laquo;", "laquo":
		return "«", true
	case "hellip;":
		return "…", true
	case "mdash;":
		return "—", true
	case "ndash;":
		return "–", true
	case "lsquo;":
		return "‘", true
	case "rsquo;":
		return "’", true
	case "ldquo;":
		return "“", true
	case "rdquo;":
		return "”", true
	case "bull;":
		return "•", true
	case "trade;":
		return "™", true
	case "euro;":
		return "€", true
	}
	return "", false
}

// rareCharRef decodes a character reference by x/net's own code and
// table, remembering short ones. Text references go through
// html.UnescapeString; attribute values have their own rules (no prefix
// of a longer name is a reference), which only x/net's tokenizer applies,
// so a one-attribute tag carries the reference there (it has no quote).
func (z *tokenizer) rareCharRef(ref []byte, attribute bool) string {
	mode := b2i(attribute)
	if v, ok := z.refs[mode][string(ref)]; ok {
		return v
	}
	var v string
	if attribute {
		x := html.NewTokenizer(strings.NewReader(`<a v="` + string(ref) + `">`))
		x.Next()
		_, val, _ := x.TagAttr()
		v = string(val)
	} else {
		v = html.UnescapeString(string(ref))
	}
	if len(ref) <= maxCachedRef {
		if z.refs[mode] == nil {
			z.refs[mode] = make(map[string]string)
		} else if len(z.refs[mode]) >= 256 {
			clear(z.refs[mode])
		}
		z.refs[mode][string(ref)] = v
	}
	return v
}
