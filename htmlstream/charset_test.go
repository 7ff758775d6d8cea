package htmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// openInput skips x/net's META prescan when the head has no "<meta" in
// any case (and no label, no byte above ASCII). The skip must never hide a
// META the prescan would read: every ASCII head without the mark gets the
// prescan's "nothing found" answer, and every head whose META the prescan
// reads has the mark.
func TestPrescanIsSkippedOnlyWhereItFindsNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"<", ">", " ", "=", "\"", "'", "/", "\x00", "\n", "meta", "META", "MeTa", "me", "ta", "m", "<!--", "-->",
		"charset=utf-16", "charset=iso-8859-2", "http-equiv=content-type", "content=\"text/html; charset=koi8-r\"", "<p>", "x",
		"<meta charset=koi8-r>", "<meta http-equiv=content-type content=\"text/html; charset=iso-8859-2\">", "<meta charset=utf-16>"}
	found := 0
	for round := 0; round < 20000; round++ {
		var b strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		head := []byte(b.String())
		for i, c := range head {
			if 'a' <= c|0x20 && c|0x20 <= 'z' && rng.IntN(3) == 0 {
				head[i] = c ^ 0x20 // any case
			}
		}
		_, name, certain := charset.DetermineEncoding(head, "")
		if name != "windows-1252" || certain {
			found++
			if !mentionsMeta(head) {
				t.Fatalf("%q: the prescan finds %s, but the head has no <meta mark", head, name)
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d of the random heads name a charset: the test does not reach the prescan", found)
	}
	for _, tc := range []struct {
		head string
		want bool
	}{
		{`<META charset=koi8-r>`, true},
		{`<p><MeTa http-equiv=content-type content="text/html; charset=koi8-r">`, true},
		{`<p>meta charset=koi8-r`, false},
		{`< meta charset=koi8-r>`, false},
		{`<me`, false},
		{`x<`, false},
	} {
		if got := mentionsMeta([]byte(tc.head)); got != tc.want {
			t.Errorf("mentionsMeta(%q) = %v", tc.head, got)
		}
	}
}

// outputsOf runs the stage over src with every output, and returns them,
// the warnings and the stage's error.
type stageOutputs struct {
	text, archive, links string
	warnings             []filter.Warning
	err                  error
}

func outputsOf(t *testing.T, src io.Reader, opts Options) stageOutputs {
	t.Helper()
	var text, archive, links bytes.Buffer
	var o stageOutputs
	c, err := filter.NewCore(filter.Options{}, filter.Outputs{
		Text: phrase.NewWriter(&text), Archive: &archive,
		Link:    func(l filter.Link) error { fmt.Fprintf(&links, "%s %d:%d\n", l.URL, l.Line, l.Col); return nil },
		Warning: func(w filter.Warning) { o.warnings = append(o.warnings, w) },
	})
	if err != nil {
		t.Fatal(err)
	}
	_, o.err = run(src, c, opts)
	if _, err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	o.text, o.archive, o.links = text.String(), archive.String(), links.String()
	return o
}

// A read error among the first KiB (the prescan's) stops the document
// where it happens, as one later does: what was read before it is
// processed and written, and the error says where it is. It used to stop
// before anything was read, with no position. The outputs are those of
// the bytes before the error read as the whole document (the error falls
// between two tokens), at both places, in UTF-8 and UTF-16, read at
// several chunk sizes.
func TestReadErrorInTheFirstKiBKeepsWhatCameBefore(t *testing.T) {
	page := "<html><head><title>T</title><meta charset=utf-8></head><body>" +
		strings.Repeat("<p>Some text and <a href=/x>a link</a>.</p>\n", 200)
	u16 := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	docs := []struct {
		name string
		src  []byte
		at   func(tokenEnd int) int // the error's byte offset for a token ending at tokenEnd in page
		pos  func(tokenEnd int) int64
	}{
		{"utf-8", []byte(page), func(e int) int { return e }, func(e int) int64 { return int64(e) }},
		// Positions count the input's bytes, the byte order mark's too.
		{"utf-16be", append([]byte{0xFE, 0xFF}, encodeIn(u16, page)...), func(e int) int { return 2 + 2*e }, func(e int) int64 { return int64(2 + 2*e) }},
	}
	for _, doc := range docs {
		// The end of a token near byte 300 and one near byte 3000 of page.
		for _, near := range []int{300, 3000} {
			end := strings.Index(page[near:], "</p>") + near + len("</p>")
			at := doc.at(end)
			want := outputsOf(t, bytes.NewReader(doc.src[:at]), Options{})
			for _, n := range []int{1 << 20, 1, 7, 100} {
				got := outputsOf(t, &failingReader{src: doc.src, at: at, n: n}, Options{})
				var pe *filter.PosError
				if !errors.As(got.err, &pe) || !errors.Is(got.err, errTestRead) {
					t.Fatalf("%s, error at %d, read %d at a time: error %v, want a *filter.PosError of the reader's error", doc.name, at, n, got.err)
				}
				if pe.Pos.Offset != doc.pos(end) || pe.Pos.Line != 1+strings.Count(page[:end], "\n") {
					t.Fatalf("%s, error at %d, read %d at a time: error at %v (offset %d), want offset %d", doc.name, at, n, pe.Pos, pe.Pos.Offset, doc.pos(end))
				}
				if got.text != want.text || got.archive != want.archive || got.links != want.links {
					t.Fatalf("%s, error at %d, read %d at a time: outputs differ from those of the bytes before the error:\ntext %q\nwant %q\narchive %q\nwant %q\nlinks %q\nwant %q",
						doc.name, at, n, got.text, want.text, got.archive, want.archive, got.links, want.links)
				}
				if want.text == "" {
					t.Fatalf("%s: nothing before the error", doc.name)
				}
			}
		}
	}
}

func encodeIn(e encoding.Encoding, s string) []byte {
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		panic(fmt.Sprintf("%q: %v", s, err))
	}
	return b
}

// A UTF-16 page's archive copy is in its own byte order: a UTF-16BE one
// came out as UTF-16LE (the decoder read either BOM, the encoder wrote
// little-endian). With no-archive regions, the ellipsis is in UTF-16BE
// too. The page is larger than the buffers, read at many chunk sizes.
func TestUTF16BigEndianArchiveStaysBigEndian(t *testing.T) {
	body := strings.Repeat("<p>Grüße, 日本語 😀 <a href=/x>link</a></p>\n", 2000)
	for _, tc := range []struct {
		name, page string
	}{
		{"no region", "<html><head><title>Tïtle</title></head><body>" + body + "</body></html>\n"},
		{"regions", "<html><head><title>Tïtle</title></head><body>" + body + `<div class="robots-noarchive"><p>secret 😀</p></div>` +
			body + "<img class=robots-noarchive src=x><p data-nosnippet>hidden</p></body></html>\n"},
	} {
		want8, _ := archiveOf(t, strings.NewReader(tc.page))
		for _, order := range []unicode.Endianness{unicode.BigEndian, unicode.LittleEndian} {
			bom := []byte{0xFE, 0xFF}
			if order == unicode.LittleEndian {
				bom = []byte{0xFF, 0xFE}
			}
			enc := unicode.UTF16(order, unicode.IgnoreBOM)
			src := append(bytes.Clone(bom), encodeIn(enc, tc.page)...)
			want := append(bytes.Clone(bom), encodeIn(enc, want8)...)
			if tc.name == "no region" && !bytes.Equal(want, src) {
				t.Fatal("the UTF-8 copy is not the page")
			}
			for _, n := range []int{0, 1, 2, 3, 5, 64, 4093} {
				got, _ := archiveOf(t, readAtATime(string(src), n))
				if got != string(want) {
					i := firstDiff([]byte(got), want)
					t.Fatalf("%s, %v, read %d at a time: the copy differs at byte %d of %d:\n got %q\nwant %q",
						tc.name, bom, n, i, len(want), clipAt([]byte(got), i), clipAt(want, i))
				}
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func clipAt(b []byte, i int) []byte {
	return b[max(0, i-40):min(len(b), i+40)]
}

// WHATWG's replacement encoding (ISO-2022-KR, HZ-GB-2312 and the others
// whose bytes can be read as markup by one reader and not by another)
// decodes a document to one U+FFFD: robofilter cannot see its robots
// META or its no-archive regions, so it cannot know a copy is safe, and
// writes none, with a warning (it wrote EF BF BD, which is not the page).
// The text is the U+FFFD a browser shows.
func TestReplacementEncodingWithholdsTheArchive(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		opts      Options
	}{
		{"META", "<meta charset=iso-2022-kr><p>\x1b$)C\x0e!!\x0f secret</p>", Options{}},
		{"label", "<p>anything</p>", Options{Charset: "hz-gb-2312"}},
		{"Content-Type", "<p>anything</p>", Options{ContentType: "text/html; charset=iso-2022-cn"}},
	} {
		got := outputsOf(t, strings.NewReader(tc.src), tc.opts)
		if got.err != nil || got.archive != "" || got.text != "\uFFFD\n" || len(got.warnings) != 1 ||
			!strings.Contains(got.warnings[0].Message, "no archive copy is written") || got.warnings[0].Line != 1 {
			t.Fatalf("%s: archive %q, text %q, warnings %v, error %v", tc.name, got.archive, got.text, got.warnings, got.err)
		}
	}
	// Without an archive copy to withhold (check, text) the warning is
	// given too: check reports what archive would do.
	var warnings []filter.Warning
	c, err := filter.NewCore(filter.Options{}, filter.Outputs{Warning: func(w filter.Warning) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(strings.NewReader("<p>anything</p>"), c, Options{Charset: "iso-2022-kr"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Finish(); err != nil || len(warnings) != 1 || !strings.Contains(warnings[0].Message, "replacement encoding") {
		t.Errorf("with no outputs: warnings %v, error %v", warnings, err)
	}
}

// A META charset the document is not read in is warned about, with its
// position, where only a META could have decided the charset: past the
// first KiB (too late for the prescan), or after the META the prescan
// took; and one that names no known charset, anywhere. A META naming the
// charset in use (by another label too) says nothing.
func TestMetaCharsetNotUsedIsWarned(t *testing.T) {
	pad := "<p>" + strings.Repeat("x", 1100) + "</p>\n"
	u16 := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	for _, tc := range []struct {
		name string
		src  []byte
		opts Options
		want []string // "line:col: start of the message"
	}{
		{"late", []byte(pad + `<meta charset="koi8-r">`), Options{},
			[]string{`2:1: META charset "koi8-r" comes after the first 1024 bytes`}},
		{"late http-equiv", []byte(pad + `<META HTTP-EQUIV=Content-Type content='text/html; charset=iso-8859-2'>`), Options{},
			[]string{`2:1: META charset "iso-8859-2" comes after the first 1024 bytes`}},
		{"late, straddling the first KiB", []byte("<p>" + strings.Repeat("x", 1010) + `</p><meta charset=koi8-r>`), Options{},
			[]string{`1:1018: META charset "koi8-r" comes after`}},
		{"late, the charset in use", []byte(pad + `<meta charset=UTF-8><meta http-equiv=content-type content="text/html;charset=utf8">`), Options{}, nil},
		{"late, the fallback of an unlabeled page", []byte(pad + `<meta charset=windows-1252><meta charset=iso-8859-1>`), Options{}, nil},
		{"late, another label of the prescan's", []byte(`<meta charset=windows-1252>` + pad + `<meta charset=latin1>`), Options{}, nil},
		{"late, the prescan's utf-8", []byte(`<meta charset=utf-8>` + pad + `<meta charset=koi8-r>`), Options{},
			[]string{`2:1: META charset "koi8-r" comes after`}},
		{"late utf-16 is utf-8", []byte(`<meta charset=utf-8>` + pad + `<meta charset=utf-16>`), Options{}, nil},
		{"early, after the one the prescan took", []byte(`<meta charset=iso-8859-2><meta charset=koi8-r>`), Options{},
			[]string{`1:26: META charset "koi8-r" is not the one the prescan`}},
		{"unknown, early", []byte(`<meta charset=klingon><p>x`), Options{},
			[]string{`1:1: META names charset "klingon", which is not known`}},
		{"unknown, late", []byte(pad + `<meta http-equiv=content-type content="text/html; charset=x-none">`), Options{},
			[]string{`2:1: META names charset "x-none", which is not known`}},
		{"late, but the Content-Type decides", []byte(pad + `<meta charset=koi8-r>`), Options{ContentType: "text/html; charset=utf-8"}, nil},
		{"late, but --charset decides", []byte(pad + `<meta charset=koi8-r>`), Options{Charset: "windows-1251"}, nil},
		{"late unknown, --charset", []byte(pad + `<meta charset=nope>`), Options{Charset: "windows-1251"},
			[]string{`2:1: META names charset "nope", which is not known`}},
		{"BOM", append([]byte{0xFF, 0xFE}, encodeIn(u16, `<meta charset=utf-16><meta charset=koi8-r>`+pad)...), Options{}, nil},
		{"in a template, inert", []byte(pad + `<template><meta charset=koi8-r></template>`), Options{}, nil},
		// META breaks out of foreign content: it is an HTML META there.
		{"in SVG", []byte(pad + `<svg><meta charset=koi8-r></svg>`), Options{},
			[]string{`2:6: META charset "koi8-r" comes after`}},
		{"no charset", []byte(pad + `<meta http-equiv=content-type content="text/html"><meta name=x content="charset=koi8-r">`), Options{}, nil},
		// "The first 1024 bytes" are the input's, which the prescan reads,
		// not the decoded text's: in ISO-2022-JP a kanji is 2 bytes (3
		// decoded) and an escape sequence 3 (none).
		{"iso-2022-jp, late by its bytes", []byte("<meta charset=iso-2022-jp>" + strings.Repeat("\x1b$B$3\x1b(B", 150) + ` <meta charset=koi8-r>`), Options{},
			[]string{`1:1228: META charset "koi8-r" comes after the first 1024 bytes`}},
		{"iso-2022-jp, early by its bytes", []byte("<meta charset=iso-2022-jp>\x1b$B" + strings.Repeat("$3", 350) + "\x1b(B" + ` <meta charset=koi8-r>`), Options{},
			[]string{`1:734: META charset "koi8-r" is not the one the prescan`}},
	} {
		for _, n := range []int{0, 1, 5, 1023} {
			got := outputsOf(t, readAtATime(string(tc.src), n), tc.opts)
			var msgs []string
			for _, w := range got.warnings {
				msgs = append(msgs, fmt.Sprintf("%d:%d: %s", w.Line, w.Col, w.Message))
			}
			ok := len(msgs) == len(tc.want)
			for i := range tc.want {
				ok = ok && strings.HasPrefix(msgs[i], tc.want[i])
			}
			if !ok {
				t.Fatalf("%s, read %d at a time: warnings\n%s\nwant\n%s", tc.name, n, strings.Join(msgs, "\n"), strings.Join(tc.want, "\n"))
			}
		}
	}
}
