package xmlstream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// generated is a reader of head, then n copies of fill, then tail, made as
// it is read (a 50 MB document never sits in memory); it counts what was read.
type generated struct {
	head, fill, tail []byte
	n                int
	read             int64
	stage            int
	buf              []byte
}

func (g *generated) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		switch {
		case g.stage == 0:
			g.buf, g.stage = g.head, 1
		case g.stage == 1 && g.n > 0:
			k := min(g.n, 4096)
			g.buf = bytes.Repeat(g.fill, k)
			g.n -= k
		case g.stage == 1:
			g.buf, g.stage = g.tail, 2
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	g.read += int64(n)
	return n, nil
}

func TestDeepNesting100000LevelsWithDefaultLimit(t *testing.T) {
	const depth = 100_000
	input := strings.Repeat("<a>", depth) + "deep" + strings.Repeat("</a>", depth)
	oc := runXML(t, strings.NewReader(input), filter.Options{}, Options{})
	if oc.err != nil {
		t.Fatal(oc.err)
	}
	if oc.text != "deep\n" {
		t.Errorf("text %q", oc.text)
	}
	if !bytes.Equal(oc.archive, []byte(input)) {
		t.Error("archive copy differs from the input")
	}
}

func TestDepthLimitIsAPositionedError(t *testing.T) {
	input := "<doc>\n" + strings.Repeat("<a>", 2000) + "x" + strings.Repeat("</a>", 2000) + "</doc>"
	oc := runXML(t, strings.NewReader(input), filter.Options{}, Options{MaxDepth: 1000})
	var pe *filter.PosError
	if !errors.As(oc.err, &pe) || !errors.Is(oc.err, filter.ErrTooDeep) {
		t.Fatalf("error %v, want a PosError wrapping ErrTooDeep", oc.err)
	}
	if pe.Pos.Line != 2 || pe.Pos.Col != 1+3*999 {
		t.Errorf("at %s, want 2:%d (the 1001st start tag)", pe.Pos, 1+3*999)
	}
	if want := "<doc>\n" + strings.Repeat("<a>", 999); string(oc.archive) != want {
		t.Errorf("archive copy %d bytes, want the %d bytes before the limit", len(oc.archive), len(want))
	}
}

// TestHugeTokensHitTheTokenLimit feeds 50 MB tokens of every kind: each
// must fail with a positioned limit error after reading little more than
// the limit (memory is bounded by it), with what came before written.
func TestHugeTokensHitTheTokenLimit(t *testing.T) {
	const size = 50 << 20
	cases := []struct {
		name             string
		head, fill, tail string
		o                Options
	}{
		{"text node", "<doc><p>before</p>", "a", "</doc>", Options{}},
		{"text node in a single-byte charset", "<?xml version='1.0' encoding='ISO-8859-1'?><doc><p>before</p>", "\xe9", "</doc>", Options{}},
		{"text node in UTF-16", "\xff\xfe<\x00d\x00>\x00", "a\x00", "<\x00/\x00d\x00>\x00", Options{}},
		{"CDATA section", "<doc><p>before</p><![CDATA[", "a", "]]></doc>", Options{}},
		{"comment", "<doc><p>before</p><!--", "a", "--></doc>", Options{}},
		{"attribute value", `<doc><p>before</p><p a="`, "a", `"/></doc>`, Options{}},
		{"DOCTYPE internal subset", "<!DOCTYPE doc [<!-- ", "a", " -->]><doc/>", Options{}},
		{"text node, small limit", "<doc><p>before</p>", "a", "</doc>", Options{MaxTokenSize: 1 << 20}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			if raceDetector && o.MaxTokenSize == 0 {
				o.MaxTokenSize = 1 << 20 // 16 MB byte by byte is slow under -race
			}
			g := &generated{head: []byte(tc.head), fill: []byte(tc.fill), tail: []byte(tc.tail), n: size / len(tc.fill)}
			oc := runXML(t, g, filter.Options{}, o)
			var pe *filter.PosError
			if !errors.As(oc.err, &pe) || !errors.Is(oc.err, filter.ErrTokenTooLong) {
				t.Fatalf("error %v, want a PosError wrapping ErrTokenTooLong", oc.err)
			}
			limit := int64(o.MaxTokenSize)
			if limit == 0 {
				limit = filter.DefaultMaxTokenSize
			}
			if g.read > 4*limit+1<<20 {
				t.Errorf("read %d bytes before failing: not bounded by the limit (%d)", g.read, limit)
			}
			if strings.Contains(tc.head, "before") && !strings.Contains(oc.text, "before") {
				t.Errorf("text before the token was not written: %q", oc.text)
			}
		})
	}
}
