package htmlstream

import (
	"bytes"

	"golang.org/x/net/html"
)

// The tokenizer's states for data, tags, attributes, comments, markup
// declarations and CDATA sections (HTML Standard 13.2.5), as
// golang.org/x/net/html's Tokenizer draws their tokens.

// tagCutShort ends a tag that the end of the input, or the size limit,
// cut short as x/net does: with an error token (of every byte left, at
// the end of the input). It does not hand over: x/net would read the
// tag's attributes again and keep them all, at about forty times their
// size in memory for millions of short ones.
func (z *tokenizer) tagCutShort() (html.TokenType, bool) {
	if z.maxBuf > 0 {
		// x/net fails the token once it has read maxBuf bytes of it.
		for z.readErr == nil && len(z.buf)-z.start < z.maxBuf {
			z.fill()
		}
	}
	z.size, z.err = len(z.buf)-z.start, z.readErr
	if z.maxBuf > 0 && z.size >= z.maxBuf {
		z.size, z.err = z.maxBuf, html.ErrBufferExceeded
		// Its bytes may end inside a character that checkUTF8 found
		// whole.
		z.utf8Checked = min(z.utf8Checked, z.start)
	}
	z.win = z.buf[z.start : z.start+z.size]
	return html.ErrorToken, true
}

// scanData scans a token in the data state: text up to the next tag,
// comment or the like, or that construct.
func (z *tokenizer) scanData() (html.TokenType, bool) {
	win, lt := z.win, 0
	// plain: no byte that textSpecial marks in win[:lt], as far as
	// indexLT looked; it looks at all of them until the window ends.
	plain, looked := true, true
	searched := 0 // for a place to end a piece (findTextEnd)
	for {
		if lt < len(win) && win[lt] == '<' {
			// Most tokens after text start here.
		} else if k := indexLT(win, lt, &plain); k >= 0 {
			z.examined += k - lt
			lt = k
		} else {
			z.examined += len(win) - lt
			plain, looked = false, false // the text is looked at once it ends
			var cut int
			var ok bool
			if lt, cut, ok = z.findTextEnd(len(win), &searched); !ok {
				return z.textToEnd(false, false)
			} else if cut > 0 {
				return z.textPiece(cut, false, false)
			}
			win = z.win
		}
		if lt+1 == len(win) {
			if z.piece > 0 && lt >= z.piece && lt > searched {
				// A '<' last in a window as long as a piece: a piece may
				// end before it (a run of '<' that open nothing never
				// leaves this loop for findTextEnd).
				if p := z.textCut(win, searched, lt, textPieces); p > 0 {
					return z.textPiece(p, false, false)
				}
				searched = lt
			}
			if !z.more(lt + 2) {
				if z.readErr == nil && z.piece > 0 && lt >= z.piece {
					// The limit, with a '<' last: a piece ends before it.
					if p := z.textCut(win, 0, lt, textPieces); p > 0 {
						return z.textPiece(p, false, false)
					}
				}
				return z.textToEnd(false, false)
			}
			win = z.win
		}
		c := win[lt+1]
		if !opensMarkup[c] {
			lt++
			continue
		}
		if lt > 0 {
			if !looked {
				plain = !hasTextSpecial(win[:lt])
			}
			z.size, z.data, z.plain = lt, span{0, lt}, plain
			return html.TextToken, true
		}
		switch c {
		case '!':
			return z.scanMarkupDecl()
		case '?':
			return z.scanBogusComment(1)
		case '/':
			if len(win) > 2 && isASCIILetter(win[2]) {
				return z.scanTag(2, true)
			}
			return z.scanEndTag()
		}
		return z.scanTag(1, false)
	}
}

// scanEndTag scans what starts with "</".
func (z *tokenizer) scanEndTag() (html.TokenType, bool) {
	if len(z.win) < 3 && !z.more(3) {
		return 0, false
	}
	switch c := z.win[2]; {
	case c == '>':
		// "</>" is no token in HTML; x/net returns it as an empty comment
		// so that Raw() still covers it.
		z.size = 3
		return html.CommentToken, true
	case isASCIILetter(c):
		return z.scanTag(2, true)
	}
	return z.scanBogusComment(2)
}

// scanBogusComment scans a comment whose data runs from i to the next '>'.
func (z *tokenizer) scanBogusComment(i int) (html.TokenType, bool) {
	gt, ok := z.find(i, '>')
	if !ok {
		return 0, false
	}
	z.size, z.data = gt+1, span{i, gt}
	return html.CommentToken, true
}

// scanMarkupDecl scans what starts with "<!": a comment, a doctype, a
// CDATA section (when allowed) or a bogus comment.
func (z *tokenizer) scanMarkupDecl() (html.TokenType, bool) {
	// x/net reads the two bytes after "<!" before deciding.
	if !z.more(4) {
		return 0, false
	}
	if z.win[2] == '-' && z.win[3] == '-' {
		return z.scanComment()
	}
	if match, ok := z.keyword(2, "DOCTYPE", true); !ok {
		return 0, false
	} else if match {
		i, ok := z.skipUntil(2+len("DOCTYPE"), &notSpace)
		if !ok {
			return 0, false
		}
		gt, ok := z.find(i, '>')
		if !ok {
			return 0, false
		}
		z.size, z.data = gt+1, span{i, gt}
		return html.DoctypeToken, true
	}
	if z.allowsCDATA() {
		if match, ok := z.keyword(2, "[CDATA[", false); !ok {
			return 0, false
		} else if match {
			return z.scanCDATA(2 + len("[CDATA["))
		}
	}
	return z.scanBogusComment(2)
}

// keyword reports whether kw stands at i (upper or lower case letters for
// each upper-case one when fold), reading only up to the first byte that
// differs, as x/net does.
func (z *tokenizer) keyword(i int, kw string, fold bool) (match, ok bool) {
	for j := 0; j < len(kw); j++ {
		c, ok := z.byteAt(i + j)
		if !ok {
			return false, false
		}
		if c != kw[j] && !(fold && c == kw[j]+('a'-'A')) {
			return false, true
		}
	}
	return true, true
}

// scanCDATA scans a CDATA section's data, from i to "]]>"; x/net returns
// it as text.
func (z *tokenizer) scanCDATA(i int) (html.TokenType, bool) {
	from := i
	for {
		gt, ok := z.find(i, '>')
		if !ok {
			return 0, false
		}
		if gt-2 >= from && z.win[gt-1] == ']' && z.win[gt-2] == ']' {
			z.size, z.data, z.convertNUL = gt+1, span{from, gt - 2}, true
			return html.TextToken, true
		}
		i = gt + 1
	}
}

// scanComment scans a comment after "<!--". It ends at the first '>'
// that follows "--" or "--!", or only dashes since the data began
// ("<!-->", "<!--->"); the data stops before those.
func (z *tokenizer) scanComment() (html.TokenType, bool) {
	return z.scanCommentFrom(len("<!--"))
}

// scanCommentFrom scans a comment whose data starts at from: after "<!--",
// or at 0 in a piece that goes on with a comment (commentCont).
func (z *tokenizer) scanCommentFrom(from int) (html.TokenType, bool) {
	cont := from == 0
	z.commentCont = false
	limit := z.piece
	if limit > 0 {
		limit = max(limit, minCommentPiece)
	}
	for ; ; limit *= 2 {
		last := limit > 0 && z.lastCap(&limit)
		z.pieceCap, z.capped = limit, false
		tt, ok := z.scanCommentEnd(from, cont)
		z.pieceCap = 0
		switch {
		case ok:
			z.commentPiece = cont
			return tt, true
		case z.capped:
			if p := z.textCut(z.win, from, len(z.win), commentPieces); p > from {
				z.size, z.data = p, span{from, p}
				z.commentCont, z.commentPiece = true, true
				return html.CommentToken, true
			}
			if !last {
				continue
			}
			if cont {
				return z.commentPieceCutShort() // the limit's error
			}
			return 0, false
		case cont:
			// x/net cannot be put inside a comment: end it here.
			return z.commentPieceCutShort()
		default:
			return 0, false
		}
	}
}

// scanCommentEnd finds the end of the comment whose data starts at from
// (see scanCommentFrom).
func (z *tokenizer) scanCommentEnd(from int, cont bool) (html.TokenType, bool) {
	// lead: the run of dashes the data starts with ends here; a piece
	// that goes on with a comment has none.
	lead := from
	if cont {
		lead = -1
	}
	for i := from; ; {
		gt, ok := z.find(i, '>')
		if !ok {
			return 0, false
		}
		win := z.win
		for lead >= 0 && lead < gt && win[lead] == '-' {
			lead++
		}
		dataEnd := -1
		switch {
		case lead == gt, gt-2 >= from && win[gt-1] == '-' && win[gt-2] == '-':
			dataEnd = max(gt-2, from)
		case gt-3 >= from && win[gt-1] == '!' && win[gt-2] == '-' && win[gt-3] == '-':
			dataEnd = gt - 3
		}
		if dataEnd >= 0 {
			z.size, z.data = gt+1, span{from, dataEnd}
			return html.CommentToken, true
		}
		i = gt + 1
	}
}

// scanTag scans a start tag (or an end tag) whose name starts at i, after
// "<" (or "</"), by x/net's rules: the name runs to white space, '/' or
// '>'; each attribute is a name (a leading '=' is part of it) and perhaps
// '=' and a value, quoted or not; a '/' where a name would start is
// skipped; only the first of attributes with the same name (in ASCII
// lower case) is kept, and none of an end tag's.
func (z *tokenizer) scanTag(i int, end bool) (html.TokenType, bool) {
	win, ok := z.win, true
	nameStart := i
	if i = skip(win, i+1, &tagNameEnd); i == len(win) {
		if i, ok = z.skipUntil(i, &tagNameEnd); !ok {
			return z.tagCutShort()
		}
		win = z.win
	}
	z.data = span{nameStart, i}
	z.dropped, z.droppedKey = 0, 0
	if isTagSpace(win[i]) {
		i++
	}
	for {
		if i = skip(win, i, &notSpace); i == len(win) {
			if i, ok = z.skipUntil(i, &notSpace); !ok {
				return z.tagCutShort()
			}
			win = z.win
		}
		if win[i] == '>' {
			i++
			break
		}
		var a attrSpan
		if i, a, ok = z.scanAttr(i); !ok {
			return z.tagCutShort()
		}
		win = z.win
		switch {
		case end || a.key.start == a.key.end:
		case len(z.attrs) == 0:
			z.attrs = append(z.attrs, a) // no name before it to be the same
			z.lastValEnd = a.val.end
		default:
			z.keepAttr(a)
		}
	}
	z.size = i
	if end {
		return html.EndTagToken, true
	}
	if n := z.data.end - z.data.start; n < 16 && rawTextLengths[win[z.data.start]|0x20]>>n&1 != 0 {
		z.setRawTag()
	}
	// "/>" closes the tag unless that '/' is the last byte of the last
	// attribute's unquoted value (<a href=/>), of the last one x/net keeps:
	// past maxKeptAttrs, a dropped one that repeats an earlier name is not.
	if win[i-2] == '/' && (len(z.attrs) == 0 || i-2 != z.lastValEnd-1 ||
		z.dropped > 0 && z.lastValEnd == z.lastDropped.val.end && z.repeatsDroppedName(z.data.end, z.lastDropped)) {
		return html.SelfClosingTagToken, true
	}
	return html.StartTagToken, true
}

// scanAttr scans an attribute at i and returns where the tag goes on.
func (z *tokenizer) scanAttr(i int) (int, attrSpan, bool) {
	win, ok := z.win, true
	keyStart := i
	if win[i] == '=' {
		i++
	}
	if i = skip(win, i, &attrKeyEnd); i == len(win) {
		if i, ok = z.skipUntil(i, &attrKeyEnd); !ok {
			return 0, attrSpan{}, false
		}
		win = z.win
	}
	a := attrSpan{key: span{keyStart, i}, val: span{i, i}}
	j := i
	if j = skip(win, j, &notSpace); j == len(win) {
		if j, ok = z.skipUntil(j, &notSpace); !ok {
			return 0, a, false
		}
		win = z.win
	}
	switch win[j] {
	case '/':
		return j + 1, a, true
	case '=':
	default:
		return j, a, true
	}
	if j = skip(win, j+1, &notSpace); j == len(win) {
		if j, ok = z.skipUntil(j, &notSpace); !ok {
			return 0, a, false
		}
		win = z.win
	}
	switch q := win[j]; q {
	case '>':
		return j, a, true
	case '"', '\'':
		e := j + 1
		if k := bytes.IndexByte(win[e:], q); k >= 0 {
			e += k
		} else if e, ok = z.find(len(win), q); !ok {
			return 0, a, false
		}
		a.val = span{j + 1, e}
		return e + 1, a, true
	}
	e := skip(win, j+1, &unquotedEnd)
	if e == len(win) {
		if e, ok = z.skipUntil(e, &unquotedEnd); !ok {
			return 0, a, false
		}
		win = z.win
	}
	a.val = span{j, e}
	if win[e] == '>' {
		return e, a, true
	}
	return e + 1, a, true
}
