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
