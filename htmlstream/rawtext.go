package htmlstream

import "golang.org/x/net/html"

// Raw text: the contents of script, style, textarea, title and the other
// elements whose text runs to their end tag (HTML Standard 13.2.5.2 to
// 13.2.5.29), with script's escape states.

// scanRawText scans the token after a start tag whose content is raw
// text. It reports false when the input ends or fails inside a token
// (text aside), or when the token reaches the size limit.
func (z *tokenizer) scanRawText() (html.TokenType, bool) {
	if z.rawTag == "plaintext" {
		for searched := 0; ; {
			if n := len(z.win); z.piece > 0 && n >= z.piece {
				if p := z.textCut(z.win, searched, n, rawPieces); p > 0 {
					return z.textPiece(p, true, true) // the next token goes on with it
				}
				searched = n
			}
			if !z.more(len(z.win) + 1) {
				return z.textToEnd(true, true)
			}
		}
	}
	var end, cut int
	var ok bool
	if z.rawTag == "script" {
		end, cut, ok = z.scanRawPiece(z.scanScript)
		z.textIsRaw = true
	} else {
		end, cut, ok = z.scanRawPiece(z.scanRawTextEnd)
		z.textIsRaw = z.rawTag != "textarea" && z.rawTag != "title"
	}
	if cut > 0 {
		z.scriptState = z.resumeState
		return z.textPiece(cut, z.textIsRaw, true)
	}
	escaped := z.scriptState != scriptData
	z.rawTag, z.scriptState = "", scriptData
	if !ok {
		tt, ok := z.textToEnd(z.textIsRaw, true)
		if !ok && escaped {
			// Past the limit with no piece to end: x/net cannot be put in
			// a script's escape, so this is the limit's error here.
			return z.tagCutShort()
		}
		return tt, ok
	}
	if end > 0 {
		z.size, z.data, z.convertNUL = end, span{0, end}, true
		z.plain = !hasTextSpecial(z.win[:end])
		return html.TextToken, true
	}
	// No raw text: the end tag follows at once, read as usual.
	z.textIsRaw = false
	return z.scanData()
}

// textToEnd makes a text token of everything left, as x/net does when the
// input ends in text; the next token is the error. It reports false (hand
// over) when the token reaches the size limit instead.
func (z *tokenizer) textToEnd(textIsRaw, convertNUL bool) (html.TokenType, bool) {
	n := len(z.buf) - z.start
	if z.readErr == nil || z.maxBuf > 0 && n >= z.maxBuf {
		return 0, false
	}
	z.err = z.readErr
	if n == 0 {
		return html.ErrorToken, true
	}
	z.size, z.data = n, span{0, n}
	z.textIsRaw, z.convertNUL = textIsRaw, convertNUL
	z.plain = !hasTextSpecial(z.buf[z.start:])
	return html.TextToken, true
}

// setRawTag makes the next token raw text when this start tag's name is
// one of the elements whose content is not markup.
func (z *tokenizer) setRawTag() {
	name := z.win[z.data.start:z.data.end]
	var candidates []string
	switch len(name) {
	case 3:
		candidates = rawText3
	case 5:
		candidates = rawText5
	case 6:
		candidates = rawText6
	case 7:
		candidates = rawText7
	case 8:
		candidates = rawText8
	case 9:
		candidates = rawText9
	}
	for _, e := range candidates {
		if isName(name, e) {
			z.rawTag = e
			return
		}
	}
}

// isName reports whether name is lower, an ASCII lower-case name, in any
// case.
func isName(name []byte, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// rawTextLengths has, for the first letter of each element whose content
// is raw text (in lower case), a bit for the length of its name: most
// start tags are no such element by these two bytes alone.
var rawTextLengths = func() (lengths [256]uint16) {
	for _, names := range [][]string{rawText3, rawText5, rawText6, rawText7, rawText8, rawText9} {
		for _, e := range names {
			lengths[e[0]] |= 1 << len(e)
		}
	}
	return lengths
}()

// The elements whose content is raw text, by the length of their names.
var (
	rawText3 = []string{"xmp"}
	rawText5 = []string{"style", "title"}
	rawText6 = []string{"iframe", "script"}
	rawText7 = []string{"noembed"}
	rawText8 = []string{"noframes", "noscript", "textarea"}
	rawText9 = []string{"plaintext"}
)

// rawEndTag reports whether name (in either case) and a byte that ends a
// tag name stand at i, as x/net's readRawEndTag. next is where to read on:
// just after that byte, or else the first byte that differs.
func (z *tokenizer) rawEndTag(i int, name string) (match bool, next int, ok bool) {
	for j := 0; j < len(name); j++ {
		c, ok := z.byteAt(i + j)
		if !ok {
			return false, 0, false
		}
		if c != name[j] && c != name[j]-('a'-'A') {
			return false, i + j, true
		}
	}
	i += len(name)
	c, ok := z.byteAt(i)
	if !ok {
		return false, 0, false
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return true, i + 1, true
	}
	return false, i, true
}

// findTagOpen finds the next '<' at or after i and the byte after it,
// reading as needed; false as for more.
func (z *tokenizer) findTagOpen(i int) (lt int, next byte, ok bool) {
	if lt, ok = z.find(i, '<'); !ok {
		return 0, 0, false
	}
	next, ok = z.byteAt(lt + 1)
	return lt, next, ok
}

// scanRawTextEnd finds the end of RAWTEXT or RCDATA: the element's end
// tag. It returns the length of the text before it.
func (z *tokenizer) scanRawTextEnd() (int, bool) {
	name := z.rawTag
	i := 0
	z.resumeState = scriptData
	for {
		z.resumeAt = i
		lt, c, ok := z.findTagOpen(i)
		if !ok {
			return 0, false
		}
		if c != '/' {
			i = lt + 1
			continue
		}
		match, next, ok := z.rawEndTag(lt+2, name)
		if !ok {
			return 0, false
		}
		if match {
			return lt, true
		}
		i = next
	}
}

// The states of script data that scanScript keeps between bytes
// (WHATWG 13.2.5, as x/net implements them).
const (
	scriptData = iota
	scriptEscaped
	scriptEscapedDash
	scriptEscapedDashDash
	scriptDoubleEscaped
	scriptDoubleEscapedDash
	scriptDoubleEscapedDashDash
)

// scanScript finds the end of a script's text: its end tag, which
// "<!--" and a "<script" inside it can hide. It returns the length of
// the text before the end tag.
func (z *tokenizer) scanScript() (int, bool) {
	i, state := 0, z.scriptState
	for {
		z.resumeAt, z.resumeState = i, state
		if state == scriptData {
			lt, c, ok := z.findTagOpen(i)
			if !ok {
				return 0, false
			}
			i = lt + 1
			switch c {
			case '/':
				match, next, ok := z.rawEndTag(lt+2, "script")
				if !ok {
					return 0, false
				}
				if match {
					return lt, true
				}
				i = next
			case '!':
				// "<!--" escapes; anything else is read again as script data.
				for j := 2; j < 4; j++ {
					c, ok := z.byteAt(lt + j)
					if !ok {
						return 0, false
					}
					if c != '-' {
						i = lt + j
						break
					}
				}
				if i == lt+1 {
					i, state = lt+4, scriptEscapedDashDash
				}
			}
			continue
		}
		if state == scriptEscaped || state == scriptDoubleEscaped {
			var ok bool
			if i, ok = z.skipUntil(i, &dashOrLT); !ok {
				return 0, false
			}
		}
		c, ok := z.byteAt(i)
		if !ok {
			return 0, false
		}
		i++
		double := state >= scriptDoubleEscaped
		switch c {
		case '-':
			switch state {
			case scriptEscaped:
				state = scriptEscapedDash
			case scriptEscapedDash:
				state = scriptEscapedDashDash
			case scriptDoubleEscaped:
				state = scriptDoubleEscapedDash
			case scriptDoubleEscapedDash:
				state = scriptDoubleEscapedDashDash
			}
		case '>':
			switch state {
			case scriptEscapedDashDash, scriptDoubleEscapedDashDash:
				state = scriptData
			case scriptEscapedDash:
				state = scriptEscaped
			case scriptDoubleEscapedDash:
				state = scriptDoubleEscaped
			}
		case '<':
			lt := i - 1
			c, ok := z.byteAt(i)
			if !ok {
				return 0, false
			}
			switch {
			case c == '/':
				match, next, ok := z.rawEndTag(lt+2, "script")
				if !ok {
					return 0, false
				}
				switch {
				case !double && match:
					return lt, true
				case !double:
					i, state = next, scriptEscaped
				case match:
					// "</script>" ends the double escape; x/net steps
					// over it and its delimiter.
					i, state = next, scriptEscaped
				default:
					i, state = next, scriptDoubleEscaped
				}
			case double:
				state = scriptDoubleEscaped
			case isASCIILetter(c):
				match, next, ok := z.rawEndTag(i, "script")
				if !ok {
					return 0, false
				}
				if match {
					i, state = next, scriptDoubleEscaped
				} else {
					i, state = next, scriptEscaped
				}
			default:
				// x/net reads on in script data here, not escaped.
				state = scriptData
			}
		default:
			if double {
				state = scriptDoubleEscaped
			} else {
				state = scriptEscaped
			}
		}
	}
}
