// Package phrase writes indexable text in robofilter's plain text format
// (SPEC section 5): whitespace runs collapse to one space, a block boundary
// ends a line, and a phrase break is an empty line, written wherever an
// excluded region was, never at the start, at the end, or twice in a row.
//
// A Writer is a write filter in the manner of text/tabwriter: separators are
// deferred until the next word shows they are needed, so nothing is ever
// taken back, and Flush ends the output with one newline if it is not empty.
// Memory does not grow with the text: words pass straight through (plain
// mode) or through one bounded line buffer (line mode).
package phrase

import (
	"encoding/binary"
	"io"
	"sync"
	"unicode/utf8"
)

// sep is a deferred separator; a larger one absorbs smaller ones.
type sep uint8

const (
	sepNone sep = iota
	sepSpace
	sepLine
	sepPhrase
)

// Separators, as variables so writing them does not allocate.
var (
	phraseSep = []byte("\n\n")
	lineSep   = []byte("\n")
	wordSep   = []byte(" ")
)

// plainBuffer is how much plain-mode text is gathered per write.
const plainBuffer = 4 << 10

// MaxLineChunk bounds the line buffer of line mode: a longer line is handed
// over in pieces of at most this many bytes, with the same line number.
const MaxLineChunk = 64 << 10

// Line is one output line in line mode. Phrase and Number count from 1;
// Number counts lines across the whole document.
type Line struct {
	Phrase int
	Number int
	Text   []byte // borrowed: valid only during the callback
}

// Writer turns text pieces and boundaries into the plain text format.
type Writer struct {
	out     io.Writer // plain mode: where buf goes when it is full, and at Flush
	buf     []byte
	pooled  *[]byte // buf's pool entry, returned at Flush
	onLine  func(Line) error
	line    []byte
	pending sep
	started bool // a word has been written
	flushed bool // Flush has ended the output
	inLine  bool // the current line has a word
	phrase  int
	lineNo  int
	err     error
}

// NewWriter writes the plain text format to w.
func NewWriter(w io.Writer) *Writer {
	bp := plainBuffers.Get().(*[]byte)
	return &Writer{out: w, buf: (*bp)[:0], pooled: bp, phrase: 1, lineNo: 1}
}

// plainBuffers keeps plain mode's buffers from one Writer's Flush to the
// next NewWriter: a run over many small documents (feed records) would
// otherwise allocate and clear one per document and output.
var plainBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, plainBuffer)
	return &b
}}

// NewLineWriter calls fn for every line instead of writing text (line mode),
// so a caller can emit records (JSON Lines) without re-parsing the text.
func NewLineWriter(fn func(Line) error) *Writer {
	return &Writer{onLine: fn, phrase: 1, lineNo: 1}
}

// Text adds character data. Whitespace runs (HTML's ASCII whitespace and
// the other Unicode spaces, see SpaceLen) separate words; text without
// whitespace at its edges glues to its neighbours, so `<b>wo</b>rd` gives
// "word".
func (w *Writer) Text(b []byte) {
	// Most text is words between single spaces, perhaps with whitespace at
	// its edges: the words are then one run, found without the loop below.
	if i, j := trimASCIISpace(b); plainRun(b[i:j]) {
		if i > 0 && w.pending < sepSpace {
			w.pending = sepSpace
		}
		if i < j {
			w.run(b[i:j])
		}
		if j < len(b) && w.pending < sepSpace {
			w.pending = sepSpace
		}
		return
	}
	w.textRuns(b)
}

// trimASCIISpace returns where b starts and ends without the ASCII
// whitespace at its edges.
func trimASCIISpace(b []byte) (i, j int) {
	i, j = 0, len(b)
	for i < j && asciiSpace[b[i]] {
		i++
	}
	for j > i && asciiSpace[b[j-1]] {
		j--
	}
	return i, j
}

// AppendWords appends the words of text to dst, one space apart: text as
// Text writes it on one line (a link's anchor text), without separators
// around it.
func AppendWords(dst, text []byte) []byte {
	if i, j := trimASCIISpace(text); plainRun(text[i:j]) {
		return append(dst, text[i:j]...)
	}
	wrote := false
	for i := 0; i < len(text); {
		for i < len(text) && special[text[i]] {
			n := SpaceLen(text, i)
			if n == 0 {
				break
			}
			i += n
		}
		j := i
		for j < len(text) && (!special[text[j]] || SpaceLen(text, j) == 0) {
			j++
		}
		if j > i {
			if wrote {
				dst = append(dst, ' ')
			}
			dst = append(dst, text[i:j]...)
			wrote = true
		}
		i = j
	}
	return dst
}

// textRuns is Text for any text: it finds the runs of words one by one.
func (w *Writer) textRuns(b []byte) {
	i := 0
	for i < len(b) {
		if n := SpaceLen(b, i); n > 0 {
			i += n
			if w.pending < sepSpace {
				w.pending = sepSpace
			}
			continue
		}
		// A run of words, with single spaces inside it, written at once.
		// The inner loop passes word bytes; the checks after it decide
		// whether the byte it stopped at continues the run.
		start := i
		for {
			if i+8 <= len(b) {
				i = plainWords(b, i)
			}
			for i < len(b) && !special[b[i]] {
				i++
			}
			if i == len(b) {
				break
			}
			if c := b[i]; c == ' ' {
				// A single space within the run: the next byte starts a word.
				if i+1 < len(b) && (!special[b[i+1]] || b[i+1] >= 0x80 && SpaceLen(b, i+1) == 0) {
					i += 2
					continue
				}
			} else if c >= 0x80 && SpaceLen(b, i) == 0 {
				i++ // the lead byte of a character that is no space
				continue
			}
			break
		}
		w.run(b[start:i])
	}
}

// run writes a run of words (words', below) after the pending separator.
func (w *Writer) run(b []byte) {
	if w.pending <= sepSpace && w.inLine && w.onLine == nil && w.err == nil && len(w.buf)+len(b) < cap(w.buf) {
		// words' usual case, without its call: more words on the line,
		// into the buffer, after one space or none.
		if w.pending == sepSpace {
			w.buf = append(w.buf, ' ')
		}
		w.pending = sepNone
		w.buf = append(w.buf, b...)
		return
	}
	w.words(b)
}

// plainRun reports whether b, which neither starts nor ends with ASCII
// whitespace, is one run of words as Text reads them: no ASCII control
// (the other whitespace among them), no lead byte of a wide space, no two
// spaces in a row. Eight bytes are checked at once (plainOctet, which
// plainWords uses too), in windows that overlap by one byte so that no
// pair of bytes falls between two; text shorter than eight bytes, a byte
// at a time.
func plainRun(b []byte) bool {
	n := len(b)
	if n < 8 {
		for k := 0; k < n; k++ {
			if c := b[k]; runStop[c] && (c != ' ' || k+1 < n && b[k+1] == ' ') {
				return false
			}
		}
		return true
	}
	for i := 0; ; i += 7 {
		if i+8 >= n {
			return plainOctet(binary.LittleEndian.Uint64(b[n-8:]))
		}
		if !plainOctet(binary.LittleEndian.Uint64(b[i:])) {
			return false
		}
	}
}

// plainOctet reports whether eight bytes of text hold no ASCII control, no
// lead byte of a wide space (0xC2, 0xE0 to 0xE3) and no two spaces in a
// row.
func plainOctet(x uint64) bool {
	const ones, lows, highs = 0x0101010101010101, 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	// Each test has the high bit of the bytes it names, exactly: the sums
	// never carry from one byte to the next. A byte of x is 0x20 or more
	// where x&lows + 0x60 or x has the high bit; a byte of s, c or e is not
	// zero where s&lows + lows or s has it (the space, 0xC2, 0xE0 to 0xE3
	// are the zero bytes of x xor them). other has it where the byte is
	// none of those; sp where the byte is a space.
	s, c, e := x^' '*ones, x^0xC2*ones, x&(0xFC*ones)^0xE0*ones
	sp := ^((s&lows + lows) | s) & highs
	other := (x&lows + (0x80-0x20)*ones | x) & (c&lows + lows | c) & (e&lows + lows | e)
	return ^other&highs|sp&(sp>>8) == 0
}

// asciiSpace marks HTML's ASCII whitespace; runStop, the bytes plainRun
// looks at twice (plainOctet's, and the space, which may start a pair).
var asciiSpace, runStop = func() (space, stop [256]bool) {
	for _, c := range []byte(" \t\n\r\f") {
		space[c] = true
	}
	for c := range 0x21 { // the space, for a second look
		stop[c] = true
	}
	for _, c := range []byte("\xC2\xE0\xE1\xE2\xE3") {
		stop[c] = true
	}
	return space, stop
}()

// plainWords skips, eight bytes at a time, from i (a byte of the run) over
// text that certainly continues the run: no ASCII control, no single
// spaces in pairs, no lead byte of a wide space (0xC2, 0xE0 to 0xE3). It
// stops before the first eight bytes it cannot pass, on a byte the run's
// byte loop takes from there. Text of words and single spaces, the usual
// case, then costs a few instructions per eight bytes and no mispredicted
// branch per word.
func plainWords(b []byte, i int) int {
	for i+8 <= len(b) && plainOctet(binary.LittleEndian.Uint64(b[i:])) {
		// A space in the last byte starts the next eight, which check
		// the byte after it.
		if b[i+7] == ' ' {
			i--
		}
		i += 8
	}
	return i
}

// SpaceLen is the length of the whitespace character at b[i], 0 if there is
// none: HTML's ASCII whitespace (space, tab, LF, FF, CR), a no-break space,
// and the other characters Unicode calls white space (U+0085, U+1680,
// U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), in UTF-8.
func SpaceLen(b []byte, i int) int {
	if c := b[i]; c < 0x80 {
		return int(asciiSpaceLen[c]) // inlined: most calls end here
	}
	return wideSpaceLen(b, i)
}

var asciiSpaceLen = [0x80]uint8{' ': 1, '\t': 1, '\n': 1, '\r': 1, '\f': 1}

// wideSpaceLen is SpaceLen for a byte above ASCII.
func wideSpaceLen(b []byte, i int) int {
	switch b[i] {
	case 0xC2:
		if i+1 < len(b) && (b[i+1] == 0xA0 || b[i+1] == 0x85) {
			return 2
		}
	case 0xE1:
		if i+2 < len(b) && b[i+1] == 0x9A && b[i+2] == 0x80 {
			return 3
		}
	case 0xE2:
		if i+2 < len(b) {
			switch c1, c2 := b[i+1], b[i+2]; {
			case c1 == 0x80 && (0x80 <= c2 && c2 <= 0x8A || c2 == 0xA8 || c2 == 0xA9 || c2 == 0xAF),
				c1 == 0x81 && c2 == 0x9F:
				return 3
			}
		}
	case 0xE3:
		if i+2 < len(b) && b[i+1] == 0x80 && b[i+2] == 0x80 {
			return 3
		}
	}
	return 0
}

// AllSpace reports whether b is nothing but whitespace (SpaceLen): text
// that puts no word into the output.
func AllSpace(b []byte) bool {
	for i := 0; i < len(b); {
		n := SpaceLen(b, i)
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}

// special marks the bytes the scan must look at: ASCII whitespace, and the
// lead bytes of the other spaces (SpaceLen).
var special = func() (t [256]bool) {
	for _, c := range []byte(" \t\n\r\f\xC2\xE1\xE2\xE3") {
		t[c] = true
	}
	return t
}()

// words writes a run of words (no leading or trailing whitespace, single
// spaces inside) after the pending separator.
func (w *Writer) words(b []byte) {
	space := false
	switch {
	case !w.started:
	case w.pending == sepPhrase:
		w.endLine()
		w.phrase++
		w.put(phraseSep)
	case w.pending == sepLine:
		if w.inLine {
			w.endLine()
			w.put(lineSep)
		}
	case w.pending == sepSpace:
		space = w.inLine
	}
	w.pending = sepNone
	w.started = true
	w.inLine = true
	// Plain mode with room: the space and the words go straight into the
	// buffer (most pieces of text are a word or two).
	if w.onLine == nil && w.err == nil && len(w.buf)+len(b) < cap(w.buf) {
		if space {
			w.buf = append(w.buf, ' ')
		}
		w.buf = append(w.buf, b...)
		return
	}
	if space {
		w.put(wordSep)
	}
	w.put(b)
}

// Space marks a word boundary that is not in the text (a table cell).
func (w *Writer) Space() {
	if w.pending < sepSpace {
		w.pending = sepSpace
	}
}

// LineBreak marks a block boundary.
func (w *Writer) LineBreak() {
	if w.pending < sepLine {
		w.pending = sepLine
	}
}

// Break marks an excluded region: the words before and after it are in
// different phrases.
func (w *Writer) Break() { w.pending = sepPhrase }

// Started reports whether any word has been written.
func (w *Writer) Started() bool { return w.started }

func (w *Writer) put(b []byte) {
	if w.err != nil {
		return
	}
	if w.onLine == nil {
		if len(w.buf)+len(b) > cap(w.buf) {
			if w.writeBuf(); w.err != nil {
				return
			}
			if len(b) > cap(w.buf) {
				_, w.err = w.out.Write(b)
				return
			}
		}
		w.buf = append(w.buf, b...)
		return
	}
	if b[0] == '\n' {
		return // line mode: line ends are the records themselves
	}
	for len(w.line)+len(b) > MaxLineChunk {
		k := MaxLineChunk - len(w.line)
		for k > 0 && !utf8.RuneStart(b[k]) {
			k-- // never cut a character in two
		}
		w.line = append(w.line, b[:k]...)
		b = b[k:]
		w.emit()
	}
	w.line = append(w.line, b...)
}

// endLine hands the finished line over in line mode.
func (w *Writer) endLine() {
	if w.onLine != nil && w.err == nil && len(w.line) > 0 {
		w.emit()
	}
	w.lineNo++
	w.inLine = false
}

func (w *Writer) emit() {
	w.err = w.onLine(Line{Phrase: w.phrase, Number: w.lineNo, Text: w.line})
	w.line = w.line[:0]
}

// Flush ends the output: one final newline if anything was written. The
// Writer must not be written to after Flush; Flush again does nothing
// more (robofilter.Process and filter.Core.Finish flush the writers they
// are given).
func (w *Writer) Flush() error {
	if w.flushed {
		return w.err
	}
	w.flushed = true
	if w.started {
		if w.onLine != nil {
			w.endLine()
		} else {
			w.put(lineSep)
		}
	}
	if w.out != nil && w.err == nil {
		w.writeBuf()
	}
	if w.pooled != nil {
		// The buffer goes back; a Writer used after Flush all the same
		// finds none and writes straight through.
		*w.pooled = w.buf[:0]
		plainBuffers.Put(w.pooled)
		w.pooled, w.buf = nil, nil
	}
	return w.err
}

// writeBuf hands the gathered plain text to the output.
func (w *Writer) writeBuf() {
	if len(w.buf) > 0 {
		_, w.err = w.out.Write(w.buf)
		w.buf = w.buf[:0]
	}
}
