package phrase

import (
	"bytes"
	"testing"
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
// one space apart, however it is cut into pieces (a no-break space is not
// cut in two: the core hands over whole characters).
func FuzzWriterWords(f *testing.F) {
	f.Add([]byte("a b\u00a0c  d\xc2"), uint8(3))
	f.Add([]byte("\xc2 x\xc2\xc2\xa0y \xc3\xa9\v"), uint8(1))
	f.Fuzz(func(t *testing.T, text []byte, cut uint8) {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		n := int(cut)%7 + 1
		for rest := text; len(rest) > 0; {
			k := min(n, len(rest))
			if k < len(rest) && rest[k-1] == 0xC2 && rest[k] == 0xA0 {
				k++
			}
			w.Text(rest[:k])
			rest = rest[k:]
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		var want []byte
		word := false // the last byte appended belongs to a word
		for i := 0; i < len(text); i++ {
			switch c := text[i]; {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
				word = false
			case c == 0xC2 && i+1 < len(text) && text[i+1] == 0xA0:
				word = false
				i++
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
		if got := buf.String(); got != string(want) {
			t.Fatalf("pieces of %d: got %q, want %q", n, got, want)
		}
	})
}
