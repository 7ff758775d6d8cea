package main

import (
	"bytes"
	"html"
	"strings"
)

// The overlay's reading of the page's bytes as they are written: where
// tags, attributes, comments and raw text begin and end, so that marks go
// where the browser will render them and never inside markup.

type scanState uint8

const (
	sData      scanState = iota
	sTagOpen             // after '<'
	sEndOpen             // after "</"
	sMarkup              // after "<!"
	sTag                 // a start tag, after its name's first letter
	sEndTag              // an end tag
	sComment             // after "<!--"
	sBogus               // a bogus comment or doctype, to '>'
	sCDATA               // a CDATA section, to "]]>"
	sRaw                 // raw text (script, style, textarea, title…)
	sPlaintext           // after <plaintext>: all text
)

type attrState uint8

const (
	aName attrState = iota // the tag name
	aBeforeName
	aAttrName
	aAfterName
	aBeforeValue
	aValueDQ
	aValueSQ
	aValueUnquoted
	aAfterValue
	aSelfClosing
)

type commentState uint8

const (
	cStart commentState = iota
	cStartDash
	cBody
	cEndDash
	cEnd
	cEndBang
)

// markup decides what a "<!" starts, once its first bytes tell.
func (o *overlay) markup() {
	rest := o.tok[2:]
	switch {
	case bytes.HasPrefix(rest, []byte("--")):
		o.notDrawnHere("")
		o.outBytes(o.tok)
		o.comment, o.st = cStart, sComment
	case len(rest) > 0 && (rest[0] == 'd' || rest[0] == 'D'):
		if len(rest) < len("doctype") && hasPrefixFold(string(rest), "doctype"[:len(rest)]) {
			return
		}
		o.outBytes(o.tok)
		o.st = sBogus
		if rest[len(rest)-1] == '>' {
			o.st = sData
		}
	case len(rest) > 0 && rest[0] == '[' && o.foreign > 0:
		if len(rest) < len("[CDATA[") && string(rest) == "[CDATA["[:len(rest)] {
			return
		}
		o.outBytes(o.tok)
		if string(rest) == "[CDATA[" {
			o.cdataEnd, o.st = 0, sCDATA
		} else {
			o.st = sBogus
		}
	case len(rest) == 1 && rest[0] == '-':
		return // one more byte tells
	default:
		o.notDrawnHere("")
		o.outBytes(o.tok)
		o.st = sBogus
		if rest[len(rest)-1] == '>' {
			o.st = sData
		}
	}
}

// commentByte follows a comment to its end (HTML's comment states).
func (o *overlay) commentByte(c byte) {
	switch o.comment {
	case cStart:
		switch c {
		case '-':
			o.comment = cStartDash
		case '>':
			o.st = sData
		default:
			o.comment = cBody
		}
	case cStartDash:
		switch c {
		case '-':
			o.comment = cEnd
		case '>':
			o.st = sData
		default:
			o.comment = cBody
		}
	case cBody:
		if c == '-' {
			o.comment = cEndDash
		}
	case cEndDash:
		if c == '-' {
			o.comment = cEnd
		} else {
			o.comment = cBody
		}
	case cEnd:
		switch c {
		case '>':
			o.st = sData
		case '!':
			o.comment = cEndBang
		case '-':
		default:
			o.comment = cBody
		}
	case cEndBang:
		switch c {
		case '-':
			o.comment = cEndDash
		case '>':
			o.st = sData
		default:
			o.comment = cBody
		}
	}
}

// tagByte reads a tag's byte (HTML's tag and attribute states), noting
// where its attributes are; at its '>' the tag is written.
func (o *overlay) tagByte(c byte) {
	o.tok = append(o.tok, c)
	i := len(o.tok) - 1
	space := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
	switch o.at {
	case aName:
		switch {
		case space:
			o.nameEnd, o.at = i, aBeforeName
		case c == '/':
			o.nameEnd, o.at = i, aSelfClosing
		case c == '>':
			o.nameEnd = i
			o.tagDone()
		}
	case aBeforeName:
		switch {
		case space:
		case c == '/':
			o.at = aSelfClosing
		case c == '>':
			o.tagDone()
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	case aAttrName:
		switch {
		case space:
			o.endName(i)
			o.at = aAfterName
		case c == '/':
			o.endName(i)
			o.at = aSelfClosing
		case c == '=':
			o.endName(i)
			o.at = aBeforeValue
		case c == '>':
			o.endName(i)
			o.tagDone()
		}
	case aAfterName:
		switch {
		case space:
		case c == '/':
			o.at = aSelfClosing
		case c == '=':
			o.at = aBeforeValue
		case c == '>':
			o.tagDone()
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	case aBeforeValue:
		switch {
		case space:
		case c == '"':
			o.lastAttr().val, o.at = i+1, aValueDQ
		case c == '\'':
			o.lastAttr().val, o.at = i+1, aValueSQ
		case c == '>':
			o.tagDone()
		default:
			o.lastAttr().val, o.at = i, aValueUnquoted
		}
	case aValueDQ, aValueSQ:
		if c == '"' && o.at == aValueDQ || c == '\'' && o.at == aValueSQ {
			o.lastAttr().valEnd, o.at = i, aAfterValue
		}
	case aValueUnquoted:
		switch {
		case space:
			o.lastAttr().valEnd, o.at = i, aBeforeName
		case c == '>':
			o.lastAttr().valEnd = i
			o.tagDone()
		}
	case aAfterValue:
		switch {
		case space:
			o.at = aBeforeName
		case c == '/':
			o.at = aSelfClosing
		case c == '>':
			o.tagDone()
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	case aSelfClosing:
		switch {
		case c == '>':
			o.selfClose = true
			o.tagDone()
		case space:
			o.at = aBeforeName
		default:
			o.attrs = append(o.attrs, attrSpan{name: i, nameEnd: -1, val: -1, valEnd: -1})
			o.at = aAttrName
		}
	}
}

func (o *overlay) lastAttr() *attrSpan {
	if len(o.attrs) == 0 {
		// '=' straight after the name is a name's first character: a
		// value needs a name before it.
		o.attrs = append(o.attrs, attrSpan{name: len(o.tok) - 1, nameEnd: len(o.tok) - 1, val: -1, valEnd: -1})
	}
	return &o.attrs[len(o.attrs)-1]
}

func (o *overlay) endName(i int) {
	if a := o.lastAttr(); a.nameEnd < 0 {
		a.nameEnd = i
	}
}

// attr returns the value of the tag's first attribute of a name.
func (o *overlay) attr(name string) (string, bool) {
	for _, a := range o.attrs {
		if a.nameEnd >= 0 && strings.EqualFold(string(o.tok[a.name:a.nameEnd]), name) {
			if a.val < 0 {
				return "", true
			}
			end := a.valEnd
			if end < 0 {
				end = len(o.tok) - 1
			}
			return html.UnescapeString(string(o.tok[a.val:end])), true
		}
	}
	return "", false
}

// rawElements are the elements whose content a tokenizer reads as text to
// their end tag (scripting on, as in a browser: <noscript> too).
var rawElements = map[string]bool{"script": true, "style": true, "xmp": true, "iframe": true, "noembed": true,
	"noframes": true, "noscript": true, "textarea": true, "title": true}

var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
	"param": true, "keygen": true, "frame": true, "basefont": true, "bgsound": true, "image": true}

// breakout are the HTML elements that end foreign content (SVG, MathML)
// where they start.
var breakout = map[string]bool{"b": true, "big": true, "blockquote": true, "body": true, "br": true, "center": true,
	"code": true, "dd": true, "div": true, "dl": true, "dt": true, "em": true, "embed": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "head": true, "hr": true, "i": true, "img": true, "li": true,
	"listing": true, "menu": true, "meta": true, "nobr": true, "ol": true, "p": true, "pre": true, "ruby": true,
	"s": true, "small": true, "span": true, "strong": true, "strike": true, "sub": true, "sup": true, "table": true,
	"tt": true, "u": true, "ul": true, "var": true}

// tagDone writes a tag read whole: a start tag with what the overlay adds.
func (o *overlay) tagDone() {
	if o.st == sEndTag {
		name := asciiLower(string(o.tok[2:o.nameEnd]))
		o.notDrawnHere("")
		o.ensurePrologue()
		o.outBytes(o.tok)
		o.closeElement(name)
		if (name == "svg" || name == "math") && o.foreign > 0 {
			o.foreign--
		}
		o.st = sData
		return
	}
	name := asciiLower(string(o.tok[1:o.nameEnd]))
	var add strings.Builder
	o.marks(name, &add)
	switch name {
	case "script":
		add.WriteString(` type="text/x-robofilter-inert"`)
	case "meta":
		add.WriteString(` http-equiv="x-robofilter-inert"`)
	case "link":
		if rel, _ := o.attr("rel"); !hasToken(rel, "stylesheet") {
			add.WriteString(` rel="x-robofilter-inert"`)
		}
	case "iframe", "frame", "embed":
		// The CSP forbids frames and plugins; a browser may still open a
		// connection to where they point before it asks.
		add.WriteString(` src="about:blank"`)
	case "object":
		add.WriteString(` data="about:blank"`)
	}
	if name == "plaintext" {
		o.out("<rf-plaintext")
	} else {
		o.outBytes(o.tok[:o.nameEnd])
	}
	o.out(add.String())
	// The rest of the tag, its event handlers renamed.
	at := o.nameEnd
	for _, a := range o.attrs {
		if a.nameEnd-a.name > 2 && (o.tok[a.name]|0x20) == 'o' && (o.tok[a.name+1]|0x20) == 'n' {
			o.outBytes(o.tok[at:a.name])
			o.out("data-rf-")
			at = a.name
		}
	}
	o.outBytes(o.tok[at:])
	o.st = sData
	if o.foreign > 0 && breakout[name] {
		o.foreign = 0
	}
	switch {
	case name == "plaintext":
		o.st, o.rawName = sPlaintext, name
	case rawElements[name] && !(o.foreign > 0 && o.selfClose):
		o.rawName, o.rawHold, o.stripping, o.st = name, o.rawHold[:0], name == "script", sRaw
		o.openElement(name)
	case (name == "svg" || name == "math") && !o.selfClose:
		o.foreign++
		o.openElement(name)
	case voidElements[name] || o.foreign > 0 && o.selfClose:
	default:
		o.openElement(name)
	}
}

// asciiLower lowercases ASCII letters only, as HTML does tag names.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// raw reads raw text from b[i:] to its end tag, returning where it
// stopped: after "</name" and the byte after it, which go on as an end
// tag's bytes.
func (o *overlay) raw(b []byte, i int) int {
	end := "</" + o.rawName
	for i < len(b) {
		if len(o.rawHold) == 0 {
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				o.rawContent(b[i:])
				return len(b)
			}
			o.rawContent(b[i : i+j])
			o.rawHold = append(o.rawHold, '<')
			i += j + 1
			continue
		}
		c, k := b[i], len(o.rawHold)
		switch {
		case k < len(end) && lowerByte(c) == end[k]:
			o.rawHold = append(o.rawHold, c)
			i++
			continue
		case k == len(end) && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>'):
			// The end tag: from here on, an end tag's bytes.
			o.tok = append(o.tok[:0], o.rawHold...)
			o.rawHold = o.rawHold[:0]
			o.attrs, o.at, o.stripping = o.attrs[:0], aName, false
			o.st = sEndTag
			o.tagByte(c)
			return i + 1
		}
		// Not the end tag: what was held is content, and c is read again
		// with nothing held (it may be a '<').
		o.rawContent(o.rawHold)
		o.rawHold = o.rawHold[:0]
	}
	return i
}

// rawContent writes raw text on, but a script's, which is dropped.
func (o *overlay) rawContent(b []byte) {
	if !o.stripping {
		o.outBytes(b)
	}
}
