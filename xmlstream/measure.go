package xmlstream

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// Irregulars lists, for text decoded from a multi-byte charset, the
// characters whose measure in the charset (PositionMeasure's: a character
// the charset cannot encode, U+FFFD standing for bad input, counts one
// byte) is not the number of bytes they came from: a malformed sequence of
// two bytes that reads as one U+FFFD, gb18030's 0x80 that reads as € (two
// bytes in the encoder), Big5's 0x88 0x62 that reads as two characters. A
// parser that counts positions in original bytes by measuring decoded text
// adds Extra over a span to be exact (the records mode does).
type Irregulars struct {
	list []irregular
	out  int64 // decoded bytes given out so far
}

type irregular struct {
	off   int64 // decoded offset
	extra int   // original bytes less the measure
}

// Extra is what the characters starting in decoded [from, to) came from
// beyond their measure (negative where they measure more).
func (m *Irregulars) Extra(from, to int64) int {
	if m == nil {
		return 0
	}
	n := 0
	for _, ir := range m.list {
		if ir.off >= from && ir.off < to {
			n += ir.extra
		}
	}
	return n
}

// Forget drops the characters before decoded offset off: a caller that
// asks of nothing before it keeps the list bounded.
func (m *Irregulars) Forget(off int64) {
	if m == nil {
		return
	}
	k := 0
	for k < len(m.list) && m.list[k].off < off {
		k++
	}
	m.list = m.list[:copy(m.list, m.list[k:])]
}

// measuringDecoder decodes as dec does and notes the irregular characters:
// where what it decoded in a step does not encode back to the bytes it
// read, it decodes those bytes again a character at a time (step, a second
// decoder; the charsets concerned carry no state from one character to the
// next), as the XML stage's source does (decodeMeasured).
type measuringDecoder struct {
	dec, step transform.Transformer
	measure   charsetMeasure
	m         *Irregulars
}

func (t *measuringDecoder) Reset() { t.dec.Reset() }

func (t *measuringDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	nDst, nSrc, err = t.dec.Transform(dst, src, atEOF)
	if nSrc > 0 && !t.measure.encodesBack(dst[:nDst], src[:nSrc]) {
		out := t.m.out
		decodeSteps(t.step, src, nSrc, 1, atEOF, func(text []byte, _, n int) {
			if got := t.measure.textLen(text); got != n {
				t.m.list = append(t.m.list, irregular{off: out, extra: n - got})
			}
			out += int64(len(text))
		})
	}
	t.m.out += int64(nDst)
	return nDst, nSrc, err
}

// decodeSteps decodes src[:n] with dec, reset, a step at a time, as dec
// decodes it in one go (a decoder gives the same text however its input
// and output are cut), and calls step with each step's text, the offset
// in src of the bytes it came from and their number. A step takes the fewest bytes that make a
// character (looking past n, as a decoder may to reject a malformed
// sequence), into the least room that takes one: it is one character, or
// the few one sequence reads as (Big5's 0x88 0x62). unit is the bytes of
// the smallest character; atEOF says src ends the input.
func decodeSteps(dec transform.Transformer, src []byte, n, unit int, atEOF bool, step func(text []byte, at, n int)) {
	dec.Reset()
	var dst [4 * utf8.UTFMax]byte
	for pos := 0; pos < n; {
		k, room := min(unit, len(src)-pos), 1
		for {
			nDst, nSrc, err := dec.Transform(dst[:room], src[pos:pos+k], atEOF && pos+k == len(src))
			if nDst == 0 && nSrc == 0 {
				switch {
				case err == transform.ErrShortDst && room < len(dst):
					room++
					continue
				case err == transform.ErrShortSrc && pos+k < len(src):
					k++
					continue
				}
				// No progress (no decoder here makes none): the rest is one
				// U+FFFD, as the source's decodeRun makes it.
				nDst, nSrc = copy(dst[:], "\uFFFD"), n-pos
			}
			step(dst[:nDst], pos, nSrc)
			pos += max(nSrc, 1)
			break
		}
	}
}

// charsetMeasure measures decoded text in the bytes of a charset read by
// runs, as positions count them: a character is as long as its encoding,
// one byte for ASCII and for what the charset cannot encode (U+FFFD
// standing for bad input, U+0080 for Shift_JIS's byte 0x80). x/net's
// encoders write such a character as a character reference ("&#128;"),
// which no charset read by runs spells a non-ASCII character with.
// Lengths are kept in a small cache.
type charsetMeasure struct {
	enc     *encoding.Encoder
	lens    *[runeLenCache]runeLenEntry
	encoded []byte // encodesBack's
}

const runeLenCache = 1024

type runeLenEntry struct {
	r rune
	n uint8
}

// textLen is the measure of text. Rune by rune, so that a rune cut at
// text's end counts one byte, whatever text follows it.
func (c *charsetMeasure) textLen(text []byte) int {
	n := 0
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		text = text[size:]
		if r < utf8.RuneSelf || r == utf8.RuneError {
			n++
			continue
		}
		if c.lens == nil {
			c.lens = new([runeLenCache]runeLenEntry)
		}
		e := &c.lens[uint32(r)%runeLenCache]
		if e.n == 0 || e.r != r {
			e.r, e.n = r, 1
			if b, err := c.enc.Bytes(utf8.AppendRune(nil, r)); err == nil && len(b) > 0 && b[0] >= utf8.RuneSelf {
				e.n = uint8(len(b))
			}
		}
		n += int(e.n)
	}
	return n
}

// encodesBack reports whether decoded text encodes to exactly the original
// bytes it was decoded from. Then every character's encoding is the bytes
// it came from (the charsets' sequences are prefix-free), and textLen
// measures any part of it exactly.
func (c *charsetMeasure) encodesBack(text, orig []byte) bool {
	c.enc.Reset()
	var err error
	c.encoded, _, err = transform.Append(c.enc, c.encoded[:0], text)
	return err == nil && bytes.Equal(c.encoded, orig)
}
