package htmlstream

import "golang.org/x/net/html"

// The current token's text, tag name and attributes, as x/net's
// accessors give them: lower-cased, NUL and CR replaced, references
// decoded. Bytes returned borrow the window until the next call of Next.

// Text returns the data of a text, comment or doctype token, as x/net's
// Text does: "\r\n" and "\r" become "\n"; NUL becomes U+FFFD in raw
// text, CDATA and comments; character references are replaced except in
// raw text (script, style and the like). Like x/net's, a second call for
// the same token returns nothing. Valid until the next Next.
func (z *tokenizer) Text() []byte {
	if z.x != nil {
		return z.x.Text()
	}
	switch z.tt {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
	default:
		return nil
	}
	s := z.win[z.data.start:z.data.end]
	z.data = span{z.size, z.size}
	return z.clean(s, z.convertNUL || z.tt == html.CommentToken, !z.textIsRaw, false)
}

// TagName returns a tag's name in ASCII lower case, NUL replaced by
// U+FFFD, and whether it has attributes to read with TagAttr. Like x/net's,
// a second call for the same token returns nothing. Valid until the next
// Next.
func (z *tokenizer) TagName() (name []byte, hasAttr bool) {
	if z.x != nil {
		return z.x.TagName()
	}
	if z.data.start >= z.data.end {
		return nil, false
	}
	switch z.tt {
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
	default:
		return nil, false
	}
	s := z.win[z.data.start:z.data.end]
	z.data = span{z.size, z.size}
	return z.lowerName(s), z.attrsRead < len(z.attrs)
}

// tagNameAsIs returns the current tag's name as it stands in the input
// (TagName's is lower-cased, with NUL replaced), and whether the tag has
// attributes to read with TagAttr. Only for tags, before TagName; nil
// after the hand-over, where TagName has the name.
func (z *tokenizer) tagNameAsIs() (name []byte, hasAttr bool) {
	if z.x != nil {
		return nil, false
	}
	return z.win[z.data.start:z.data.end], len(z.attrs) > 0
}

// TagAttr returns a start tag's next attribute: its name as TagName's,
// its value with newlines normalised, NUL replaced by U+FFFD and character
// references replaced (by the rules for attribute values), and whether
// more follow. Valid until the next Next.
func (z *tokenizer) TagAttr() (key, val []byte, more bool) {
	if z.x != nil {
		return z.x.TagAttr()
	}
	if z.attrsRead >= len(z.attrs) || z.tt != html.StartTagToken && z.tt != html.SelfClosingTagToken {
		return nil, nil, false
	}
	a := z.attrs[z.attrsRead]
	z.attrsRead++
	key, val = z.attrKeyVal(a)
	return key, val, z.attrsRead < len(z.attrs)
}

// attrKeyVal returns an attribute's name and value as TagAttr does.
func (z *tokenizer) attrKeyVal(a attrSpan) (key, val []byte) {
	// Most keys are lower case and most values hold no reference: a look
	// here, and lowerName and clean only for those that change.
	key, val = z.win[a.key.start:a.key.end], z.win[a.val.start:a.val.end]
	for _, c := range key {
		if nameChanges[c] {
			key = z.lowerName(key)
			break
		}
	}
	if len(val) >= 8 { // a word at a time (URLs, most often)
		if hasTextSpecial(val) {
			val = z.clean(val, true, true, true)
		}
		return key, val
	}
	for _, c := range val {
		if textSpecial[c] {
			val = z.clean(val, true, true, true)
			break
		}
	}
	return key, val
}

// nameChanges marks the bytes lowerName changes.
var nameChanges = byteSet(func(c byte) bool { return c == 0 || 'A' <= c && c <= 'Z' })

// lowerName returns s in ASCII lower case with NUL replaced by U+FFFD,
// copying only when that changes it.
func (z *tokenizer) lowerName(s []byte) []byte {
	i := skip(s, 0, &nameChanges)
	if i == len(s) {
		return s
	}
	mark := len(z.out)
	out := append(z.out, s[:i]...)
	for _, c := range s[i:] {
		switch {
		case c == 0:
			out = append(out, "\uFFFD"...)
		case 'A' <= c && c <= 'Z':
			out = append(out, c+'a'-'A')
		default:
			out = append(out, c)
		}
	}
	z.out = out
	return out[mark:]
}

// Bytes on which clean changes the text, by what it does.
var (
	cleanCR        = byteSet(func(c byte) bool { return c == '\r' })
	cleanCRNUL     = byteSet(func(c byte) bool { return c == '\r' || c == 0 })
	cleanCRAmp     = byteSet(func(c byte) bool { return c == '\r' || c == '&' })
	cleanCRNULAmp  = byteSet(func(c byte) bool { return c == '\r' || c == 0 || c == '&' })
	cleanSpecial   = [2][2]*[256]bool{{&cleanCR, &cleanCRAmp}, {&cleanCRNUL, &cleanCRNULAmp}}
	replacementNUL = []byte("\uFFFD")
)

// clean returns s with "\r\n" and "\r" as "\n", and, as asked, NUL as
// U+FFFD and character references replaced, copying only when that
// changes it. x/net does these one after the other; none of them makes
// or breaks what another one acts on, so one pass does all three.
func (z *tokenizer) clean(s []byte, nul, unescape, attribute bool) []byte {
	special := cleanSpecial[b2i(nul)][b2i(unescape)]
	i := skip(s, 0, special)
	if i == len(s) {
		return s
	}
	mark := len(z.out)
	out := append(z.out, s[:i]...)
	for i < len(s) {
		c := s[i]
		if !special[c] {
			out = append(out, c)
			i++
			continue
		}
		switch c {
		case '\r':
			out = append(out, '\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case 0:
			out = append(out, replacementNUL...)
			i++
		case '&':
			out, i = z.appendCharRef(out, s, i, attribute)
		}
	}
	z.out = out
	return out[mark:]
}
