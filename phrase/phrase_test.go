package phrase

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

type op func(w *Writer)

func text(s string) op { return func(w *Writer) { w.Text([]byte(s)) } }
func line() op         { return func(w *Writer) { w.LineBreak() } }
func brk() op          { return func(w *Writer) { w.Break() } }
func space() op        { return func(w *Writer) { w.Space() } }

func TestWriterPlainFormat(t *testing.T) {
	tests := []struct {
		name string
		ops  []op
		want string
	}{
		{"empty gives nothing", nil, ""},
		{"whitespace runs collapse", []op{text("  a \t\n b  ")}, "a b\n"},
		{"inline glue", []op{text("wo"), text("rd")}, "word\n"},
		{"block ends a line", []op{text("a"), line(), text("b")}, "a\nb\n"},
		{"no empty lines from blocks", []op{text("a"), line(), line(), text(" "), line(), text("b")}, "a\nb\n"},
		{"phrase break is an empty line", []op{text("a"), brk(), text("b")}, "a\n\nb\n"},
		{"no break at start", []op{brk(), text("a")}, "a\n"},
		{"no break at end", []op{text("a"), brk()}, "a\n"},
		{"no break twice", []op{text("a"), brk(), line(), brk(), text("b")}, "a\n\nb\n"},
		{"space separates without a line", []op{text("a"), space(), text("b")}, "a b\n"},
		{"no-break space separates words", []op{text("a\u00a0b")}, "a b\n"},
		{"lines are trimmed", []op{text(" a "), line(), text(" b ")}, "a\nb\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(&buf)
			for _, o := range tc.ops {
				o(w)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Errorf("got %q, want %q", buf.String(), tc.want)
			}
		})
	}
}

func TestLineWriterNumbersPhrasesAndSplitsLongLines(t *testing.T) {
	var got []Line
	w := NewLineWriter(func(l Line) error {
		l.Text = append([]byte(nil), l.Text...)
		got = append(got, l)
		return nil
	})
	w.Text([]byte("a"))
	w.LineBreak()
	w.Text([]byte("b"))
	w.Break()
	w.Text(bytes.Repeat([]byte("x"), MaxLineChunk+10))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		phrase, line, n int
	}{{1, 1, 1}, {1, 2, 1}, {2, 3, MaxLineChunk}, {2, 3, 10}}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Phrase != w.phrase || got[i].Number != w.line || len(got[i].Text) != w.n {
			t.Errorf("line %d: phrase %d line %d len %d, want %+v", i, got[i].Phrase, got[i].Number, len(got[i].Text), w)
		}
	}
}

func TestLineWriterNeverCutsACharacter(t *testing.T) {
	var parts [][]byte
	w := NewLineWriter(func(l Line) error {
		parts = append(parts, append([]byte(nil), l.Text...))
		return nil
	})
	w.Text(bytes.Repeat([]byte("é"), MaxLineChunk)) // two bytes each
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	for i, p := range parts {
		if !utf8.Valid(p) {
			t.Errorf("part %d is not valid UTF-8 at its ends", i)
		}
	}
}

// TestTextWordBoundaries puts each kind of byte that ends or may end a run
// of words at every offset of a text longer than plainRun's eight-byte
// reads, so that every lane and the pair across two reads are tried.
func TestTextWordBoundaries(t *testing.T) {
	breaks := []string{"  ", " ", "\t", "\n", " \n", "\u00a0", " \u00a0", "\u3000", "\xc3\xa9", " \xc3\xa9", "\x01", " \x01", "\xc2", " \xe2\x80", "\x7f", " !"}
	const letters = "abcdefghijklmnopqrstuvwx"
	for _, brk := range breaks {
		for at := 0; at <= len(letters); at++ {
			for _, tail := range []string{"", " ", "  "} {
				// Short texts too, and bytes after the text in its
				// slice's capacity, which a read may take but must not
				// count.
				for _, cut := range []int{0, at} {
					for _, after := range []string{"", "        ", "\t\t\t\t\t\t\t\t", "\u3000\u3000\u3000", "abcdefgh"} {
						text := []byte(letters[cut:at] + brk + letters[at:] + tail + after)
						text = text[:len(text)-len(after)]
						var buf bytes.Buffer
						w := NewWriter(&buf)
						w.Text(text)
						if err := w.Flush(); err != nil {
							t.Fatal(err)
						}
						if want := wordsOf(text); buf.String() != string(want) {
							t.Errorf("Text(%q) with %q after it = %q, want %q", text, after, buf.String(), want)
						}
					}
				}
			}
		}
	}
}

// AllSpace is true exactly for text that a Writer turns into no word.
func TestAllSpaceIsTextWithoutWords(t *testing.T) {
	for _, s := range []string{"", " ", "\t\n\r\f", "\u00a0", " \u3000 ", "\u2028", "a", " a ", "\xc2", " \xe2\x80", "\x00", "…"} {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.Text([]byte(s))
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if got, want := AllSpace([]byte(s)), buf.Len() == 0; got != want {
			t.Errorf("AllSpace(%q) = %v, but the Writer wrote %q", s, got, buf.String())
		}
	}
}

// plainRun and plainOctet, Text's fast path (and plainWords'), agree with
// a byte-at-a-time reading of their rule. A mask that refused too much
// would not change Text's output (the run loop takes what the fast path
// refuses), only make it slow: this is the test that sees it.
func TestPlainRunAgreesWithItsRuleBytewise(t *testing.T) {
	rule := func(b []byte) bool {
		for k, c := range b {
			if c < 0x20 || c == 0xC2 || 0xE0 <= c && c <= 0xE3 || c == ' ' && k+1 < len(b) && b[k+1] == ' ' {
				return false
			}
		}
		return true
	}
	// The bytes next to each edge of the masks, and some in the middle.
	edges := []byte{0, 0x09, 0x1F, ' ', 0x21, 'a', 0x7F, 0x80, 0xC1, 0xC2, 0xC3, 0xDF, 0xE0, 0xE3, 0xE4, 0xFF}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		b := make([]byte, r.IntN(24))
		for k := range b {
			if r.IntN(3) == 0 {
				b[k] = byte(r.IntN(256))
			} else {
				b[k] = edges[r.IntN(len(edges))]
			}
		}
		if len(b) >= 8 {
			if got, want := plainOctet(binary.LittleEndian.Uint64(b)), rule(b[:8]); got != want {
				t.Fatalf("plainOctet(% x) = %v, want %v", b[:8], got, want)
			}
		}
		if got, want := plainRun(b), rule(b); got != want {
			t.Fatalf("plainRun(% x) = %v, want %v", b, got, want)
		}
	}
}

// AppendWords gives a text's words as Text writes them.
func TestAppendWordsIsTextOnOneLine(t *testing.T) {
	// Every space SpaceLen knows, bytes that start one, and words.
	parts := []string{" ", "  ", "\t", "\n", "\r", "\f", "\v", "\xc2", "\xa0", "\xe2\x80", "é", "a", "word", "\xff", "\x01"}
	for _, r := range "\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000" {
		parts = append(parts, string(r))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 50000; i++ {
		var b []byte
		for j := r.IntN(12); j > 0; j-- {
			b = append(b, parts[r.IntN(len(parts))]...)
		}
		got := AppendWords([]byte("href"), b)
		want := append([]byte("href"), bytes.TrimSuffix(wordsOf(b), []byte("\n"))...)
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendWords(%q) = %q, want %q", b, got[4:], want[4:])
		}
	}
}
