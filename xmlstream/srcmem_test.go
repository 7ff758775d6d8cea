package xmlstream

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/text/encoding"
)

// heapSampler forces a collection every step bytes that pass through it
// (read from the input, or written to the archive copy) and keeps the
// largest live heap seen.
type heapSampler struct {
	step, n int
	peak    uint64
}

func (h *heapSampler) add(n int) {
	if h.n += n; h.n < h.step {
		return
	}
	h.n = 0
	h.sample()
}

func (h *heapSampler) sample() {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	h.peak = max(h.peak, ms.HeapAlloc)
}

type sampledReader struct {
	r io.Reader
	h *heapSampler
}

func (r sampledReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.h.add(n)
	return n, err
}

type sampledWriter struct{ h *heapSampler }

func (w sampledWriter) Write(p []byte) (int, error) { w.h.add(len(p)); return len(p), nil }

// peakHeapGrowth runs the XML stage over r, its outputs discarded, and
// returns how far the live heap grew above what it was before.
func peakHeapGrowth(t *testing.T, r io.Reader) uint64 {
	t.Helper()
	h := &heapSampler{step: 64 << 10}
	h.sample()
	base := h.peak
	h.peak = 0
	out := filter.Outputs{
		Text:        phrase.NewWriter(io.Discard),
		ArchiveText: phrase.NewWriter(io.Discard),
		Archive:     sampledWriter{h},
		Link:        func(filter.Link) error { return nil },
	}
	core, err := filter.NewCore(filter.Options{}, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(sampledReader{r, h}, core, Options{}); err != nil {
		t.Fatal(err)
	}
	h.sample()
	if _, err := core.Finish(); err != nil {
		t.Fatal(err)
	}
	if h.peak < base {
		return 0
	}
	return h.peak - base
}

// Text in a single-byte charset with no '<' or '>' in it, but cut by
// references to an entity with markup, is many small tokens: it was held
// whole (decoded only up to a '<' or '>'), with two boundaries per
// reference, so that the memory grew with the document (about 20 times
// its size). The source now decodes such text up to its last ';' as it
// reads it, and its memory stays that of a chunk or two.
func TestLatin1TextCutByReferencesStaysBounded(t *testing.T) {
	const head = `<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE r [<!ENTITY e "<b>x</b>">` +
		"<!ENTITY caf\xe9 \"<u>c</u>\">]><r>"
	for _, fill := range []string{"\xe9&e;", "\xe9&caf\xe9;"} {
		run := func(size int) uint64 {
			g := &generated{head: []byte(head), fill: []byte(fill), n: size / len(fill), tail: []byte("</r>")}
			return peakHeapGrowth(t, g)
		}
		small, large := run(128<<10), run(1<<20)
		t.Logf("%q: peak heap growth %d KB at 128 KB, %d KB at 1 MB", fill, small>>10, large>>10)
		if large > small+(256<<10) || large > 1<<20 {
			t.Errorf("%q: peak heap growth %d KB at 128 KB of input, %d KB at 1 MB: it grows with the document", fill, small>>10, large>>10)
		}
	}
}

// Decoding a run of the original up to a ';' or white space and the rest
// after it, as the source does, gives the same text as decoding it whole,
// in every charset read by runs, whatever bytes come before and after.
func TestDecodingSplitAfterARunEndIsTheSame(t *testing.T) {
	encs := map[string]encoding.Encoding{}
	for _, name := range []string{"windows-1252", "iso-8859-2", "koi8-r", "shift_jis", "euc-jp", "euc-kr", "gbk", "gb18030", "big5", "utf-16le", "utf-16be"} {
		enc, _ := lookupCharset(name)
		if enc == nil {
			t.Fatalf("no charset %s", name)
		}
		encs[name] = enc
	}
	alphabet := []byte{';', ';', ';', ' ', '\t', '\n', '\r', 'a', '0', '5', '&', 0x00, 0x30, 0x39, 0x3a, 0x3f, 0x40, 0x7e, 0x80, 0x81, 0x8e, 0x8f, 0xa1, 0xa4, 0xc8, 0xd8, 0xdc, 0xe9, 0xfe, 0xff}
	seed := uint32(1)
	rnd := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	for name, enc := range encs {
		unit := 1
		if strings.HasPrefix(name, "utf-16") {
			unit = 2
		}
		be := name == "utf-16be"
		single := singleByte(enc)
		if want := unit == 1 && (strings.HasPrefix(name, "windows") || strings.HasPrefix(name, "iso") || strings.HasPrefix(name, "koi")); single != want {
			t.Errorf("%s: singleByte %v", name, single)
		}
		decode := func(runs ...[]byte) []byte {
			s := &source{unit: unit, be: be, runDec: enc.NewDecoder(), measure: charsetMeasure{enc: enc.NewEncoder()}, mode: modeMarkers, multi: !single && unit == 1}
			for _, r := range runs {
				s.decodeRun(r, 0)
			}
			return s.buf
		}
		for range 50000 {
			n := rnd(16) * unit
			b := make([]byte, 0, n)
			for range n {
				b = append(b, alphabet[rnd(len(alphabet))])
			}
			s := &source{unit: unit, be: be, raw: b, multi: !single && unit == 1}
			j := s.lastRunEnd(0)
			if j < 0 {
				continue
			}
			cut := j + unit
			whole, split := decode(b), decode(b[:cut], b[cut:])
			if !bytes.Equal(whole, split) || !utf8.Valid(split) {
				t.Fatalf("%s: % x decodes to %q whole, to %q cut after % x", name, b, whole, split, b[j])
			}
		}
	}
}
