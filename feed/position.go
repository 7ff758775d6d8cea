package feed

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// Positions. The feed reader sees the document decoded to UTF-8; a
// position counts the original bytes as the XML stage counts them: in
// UTF-8 they are the same (after the byte order mark, which the column of
// the first line counts); in a charset where every ASCII byte is that
// character (single-byte charsets, Shift_JIS, EUC, GBK, Big5 …) each
// character's original length is that of its encoding (one byte for a
// character the charset cannot encode: U+FFFD standing for bad input),
// plus what the decoder noted for those that came from more or fewer bytes
// (xmlstream.Irregulars); in
// UTF-16, two bytes a character (four beyond the Basic Multilingual
// Plane), its lines read from the decoded text (a byte 0x0A of the
// original may be half of another character); in a stateful charset
// (ISO-2022-JP), positions count the decoded text.
type feedUnits struct {
	measure *xmlstream.PositionMeasure // nil: the decoded bytes
	utf16   bool
	// irregular lists the characters whose measure is not their bytes
	// (a malformed sequence of two bytes read as one U+FFFD …), as the
	// decoder found them: what they add makes the count exact.
	irregular *xmlstream.Irregulars
}

func newFeedUnits(charset string) *feedUnits {
	return &feedUnits{measure: xmlstream.NewPositionMeasure(charset), utf16: strings.HasPrefix(charset, "utf-16")}
}

// origLen is the length of decoded text in the original charset.
func (u *feedUnits) origLen(t []byte) int {
	if !u.utf16 {
		return u.measure.Len(t)
	}
	n := 0
	for _, r := range string(t) {
		n += 2 * max(utf16.RuneLen(r), 1)
	}
	return n
}

// advance returns the position after the decoded bytes b, which start at
// decoded offset off, from p.
func (u *feedUnits) advance(p filter.Pos, b []byte, off int64) filter.Pos {
	q := p.Advance(b) // lines, and everything in UTF-8
	if u.measure == nil && !u.utf16 {
		return q
	}
	end := off + int64(len(b))
	n := u.origLen(b) + u.irregular.Extra(off, end)
	q.Offset = p.Offset + int64(n)
	if i := bytes.LastIndexAny(b, "\r\n"); i >= 0 {
		q.Col = 1 + u.origLen(b[i+1:]) + u.irregular.Extra(off+int64(i+1), end)
	} else {
		q.Col = p.Col + n
	}
	return q
}

// posWindow keeps the last bytes handed out (at least posKeep), and the
// position of the first.
type posWindow struct {
	u    *feedUnits
	base int64 // decoded offset of buf[0]
	pos  filter.Pos
	buf  []byte
	// hold is where a DOCTYPE being read started (math.MaxInt64: none):
	// its PIs are placed from there when it ends, perhaps long after the
	// window has moved on, so the irregular characters since are kept.
	hold int64
}

// posKeep is what a posWindow keeps: the parser's buffer, and what an
// error is looked for in before where the parser stopped.
const posKeep = 16 << 10

func (w *posWindow) add(b []byte) {
	w.buf = append(w.buf, b...)
	if len(w.buf) < 2*posKeep {
		return
	}
	cut := len(w.buf) - posKeep
	for k := 0; k < utf8.UTFMax-1 && cut > 0 && w.buf[cut]&0xC0 == 0x80; k++ {
		cut-- // at a character's start
	}
	w.pos = w.u.advance(w.pos, w.buf[:cut], w.base)
	w.base += int64(cut)
	w.u.irregular.Forget(min(w.base, w.hold)) // nothing before is asked for
	w.buf = w.buf[:copy(w.buf, w.buf[cut:])]
}

// at is the position of a decoded offset the window holds (else of the
// nearest it holds).
func (w *posWindow) at(off int64) filter.Pos {
	i := min(max(off-w.base, 0), int64(len(w.buf)))
	return w.u.advance(w.pos, w.buf[:i], w.base)
}

// lastIndex is the offset of the last s that starts before end, or
// fallback.
func (w *posWindow) lastIndex(end int64, s string, fallback int64) int64 {
	i := min(max(end-w.base, 0), int64(len(w.buf)))
	if j := bytes.LastIndex(w.buf[:i], []byte(s)); j >= 0 {
		return w.base + int64(j)
	}
	return fallback
}
