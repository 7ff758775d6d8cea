package htmlstream

import (
	"bytes"
	"io"
	"math"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/text/transform"
)

// rawInput decodes a document whose charset is not ASCII-compatible
// (UTF-16, ISO-2022-JP) for the tokenizer, one character at a time, and
// keeps the original bytes that the archive copy has not passed yet, with
// how many decoded bytes each character became. The copy is then the
// input's own bytes, cut where content is elided, and not the decoded
// text encoded again, which changes what does not come back the same (a
// lone surrogate, an ISO-2022-JP escape sequence the encoder writes
// otherwise or leaves out, a UTF-16BE page written as UTF-16LE).
//
// What is kept is bounded by how far the tokenizer reads ahead of the
// copy: the driver passes the tokens it put off when the tokenizer's
// buffer moves (beforeMove), so at most a buffer and a token.
//
// The same runs map the tokenizer's positions, in the decoded text, to
// the input's bytes (inputPos), with or without the copy: they are kept
// from the start of the current token on as well.
type rawInput struct {
	src    io.Reader
	srcErr error // the source's error (io.EOF at its end), once it returned one
	units  unitDecoder
	keep   bool // the archive copy is wanted: keep the original bytes until it passes them

	// raw[cur:next] are the original bytes of characters decoded and not
	// yet passed to the copy (with keep false, cur is next); raw[next:]
	// are read and not yet decoded.
	raw       []byte
	cur, next int
	// runs are the characters decoded and not yet passed by both the copy
	// and the tokenizer's positions, in order; runs[head] is the one at
	// cur, used of its characters passed already. Without the copy only
	// pos passes them (head and used stay 0).
	runs   []unitRun
	head   int
	used   int
	curDec int64 // decoded offset of cur
	// pos is the start of the tokenizer's current token in the runs, and
	// line the start of its line (inputPos).
	pos             runCursor
	lineDec, lineIn int64
	outDec          int64 // decoded offset of next
	zeroFrom        int   // where the characters at the end of raw[:next] that decode to nothing start; -1 when the last decodes to something
	spill           []byte
	spillSpace      [maxUnitOut]byte

	// ISO-2022-JP carries state: a copied stretch that does not follow
	// what the copy got last may need the escape sequence in effect where
	// it starts. state is the one in effect at cur; copied the one the
	// copy is in (ASCII after an ellipsis, which ends in ASCII).
	stateful      bool
	state, copied escape
	pre           [4]byte // take's escape sequence
	// lastCopied: the copy's last step copied bytes (not an elision), so
	// the bytes at the very end that decode to nothing go with them.
	lastCopied bool
	// dropped: escape sequences past maxZeroRun were dropped; warned is
	// set once the copy has said so.
	dropped, warned bool
}

// unitRun is n characters of the same original and decoded length. It is
// eight bytes: a token of characters that alternate in length (ASCII and
// kanji) keeps one for each. A run of raw 0 (a gap) is n original bytes
// that decode to nothing and are not kept, which only positions count:
// escape sequences past maxZeroRun, and without the copy all of them (one
// gap between two characters, however many escape sequences).
type unitRun struct {
	n        uint32
	raw, dec uint16
}

// rawLen is the original bytes of k characters of the run.
func (u *unitRun) rawLen(k int) int64 {
	if u.raw == 0 {
		return int64(u.n) // a gap is passed whole
	}
	return int64(k) * int64(u.raw)
}

// toPass is how many of the run's characters, used of them passed already
// and the first at decoded offset dec, lie before decoded offset to (a
// character that starts before it whole): all of a run that decodes to
// nothing.
func (u *unitRun) toPass(used int, dec, to int64) int {
	k := int64(u.n) - int64(used)
	if u.dec > 0 {
		k = min(k, (to-dec+int64(u.dec)-1)/int64(u.dec))
	}
	return int(k)
}

// runCursor is a place in rawInput's runs: runs[head] is the run at it,
// used of its characters before it; dec and in are its offsets in the
// decoded text and in the input.
type runCursor struct {
	head, used int
	dec, in    int64
}

// moveTo moves c over the characters before decoded offset to, and the
// bytes that decode to nothing before them; those at to stay (they belong
// to the character there, as in the copy).
func (c *runCursor) moveTo(runs []unitRun, to int64) {
	for c.dec < to && c.head < len(runs) {
		run := &runs[c.head]
		k := run.toPass(c.used, c.dec, to)
		c.in += run.rawLen(k)
		c.dec += int64(k) * int64(run.dec)
		if c.used += k; c.used == int(run.n) {
			c.head++
			c.used = 0
		}
	}
}

// maxUnitOut bounds what one character decodes to (U+FFFD and the rest
// of the BMP take 3 bytes in UTF-8, the others 4).
const maxUnitOut = 8

// maxZeroRun bounds the original bytes that decode to nothing kept in a
// row (ISO-2022-JP escape sequences with no character between them). They
// belong to the character that follows, so they would be kept until it
// comes; past the bound only the last is kept, which alone sets the state.
const maxZeroRun = 4 << 10

// rawReadSize is how much is read from the source at a time.
const rawReadSize = 16 << 10

// unitDecoder decodes one character at a time.
type unitDecoder interface {
	// unit decodes the character at the start of src into dst (at least
	// maxUnitOut bytes long): it returns the bytes written (none for bytes
	// that decode to nothing, as an escape sequence) and the bytes of src
	// taken, none when src does not hold the whole character yet and more
	// can come (atEOF false).
	unit(dst, src []byte, atEOF bool) (nDst, nSrc int)
}

// newRawInput decodes src; base is the input's bytes before it (a byte
// order mark), which positions count.
func newRawInput(src io.Reader, units unitDecoder, keep, stateful bool, base int64) *rawInput {
	return &rawInput{src: src, units: units, keep: keep, stateful: stateful, zeroFrom: -1, lastCopied: true,
		pos: runCursor{in: base}}
}

// Read hands the tokenizer decoded bytes. After a read error the
// characters before it are handed out, then the error (a character the
// error cut is dropped, as transform.Reader drops it).
func (r *rawInput) Read(p []byte) (int, error) {
	if len(r.spill) > 0 {
		n := copy(p, r.spill)
		r.spill = r.spill[n:]
		return n, nil
	}
	n := 0
	for n < len(p) {
		dst := p[n:]
		small := len(dst) < maxUnitOut
		if small {
			dst = r.spillSpace[:]
		}
		nd, ns := r.units.unit(dst, r.raw[r.next:], r.srcErr == io.EOF)
		if ns == 0 {
			if r.srcErr != nil || n > 0 {
				break // the end, or what is decoded is handed out before the source is read again
			}
			r.fill()
			continue
		}
		r.record(ns, nd)
		if small {
			k := copy(p[n:], dst[:nd])
			r.spill = dst[k:nd]
			n += k
			break
		}
		n += nd
	}
	if n == 0 && r.srcErr != nil {
		return 0, r.srcErr
	}
	return n, nil
}

// fill reads once more from the source (a source that returns nothing
// 100 times in a row fails with io.ErrNoProgress), first dropping what
// neither the copy nor the decoder needs any more.
func (r *rawInput) fill() {
	if drop := r.cur; drop > 0 {
		k := copy(r.raw, r.raw[drop:])
		r.raw = r.raw[:k]
		r.cur, r.next = 0, r.next-drop
		if r.zeroFrom >= 0 {
			r.zeroFrom -= drop
		}
	}
	if cap(r.raw)-len(r.raw) < rawReadSize {
		nb := make([]byte, len(r.raw), max(2*cap(r.raw), len(r.raw)+rawReadSize))
		copy(nb, r.raw)
		r.raw = nb
	}
	for range 100 {
		n, err := r.src.Read(r.raw[len(r.raw):cap(r.raw)])
		r.raw = r.raw[:len(r.raw)+n]
		if err != nil {
			r.srcErr = err
		}
		if n > 0 || err != nil {
			return
		}
	}
	r.srcErr = io.ErrNoProgress
}

// record notes the character of ns original bytes just decoded to nd.
func (r *rawInput) record(ns, nd int) {
	r.outDec += int64(nd)
	if !r.keep {
		r.next += ns
		r.cur = r.next
		if nd == 0 {
			r.addGap(int64(ns)) // only positions need them
			return
		}
		r.addRun(ns, nd)
		return
	}
	if nd > 0 {
		r.zeroFrom = -1
	} else if r.zeroFrom < 0 {
		r.zeroFrom = r.next
	} else if r.next+ns-r.zeroFrom > maxZeroRun && r.cur <= r.zeroFrom {
		// Keep the last escape sequence of the row only (this one); the
		// others become a gap, for positions.
		r.dropped = true
		gone := r.next - r.zeroFrom
		copy(r.raw[r.zeroFrom:], r.raw[r.next:])
		r.raw = r.raw[:len(r.raw)-gone]
		r.next = r.zeroFrom
		var gap int64
		for k := len(r.runs) - 1; k >= r.head && r.runs[k].dec == 0; k-- {
			gap += r.runs[k].rawLen(int(r.runs[k].n))
			r.runs = r.runs[:k]
		}
		if r.head == len(r.runs) {
			r.used = 0
		}
		r.addGap(gap)
	}
	r.next += ns
	r.addRun(ns, nd)
}

// addRun appends a character of ns original bytes decoded to nd to the
// runs.
func (r *rawInput) addRun(ns, nd int) {
	if k := len(r.runs) - 1; k >= r.passed() && int(r.runs[k].raw) == ns && int(r.runs[k].dec) == nd && r.runs[k].n < math.MaxUint32 {
		r.runs[k].n++
		return
	}
	r.compact()
	r.runs = append(r.runs, unitRun{n: 1, raw: uint16(ns), dec: uint16(nd)})
}

// addGap appends n original bytes that decode to nothing and are not kept
// to the runs, in the gap that ends them if there is one.
func (r *rawInput) addGap(n int64) {
	for n > 0 {
		if k := len(r.runs) - 1; k >= r.passed() && r.runs[k].raw == 0 && r.runs[k].n < math.MaxUint32 {
			add := min(n, int64(math.MaxUint32-r.runs[k].n))
			r.runs[k].n += uint32(add)
			n -= add
			continue
		}
		r.compact()
		r.runs = append(r.runs, unitRun{})
	}
}

// passed is the first run that no cursor has passed (one may be inside
// it): a character added to the one before would be behind a cursor.
func (r *rawInput) passed() int {
	if r.keep {
		return max(r.head, r.pos.head)
	}
	return r.pos.head
}

// compact drops the runs both cursors have passed, when they are at least
// half of them.
func (r *rawInput) compact() {
	low := r.pos.head
	if r.keep {
		low = min(low, r.head)
	}
	if low == 0 || low < len(r.runs)/2 {
		return
	}
	k := copy(r.runs, r.runs[low:])
	r.runs = r.runs[:k]
	r.pos.head -= low
	if r.keep {
		r.head -= low
	}
}

// inputPos maps p, the position in the decoded text where the tokenizer's
// next token starts, to the input: the offset counts the input's bytes
// (the byte order mark included), and so does the column, from the first
// byte after the line's end (from the byte order mark on the first line,
// as in UTF-8); lines are the decoded text's. Bytes that decode to nothing
// just before the token's first character (an escape sequence) are the
// token's, as in the copy. p only moves forward, by whole characters.
func (r *rawInput) inputPos(p filter.Pos) filter.Pos {
	if start := p.Offset - int64(p.Col-1); start > r.lineDec {
		// The token before ended a line: the cursor passes its start.
		r.pos.moveTo(r.runs, start)
		r.lineDec, r.lineIn = start, r.pos.in
	}
	r.pos.moveTo(r.runs, p.Offset)
	return filter.Pos{Offset: r.pos.in, Line: p.Line, Col: 1 + int(r.pos.in-r.lineIn)}
}

// inputOffset maps the decoded offset to, at or after the current token's
// start, to the input's bytes, as inputPos does, without moving.
func (r *rawInput) inputOffset(to int64) int64 {
	c := r.pos
	c.moveTo(r.runs, to)
	return c.in
}

// advance moves the cursor over the characters before the decoded offset
// to; those that decode to nothing at to stay (they belong to the
// character there).
func (r *rawInput) advance(to int64) {
	for r.curDec < to && r.head < len(r.runs) {
		run := &r.runs[r.head]
		k := run.toPass(r.used, r.curDec, to)
		if r.stateful {
			r.followState(run, k)
		}
		r.cur += k * int(run.raw) // a gap's bytes are not in raw
		r.curDec += int64(k * int(run.dec))
		if r.used += k; r.used == int(run.n) {
			r.head++
			r.used = 0
		}
	}
}

// take returns the original bytes of the decoded bytes [from, to), and
// the escape sequence the copy needs before them (ISO-2022-JP); the bytes
// before from are dropped.
func (r *rawInput) take(from, to int64) (pre, raw []byte) {
	r.advance(from)
	if r.stateful && !r.state.equal(&r.copied) && r.head < len(r.runs) && r.runs[r.head].dec > 0 {
		// The copy is in another state, and the stretch does not start
		// with an escape sequence of its own.
		pre = r.pre[:copy(r.pre[:], r.state.view())]
	}
	start := r.cur
	r.advance(to)
	raw = r.raw[start:r.cur]
	if len(raw) == 0 {
		return nil, nil
	}
	r.copied, r.lastCopied = r.state, true
	return pre, raw
}

// skip drops the original bytes of the decoded bytes before to.
func (r *rawInput) skip(to int64) { r.advance(to) }

// elided notes an elision: the ellipsis, if one was written, ends in the
// charset's initial state.
func (r *rawInput) elided() {
	r.copied, r.lastCopied = escape{}, false
}

// archive passes a token's decoded bytes b, at decoded offset off, to the
// archive copy as the original bytes, or elides them.
func (r *rawInput) archive(c *filter.Core, b []byte, off int64, on bool) {
	r.warnDropped(c)
	if !on {
		c.Archive(b, false) // passes what the driver put off, then elides
		r.skip(off + int64(len(b)))
		if !archiveSpace(b) {
			r.elided()
		}
		return
	}
	pre, raw := r.take(off, off+int64(len(b)))
	if len(pre) > 0 {
		c.Archive(pre, true)
	}
	c.Archive(raw, true)
}

// end passes the original bytes after the last character, which decode
// to nothing (a final escape sequence), with the bytes copied last; after
// an elision they are dropped.
// warnDropped says, once, that escape sequences were dropped: the copy is
// not the input's bytes there (SPEC 5 promises them).
func (r *rawInput) warnDropped(c *filter.Core) {
	if r.dropped && !r.warned {
		r.warned = true
		c.Warn(c.Pos(), "more than %d bytes of escape sequences with no character between them: the archive copy keeps only the last (the text reads the same; the bytes differ from the input's)", maxZeroRun)
	}
}

func (r *rawInput) end(c *filter.Core) {
	r.warnDropped(c)
	r.advance(r.outDec) // every character
	if rest := r.raw[r.cur:r.next]; len(rest) > 0 && r.lastCopied {
		c.Archive(rest, true)
	}
	r.cur = r.next
}

// archiveSpace is the archive writer's test of white space: elided white
// space alone writes no ellipsis.
func archiveSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			return false
		}
	}
	return true
}

// escape is an ISO-2022-JP escape sequence (n of its bytes); the zero
// value is the initial state, ASCII.
type escape struct {
	b [4]byte
	n int
}

var escASCII = []byte("\x1b(B")

// view is the escape sequence's bytes (ESC ( B for the initial state).
func (e *escape) view() []byte {
	if e.n == 0 {
		return escASCII
	}
	return e.b[:e.n]
}

func (e *escape) equal(f *escape) bool {
	return bytes.Equal(e.view(), f.view())
}

// followState follows the decoder's state over k characters of run from
// the cursor: an escape sequence sets it, and x/text's decoder goes back
// to ASCII at a line feed in a two-byte set (in such a set the one
// character of one byte that decodes to one byte is the line feed).
func (r *rawInput) followState(run *unitRun, k int) {
	switch {
	case k == 0, run.raw == 0: // a gap: escape sequences dropped before the one kept after them
	case run.dec == 0 && int(run.raw) <= len(r.state.b):
		last := r.cur + (k-1)*int(run.raw)
		r.state.n = copy(r.state.b[:], r.raw[last:last+int(run.raw)])
	case run.raw == 1 && run.dec == 1 && r.state.n >= 2 && r.state.b[1] == '$':
		r.state = escape{}
	}
}

// utf16Units decodes UTF-16 as the WHATWG Encoding Standard does: a lone
// surrogate is U+FFFD, and so is a last, odd byte (with a lead surrogate
// before it, one U+FFFD for both).
type utf16Units struct{ bigEndian bool }

func (u utf16Units) at(src []byte, i int) rune {
	if u.bigEndian {
		return rune(src[i])<<8 | rune(src[i+1])
	}
	return rune(src[i+1])<<8 | rune(src[i])
}

func (u utf16Units) unit(dst, src []byte, atEOF bool) (nDst, nSrc int) {
	if len(src) < 2 {
		if atEOF && len(src) == 1 {
			return utf8.EncodeRune(dst, utf8.RuneError), 1
		}
		return 0, 0
	}
	c := u.at(src, 0)
	switch {
	case c < 0xD800 || c > 0xDFFF:
		return utf8.EncodeRune(dst, c), 2
	case c >= 0xDC00: // a trail surrogate with no lead
		return utf8.EncodeRune(dst, utf8.RuneError), 2
	case len(src) < 4:
		if !atEOF {
			return 0, 0
		}
		return utf8.EncodeRune(dst, utf8.RuneError), len(src)
	}
	if t := u.at(src, 2); 0xDC00 <= t && t <= 0xDFFF {
		return utf8.EncodeRune(dst, 0x10000+(c-0xD800)<<10+(t-0xDC00)), 4
	}
	return utf8.EncodeRune(dst, utf8.RuneError), 2 // a lead surrogate with no trail
}

// transformUnits drives an x/text decoder one character at a time: each
// call is given the fewest bytes it decodes something from. split, if
// set, names a character's length where the decoder would look past it
// and decode more than it (an ISO-2022-JP ESC that starts no escape
// sequence is U+FFFD alone, but the decoder decodes the two bytes after it
// in the same call).
type transformUnits struct {
	t     transform.Transformer
	split func(src []byte, atEOF bool) int
}

func (u *transformUnits) unit(dst, src []byte, atEOF bool) (nDst, nSrc int) {
	if len(src) == 0 {
		return 0, 0
	}
	if u.split != nil {
		if k := u.split(src, atEOF); k > 0 {
			nDst, nSrc, _ = u.t.Transform(dst, src[:k], true)
			if nSrc > 0 {
				return nDst, nSrc
			}
		}
	}
	for k := 1; k <= len(src); k++ {
		last := k == len(src)
		nDst, nSrc, _ = u.t.Transform(dst, src[:k], atEOF && last)
		if nSrc > 0 {
			return nDst, nSrc
		}
	}
	if atEOF {
		// The decoder takes nothing more: the rest decodes to nothing
		// (a unit's length must fit a unitRun).
		return 0, min(len(src), math.MaxUint16)
	}
	return 0, 0
}

// iso2022JPSplit is transformUnits.split for ISO-2022-JP: an ESC followed
// by bytes that make none of the escape sequences x/text's decoder knows
// is a character of one byte (U+FFFD).
func iso2022JPSplit(src []byte, atEOF bool) int {
	if src[0] != 0x1b {
		return 0
	}
	if len(src) < 3 {
		return b2i(atEOF)
	}
	switch c1, c2 := src[1], src[2]; {
	case c1 == '$' && (c2 == '@' || c2 == 'B'), c1 == '(' && (c2 == 'B' || c2 == 'J' || c2 == 'I'):
		return 0
	case c1 == '$' && c2 == '(':
		if len(src) < 4 {
			return b2i(atEOF)
		}
		if src[3] == 'D' {
			return 0
		}
	}
	return 1
}
