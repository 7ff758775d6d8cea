package filter

import "unicode/utf8"

// Text adds character data inserted in scope s.
func (c *Core) Text(s *Scope, b []byte) { c.text(s, b, false) }

// ValidText is Text for character data the caller knows to be valid UTF-8
// (the HTML tokenizer validates its input a read at a time, which costs
// less than checking each piece of text).
func (c *Core) ValidText(s *Scope, b []byte) { c.text(s, b, true) }

func (c *Core) text(s *Scope, b []byte, valid bool) {
	if s.Hidden || len(b) == 0 {
		return
	}
	if c.held && c.headEnded && !isSpace(b) {
		c.bodyContent()
	}
	if !c.wantsText && s.anchor == nil {
		if !c.written && !c.held && (c.offAt(s)|c.docOff&^c.ai.off)&NoIndex == 0 && !isSpace(b) {
			// Indexable text went by, as if written: a robots META or
			// PI after it warns alike whatever the outputs (check has none).
			c.written = true
		}
		return
	}
	if !valid && !utf8.Valid(b) {
		b = replaceInvalidUTF8(b)
	}
	off := c.offAt(s) | c.docOff
	switch {
	case off&NoIndex != 0:
		c.heldText.brk(c)
		if c.out.ExcludedText != nil {
			c.out.ExcludedText.Text(b)
		}
	case !c.held && c.out.ArchiveText == nil:
		c.writeText(b) // heldText.text's usual case, without its call
	default:
		c.heldText.text(c, b, off&NoArchive != 0)
	}
	// Anchor text is the link's indexable text (SPEC section 5): what a
	// noindex region, of any dialect, keeps off the page is not anchor
	// text either.
	a := s.link()
	if a == nil {
		return
	}
	if off&(NoIndex|NoAnchorText) != 0 {
		c.anchorBreak(s)
		return
	}
	if len(a.text) < MaxAnchorText {
		room := MaxAnchorText - len(a.text)
		if len(b) > room {
			for room > 0 && !utf8.RuneStart(b[room]) {
				room-- // cut between characters, never inside one
			}
			b = b[:room]
			a.link.Truncated = true
		}
		a.text = append(a.text, b...)
	}
}

// writeText hands indexable text to the text output (nothing is held).
func (c *Core) writeText(b []byte) {
	c.written = true
	if c.out.Text != nil {
		c.out.Text.Text(b)
	}
}

func isSpace(b []byte) bool {
	for _, ch := range b {
		if ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' && ch != '\f' {
			return false
		}
	}
	return true
}

// replaceInvalidUTF8 replaces each maximal subpart of an ill-formed UTF-8
// sequence with one U+FFFD, as the WHATWG UTF-8 decoder (and Unicode's
// recommended practice) does: "\xE2\x82X" is "\uFFFDX", "\xFF\xFF" two
// U+FFFD. Text cut inside a sequence is joined again before it gets here
// where the DOM joins it (htmlstream's addText), so the result does not
// depend on where a text was split.
func replaceInvalidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
			size = maximalSubpart(b)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// maximalSubpart is the length of the ill-formed sequence b starts with
// that one U+FFFD stands for: its lead byte and the continuation bytes
// that could still have made a character (Unicode 16, table 3-7).
func maximalSubpart(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF // only the second byte has a narrower range
	}
	return n
}
