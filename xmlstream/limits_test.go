package xmlstream

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
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
		// Text nodes come in pieces (TestLongTextNodesComeInPieces), but
		// where the source decodes runs a piece ends after white space.
		{"text node without white space in a single-byte charset", "<?xml version='1.0' encoding='ISO-8859-1'?><doc><p>before</p>", "\xe9", "</doc>", Options{}},
		{"text node without white space in UTF-16", "\xff\xfe<\x00d\x00>\x00", "a\x00", "<\x00/\x00d\x00>\x00", Options{}},
		{"CDATA section", "<doc><p>before</p><![CDATA[", "a", "]]></doc>", Options{}},
		{"comment", "<doc><p>before</p><!--", "a", "--></doc>", Options{}},
		{"attribute value", `<doc><p>before</p><p a="`, "a", `"/></doc>`, Options{}},
		{"DOCTYPE internal subset", "<!DOCTYPE doc [<!-- ", "a", " -->]><doc/>", Options{}},
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

// A reference the token size limit cuts short is the limit's error, not
// "not a reference" (the window ends inside it), at every chunking. (A
// text node of them comes in pieces: TestLongTextNodesComeInPieces.)
func TestReferenceCutByTheTokenLimitIsTheLimitsError(t *testing.T) {
	for _, input := range []string{
		`<r a="` + strings.Repeat("&#38;", 30000) + `"/>`,
	} {
		for _, ch := range chunkings([]byte(input), 3) {
			oc := runXML(t, ch.r(), filter.Options{}, Options{MaxTokenSize: 100000})
			if !errors.Is(oc.err, filter.ErrTokenTooLong) {
				t.Fatalf("%.20q… read %s: error %v, want the token size limit's", input, ch.name, oc.err)
			}
		}
	}
}

// Nested xml:base attributes, each resolved against the one above, make
// bases that grow with the depth; held by every open element, they grew
// with its square (10,000 levels held 585 MB). The bases are bounded: the
// live heap at the deepest link stays small, the link resolves against
// the last base within the bound, and the ignored ones are warned about.
func TestNestedXMLBaseStaysBounded(t *testing.T) {
	const depth = 10_000
	var in strings.Builder
	in.WriteString(`<doc xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="http://example.com/">`)
	for i := range depth {
		fmt.Fprintf(&in, `<a xml:base="d%d/">`, i)
	}
	in.WriteString(`<l xlink:href="x.html">deep</l>`)
	in.WriteString(strings.Repeat("</a>", depth) + "</doc>")
	var heap uint64
	var links []filter.Link
	out := filter.Outputs{Link: func(l filter.Link) error {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heap = ms.HeapAlloc
		links = append(links, l)
		return nil
	}}
	var warnings []filter.Warning
	out.Warning = func(w filter.Warning) { warnings = append(warnings, w) }
	core, err := filter.NewCore(filter.Options{}, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(strings.NewReader(in.String()), core, Options{}); err != nil {
		t.Fatal(err)
	}
	res, err := core.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 {
		t.Fatalf("%d links, want 1", len(links))
	}
	if heap > 64<<20 {
		t.Errorf("live heap at the deepest link: %d MB", heap>>20)
	}
	if len(warnings) == 0 {
		t.Fatal("no warning")
	}
	w := warnings[0]
	var first int
	if _, err := fmt.Sscanf(w.Message, "xml:base \"d%d/\"", &first); err != nil || first == 0 || w.Line != 1 || w.Col <= 1 {
		t.Fatalf("first warning %v", w)
	}
	// Every level from the first ignored one down keeps the base above it,
	// with a warning: the output is given the first MaxWarnings of them.
	if len(warnings) != min(depth-first, filter.MaxWarnings) || len(warnings)+res.WarningsDropped != depth-first {
		t.Errorf("%d warnings given, %d dropped, want %d in all", len(warnings), res.WarningsDropped, depth-first)
	}
	u := links[0].URL
	if len(u) > maxBaseLen+len("x.html") || !strings.HasPrefix(u, "http://example.com/d0/d1/") || !strings.HasSuffix(u, "/d"+strconv.Itoa(first-1)+"/x.html") {
		t.Errorf("link %.60q…%s (%d bytes)", u, u[max(0, len(u)-20):], len(u))
	}
}

// Bases that stay short but differ at every level ("../dN/") are bounded
// by their sum over the open elements.
func TestSumOfOpenXMLBasesIsBounded(t *testing.T) {
	size := maxBaseLen - 100 // each base, about
	long := "http://example.com/" + strings.Repeat("p", size-len("http://example.com//")) + "/"
	depth := 2*maxBaseBytes/size + 10
	var in strings.Builder
	fmt.Fprintf(&in, `<doc xml:base="%sr/">`, long)
	for i := range depth {
		fmt.Fprintf(&in, `<a xml:base="../q%d/">`, i)
	}
	in.WriteString(strings.Repeat("</a>", depth) + "</doc>")
	oc := runXML(t, strings.NewReader(in.String()), filter.Options{}, Options{})
	if oc.err != nil {
		t.Fatal(oc.err)
	}
	n := 0
	for _, w := range oc.res.Warnings {
		if strings.Contains(w.Message, "would exceed") {
			n++
		}
	}
	n += oc.res.WarningsDropped // past filter.MaxWarnings, all of the same kind
	if kept := depth - n; n == 0 || kept*size > maxBaseBytes || (kept+1)*(size+100) < maxBaseBytes {
		t.Errorf("%d of %d bases ignored", n, depth)
	}
}

// pieces is a reader of the strings next returns, made as they are read,
// until it returns false.
type pieces struct {
	next func() (string, bool)
	buf  string
}

func (p *pieces) Read(b []byte) (int, error) {
	for p.buf == "" {
		s, ok := p.next()
		if !ok {
			return 0, io.EOF
		}
		p.buf = s
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

// Namespace declarations with long URIs on every level of a deep nesting
// held a copy of each URI per open element, and of the prefix (1,000
// levels of two 32 KiB URIs and a 32 KiB prefix: 78 MB live at the
// deepest element with the URIs alone). A binding keeps only what the
// stage compares names with: a URI it knows, none (xmlns=""), or "another
// namespace", and shares the prefix with the binding it hides, so the live
// heap stays small; the long bindings still hide the outer ones of their
// prefix, and the known ones inside them count.
func TestLongNamespaceURIsOnDeepNestingStayBounded(t *testing.T) {
	const depth, uriLen = 1000, 32 << 10
	long, prefix := strings.Repeat("u", uriLen), strings.Repeat("p", uriLen)
	level, stage := 0, 0
	in := &pieces{next: func() (string, bool) {
		switch {
		case stage == 0:
			stage = 1
			return `<doc xmlns:l="http://www.w3.org/1999/xlink"><x l:href="/outer"/>`, true
		case stage == 1 && level < depth:
			level++
			return fmt.Sprintf(`<a xmlns="urn:%d:%s" xmlns:l="urn:%d:%s" xmlns:%s="urn:p"><x l:href="/hidden%d"/>`, level, long, level, long, prefix, level), true
		case stage == 1:
			stage = 2
			return `<h xmlns="http://www.w3.org/1999/xhtml" xmlns:l="http://www.w3.org/1999/xlink"><a href="/xhtml">x</a><x l:href="/inner"/></h>` +
				`<e xmlns=""><a href="/no-namespace">x</a></e>`, true
		case stage == 2:
			stage = 3
			return strings.Repeat("</a>", depth) + `<x l:href="/outer-again"/></doc>`, true
		}
		return "", false
	}}
	var heap uint64
	var followed []string
	out := filter.Outputs{Link: func(l filter.Link) error {
		if l.URL == "/inner" {
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			heap = ms.HeapAlloc
		}
		if l.Followed {
			followed = append(followed, l.URL)
		}
		return nil
	}}
	core, err := filter.NewCore(filter.Options{}, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(in, core, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := core.Finish(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(followed, " "), "/outer /xhtml /inner /outer-again"; got != want {
		t.Errorf("links %s, want %s", got, want)
	}
	t.Logf("live heap at the deepest element: %d KB", heap>>10)
	if heap > 16<<20 {
		t.Errorf("live heap at the deepest element: %d MB (%d levels of two %d KiB URIs and a prefix as long)", heap>>20, depth, uriLen>>10)
	}
}

// A start tag of a million attributes held about 27 times its size:
// three lists of the attributes grown by append (which copies a long
// slice at every quarter of growth and keeps the old copies until a
// collection) and a map of their names for the repeated-attribute check.
// The scanner's list now grows in chunks, the driver's is made once of
// the size needed, and the check sorts 16-byte hashes. The live heap is
// sampled while the tag is read (every 64 KiB) and while it is handled
// (at the warning about its last attribute, whose prefix nobody
// declared).
func TestHugeStartTagHoldsAFewTimesItsSize(t *testing.T) {
	const tagSize = 12 << 20
	written, attrs, stage := 0, 0, 0
	in := &pieces{next: func() (string, bool) {
		switch {
		case stage == 0:
			stage = 1
			return `<r xmlns:p="urn:p"`, true
		case stage == 1 && written < tagSize:
			var b strings.Builder
			for range 1000 {
				fmt.Fprintf(&b, ` p:a%d="v"`, attrs)
				attrs++
			}
			written += b.Len()
			return b.String(), true
		case stage == 1:
			stage = 2
			return ` q:last="1">x</r>`, true
		}
		return "", false
	}}
	h := &heapSampler{step: 64 << 10}
	h.sample()
	base := h.peak
	h.peak = 0
	var warned bool
	out := filter.Outputs{Warning: func(w filter.Warning) {
		if strings.Contains(w.Message, `prefix "q"`) {
			warned = true
			h.sample()
		}
	}}
	core, err := filter.NewCore(filter.Options{}, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(sampledReader{in, h}, core, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := core.Finish(); err != nil {
		t.Fatal(err)
	}
	if !warned {
		t.Fatal("no warning about the undeclared prefix")
	}
	growth := h.peak - min(base, h.peak)
	t.Logf("a %d MB start tag: peak live heap growth %d MB (%.1f times)", tagSize>>20, growth>>20, float64(growth)/tagSize)
	if growth > 10*tagSize {
		t.Errorf("a %d MB start tag: peak live heap growth %d MB", tagSize>>20, growth>>20)
	}
}

// duplicateAttr finds, among many attributes too, the one a map of the
// names seen finds: the first, in document order, whose name came before.
func TestDuplicateAttrFindsTheFirstRepeatInDocumentOrder(t *testing.T) {
	mapped := func(as []xml.Attr) (xml.Name, bool) {
		seen := map[xml.Name]bool{}
		for _, a := range as {
			if seen[a.Name] {
				return a.Name, true
			}
			seen[a.Name] = true
		}
		return xml.Name{}, false
	}
	seed := uint32(7)
	rnd := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	for range 3000 {
		n, names := rnd(120), 1+rnd(400)
		as := make([]xml.Attr, n)
		for i := range as {
			k := rnd(names)
			as[i].Name = xml.Name{Space: []string{"", "p", "q"}[k%3], Local: fmt.Sprintf("a%d", k/3)}
		}
		wantName, want := mapped(as)
		if gotName, got := duplicateAttr(as); got != want || gotName != wantName {
			t.Fatalf("%d attributes: duplicateAttr %v %v, want %v %v", n, gotName, got, wantName, want)
		}
	}
	var tag strings.Builder
	tag.WriteString("<r xmlns:p='urn:p'")
	for i := range 40 {
		fmt.Fprintf(&tag, " a%d='1' p:a%d='1'", i, i)
	}
	tag.WriteString(" p:a30='2' a20='2'>x</r>")
	oc := runXML(t, strings.NewReader(tag.String()), filter.Options{}, Options{})
	if oc.err == nil || !strings.Contains(oc.err.Error(), "attribute p:a30 appears twice") {
		t.Errorf("error %v, want attribute p:a30 appears twice", oc.err)
	}
}

// A token that came in one read (the source checks the limit only when it
// reads more) is held to the limit too, at every chunking: a 300-byte tag
// and a comment under a 200-byte limit. (A text node comes in pieces.)
func TestTokenInOneReadIsHeldToTheLimit(t *testing.T) {
	long := strings.Repeat("a", 300)
	for _, input := range []string{
		`<r><p>before</p><x a="` + long + `"/>after</r>`,
		`<r><p>before</p><!--` + long + `-->after</r>`,
	} {
		for _, ch := range chunkings([]byte(input), 8) {
			oc := runXML(t, ch.r(), filter.Options{}, Options{MaxTokenSize: 200})
			if !errors.Is(oc.err, filter.ErrTokenTooLong) {
				t.Fatalf("%.30q read %s: error %v, want ErrTokenTooLong", input, ch.name, oc.err)
			}
			if !strings.Contains(oc.text, "before") || strings.Contains(oc.text, "after") {
				t.Fatalf("%.30q read %s: text %q, want what came before the token only", input, ch.name, oc.text)
			}
		}
	}
}

// TestLongTextNodesComeInPieces: a text node far longer than the token size
// limit is read to its end in pieces, in UTF-8, in a charset decoded by
// runs (a piece ends after white space there) and decoded whole, with the
// archive copy the input's bytes and memory bounded by the limit.
func TestLongTextNodesComeInPieces(t *testing.T) {
	size := 8 << 20
	if raceDetector {
		size = 3 << 20
	}
	const limit = 1 << 20
	cases := []struct {
		name, head, fill, tail string
		text                   string // the fill's text, repeated
	}{
		{"a word", "<doc>", "a", "</doc>", "a"},
		{"brackets", "<doc>", "]", "</doc>", "]"},
		{"words", "<doc>", "word ", "</doc>", "word "},
		{"references", "<doc>", "&amp;&#x41;", "</doc>", "&A"},
		{"line ends", "<doc>", "a\r\n", "</doc>", "a "},
		{"words in a single-byte charset", "<?xml version='1.0' encoding='ISO-8859-1'?><doc>", "caf\xe9 ", "</doc>", "café "},
		{"words in UTF-16", "\xff\xfe<\x00d\x00>\x00", "a\x00 \x00", "<\x00/\x00d\x00>\x00", "a "},
		{"words in Shift_JIS", "<?xml version='1.0' encoding='Shift_JIS'?><doc>", "\x83\x5c ", "</doc>", "ソ "},
		{"words in ISO-2022-JP", "<?xml version='1.0' encoding='ISO-2022-JP'?><doc>", "\x1b$B$3\x1b(B ", "</doc>", "こ "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{MaxTokenSize: limit}
			n := size / len(tc.fill)
			g := &generated{head: []byte(tc.head), fill: []byte(tc.fill), tail: []byte(tc.tail), n: n}
			oc := runXML(t, g, filter.Options{}, o)
			if oc.err != nil {
				t.Fatalf("error %v", oc.err)
			}
			want := strings.TrimSpace(strings.Repeat(tc.text, n)) + "\n"
			if oc.text != want {
				t.Errorf("text of %d bytes, want %d", len(oc.text), len(want))
			}
			input := tc.head + strings.Repeat(tc.fill, n) + tc.tail
			if !strings.Contains(tc.name, "ISO-2022-JP") && string(oc.archive) != input {
				t.Errorf("archive copy of %d bytes differs from the input (%d bytes)", len(oc.archive), len(input))
			}
		})
	}
}

// Pieces at every size and chunking give what the text node whole gives.
func TestPiecesChangeNoOutput(t *testing.T) {
	for _, input := range []string{
		"<r>a &amp; b&#x41;c\r\nd\re ]] ] x]y é中 &lt;</r>",
		"<?xml version='1.0' encoding='windows-1252'?><r>caf\xe9 a &amp; b\r\n c ]] d</r>",
		"\xff\xfe<\x00r\x00>\x00a\x00 \x00b\x00&\x00a\x00m\x00p\x00;\x00 \x00=\xd8\x00\xdc \x00<\x00/\x00r\x00>\x00",
		"<r>a ]]> b</r>", "<r>a \x01 b</r>", "<r>a b",
		"<r>" + strings.Repeat("]", 20) + "]]> b</r>", "<r>" + strings.Repeat("]", 20) + "]x]]]" + strings.Repeat("]", 9) + "</r>",
		"<r>a]]]]]]]]b]]]]]]]]]]>c</r>", "<r>" + strings.Repeat("]", 30),
	} {
		want := runXML(t, strings.NewReader(input), filter.Options{}, Options{})
		for piece := 1; piece <= 8; piece++ {
			for _, ch := range chunkings([]byte(input), 3) {
				got := runXML(t, ch.r(), filter.Options{}, Options{piece: piece})
				if got.text != want.text || !bytes.Equal(got.archive, want.archive) || fmt.Sprint(got.err) != fmt.Sprint(want.err) {
					t.Fatalf("%q, piece %d, %s:\n got %q %q %v\nwant %q %q %v", input, piece, ch.name, got.text, got.archive, got.err, want.text, want.archive, want.err)
				}
			}
		}
	}
}

// failAfter reads r in chunks of n bytes, then fails.
type failAfter struct {
	r io.Reader
	n int
}

func (f *failAfter) Read(p []byte) (int, error) {
	k, err := f.r.Read(p[:min(len(p), f.n)])
	if err == io.EOF {
		return k, errConnectionReset
	}
	return k, err
}

var errConnectionReset = errors.New("connection reset")

// Where the input fails inside a text node, the text read before is
// written, then the error, at the end of it: the same with pieces as
// without (the pieces before the last were written already).
func TestInputFailingInsideTextKeepsWhatWasRead(t *testing.T) {
	for _, input := range []string{
		"<r><p>" + strings.Repeat("word ", 40),
		"<?xml version='1.0' encoding='ISO-8859-1'?><r><p>" + strings.Repeat("caf\xe9 ", 40),
		"<r><p>" + strings.Repeat("word ", 40) + "\xc3",
		// A malformed sequence decodes to one U+FFFD of three bytes.
		"<?xml version='1.0' encoding='big5'?><r><p>" + strings.Repeat("\x81@ab ", 10),
	} {
		var want outcome
		for _, piece := range []int{0, 16, 3} {
			got := runXML(t, &failAfter{strings.NewReader(input), 7}, filter.Options{}, Options{piece: piece})
			if !errors.Is(got.err, errConnectionReset) {
				t.Fatalf("%.30q, piece %d: error %v", input, piece, got.err)
			}
			if piece == 0 {
				want = got
				if !strings.Contains(got.text, "word word") && !strings.Contains(got.text, "café café") && !strings.Contains(got.text, "ab \uFFFD") {
					t.Fatalf("%.30q: text %q: what was read before the failure is not written", input, got.text)
				}
				// All that was read, but for a character the failure cut.
				if read := strings.TrimSuffix(input, "\xc3"); string(got.archive) != read {
					t.Fatalf("%.30q: archive copy %q, want %q", input, got.archive, read)
				}
				continue
			}
			if got.text != want.text || !bytes.Equal(got.archive, want.archive) || got.err.Error() != want.err.Error() {
				t.Errorf("%.30q, piece %d:\n got %q %q %v\nwant %q %q %v", input, piece, got.text, got.archive, got.err, want.text, want.archive, want.err)
			}
		}
	}
}
