package htmlstream

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Plain text. Text() changes a text token's bytes only at a carriage
// return (newlines), '&' (character references) and NUL (replaced in some
// contexts); a token with none of them is its raw bytes, and the driver
// uses Raw() and skips Text() (and the builder its search for NUL). The
// tokenizer finds out while it scans: in the data state, one word-at-a-time
// search looks for '<' and those bytes together, so that the text is read
// once.

// textSpecial marks the bytes on which Text() changes a text token.
var textSpecial = [256]bool{'\r': true, '&': true, 0: true}

// textIsPlain reports whether the current token is text whose Text() is
// its raw bytes, with no NUL. It may report false for such text (after
// the hand-over, or where a token is read in pieces), never true for
// other text.
func (z *tokenizer) textIsPlain() bool { return z.plain }

// indexLT returns the index of the first '<' in win at or after i, or -1.
// While *plain, it looks for the bytes textSpecial marks too, a word at a
// time, and clears *plain at the first; then bytes.IndexByte takes over.
func indexLT(win []byte, i int, plain *bool) int {
	if *plain {
		for ; i+8 <= len(win); i += 8 {
			if m := textStopMask(binary.LittleEndian.Uint64(win[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				if win[i] == '<' {
					return i
				}
				*plain = false
				break
			}
		}
		for ; *plain && i < len(win); i++ {
			switch c := win[i]; {
			case c == '<':
				return i
			case textSpecial[c]:
				*plain = false
			}
		}
	}
	if k := bytes.IndexByte(win[i:], '<'); k >= 0 {
		return i + k
	}
	return -1
}

// textStopMask has the high bit set of the lowest byte of x that is '<'
// or a byte textSpecial marks, and perhaps of bytes above it (a byte that
// is none of them borrows no bit in the subtractions below it).
//
// x has the byte c where x^c (c in every lane) has a zero byte, which
// (x^c - ones) &^ (x^c) & highs marks; as c is below 0x80, the high bits
// of ^(x^c) are those of ^x, so one &^ x does for the four values.
func textStopMask(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	lt, amp, cr := x^('<'*ones), x^('&'*ones), x^('\r'*ones)
	return ((x - ones) | (lt - ones) | (amp - ones) | (cr - ones)) &^ x & highs
}

// hasTextSpecial reports whether b has a byte textSpecial marks, a word at
// a time: the last, partial word is read overlapping the one before it;
// 4 to 7 bytes are read as two overlapping halves, padded with 0xFF (not
// a special byte).
func hasTextSpecial(b []byte) bool {
	n := len(b)
	const pad = 0xFFFFFFFF << 32
	switch {
	case n < 4:
		for _, c := range b {
			if textSpecial[c] {
				return true
			}
		}
		return false
	case n < 8:
		return wordHasTextSpecial(uint64(binary.LittleEndian.Uint32(b))|pad) ||
			wordHasTextSpecial(uint64(binary.LittleEndian.Uint32(b[n-4:]))|pad)
	}
	for i := 0; i+8 <= n; i += 8 {
		if wordHasTextSpecial(binary.LittleEndian.Uint64(b[i:])) {
			return true
		}
	}
	return n%8 != 0 && wordHasTextSpecial(binary.LittleEndian.Uint64(b[n-8:]))
}

// wordHasTextSpecial: a word has one of the bytes iff it, or it xor that
// byte in every lane, has a zero byte (see textStopMask).
func wordHasTextSpecial(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	amp, cr := x^('&'*ones), x^('\r'*ones)
	return ((x-ones)|(amp-ones)|(cr-ones))&^x&highs != 0
}
