package filter

import (
	"math/rand"
	"strings"
	"testing"
)

// advanceByteByByte is Advance's definition: CR, LF and CRLF end a line.
func advanceByteByByte(p Pos, b []byte) Pos {
	for _, c := range b {
		p.Offset++
		switch {
		case c == '\n' && p.afterCR:
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

// Advance, with its word-at-a-time and vectorised shortcuts, agrees with
// the byte-by-byte definition on random pieces of every length.
func TestAdvanceMatchesByteByByte(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("ab \t\n\r\x0b\x0c\x0d\x0e\x00\xff<>")
	for round := 0; round < 20000; round++ {
		doc := make([]byte, rng.Intn(200))
		for i := range doc {
			if rng.Intn(4) == 0 {
				doc[i] = alphabet[rng.Intn(len(alphabet))]
			} else {
				doc[i] = byte('a' + rng.Intn(26))
			}
		}
		got, want := StartPos, StartPos
		for rest := doc; len(rest) > 0; {
			n := 1 + rng.Intn(len(rest))
			if rng.Intn(2) == 0 {
				n = 1 + rng.Intn(min(len(rest), 12))
			}
			got, want = got.Advance(rest[:n]), advanceByteByByte(want, rest[:n])
			if got != want {
				t.Fatalf("after %q (of %q): %+v, want %+v", rest[:n], doc, got, want)
			}
			rest = rest[n:]
		}
	}
}

// AdvanceInLine is Advance for bytes without a CR or an LF, after any
// position (after a CR too) and for no bytes at all.
func TestAdvanceInLineIsAdvanceWithoutLineEnds(t *testing.T) {
	for _, before := range []string{"", "a", "a\r", "a\n", "\r\n", "a\r\nb"} {
		start := StartPos.Advance([]byte(before))
		for _, b := range []string{"", "x", "x y", "\x00\t\x0b\x0c\x0e"} {
			if got, want := start.AdvanceInLine(len(b)), start.Advance([]byte(b)); got != want {
				t.Errorf("after %q, %q: %+v, want %+v", before, b, got, want)
			}
		}
	}
}

// A warning's message is cut at MaxWarningBytes, between characters, for
// the Warning output and the Result alike; both are given MaxWarnings of
// them, and the Result counts the rest.
func TestWarningsAreCutAndCounted(t *testing.T) {
	var seen []Warning
	c, err := NewCore(Options{}, Outputs{Warning: func(w Warning) { seen = append(seen, w) }})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é", MaxWarningBytes)
	for i := 0; i < MaxWarnings+3; i++ {
		c.Warn(Pos{Line: 1, Col: 1 + i}, "value %q", long)
	}
	res, _ := c.Finish()
	if len(seen) != MaxWarnings || len(res.Warnings) != MaxWarnings || res.WarningsDropped != 3 {
		t.Fatalf("%d seen, %d kept, %d dropped", len(seen), len(res.Warnings), res.WarningsDropped)
	}
	for _, w := range []Warning{seen[0], res.Warnings[MaxWarnings-1]} {
		if m := w.Message; len(m) > MaxWarningBytes+len("…") || !strings.HasPrefix(m, `value "éé`) || !strings.HasSuffix(m, "é…") {
			t.Errorf("message of %d bytes: %q…%q", len(m), m[:12], m[len(m)-12:])
		}
	}
}
