package htmlstream

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/phrase"
)

// Canaries: words that sit, at the very start of the document, inside an
// excluded region of each dialect; nothing the fuzzer appends can take them
// out of it, so they must never reach the output that region excludes.
const (
	canaryPrefix = `<div class="robots-noindex">zqxnoindexcanary</div>` +
		`<p class="robots-nocontent">zqxnocontentcanary</p>` +
		`<!--googleoff: index-->zqxgoogleoffcanary<!--googleon: index-->` +
		`<noindex>zqxyandexcanary</noindex>` +
		`<span class="robots-noarchive">zqxnoarchivecanary</span>` +
		`<span data-nosnippet>zqxnosnippetcanary</span>`
)

var (
	notInText    = []string{"zqxnoindexcanary", "zqxnocontentcanary", "zqxgoogleoffcanary", "zqxyandexcanary"}
	notInArchive = []string{"zqxnoarchivecanary", "zqxnosnippetcanary"}
)

func fuzzSeeds(f *testing.F) {
	for _, tc := range trickyCases {
		f.Add([]byte(tc.src))
	}
	for _, s := range []string{"", "<", "<!--", "<table><a>1<td>2</td>3</table>", "<svg><![CDATA[x]]></svg>",
		"<plaintext><b>", strings.Repeat("<b><p>", 30), "<html class=robots-noarchive>", "\xff\xfe<\x00p>",
		"<meta charset=utf-16><p>x", "<frameset><noframes>x</noframes>", "<select><option><b>x</select>y",
		// Charsets decoded in front of the tokenizer (rawinput.go).
		"\xfe\xff\x00<\x00p\x00 \x00c\x00l\x00a\x00s\x00s\x00=\x00r\x00o\x00b\x00o\x00t\x00s\x00-\x00n\x00o\x00a\x00r\x00c\x00h\x00i\x00v\x00e\x00>\xd8\x00x\x00<\x00/\x00p\x00>\xdc",
		"\xff\xfe<\x00b\x00>\x00\x00\xd8<\x00i\x00m\x00g\x00 \x00d\x00a\x00t\x00a\x00-\x00n\x00o\x00s\x00n\x00i\x00p\x00p\x00e\x00t\x00>\x00",
		"<meta charset=iso-2022-jp>\x1b(J<p>~</p><p class=robots-noarchive>\x1b$B$3\x1b(B</p>\x1b(I12\x1b$@F|\n<b>\x1bxy</b>\x1b$(D",
		"<meta charset=iso-2022-kr><p>\x1b$)C\x0e!!\x0f</p>"} {
		f.Add([]byte(s))
	}
}

// unitsLike returns a unit decoder of the charset the input in is in.
func unitsLike(in *input) unitDecoder {
	switch in.name {
	case "utf-16le", "utf-16be":
		return utf16Units{bigEndian: in.name == "utf-16be"}
	case "iso-2022-jp":
		return &transformUnits{t: in.enc.NewDecoder(), split: iso2022JPSplit}
	}
	return &transformUnits{t: in.enc.NewDecoder()}
}

// decodedLike decodes b as the input in was decoded (a byte order mark
// first is dropped).
func decodedLike(in *input, b []byte) []byte {
	b = bytes.TrimPrefix(b, in.bom)
	out, _ := io.ReadAll(newRawInput(bytes.NewReader(b), unitsLike(in), false, false, 0))
	return out
}

// inputOffsets maps each offset of b decoded as in was (b whole, byte
// order mark included) where a character starts to the input's bytes
// before that character and the bytes that decode to nothing just before
// it (-1 inside a character): a walk over the whole input that rawInput's
// runs are checked against.
func inputOffsets(in *input, b []byte) []int64 {
	units := unitsLike(in)
	at := []int64{int64(len(in.bom))}
	var dst [maxUnitOut]byte
	for i := len(in.bom); i < len(b); {
		nd, ns := units.unit(dst[:], b[i:], true)
		if ns == 0 {
			break
		}
		i += ns
		for range nd - 1 {
			at = append(at, -1)
		}
		if nd > 0 {
			at = append(at, int64(i))
		}
	}
	return at
}

// positionProperties: in a charset decoded in front of the tokenizer,
// each link's and region's offset is where the place the same record of
// the decoded document read as UTF-8 gives is in the input (inputOffsets),
// its column counts the input's bytes from its line's start, and every
// record is the same whether the input is read whole or a few bytes at a
// time, with the archive copy or without.
func positionProperties(t *testing.T, data []byte) {
	in, err := openInput(bytes.NewReader(data), Options{}, false)
	if err != nil || in.raw == nil {
		return
	}
	whole := positionsOf(t, bytes.NewReader(data), Options{MaxDepth: 1 << 16}, true)
	if got := positionsOf(t, chunked.Reader(bytes.NewReader(data), 1+len(data)%5), Options{MaxDepth: 1 << 16}, false); fmt.Sprint(got) != fmt.Sprint(whole) {
		t.Fatalf("%s: read %d bytes at a time, without the copy:\n%v\nread whole:\n%v", in.name, 1+len(data)%5, got, whole)
	}
	elements := func(recs []posRecord) []posRecord {
		return slices.DeleteFunc(recs, func(r posRecord) bool { return strings.HasPrefix(r.what, "warning") })
	}
	decoded := decodedLike(in, data)
	want := elements(positionsOf(t, bytes.NewReader(decoded), Options{MaxDepth: 1 << 16, Charset: "utf-8"}, true))
	at := inputOffsets(in, data)
	mapped := func(off int64) int64 {
		if off < 0 || off >= int64(len(at)) {
			return -1
		}
		return at[off]
	}
	place := func(line, col int, off int64) (int, int64) {
		lineStart := int64(0)
		if line > 1 {
			lineStart = mapped(off - int64(col-1))
		}
		o := mapped(off)
		return int(1 + o - lineStart), o
	}
	for i, r := range want {
		want[i].col, want[i].offset = place(r.line, r.col, r.offset)
		if r.region {
			endCol, end := place(r.endLine, r.endCol, r.offset+r.size)
			want[i].endCol, want[i].size = endCol, end-want[i].offset
		}
	}
	if got := elements(whole); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: positions\n%v\nwant (from the decoded document's)\n%v", in.name, got, want)
	}
}

// archiveProperties runs the stage over data with the archive copy as its
// output and checks it, returning the builder:
//
// Property 1: with no no-archive markup, the archive is the input, in any
// charset (but WHATWG's replacement encoding, whose copy is withheld).
//
// Property 4: in a charset decoded in front of the tokenizer, the copy
// (the input's bytes, the ellipsis in the charset where regions are
// elided) decodes to the copy of the decoded document read as UTF-8: no
// splice cuts a character or leaves the copy in another ISO-2022-JP state
// than the input.
func archiveProperties(t *testing.T, data []byte) *builder {
	var archive bytes.Buffer
	c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Archive: &archive})
	in, err := openInput(bytes.NewReader(data), Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := run(bytes.NewReader(data), c, Options{MaxDepth: 1 << 16})
	c.Finish()
	if err != nil {
		t.Fatalf("error on HTML input: %v", err)
	}
	low := bytes.ToLower(bytes.ReplaceAll(data, []byte{0}, nil)) // UTF-16's markup too
	noArchiveMarkup := bytes.Contains(low, []byte("archive")) || bytes.Contains(low, []byte("snippet")) ||
		bytes.Contains(low, []byte("googleoff")) || bytes.Contains(low, []byte("nocache"))
	if !noArchiveMarkup && !in.withheld && !bytes.Equal(archive.Bytes(), data) {
		t.Fatalf("archive differs from the input:\n%q\n%q", archive.Bytes(), data)
	}
	if in.raw != nil {
		decoded := decodedLike(in, data)
		var want bytes.Buffer
		c8, _ := filter.NewCore(filter.Options{}, filter.Outputs{Archive: &want})
		if _, err := run(bytes.NewReader(decoded), c8, Options{MaxDepth: 1 << 16, Charset: "utf-8"}); err != nil {
			t.Fatal(err)
		}
		c8.Finish()
		if got := decodedLike(in, archive.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%s: the copy decodes to\n%q\nthe UTF-8 copy of the decoded document is\n%q", in.name, got, want.Bytes())
		}
	}
	return b
}

// FuzzDecodedCharset checks archiveProperties and positionProperties on
// documents in the
// charsets decoded in front of the tokenizer, which FuzzStream's inputs
// seldom are: the fuzzer's bytes after a UTF-16 byte order mark (either
// order) or after a META that names ISO-2022-JP.
func FuzzDecodedCharset(f *testing.F) {
	for _, s := range []string{"<p>a</p>", "<p class=robots-noarchive>x</p><img data-nosnippet>y", "<!--googleoff: snippet-->a <b>c</b><!--googleon: snippet-->",
		"\x1b(J<p>~</p><p class=robots-noarchive>\x1b$B$3\x1b(B</p>\x1b(I12\x1b$@F|\n<b>\x1bxy</b>\x1b$(D",
		"<\x00p\x00 \x00d\x00a\x00t\x00a\x00-\x00n\x00o\x00s\x00n\x00i\x00p\x00p\x00e\x00t\x00>\x00\x00\xd8x\x00<\x00/\x00p\x00>\x00\x00\xdc",
		"\x00<\x00p\x00 \x00c\x00l\x00a\x00s\x00s\x00=\x00r\x00o\x00b\x00o\x00t\x00s\x00-\x00n\x00o\x00a\x00r\x00c\x00h\x00i\x00v\x00e\x00>\xd8\x00\x00x\x00<"} {
		for which := range uint8(3) {
			f.Add(which, []byte(s))
		}
	}
	prefixes := [][]byte{{0xFF, 0xFE}, {0xFE, 0xFF}, []byte("<meta charset=iso-2022-jp>")}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		src := append(bytes.Clone(prefixes[int(which)%len(prefixes)]), data...)
		archiveProperties(t, src)
		positionProperties(t, src)
	})
}

func FuzzStream(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(bytes.ToLower(data), []byte("zqx")) {
			return // the canaries must be ours
		}
		// Properties 1 and 4 (archiveProperties), and positions in a
		// charset decoded in front of the tokenizer.
		b := archiveProperties(t, data)
		positionProperties(t, data)
		// Property 2: every node came back: no element is left open, so
		// every link and region was completed.
		if len(b.free) != b.allocated {
			t.Fatalf("%d nodes made, %d released", b.allocated, len(b.free))
		}

		// Property 3: canaries in excluded regions never leak.
		src := append([]byte(canaryPrefix), data...)
		var text, snip, archive bytes.Buffer
		c, _ := filter.NewCore(filter.Options{}, filter.Outputs{
			Text: phrase.NewWriter(&text), ArchiveText: phrase.NewWriter(&snip), Archive: &archive,
			Link: func(filter.Link) error { return nil }, Region: func(filter.Region) error { return nil },
		})
		if _, err := run(bytes.NewReader(src), c, Options{MaxDepth: 1 << 16, Charset: "utf-8"}); err != nil {
			t.Fatal(err)
		}
		c.Finish()
		for _, w := range notInText {
			if bytes.Contains(text.Bytes(), []byte(w)) || bytes.Contains(snip.Bytes(), []byte(w)) {
				t.Fatalf("%s reached the text:\n%s", w, text.Bytes())
			}
		}
		for _, w := range notInArchive {
			if bytes.Contains(archive.Bytes(), []byte(w)) || bytes.Contains(snip.Bytes(), []byte(w)) {
				t.Fatalf("%s reached the archive copy", w)
			}
		}
	})
}

// FuzzOracle checks the stream against html.Parse on arbitrary input with
// robots classes in it: the regions must agree, except where the tree
// changes content already written (counted by the builder).
func FuzzOracle(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		if v, diff := compareWithOracle(t, data); v == disagree {
			t.Fatalf("stream and DOM disagree on %q:\n%s", data, diff)
		}
	})
}

// FuzzPieces checks that the outputs do not depend on the piece size
// (pieces.go): arbitrary input, read a few bytes at a time so that text
// runs past small pieces, at pieces of 1 to 8 bytes. The prescan's bytes
// come first.
func FuzzPieces(f *testing.F) {
	fuzzSeeds(f)
	for _, s := range pieceCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		piece := 1 + len(data)%8
		// A charset of its own: an unlabeled document decodes a token
		// that is not UTF-8 as windows-1252, and a piece of a token may be.
		charset := "utf-8"
		if len(data)%3 == 0 {
			charset = "windows-1252"
		}
		// After the charset prescan's bytes (see piecesChangeNothing).
		data = append([]byte("<!--"+strings.Repeat("-", prescanSize)+"-->"), data...)
		want, wantArchive, wantErr := runAllOutputs(t, bytes.NewReader(data), Options{MaxDepth: 1 << 16, Charset: charset})
		got, archive, err := runAllOutputs(t, chunks(1+len(data)%5).make(data), Options{MaxDepth: 1 << 16, Charset: charset, piece: piece})
		if got != want || archive != wantArchive || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("piece %d:\n got %+v\n     archive %q, error %v\nwant %+v\n     archive %q, error %v",
				piece, got, archive, err, want, wantArchive, wantErr)
		}
	})
}
