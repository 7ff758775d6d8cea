package htmlstream

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// The archive copy of a document in a charset that is not ASCII-compatible
// is the input's own bytes wherever nothing is elided: a UTF-16BE page
// stays UTF-16BE (it came out as UTF-16LE), lone surrogates and an odd
// last byte stay (they came out as U+FFFD), ISO-2022-JP escape sequences
// stay as written (the encoder wrote its own). Each document is larger
// than the decoder's and the tokenizer's buffers and is read at many chunk
// sizes.
func TestArchiveOfDecodedCharsetIsTheInput(t *testing.T) {
	for _, tc := range rawCases() {
		if tc.regions {
			continue
		}
		var src []byte
		for _, p := range tc.pieces {
			src = append(src, p.raw...)
		}
		for _, n := range rawChunkings {
			got, err := rawArchive(chunkedBytes(src, n), tc.opts)
			if err != nil {
				t.Fatalf("%s, read %d bytes at a time: %v", tc.name, n, err)
			}
			if !bytes.Equal(got, src) {
				t.Fatalf("%s, read %d bytes at a time: the copy differs from the input at byte %d of %d",
					tc.name, n, firstDiff(got, src), len(src))
			}
		}
	}
}

// With no-archive regions, the copy is the input's bytes with the elided
// ones replaced by the ellipsis in the input's charset (UTF-16BE in a
// UTF-16BE page).
func TestArchiveOfDecodedCharsetElidesInItsCharset(t *testing.T) {
	for _, tc := range rawCases() {
		if !tc.regions {
			continue
		}
		var src, want []byte
		for _, p := range tc.pieces {
			src = append(src, p.raw...)
			if p.elided {
				want = append(want, tc.ellipsis...)
			} else {
				want = append(want, p.raw...)
			}
		}
		for _, n := range rawChunkings {
			got, err := rawArchive(chunkedBytes(src, n), tc.opts)
			if err != nil {
				t.Fatalf("%s, read %d bytes at a time: %v", tc.name, n, err)
			}
			if !bytes.Equal(got, want) {
				i := firstDiff(got, want)
				t.Fatalf("%s, read %d bytes at a time: the copy differs at byte %d:\n got %q\nwant %q",
					tc.name, n, i, clipAt(got, i), clipAt(want, i))
			}
		}
	}
}

// rawChunkings are the read sizes the copy is checked at (0: whole).
var rawChunkings = []int{0, 1, 2, 3, 4, 5, 7, 11, 64, 1000, 4093, 16385}

type rawPiece struct {
	raw    []byte
	elided bool
}

type rawCase struct {
	name     string
	opts     Options
	pieces   []rawPiece
	regions  bool   // some pieces are elided
	ellipsis []byte // the ellipsis in the charset
}

// rawCases are documents in UTF-16 (both byte orders, by BOM and by
// label) and ISO-2022-JP, each with and without no-archive regions.
func rawCases() []rawCase {
	filler := strings.Repeat("<p class=x>Paragraph with words, <a href='/ü'>ünïcödé</a> 日本語 😀 and more.</p>\n<!-- a comment --><script>if (a < b) {}</script>\n", 700)
	var cases []rawCase
	for _, be := range []bool{false, true} {
		order := unicode.LittleEndian
		bom, label := []byte{0xFF, 0xFE}, "utf-16le"
		lead, trail := []byte{0x00, 0xD8}, []byte{0x00, 0xDC}
		if be {
			order, bom, label = unicode.BigEndian, []byte{0xFE, 0xFF}, "utf-16be"
			lead, trail = []byte{0xD8, 0x00}, []byte{0xDC, 0x00}
		}
		enc := unicode.UTF16(order, unicode.IgnoreBOM)
		u := func(s string) []byte { return encodeIn(enc, s) }
		cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
		for _, withBOM := range []bool{true, false} {
			name := label
			var opts Options
			first := bom
			if !withBOM {
				name += " without BOM, by label"
				opts.Charset = label
				first = nil
			}
			plain := []rawPiece{{raw: cat(first, u("<html><head><title>Tïtle 😀</title></head><body><p>lone lead "), lead,
				u(" lone trail "), trail, u(" two trails "), trail, trail, u(" two leads "), lead, lead, u(" lead then text"), lead,
				u("x</p>"), lead, u("<p>a</p>\n"), u(filler), u("</body></html>\n"))}}
			cases = append(cases,
				rawCase{name: name, opts: opts, pieces: plain},
				rawCase{name: name + ", odd last byte", opts: opts, pieces: []rawPiece{{raw: cat(first, u("<p>a</p>"), u(filler), u("x"), []byte{'y'})}}},
				rawCase{name: name + ", lead surrogate and an odd byte last", opts: opts, pieces: []rawPiece{{raw: cat(first, u(filler), lead, []byte{'y'})}}},
				rawCase{name: name + ", lone surrogate last", opts: opts, pieces: []rawPiece{{raw: cat(first, u(filler), u("<p>"), lead)}}},
				rawCase{name: name + ", cut inside a tag", opts: opts, pieces: []rawPiece{{raw: cat(first, u(filler), u("<a href=\"x"), trail)}}},
				rawCase{name: name + ", with regions", opts: opts, regions: true, ellipsis: u("…"), pieces: []rawPiece{
					{raw: cat(first, u("<html><head><title>T</title></head><body><p>a"), lead, u("b 😀</p>"), u(filler), u(`<div class="robots-noarchive">`))},
					{raw: cat(u("<p>secret ünï 😀"), trail, u("</p>")), elided: true},
					{raw: u("</div><p>between</p>")},
					{raw: u("<img class=robots-noarchive src=x>"), elided: true},
					{raw: cat(u("<p data-nosnippet>"))},
					{raw: cat(lead, u("x"), lead), elided: true},
					{raw: cat(u("</p>"), u(filler), u("<span class=robots-noarchive>"))},
					{raw: cat(u("end"), trail), elided: true},
					{raw: cat(u("</span></body></html>"), []byte{'z'})},
				}},
			)
		}
	}

	// ISO-2022-JP: escape sequences as written (a redundant one, ESC $ @,
	// JIS X 0201 Roman and katakana, one that is no escape sequence, a line
	// feed in a two-byte set, bytes above ASCII), and a document that ends
	// in a two-byte set.
	const esc = "\x1b"
	jisFiller := strings.Repeat("<p>"+esc+"$B$3$s$K$A$O"+esc+"(B, world <a href=/x>"+esc+"$@F|K\\"+esc+"(B</a></p>\n", 1500)
	odd := "<html><head><meta charset=iso-2022-jp><title>" + esc + "$BF|K\\" + esc + "(B" + esc + "(B</title></head><body>" +
		"<p>" + esc + "(J~\\ yen" + esc + "(B</p><p>" + esc + "(I1234" + esc + "(B</p><p>bad " + esc + "xy and " + esc + "$(Z " +
		esc + "$BF|\nK\\" + esc + "(B high \x80\xff</p>" + jisFiller + "<p>" + esc + "$BF|"
	jisOpts := Options{}
	ellJP := []byte(esc + "$B!D" + esc + "(B")
	cases = append(cases,
		rawCase{name: "iso-2022-jp", opts: jisOpts, pieces: []rawPiece{{raw: []byte(odd)}}},
		rawCase{name: "iso-2022-jp, ESC last", opts: jisOpts, pieces: []rawPiece{{raw: []byte(odd + esc)}}},
		rawCase{name: "iso-2022-jp, escape sequences last", opts: jisOpts, pieces: []rawPiece{{raw: []byte(odd + esc + "(B" + esc + "(J")}}},
		rawCase{name: "iso-2022-jp, with regions", opts: jisOpts, regions: true, ellipsis: ellJP, pieces: []rawPiece{
			{raw: []byte("<html><head><meta charset=iso-2022-jp></head><body>" + jisFiller + "<p class=robots-noarchive>")},
			{raw: []byte(esc + "$B=k$_$D"), elided: true},
			// The end tag's own escape sequence goes with it.
			{raw: []byte(esc + "(B</p><p>" + esc + "(J~\\<b class=robots-noarchive>")},
			{raw: []byte("x~"), elided: true},
			// The end tag starts with an escape sequence: nothing is added
			// after the ellipsis (TestArchiveOfISO2022JPSplicesState).
			{raw: []byte(esc + "(J</b>~\\" + esc + "(B</p>" + jisFiller)},
		}},
	)
	return cases
}

// TestArchiveOfISO2022JPSplicesState: where what the copy resumes with is
// read in a state the ellipsis left (JIS X 0201 Roman here, which the
// ellipsis's ESC ( B leaves), the state's escape sequence is written
// before it; where it starts with one of its own, nothing is added.
func TestArchiveOfISO2022JPSplicesState(t *testing.T) {
	const esc = "\x1b"
	for _, tc := range []struct{ name, in, want string }{
		{"roman after an elision",
			"<meta charset=iso-2022-jp>" + esc + "(J<p>~</p><p class=robots-noarchive>x~</p><p>\\</p>",
			"<meta charset=iso-2022-jp>" + esc + "(J<p>~</p><p class=robots-noarchive>" + esc + "$B!D" + esc + "(B" + esc + "(J</p><p>\\</p>"},
		{"an escape sequence of its own",
			"<meta charset=iso-2022-jp><p class=robots-noarchive>" + esc + "$B$3" + esc + "(B</p>",
			"<meta charset=iso-2022-jp><p class=robots-noarchive>" + esc + "$B!D" + esc + "(B" + esc + "(B</p>"},
		{"elided white space takes the escape sequence before it",
			"<meta charset=iso-2022-jp><!--googleoff: snippet-->" + esc + "(J \n<!--googleon: snippet--><b>~</b>",
			"<meta charset=iso-2022-jp><!--googleoff: snippet-->" + esc + "(J<!--googleon: snippet--><b>~</b>"},
		{"custom ASCII ellipsis starts with ESC ( B",
			"<meta charset=iso-2022-jp>" + esc + "$B$3" + esc + "(B<p class=robots-noarchive>x</p>",
			"<meta charset=iso-2022-jp>" + esc + "$B$3" + esc + "(B<p class=robots-noarchive>" + esc + "(B[...]</p>"},
	} {
		ell := ""
		if strings.Contains(tc.name, "custom") {
			ell = "[...]"
		}
		for n := 0; n <= len(tc.in); n++ {
			var got bytes.Buffer
			c, err := filter.NewCore(filter.Options{Ellipsis: ell}, filter.Outputs{Archive: &got})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := run(readAtATime(tc.in, n), c, Options{}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Finish(); err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.want {
				t.Fatalf("%s, read %d bytes at a time:\n got %q\nwant %q", tc.name, n, got.String(), tc.want)
			}
		}
	}
}

// Random documents in ISO-2022-JP and UTF-16 with no-archive regions of
// every kind: the copy, decoded, is the copy of the decoded document read
// as UTF-8. Where the splice put the copy in the wrong state (ISO-2022-JP),
// or cut a character, the decoded copy differs.
func TestArchiveOfDecodedCharsetDecodesAsTheUTF8Copy(t *testing.T) {
	const esc = "\x1b"
	frags := []string{"<p>", "</p>", "<b class=robots-noarchive>", "</b>", "<div data-nosnippet>", "</div>", "<img class=robots-noarchive>",
		"<!--googleoff: snippet-->", "<!--googleon: snippet-->", " ", "\n", "words", "~\\", "<br>", "<span class=robots-archive>", "</span>",
		esc + "$B$3$s", esc + "$B$K\n$A", esc + "(B", esc + "(J", esc + "(I12", esc + "$@F|", esc + "xy", "\x80", "<a href=x>", "</a>", "日本", "😀"}
	rng := rand.New(rand.NewPCG(7, 8))
	jp := japanese.ISO2022JP
	u16 := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	for round := range 3000 {
		var b strings.Builder
		for n := rng.IntN(30); n > 0; n-- {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		doc := b.String()
		var src []byte
		var charset string
		var dec *encoding.Decoder
		if round%2 == 0 {
			// ISO-2022-JP: the fragments as bytes (non-ASCII text encoded).
			charset, dec = "iso-2022-jp", jp.NewDecoder()
			for _, r := range doc {
				e, err := jp.NewEncoder().Bytes([]byte(string(r)))
				switch {
				case r < 0x80:
					src = append(src, byte(r))
				case r == 0xFFFD:
					src = append(src, 0x80)
				case err == nil:
					src = append(src, e...)
				}
			}
		} else {
			charset, dec = "utf-16be", u16.NewDecoder()
			src = encodeIn(u16, strings.ReplaceAll(strings.ReplaceAll(doc, esc, ""), "\x80", ""))
			if rng.IntN(2) == 0 {
				src = append(src, 0xD8, 0x00) // a lone surrogate last
			}
		}
		decoded, err := dec.Bytes(src)
		if err != nil {
			t.Fatal(err)
		}
		n := rng.IntN(8)
		got, err := rawArchive(chunkedBytes(src, n), Options{Charset: charset})
		if err != nil {
			t.Fatal(err)
		}
		want, err := rawArchive(bytes.NewReader(decoded), Options{Charset: "utf-8"})
		if err != nil {
			t.Fatal(err)
		}
		gotDecoded, err := dec.Bytes(got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gotDecoded, want) {
			t.Fatalf("%s %q, read %d bytes at a time: the copy decodes to\n%q\nthe UTF-8 copy is\n%q\n(copy %q)", charset, src, n, gotDecoded, want, got)
		}
	}
}

// What is kept of the original bytes is bounded by how far the tokenizer
// reads ahead of the copy, never by the document: a page of 8 MB copied
// whole, one with an elision in every paragraph, and one with 2 MB of
// escape sequences in a row (which belong to the character after them)
// keep a few hundred KiB at most. Without the archive copy no original
// bytes are kept, and the runs that map positions stay as bounded: escape
// sequences in a row are one gap.
func TestRawInputIsBounded(t *testing.T) {
	// A token of characters that alternate in length (ASCII and kanji)
	// keeps a run for each: they are kept small.
	if size := unsafe.Sizeof(unitRun{}); size != 8 {
		t.Errorf("a unitRun is %d bytes, want 8", size)
	}
	const esc = "\x1b"
	u16 := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	para := "<p>Some words ü 😀 in a paragraph, <a href=/x>a link</a>.</p>\n"
	elided := "<p>Some words <b class=robots-noarchive>secret ü 😀</b> in a paragraph.</p>\n"
	cases := []struct {
		name    string
		src     []byte
		archive bool
	}{
		{"utf-16, copied whole", append([]byte{0xFF, 0xFE}, encodeIn(u16, strings.Repeat(para, 8<<20/len(para)/2))...), true},
		{"utf-16, elisions", append([]byte{0xFF, 0xFE}, encodeIn(u16, strings.Repeat(elided, 8<<20/len(elided)/2))...), true},
		{"utf-16, no archive copy", append([]byte{0xFF, 0xFE}, encodeIn(u16, strings.Repeat(para, 8<<20/len(para)/2))...), false},
		{"iso-2022-jp, escape sequences in a row", []byte("<meta charset=iso-2022-jp><p>a" + strings.Repeat(esc+"$B"+esc+"(B", 2<<20/6) + "b</p>" +
			strings.Repeat("<p>"+esc+"$B$3$s"+esc+"(B</p>", 100000)), true},
		// Of two lengths, which would make a run each.
		{"iso-2022-jp, escape sequences in a row, no archive copy", []byte("<meta charset=iso-2022-jp><p>a" + strings.Repeat(esc+"$(D"+esc+"(B", 2<<20/7) + "b</p>" +
			strings.Repeat("<p>"+esc+"$B$3$s"+esc+"(B</p>", 100000)), false},
	}
	const bound = 1 << 20
	for _, tc := range cases {
		var most, mostRuns int
		var archive bytes.Buffer
		out := filter.Outputs{Text: nil}
		if tc.archive {
			out.Archive = &archive
		}
		c, err := filter.NewCore(filter.Options{}, out)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{afterToken: func(b *builder) {
			r := b.z.r.(*rawInput)
			most, mostRuns = max(most, cap(r.raw)), max(mostRuns, cap(r.runs))
		}}
		if _, err := run(bytes.NewReader(tc.src), c, opts); err != nil {
			t.Fatal(err)
		}
		res, err := c.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if dropped := strings.Contains(tc.name, "in a row"); tc.archive && dropped != (len(res.Warnings) == 1 && strings.Contains(res.Warnings[0].Message, "escape sequences")) {
			t.Errorf("%s: warnings %v; want one about the dropped escape sequences: %v", tc.name, res.Warnings, dropped)
		}
		if most > bound || mostRuns*int(unsafe.Sizeof(unitRun{})) > bound {
			t.Fatalf("%s: %d bytes of original bytes and %d runs kept for a document of %d", tc.name, most, mostRuns, len(tc.src))
		}
		if tc.archive && !strings.Contains(tc.name, "elisions") {
			// The escape sequences in a row past the bound are dropped but
			// for the last; the copy reads the same.
			want, _ := japanese.ISO2022JP.NewDecoder().Bytes(tc.src)
			got, _ := japanese.ISO2022JP.NewDecoder().Bytes(archive.Bytes())
			if strings.HasPrefix(tc.name, "utf-16") {
				want, got = tc.src, archive.Bytes()
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: the copy differs at byte %d", tc.name, firstDiff(got, want))
			}
		}
	}
}

// rawArchive runs the stage over r with the archive copy as the only output.
func rawArchive(r io.Reader, opts Options) ([]byte, error) {
	var got bytes.Buffer
	c, err := filter.NewCore(filter.Options{}, filter.Outputs{Archive: &got})
	if err != nil {
		return nil, err
	}
	if _, err := run(r, c, opts); err != nil {
		return nil, err
	}
	_, err = c.Finish()
	return got.Bytes(), err
}

func chunkedBytes(b []byte, n int) io.Reader {
	if n == 0 {
		return bytes.NewReader(b)
	}
	return chunked.Reader(bytes.NewReader(b), n)
}
