package htmlstream

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// posRecord is where the stage put a warning, a region or a link.
type posRecord struct {
	what            string // "warning", "region" or "link", and the tag or message
	line, col       int
	offset          int64
	endLine, endCol int   // regions
	size            int64 // regions
	region          bool  // the end and size are set
}

func (p posRecord) String() string {
	s := fmt.Sprintf("%s at %d:%d offset %d", p.what, p.line, p.col, p.offset)
	if p.region {
		s += fmt.Sprintf(" to %d:%d size %d", p.endLine, p.endCol, p.size)
	}
	return s
}

// positionsOf runs the stage over src and returns the positions of its
// warnings, regions and links, in the order they came; with archive, the
// archive copy is wanted too (rawInput then keeps the original bytes).
func positionsOf(t *testing.T, src io.Reader, opts Options, archive bool) []posRecord {
	t.Helper()
	var got []posRecord
	out := filter.Outputs{
		Link: func(l filter.Link) error {
			got = append(got, posRecord{what: "link <" + l.Tag + "> " + l.Href, line: l.Line, col: l.Col, offset: l.Offset})
			return nil
		},
		Region: func(r filter.Region) error {
			got = append(got, posRecord{what: "region <" + r.Tag + "> " + r.Marker, line: r.Line, col: r.Col, offset: r.Offset,
				endLine: r.EndLine, endCol: r.EndCol, size: r.Size, region: true})
			return nil
		},
		Warning: func(w filter.Warning) {
			got = append(got, posRecord{what: "warning " + w.Message, line: w.Line, col: w.Col, offset: w.Offset})
		},
	}
	if archive {
		out.Archive = io.Discard
	}
	c, err := filter.NewCore(filter.Options{}, out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(src, c, opts); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	return got
}

// positionCharset is a charset a document is converted to, with its byte
// order mark (written first) or its label (given as Options.Charset).
type positionCharset struct {
	name  string
	enc   encoding.Encoding
	bom   []byte
	label string
}

var (
	utf16LE = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	utf16BE = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	// The charsets decoded in front of the tokenizer (rawInput)...
	decodedCharsets = []positionCharset{
		{"utf-16le with BOM", utf16LE, []byte{0xFF, 0xFE}, ""},
		{"utf-16le by label", utf16LE, nil, "utf-16le"},
		{"utf-16be with BOM", utf16BE, []byte{0xFE, 0xFF}, ""},
		{"utf-16be by label", utf16BE, nil, "utf-16be"},
		{"iso-2022-jp", japanese.ISO2022JP, nil, "iso-2022-jp"},
	}
	// ... and ASCII-compatible ones, whose bytes the tokenizer reads.
	asciiCompatibleJapanese = []positionCharset{
		{"shift_jis", japanese.ShiftJIS, nil, "shift_jis"},
		{"euc-jp", japanese.EUCJP, nil, "euc-jp"},
		{"gbk", simplifiedchinese.GBK, nil, "gbk"},
	}
)

// convertPositions maps the positions the stage gave for a UTF-8
// document to those it must give for the document converted to cs: the
// same lines; offsets and columns count the converted bytes (the byte
// order mark too), a column from the first byte after the line's end
// (from the byte order mark on the first line, as in UTF-8). In
// ISO-2022-JP the text before each place must end in ASCII, or the
// escape sequence back to ASCII would be counted on the wrong side.
func convertPositions(cs positionCharset, doc string, recs []posRecord) []posRecord {
	// The converted length of doc up to each place, encoded piece by piece.
	var places []int64
	for _, r := range recs {
		places = append(places, r.offset, r.offset-int64(r.col-1))
		if r.region {
			places = append(places, r.offset+r.size, r.offset+r.size-int64(r.endCol-1))
		}
	}
	slices.Sort(places)
	converted := map[int64]int64{0: int64(len(cs.bom))}
	prev := int64(0)
	for _, p := range places {
		if p > prev {
			converted[p] = converted[prev] + int64(len(encodeIn(cs.enc, doc[prev:p])))
			prev = p
		}
	}
	at := func(line, col int, off int64) (int, int64) {
		lineStart := int64(0)
		if line > 1 {
			lineStart = converted[off-int64(col-1)]
		}
		o := converted[off]
		return int(1 + o - lineStart), o
	}
	out := make([]posRecord, len(recs))
	for i, r := range recs {
		out[i] = r
		out[i].col, out[i].offset = at(r.line, r.col, r.offset)
		if r.region {
			endCol, end := at(r.endLine, r.endCol, r.offset+r.size)
			out[i].endCol, out[i].size = endCol, end-out[i].offset
		}
	}
	return out
}

// positionDoc builds a document with a warning, a region and a link at
// known places, on lines ended by LF, CRLF and CR, after text in other
// scripts, and a region to the end; filler, when given, puts a second set past the decoder's and
// the tokenizer's buffers. Every marked place and every region's end
// follows ASCII (see convertPositions).
func positionDoc(text, filler string) string {
	marked := `<p class="robots-noidnex">` + text + ` typo</p>` + "\r\n" +
		text + ` <div class="robots-noindex">` + text + ` hidden <b>x</b></div>` + "\r" +
		`<p>` + text + ` and <a href="/x">` + text + ` link</a> after</p>` + "\n"
	// The last region ends at the end of the input, after the tokenizer
	// handed the unterminated comment over to x/net's.
	return "<html><head><title>" + text + " title</title></head><body>\n" + marked + filler + marked +
		"<div class=robots-noarchive>" + text + " to the end <!-- " + text + " unterminated"
}

// In a charset decoded in front of the tokenizer (UTF-16, ISO-2022-JP), a
// warning's, a region's and a link's offset count the input's bytes, as
// in UTF-8, and a column counts them from the line's start: a tool can
// seek to the element's "<" in the file as given. They used to count the
// decoded UTF-8 text. In ASCII-compatible multi-byte charsets (decoded
// as text and attribute values arrive) they already counted the input's
// bytes, and still do. Each document is read whole, one byte at a time,
// half at a time and at every size up to its length (the large ones, past
// the buffers, at a set of sizes).
func TestPositionsCountTheInputsBytes(t *testing.T) {
	const japaneseText = "日本語のテキスト"
	const latinText = "Grüße, élan €"
	const emojiText = "😀 and 𝄞"
	filler := strings.Repeat("<p>"+japaneseText+" filler <a href=/f>x</a></p>\n", 3000)
	type docCase struct {
		name     string
		doc      string
		charsets []positionCharset
	}
	cases := []docCase{
		{"japanese", positionDoc(japaneseText, ""), append(append([]positionCharset{}, decodedCharsets...), asciiCompatibleJapanese...)},
		{"japanese, past the buffers", positionDoc(japaneseText, filler), append(append([]positionCharset{}, decodedCharsets...), asciiCompatibleJapanese...)},
		{"latin", positionDoc(latinText, ""), append(append([]positionCharset{}, decodedCharsets[:4]...),
			positionCharset{"windows-1252", charmap.Windows1252, nil, "windows-1252"})},
		{"astral", positionDoc(emojiText, ""), decodedCharsets[:4]},
	}
	for _, dc := range cases {
		want8 := positionsOf(t, strings.NewReader(dc.doc), Options{Charset: "utf-8"}, true)
		if n := len(want8) - strings.Count(dc.doc, "/f>"); n != 7 {
			t.Fatalf("%s: %d records in UTF-8 besides the filler's links, want 7 (2 warnings, 3 regions, 2 links):\n%v", dc.name, n, want8)
		}
		for _, r := range want8 {
			// The records of the UTF-8 document point at their element.
			if !strings.HasPrefix(dc.doc[r.offset:], "<") {
				t.Fatalf("%s: %v does not point at a tag in UTF-8: %q", dc.name, r, clipAt([]byte(dc.doc), int(r.offset)))
			}
		}
		for _, cs := range dc.charsets {
			src := append(bytes.Clone(cs.bom), encodeIn(cs.enc, dc.doc)...)
			opts := Options{Charset: cs.label}
			want := convertPositions(cs, dc.doc, want8)
			for _, r := range want {
				if lt := encodeIn(cs.enc, "<"); !bytes.HasPrefix(src[r.offset:], lt) {
					t.Fatalf("%s in %s: %v does not point at a tag: %q", dc.name, cs.name, r, clipAt(src, int(r.offset)))
				}
			}
			sizes := []int{0, 1, len(src) / 2}
			if len(src) < 4000 {
				for n := 2; n <= len(src); n++ {
					sizes = append(sizes, n)
				}
			} else {
				sizes = append(sizes, rawChunkings...)
			}
			for _, n := range sizes {
				// With the archive copy and without it: rawInput keeps the
				// original bytes only for the copy.
				got := positionsOf(t, chunkedBytes(src, n), opts, n%2 == 0)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s in %s, read %d bytes at a time:\n got %v\nwant %v", dc.name, cs.name, n, got, want)
				}
			}
		}
	}
}

// Bytes that decode to nothing are counted where they are. An
// ISO-2022-JP escape sequence just before a tag is the tag's, as it is in
// the archive copy, so that the input read from the offset in the initial
// state reads the tag (or the text that the escape sequence starts); one
// further back, and a UTF-16 lone surrogate (two bytes, three in the
// decoded text), count in the column before it. Escape sequences in a row
// past what the copy keeps (maxZeroRun) still count, with the copy and
// without it (where none is kept).
func TestPositionsCountBytesThatDecodeToNothing(t *testing.T) {
	const esc = "\x1b"
	const meta = "<meta charset=iso-2022-jp>\n"
	row := strings.Repeat(esc+"$B"+esc+"(B", 2000)
	u16 := func(s string) string { return string(encodeIn(utf16LE, s)) }
	for _, tc := range []struct {
		name  string
		src   string
		marks []string // where each link is: the first occurrence of each
		line  int
	}{
		{"an escape sequence just before the tag", meta + "text " + esc + "$B$3$s" + esc + "(B<a href=/x>x</a>", []string{esc + "(B<a"}, 2},
		{"an escape sequence at the start of the line", meta + esc + "$B$3\n" + esc + "(B<a href=/x>x</a>", []string{esc + "(B<a"}, 3},
		{"escape sequences further back", meta + esc + "(J~" + esc + "$B$3$s" + esc + "(B text <a href=/x>x</a>", []string{"<a"}, 2},
		{"escape sequences in a row past the copy's bound", meta + "<p>a" + row + "<a href=/x>b</a>" + row + "c <a href=/x>d</a>",
			[]string{esc + "$B", "<a href=/x>d"}, 2},
		{"utf-16 lone surrogates", "\xff\xfe" + u16("<p>") + "\x00\xd8" + u16(" <a href=/x>x</a>") + "\x00\xdc" + u16("<a href=/x>y</a>"),
			[]string{u16("<a"), u16("<a href=/x>y")}, 1},
	} {
		var want []posRecord
		for _, m := range tc.marks {
			off := strings.Index(tc.src, m)
			// The column counts from the byte after the line feed (there
			// is none in the UTF-16 case: from the first byte).
			want = append(want, posRecord{what: "link <a> /x", line: tc.line, col: off - strings.LastIndexByte(tc.src[:off], '\n'), offset: int64(off)})
		}
		for _, archive := range []bool{true, false} {
			for _, n := range []int{0, 1, 2, 3, 5, 7, 64, 4096} {
				// The links only: the copy warns of the escape sequences it drops.
				got := slices.DeleteFunc(positionsOf(t, readAtATime(tc.src, n), Options{}, archive),
					func(r posRecord) bool { return !strings.HasPrefix(r.what, "link") })
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s, archive copy %v, read %d bytes at a time:\n got %v\nwant %v", tc.name, archive, n, got, want)
				}
			}
		}
	}
}
