package phrase

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzWriter drives the writer with arbitrary text and boundaries and
// checks the format's promises.
func FuzzWriter(f *testing.F) {
	f.Add([]byte("a b\x01c\x02\x03d"))
	f.Add([]byte("\x03\x03x\x03"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		for _, chunk := range bytes.SplitAfter(ops, []byte{0}) {
			switch {
			case len(chunk) == 0:
			case chunk[0] == 1:
				w.Space()
			case chunk[0] == 2:
				w.LineBreak()
			case chunk[0] == 3:
				w.Break()
			default:
				w.Text(bytes.TrimSuffix(chunk, []byte{0}))
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		out := buf.Bytes()
		if len(out) == 0 {
			return
		}
		switch {
		case out[len(out)-1] != '\n' || bytes.HasSuffix(out, []byte("\n\n")):
			t.Fatalf("must end with exactly one newline: %q", out)
		case out[0] == '\n':
			t.Fatalf("starts with an empty line: %q", out)
		case bytes.Contains(out, []byte("\n\n\n")):
			t.Fatalf("two phrase breaks in a row: %q", out)
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
			if len(line) > 0 && (line[0] == ' ' || line[len(line)-1] == ' ' || bytes.Contains(line, []byte("  "))) {
				t.Fatalf("line not trimmed or collapsed: %q", line)
			}
		}
	})
}

// FuzzWriterWords checks that text alone comes out as its words, in order,
// one space apart, however it is cut into pieces (never inside a
// character: the core hands over whole ones).
func FuzzWriterWords(f *testing.F) {
	f.Add([]byte("a b\u00a0c  d\xc2"), uint8(3))
	f.Add([]byte("\xc2 x\xc2\xc2\xa0y \xc3\xa9\v"), uint8(1))
	f.Add([]byte("a\u3000b\u2003c \u2019d\u2028e \xe2\x80 f\u1680"), uint8(2))
	f.Add([]byte("the quick brown fox  jumps\tover the lazy dog \x01x caf\xc3\xa9 na\xc3\xafve\u00a0and the end "), uint8(39))
	f.Add([]byte("abcdefg  hijklmn opqrstu\nvwxyzab cdefghi\u2028j"), uint8(17))
	f.Fuzz(func(t *testing.T, text []byte, cut uint8) {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		n := int(cut)%40 + 1 // up to past the eight bytes plainRun reads at once
		for rest := text; len(rest) > 0; {
			k := min(n, len(rest))
			for k < len(rest) && rest[k]&0xC0 == 0x80 {
				k++ // not inside a character
			}
			w.Text(rest[:k])
			rest = rest[k:]
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		want := wordsOf(text)
		if got := buf.String(); got != string(want) {
			t.Fatalf("pieces of %d: got %q, want %q", n, got, want)
		}
	})
}

// wordsOf is what Text gives for text alone: its words in order, one space
// apart, and a final newline; found by decoding every character.
func wordsOf(text []byte) []byte {
	var want []byte
	word := false // the last byte appended belongs to a word
	for i := 0; i < len(text); i++ {
		// Unicode's white space, but \v, which HTML does not count.
		r, size := utf8.DecodeRune(text[i:])
		switch c := text[i]; {
		case r != '\v' && unicode.IsSpace(r):
			word = false
			i += size - 1
		default:
			if !word && len(want) > 0 {
				want = append(want, ' ')
			}
			want = append(want, c)
			word = true
		}
	}
	if len(want) > 0 {
		want = append(want, '\n')
	}
	return want
}

// model is the plain text format written the slow way, one byte at a time,
// as the oracle for the Writer's fast paths.
type model struct {
	out             []byte
	pending         sep
	started, inLine bool
}

func (m *model) text(b []byte) {
	for i := 0; i < len(b); i++ {
		if n := SpaceLen(b, i); n > 0 {
			i += n - 1
			m.pending = max(m.pending, sepSpace)
			continue
		}
		if m.started {
			switch {
			case m.pending == sepPhrase:
				m.out = append(m.out, "\n\n"...)
				m.inLine = false
			case m.pending == sepLine && m.inLine:
				m.out = append(m.out, '\n')
				m.inLine = false
			case m.pending == sepSpace && m.inLine:
				m.out = append(m.out, ' ')
			}
		}
		m.pending = sepNone
		m.started, m.inLine = true, true
		m.out = append(m.out, b[i])
	}
}

// runOps plays ops (pieces of text cut at 0 bytes; a piece that is 1, 2 or
// 3 is a Space, LineBreak or Break) on the Writer, in plain and in line
// mode, and on the model.
func runOps(t *testing.T, ops []byte) {
	t.Helper()
	var plain bytes.Buffer
	w := NewWriter(&plain)
	var lines []byte
	lastPhrase := 1
	lw := NewLineWriter(func(l Line) error {
		if len(lines) > 0 {
			if l.Phrase != lastPhrase {
				lines = append(lines, '\n')
			}
			lines = append(lines, '\n')
		}
		lastPhrase = l.Phrase
		lines = append(lines, l.Text...)
		return nil
	})
	var m model
	for _, chunk := range bytes.SplitAfter(ops, []byte{0}) {
		chunk = bytes.TrimSuffix(chunk, []byte{0})
		for _, w := range []*Writer{w, lw} {
			switch {
			case len(chunk) == 1 && chunk[0] == 1:
				w.Space()
			case len(chunk) == 1 && chunk[0] == 2:
				w.LineBreak()
			case len(chunk) == 1 && chunk[0] == 3:
				w.Break()
			default:
				w.Text(chunk)
			}
		}
		switch {
		case len(chunk) == 1 && chunk[0] == 1:
			m.pending = max(m.pending, sepSpace)
		case len(chunk) == 1 && chunk[0] == 2:
			m.pending = max(m.pending, sepLine)
		case len(chunk) == 1 && chunk[0] == 3:
			m.pending = sepPhrase
		default:
			m.text(chunk)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := lw.Flush(); err != nil {
		t.Fatal(err)
	}
	if m.started {
		m.out = append(m.out, '\n')
		lines = append(lines, '\n')
	}
	if !bytes.Equal(plain.Bytes(), m.out) {
		t.Fatalf("plain mode:\n got %q\nwant %q", plain.Bytes(), m.out)
	}
	if !bytes.Equal(lines, m.out) {
		t.Fatalf("line mode:\n got %q\nwant %q", lines, m.out)
	}
}

// FuzzWriterModel checks both modes against the byte-at-a-time model.
func FuzzWriterModel(f *testing.F) {
	f.Add([]byte(" a  b\t\x00\x01\x00c \x00\x02\x00 d\u00a0e \x00\x03\x00f"))
	f.Add([]byte("x\x00 \x00y\x00\x03\x00\x02\x00 z \x00\xc2\x00\xa0w"))
	f.Fuzz(func(t *testing.T, ops []byte) { runOps(t, ops) })
}

// TestWriterModelLongText crosses the plain buffer's edge many times, with
// pieces long and short.
func TestWriterModelLongText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "bc", "déf", " ", "  ", "\t", "\n", "\u00a0", "\xc2", "\x00\x01\x00", "\x00\x02\x00", "\x00\x03\x00", "\x00"}
	for round := 0; round < 200; round++ {
		var ops []byte
		n := rng.IntN(20000)
		for len(ops) < n {
			if rng.IntN(50) == 0 {
				ops = append(ops, bytes.Repeat([]byte("w "), rng.IntN(3000))...)
			}
			ops = append(ops, alphabet[rng.IntN(len(alphabet))]...)
		}
		runOps(t, ops)
	}
}

// special, the bytes Text's loops look at twice, must mark every byte a
// whitespace character starts with.
func TestSpecialMarksEverySpaceStart(t *testing.T) {
	for c := 0; c < 256; c++ {
		for c1 := 0x80; c1 < 0xC0; c1++ {
			for c2 := 0x80; c2 < 0xC0; c2++ {
				b := []byte{byte(c), byte(c1), byte(c2)}
				if SpaceLen(b, 0) > 0 && !special[c] {
					t.Fatalf("% x is a space, but %#x is not marked", b, c)
				}
			}
		}
	}
}

// TestWriterModelWordsAndSingleSpaces is text of short words and single
// spaces, where the eight-byte scan (plainWords) does the work, with now
// and then a byte it must stop at: every kind of wide space, characters
// that share a wide space's lead byte, controls and double spaces, at
// every offset within eight bytes.
func TestWriterModelWordsAndSingleSpaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"a", "to", "the", "dog", "café", "naïve", "jumps", "crawler"}
	rare := []string{"  ", "\t", "\n", "\r", "\f", "\x01", "\u00a0", "\u0085", "©", "\u1680", "\u2003", "\u200a", "\u200b",
		"\u2028", "\u202f", "\u205f", "\u3000", "\u3001", "あ", "\u0800", "\x00\x02\x00", "\x00\x03\x00", "\xe2", "\xc2"}
	for round := 0; round < 2000; round++ {
		var ops []byte
		n := rng.IntN(300)
		for len(ops) < n {
			ops = append(ops, words[rng.IntN(len(words))]...)
			if rng.IntN(12) == 0 {
				ops = append(ops, rare[rng.IntN(len(rare))]...)
			} else {
				ops = append(ops, ' ')
			}
		}
		runOps(t, ops)
	}
}
