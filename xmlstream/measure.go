package xmlstream

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// Irregulars lists, for text decoded from a multi-byte charset, the
// characters whose measure in the charset (PositionEncoder's: a character
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
	enc       *encoding.Encoder
	encoded   []byte
	lens      *[runeLenCache]runeLenEntry
	m         *Irregulars
}

func (t *measuringDecoder) Reset() { t.dec.Reset() }

func (t *measuringDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	nDst, nSrc, err = t.dec.Transform(dst, src, atEOF)
	if nSrc > 0 && !t.encodesBack(dst[:nDst], src[:nSrc]) {
		t.measure(src, nSrc, atEOF)
	}
	t.m.out += int64(nDst)
	return nDst, nSrc, err
}

func (t *measuringDecoder) encodesBack(text, orig []byte) bool {
	t.enc.Reset()
	var err error
	t.encoded, _, err = transform.Append(t.enc, t.encoded[:0], text)
	return err == nil && bytes.Equal(t.encoded, orig)
}

// measure decodes src[:n] a character at a time (looking past n, as the
// decoder may have, to decide a malformed sequence) and lists the
// characters that do not measure as their bytes.
func (t *measuringDecoder) measure(src []byte, n int, atEOF bool) {
	t.step.Reset()
	var dst [4 * utf8.UTFMax]byte
	out := t.m.out
	for pos := 0; pos < n; {
		k, room := 1, 1
		for {
			last := atEOF && pos+k == len(src)
			nDst, nSrc, err := t.step.Transform(dst[:room], src[pos:pos+k], last)
			if nDst == 0 && nSrc == 0 {
				switch {
				case err == transform.ErrShortDst && room < len(dst):
					room++
					continue
				case err == transform.ErrShortSrc && pos+k < len(src):
					k++
					continue
				}
				return // the decoder's own step decides no more: leave the rest unlisted
			}
			if got := measureOf(dst[:nDst], t); got != nSrc {
				t.m.list = append(t.m.list, irregular{off: out, extra: nSrc - got})
			}
			out += int64(nDst)
			pos += max(nSrc, 1)
			break
		}
	}
}

// measureOf is a character's measure in the charset (encodedLen's, and
// the records mode's): one byte for ASCII, U+FFFD and what the charset
// cannot encode.
func measureOf(text []byte, t *measuringDecoder) int {
	n := 0
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		text = text[size:]
		if r < utf8.RuneSelf || r == utf8.RuneError {
			n++
			continue
		}
		if t.lens == nil {
			t.lens = new([runeLenCache]runeLenEntry)
		}
		e := &t.lens[uint32(r)%runeLenCache]
		if e.n == 0 || e.r != r {
			e.r, e.n = r, 1
			if b, err := t.enc.Bytes(utf8.AppendRune(nil, r)); err == nil && len(b) > 0 && b[0] >= utf8.RuneSelf {
				e.n = uint8(len(b))
			}
		}
		n += int(e.n)
	}
	return n
}
