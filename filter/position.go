package filter

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

var newline = []byte{'\n'}

// Pos is a place in the input: a byte offset and the 1-based line and column
// (columns count bytes). Positions are those of the original bytes, before
// any charset decoding, so they point into the file as the author sees it,
// in every charset (UTF-16 and ISO-2022-JP, decoded before they are read,
// included), except in the XML stage's ISO-2022-JP, where they count the
// decoded UTF-8 text.
type Pos struct {
	Offset  int64
	Line    int
	Col     int
	afterCR bool // the last byte was a CR: an LF next ends no new line
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Advance returns the position after the bytes b, starting at p. CR, LF
// and CRLF each end a line, as HTML and XML read them.
func (p Pos) Advance(b []byte) Pos {
	if len(b) == 0 {
		return p
	}
	p.Offset += int64(len(b))
	if !p.afterCR && len(b) <= 64 && !hasByteBelow14(b) {
		// Most tokens are short and on one line: one word-at-a-time pass
		// instead of two vectorised searches, whose set-up dominates on
		// a few bytes. No byte below 14 means no CR and no LF.
		p.Col += len(b)
		return p
	}
	if !p.afterCR && bytes.IndexByte(b, '\r') < 0 {
		// IndexByte and Count are vectorised; LastIndexByte is not, so it
		// only looks at what follows the first newline.
		first := bytes.IndexByte(b, '\n')
		if first < 0 {
			p.Col += len(b)
			return p
		}
		last := first + bytes.LastIndexByte(b[first:], '\n')
		p.Line += 1 + bytes.Count(b[first+1:], newline)
		p.Col = len(b) - last
		return p
	}
	for _, c := range b {
		switch {
		case c == '\n' && p.afterCR:
			// the LF of a CRLF: the line already ended
		case c == '\n' || c == '\r':
			p.Line++
			p.Col = 1
		default:
			p.Col++
		}
		p.afterCR = c == '\r'
	}
	return p
}

// AdvanceInLine returns the position after n bytes, starting at p, when
// none of them is a CR or an LF: the caller knows, so the bytes need no
// look.
func (p Pos) AdvanceInLine(n int) Pos {
	p.Offset += int64(n)
	p.Col += n
	p.afterCR = p.afterCR && n == 0
	return p
}

// hasByteBelow14 reports whether b has a byte below 14 (LF is 10, CR 13),
// a word at a time: the last, partial word is read overlapping the one
// before it; 4 to 7 bytes are read as two overlapping halves, padded with
// 0xFF (not below 14).
func hasByteBelow14(b []byte) bool {
	n := len(b)
	const pad = 0xFFFFFFFF << 32
	switch {
	case n < 4:
		for _, c := range b {
			if c < 14 {
				return true
			}
		}
		return false
	case n < 8:
		return wordHasByteBelow14(uint64(binary.LittleEndian.Uint32(b))|pad) ||
			wordHasByteBelow14(uint64(binary.LittleEndian.Uint32(b[n-4:]))|pad)
	}
	for i := 0; i+8 <= n; i += 8 {
		if wordHasByteBelow14(binary.LittleEndian.Uint64(b[i:])) {
			return true
		}
	}
	return n%8 != 0 && wordHasByteBelow14(binary.LittleEndian.Uint64(b[n-8:]))
}

// wordHasByteBelow14: a word has a byte below n (n <= 128) iff
// (x - n*ones) &^ x has a high bit set.
func wordHasByteBelow14(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (x-14*ones)&^x&highs != 0
}

// StartPos is the position of the first byte of a document.
var StartPos = Pos{Line: 1, Col: 1}

// Warning is a problem in the input that did not stop processing: where it
// is, what was wrong and what was done about it.
type Warning struct {
	Pos     Pos    `json:"-"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Offset  int64  `json:"offset"` // bytes before the place in the input
	Message string `json:"message"`
}

func (w Warning) String() string { return fmt.Sprintf("%s: warning: %s", w.Pos, w.Message) }

// PosError is a failure at a place in the input: a limit exceeded, or XML
// that is not well-formed. Everything before Pos has been written.
type PosError struct {
	Pos Pos
	Err error
}

func (e *PosError) Error() string { return fmt.Sprintf("%s: %v", e.Pos, e.Err) }

func (e *PosError) Unwrap() error { return e.Err }
