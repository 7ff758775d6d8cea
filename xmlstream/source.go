package xmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/text/transform"
)

// inputMode is how the original bytes relate to the UTF-8 the scanner reads.
type inputMode uint8

const (
	// modeUTF8: the scanner reads the original bytes (after a BOM).
	modeUTF8 inputMode = iota
	// modeMarkers: an ASCII-compatible charset or UTF-16. The input is
	// decoded one run at a time between the markup delimiters '<' and '>',
	// which are copied as they are, so each delimiter of the decoded text is
	// known to stand at a known original offset. Every token starts at a '<'
	// or ends after a '>', so every token maps to its exact original bytes.
	modeMarkers
	// modeWhole: a stateful charset (ISO-2022-JP) or one that does not keep
	// ASCII. The whole input is decoded up front; offsets are those of the
	// decoded text and the archive copy is re-encoded.
	modeWhole
)

// readChunk is the most read from the input at a time; the first reads
// are smaller (firstRead, then doubling), so that a small document, the
// common case in a crawl, costs small buffers.
const (
	readChunk = 32 << 10
	firstRead = 4 << 10
)

// errTokenTooLong is the source's own error, seen by the driver through the
// scanner.
var errTokenTooLong = errors.New("token too long")

// boundary pairs a decoded offset with the original offset of the same place.
type boundary struct{ dec, raw int64 }

// source holds the UTF-8 the scanner reads, in place, and what the archive
// copy and the positions need: the original bytes of the current token,
// and how decoded offsets map to original ones. It holds at most the
// current token plus one read chunk, and fails the token that grows past
// the token size limit.
type source struct {
	in      io.Reader
	mode    inputMode
	unit    int  // bytes of a delimiter in the original: 1, or 2 for UTF-16
	be      bool // UTF-16 big-endian
	runDec  transform.Transformer
	measure charsetMeasure // decoded text in original bytes (single- and multi-byte charsets)
	prefix  int64          // original bytes before the decoded text (a BOM)

	buf  []byte // decoded text; buf[0] is at decoded offset base
	base int64

	raw        []byte // modeMarkers: original bytes; raw[0] is at original offset rawBase
	rawBase    int64
	rawDone    int  // raw[:rawDone] is decoded into buf
	rawScan    int  // raw[:rawScan] has been searched for delimiters
	runEndScan int  // raw[:runEndScan] has been searched for the end of a run (see decodeRuns)
	multi      bool // modeMarkers: a multi-byte charset other than UTF-16
	bounds     []boundary

	keep     int64 // decoded offset of the current token's start
	maxToken int
	eof      bool
	zeroRead int
	err      error // sticky: io.EOF, errTokenTooLong or a failure of the input
	readErr  bool  // err is a failure of the input, not of the document

}

// window returns the decoded bytes held from decoded offset off (not before
// the current token's start) on. more may move them: a caller keeps
// offsets, never the slice, across a call of more.
func (s *source) window(off int64) []byte { return s.buf[off-s.base:] }

// release says the scanner has finished every token before the decoded
// offset d: their bytes may be dropped.
func (s *source) release(d int64) { s.keep = d }

// more decodes more of the input and reports whether there is more to
// see. It reports false, with s.err set (io.EOF at the end of the input),
// when there is not, or when the current token (from the last release)
// would grow past the token size limit: then s.err is errTokenTooLong, so
// neither the source nor the scanner ever holds much more than one limit.
func (s *source) more() bool {
	end := s.base + int64(len(s.buf))
	for {
		// The limit comes before the input's failure: a read may bring
		// the bytes that pass it and the error together.
		switch {
		case s.base+int64(len(s.buf)) > end:
			return true
		case end-s.keep > int64(s.maxToken),
			// A run without a delimiter is part of one token; its
			// decoded text is at least half its length.
			s.mode == modeMarkers && len(s.raw)-s.rawDone > 2*s.maxToken:
			s.err = errTokenTooLong
			return false
		case s.err != nil:
			return false
		case s.eof:
			s.err = io.EOF
			return false
		}
		s.compact()
		if s.mode == modeMarkers {
			s.raw = s.readMore(s.raw)
			s.decodeRuns()
		} else {
			s.buf = s.readMore(s.buf)
		}
	}
}

// readMore appends one read of the input to b.
func (s *source) readMore(b []byte) []byte {
	want := min(max(firstRead, len(b)), readChunk)
	if cap(b)-len(b) < want {
		nb := make([]byte, len(b), 2*cap(b)+want)
		copy(nb, b)
		b = nb
	}
	n, err := s.in.Read(b[len(b) : len(b)+want])
	b = b[:len(b)+n]
	switch {
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.err, s.readErr = fmt.Errorf("reading: %w", err), true
	case n == 0:
		if s.zeroRead++; s.zeroRead > 100 {
			s.err, s.readErr = fmt.Errorf("reading: %w", io.ErrNoProgress), true
		}
	default:
		s.zeroRead = 0
	}
	return b
}

// compact drops what finished tokens no longer need, when that frees at
// least half the buffer (so a long token is not moved again and again).
func (s *source) compact() {
	drop := int(s.keep - s.base)
	if drop <= 0 || drop < len(s.buf)/2 {
		return
	}
	if s.mode == modeMarkers {
		rk := s.rawAt(s.keep)
		rdrop := int(rk - s.rawBase)
		n := copy(s.raw, s.raw[rdrop:])
		s.raw = s.raw[:n]
		s.rawDone -= rdrop
		s.rawScan -= rdrop
		s.runEndScan = max(s.runEndScan-rdrop, 0)
		s.rawBase = rk
		k := sort.Search(len(s.bounds), func(i int) bool { return s.bounds[i].dec >= s.keep })
		n = copy(s.bounds, s.bounds[k:])
		s.bounds = s.bounds[:n]
	}
	n := copy(s.buf, s.buf[drop:])
	s.buf = s.buf[:n]
	s.base += int64(drop)
}

// decodeRuns decodes the original bytes up to the last delimiter read (all
// of them at the end of the input).
func (s *source) decodeRuns() {
	i := s.rawDone
	for {
		j, c := s.nextDelimiter(max(i, s.rawScan))
		if j < 0 {
			break
		}
		s.decodeRun(s.raw[i:j], i)
		d := s.base + int64(len(s.buf))
		r := s.rawBase + int64(j)
		if c == '<' {
			s.bounds = append(s.bounds, boundary{d, r})
		} else {
			s.bounds = append(s.bounds, boundary{d + 1, r + int64(s.unit)})
		}
		s.buf = append(s.buf, c)
		i = j + s.unit
	}
	if s.eof {
		s.decodeRun(s.raw[i:], i)
		i = len(s.raw)
		s.bounds = append(s.bounds, boundary{s.base + int64(len(s.buf)), s.rawBase + int64(i)})
	} else if j := s.lastRunEnd(i); j >= 0 {
		// The text after the last delimiter is decoded up to its last ';'
		// or white space too, so that a long run of text cut by entity
		// references, which end there, or by words is read a chunk at a
		// time, like its tokens (a long text node comes in pieces that end
		// after white space), and the source can drop what they no longer
		// need (compact), rather than be held whole until the next '<' or
		// '>'. The byte lastRunEnd finds is no part of another character,
		// and the decoder sees it end the run, as when it decodes the run
		// whole, so the decoded text is the same. It makes no boundary:
		// offsets are mapped as before.
		s.decodeRun(s.raw[i:j+s.unit], i)
		i = j + s.unit
	}
	s.rawDone = i
}

// lastRunEnd finds the last ';' or ASCII white space of the original at
// or after i (a unit boundary) that is a character of its own, or -1, and
// remembers how far it searched. White space is below 0x30: no charset
// read by runs has it inside a wider character. In a multi-byte charset a
// ';' must follow an ASCII byte: after another byte it may be the second
// byte of a GB18030 sequence as golang.org/x/text reads it (a lead byte,
// then 0x30 to 0x3F), which a cut would decode differently.
func (s *source) lastRunEnd(i int) int {
	b, last := s.raw, -1
	i = max(i, s.runEndScan)
	if s.unit == 1 {
		for k := len(b) - 1; k >= i; k-- {
			if c := b[k]; runEnd[c] && (c != ';' || !s.multi || k > 0 && b[k-1] < utf8.RuneSelf) {
				last = k
				break
			}
		}
		s.runEndScan = len(b)
		return last
	}
	for ; i+1 < len(b); i += 2 {
		lo, hi := b[i], b[i+1]
		if s.be {
			lo, hi = hi, lo
		}
		if hi == 0 && runEnd[lo] {
			last = i
		}
	}
	s.runEndScan = i
	return last
}

// runEnd marks the bytes lastRunEnd looks for.
var runEnd = [256]bool{';': true, ' ': true, '\t': true, '\n': true, '\r': true}

// nextDelimiter finds the next '<' or '>' of the original at or after i
// (a unit boundary), and remembers how far it searched.
func (s *source) nextDelimiter(i int) (int, byte) {
	b := s.raw
	if s.unit == 1 {
		for ; i < len(b); i++ {
			if c := b[i]; c == '<' || c == '>' {
				s.rawScan = i + 1
				return i, c
			}
		}
		s.rawScan = i
		return -1, 0
	}
	for ; i+1 < len(b); i += 2 {
		lo, hi := b[i], b[i+1]
		if s.be {
			lo, hi = hi, lo
		}
		if hi == 0 && (lo == '<' || lo == '>') {
			s.rawScan = i + 2
			return i, lo
		}
	}
	s.rawScan = i
	return -1, 0
}

// decodeRun decodes one run of original bytes without delimiters (at
// raw[at:]), as a whole: a sequence cut short at its end becomes U+FFFD, as
// a decoder reaching a delimiter would make it.
func (s *source) decodeRun(run []byte, at int) {
	if len(run) == 0 {
		return
	}
	if s.unit == 1 && isASCII(run) {
		s.buf = append(s.buf, run...)
		return
	}
	start, whole := len(s.buf), run
	s.runDec.Reset()
	for len(run) > 0 {
		if cap(s.buf)-len(s.buf) < 4*len(run)+8 {
			nb := make([]byte, len(s.buf), 2*cap(s.buf)+4*len(run)+8)
			copy(nb, s.buf)
			s.buf = nb
		}
		nDst, nSrc, err := s.runDec.Transform(s.buf[len(s.buf):cap(s.buf)], run, true)
		s.buf = s.buf[:len(s.buf)+nDst]
		run = run[nSrc:]
		if err != nil && err != transform.ErrShortDst {
			s.buf = append(s.buf, "\uFFFD"...)
			break
		}
	}
	if out := s.buf[start:]; hasDelimiter(out) {
		s.buf = append(s.buf[:start], noDelimiters(out)...)
	}
	// rawAt measures decoded text by encoding it again (encodedLen). In a
	// single-byte charset every character is one byte, as it counts them.
	// In a multi-byte one, a malformed sequence of two bytes may make one
	// U+FFFD, which counts one, and some characters count more than their
	// bytes (gb18030's 0x80 reads as €, two bytes in the encoder; Big5's
	// 0x88 0x62 as two characters): unless the run encodes back to its own
	// bytes, which is exact, it is decoded again a character at a time,
	// with boundaries around what does not measure as its bytes. UTF-16
	// counts two bytes a character: only an odd last byte counts more.
	if s.multi && !s.measure.encodesBack(s.buf[start:], whole) || s.unit == 2 && s.encodedLen(s.buf[start:]) != len(whole) {
		s.buf = s.buf[:start]
		s.decodeMeasured(whole, at)
	}
}

// decodeMeasured decodes run (at raw[at:]) a character at a time
// (decodeSteps) and records a boundary before and after each step whose
// encodedLen is not the length of the bytes it came from, so that rawAt
// maps every offset of the run between characters exactly: error
// positions, and where the archive copy stops, do not fall inside a
// character.
func (s *source) decodeMeasured(run []byte, at int) {
	decodeSteps(s.runDec, run, len(run), s.unit, true, func(text []byte, pos, n int) {
		if hasDelimiter(text) {
			text = noDelimiters(text)
		}
		d, r := s.base+int64(len(s.buf)), s.rawBase+int64(at+pos)
		if s.encodedLen(text) != n {
			if k := len(s.bounds); k == 0 || s.bounds[k-1].dec != d {
				s.bounds = append(s.bounds, boundary{d, r})
			}
			s.bounds = append(s.bounds, boundary{d + int64(len(text)), r + int64(n)})
		}
		s.buf = append(s.buf, text...)
	})
}

// hasDelimiter reports whether decoded text holds a '<' or '>'. A charset
// that decoded a non-delimiter to one would break the delimiter map:
// noDelimiters makes such a character U+FFFD, as it is not markup here.
func hasDelimiter(b []byte) bool {
	return bytes.IndexByte(b, '<') >= 0 || bytes.IndexByte(b, '>') >= 0
}

func noDelimiters(b []byte) []byte {
	return bytes.Map(func(r rune) rune {
		if r == '<' || r == '>' {
			return utf8.RuneError
		}
		return r
	}, b)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// rawAt maps a decoded offset to an original offset: exactly at a token
// boundary, and by re-encoding the decoded text inside a token (for
// positions of warnings and errors).
func (s *source) rawAt(d int64) int64 {
	switch s.mode {
	case modeUTF8:
		return d + s.prefix
	case modeWhole:
		return d
	}
	k := sort.Search(len(s.bounds), func(i int) bool { return s.bounds[i].dec > d }) - 1
	if k < 0 {
		return s.prefix
	}
	b := s.bounds[k]
	if b.dec == d {
		return b.raw
	}
	return b.raw + int64(s.encodedLen(s.decSpan(b.dec, d)))
}

// rawFrom is rawAt(d) given that the decoded offset d0 (not after d) stands
// at original offset r0: it re-encodes only the text after d0 or after the
// last boundary before d, whichever is nearer, so that the positions of
// offsets one after the other in a long token cost its length once, not
// once each (posWalk).
func (s *source) rawFrom(d0, r0, d int64) int64 {
	if s.mode != modeMarkers {
		return s.rawAt(d)
	}
	k := sort.Search(len(s.bounds), func(i int) bool { return s.bounds[i].dec > d }) - 1
	if k >= 0 && s.bounds[k].dec >= d0 {
		return s.rawAt(d)
	}
	return r0 + int64(s.encodedLen(s.decSpan(d0, d)))
}

// rawBetween is what rawSpan(d0, d1) is, given their original offsets
// r0 and r1.
func (s *source) rawBetween(d0, r0, d1, r1 int64) []byte {
	if s.mode != modeMarkers {
		return s.decSpan(d0, d1)
	}
	lo, hi := clampSpan(r0-s.rawBase, r1-s.rawBase, len(s.raw))
	return s.raw[lo:hi]
}

// encodedLen is the length of decoded text in the original charset.
func (s *source) encodedLen(t []byte) int {
	if s.unit == 2 {
		n := 0
		for _, r := range string(t) {
			n += 2
			if r > 0xFFFF {
				n += 2
			}
		}
		return n
	}
	if isASCII(t) {
		return len(t)
	}
	// Where a character's measure is not its bytes', decodeRun made
	// boundaries around it: rawAt measures no text that holds it whole.
	return s.measure.textLen(t)
}

// decSpan returns the decoded text from a to b, both held by the source.
func (s *source) decSpan(a, b int64) []byte {
	lo, hi := clampSpan(a-s.base, b-s.base, len(s.buf))
	return s.buf[lo:hi]
}

// rawSpan returns the original bytes from decoded offset a to decoded
// offset b, both token boundaries held by the source. In modeWhole they
// are the decoded bytes, which the core re-encodes.
func (s *source) rawSpan(a, b int64) []byte {
	if s.mode != modeMarkers {
		return s.decSpan(a, b)
	}
	lo, hi := clampSpan(s.rawAt(a)-s.rawBase, s.rawAt(b)-s.rawBase, len(s.raw))
	return s.raw[lo:hi]
}

func clampSpan(a, b int64, n int) (int, int) {
	a = min(max(a, 0), int64(n))
	b = min(max(b, a), int64(n))
	return int(a), int(b)
}

// advance returns the position after a token, given its original and
// decoded bytes. Offset, lines and columns count original bytes, as the
// HTML stage's do, except in modeWhole, where they count the decoded
// text's. In UTF-16 the lines are the decoded text's (a byte 0x0A or 0x0D
// of the original may be half of another character), and a column counts
// the original bytes since the line's end: two per character of the
// decoded text, four beyond the Basic Multilingual Plane.
func (s *source) advance(p filter.Pos, raw, dec []byte) filter.Pos {
	switch {
	case s.mode == modeWhole:
		return p.Advance(dec)
	case s.unit == 2:
		q := p.Advance(dec)
		q.Offset = p.Offset + int64(len(raw))
		if end := bytes.LastIndexAny(dec, "\n\r"); end >= 0 {
			// The original bytes after the line end: an odd last byte of
			// the input reads as U+FFFD, which stands for one byte, not two.
			q.Col = 1 + max(len(raw)-utf16Bytes(dec[:end+1]), 0)
		} else {
			q.Col = p.Col + len(raw)
		}
		return q
	}
	return p.Advance(raw)
}

// utf16Bytes is the length in UTF-16 of UTF-8 text.
func utf16Bytes(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n += 2
		if r > 0xFFFF {
			n += 2
		}
	}
	return n
}

// pin makes a boundary of decoded offset d, held by the source, which
// stands at the '&' that starts an entity reference (c '&') or just after
// the ';' that ends one (c ';') or the white space that ends a piece of a
// long text node (c ' ', '\t', '\n' or '\r'), so that its original offset
// is exact (the archive copy may cut there, not only at a token's '<' or
// '>'). It counts the c of the decoded text since the boundary before d
// and finds as many in the original: in every charset read by runs, as
// '<' and '>', none is part of another character (but ';', below). Where
// the count does not hold (a charset that decodes something else to one),
// d keeps the offset rawAt gives it.
func (s *source) pin(d int64, c byte) {
	// golang.org/x/text reads ';' as the second byte of a GB18030
	// sequence (a lead byte, then 0x30 to 0x3F): in a multi-byte charset
	// a ';' of the original may be part of another character, and rawAt,
	// exact there (decodeRun), maps d.
	if s.mode != modeMarkers || c == ';' && s.multi {
		return
	}
	k := sort.Search(len(s.bounds), func(i int) bool { return s.bounds[i].dec > d }) - 1
	if k < 0 || s.bounds[k].dec == d {
		return
	}
	b := s.bounds[k]
	want := bytes.Count(s.decSpan(b.dec, d), []byte{c})
	if c == '&' {
		want++ // the reference's own, at d
	}
	u := s.unit
	for i := int(b.raw - s.rawBase); i+u <= len(s.raw) && want > 0; i += u {
		lo, hi := s.raw[i], byte(0)
		if u == 2 {
			hi = s.raw[i+1]
			if s.be {
				lo, hi = hi, lo
			}
		}
		if lo == c && hi == 0 {
			if want--; want > 0 {
				continue
			}
			r := s.rawBase + int64(i)
			if c != '&' {
				r += int64(u)
			}
			s.bounds = append(s.bounds, boundary{})
			copy(s.bounds[k+2:], s.bounds[k+1:])
			s.bounds[k+1] = boundary{d, r}
			return
		}
	}
}
