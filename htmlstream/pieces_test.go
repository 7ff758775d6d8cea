package htmlstream

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/net/html"
)

// joinPieces joins the pieces of long tokens in a trace: consecutive text
// tokens (on both sides: x/net has two in a row where CDATA follows
// text), and a comment piece with the comment it goes on with.
func joinPieces(tr []tokenTrace) []tokenTrace {
	var out []tokenTrace
	for _, t := range tr {
		if n := len(out); n > 0 {
			last := &out[n-1]
			text := t.tt == html.TextToken && last.tt == html.TextToken
			comment := t.tt == html.CommentToken && t.cont
			if text || comment {
				last.raw += t.raw
				last.text = strings.TrimSuffix(last.text, "|") + t.text
				last.err, last.errText = t.err, t.errText
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// pieceCases are long runs of what pieces may cut: character references,
// line ends, characters of several bytes, '<' that opens nothing, raw text
// end tags and script escapes, comment ends, CDATA.
var pieceCases = []string{
	"<p>ab &amp; c&lt;d &#x41;&#65 e\r\nf\rg é中 x&notit; y&ampz &#0000000065; &CounterClockwiseContourIntegral; a < b <> c\r\n\r\n end</p>",
	strings.Repeat("word&amp;word ", 12) + "<b>x</b>" + strings.Repeat("ä", 30) + strings.Repeat("\r\n", 10) + strings.Repeat("&#x1F600;", 5),
	"<title>a &amp; b</titl c</title x</title>after<textarea>\r\n&lt;x</textarea >y</textarea>z",
	"<style>p { a: b } </styl </style>x<xmp>a<b>&amp;</xmp>y<iframe>f</ifram</iframe><noembed>n</noembed><noframes>f</noframes>",
	"<script>if (a < b && c > d) { x = '<!-- <script> --> </script' } </script>after",
	"<script><!-- a <script> b </script> c --> d </script>e",
	"<script><!--<script>-- x -- </script> y--></script>z<script>a<!-b</script>",
	"<script><!-- x -->- <!-- -<script></scriptx> -- --> </script>done",
	"<!-- a-b--c--!d -> e - - --!> x --><!----><!---x--><p>y",
	"<!--" + strings.Repeat("a-b--c--! ", 8) + "-->after",
	// Comments are held whole up to minCommentPiece.
	"<!--" + strings.Repeat("a-b--c--! \r\n&amp;é-", 80) + "-->after", "<!--" + strings.Repeat("a-b--c--! \r\n", 120) + "--",
	"<!--" + strings.Repeat("googleoff: index ", 70) + "--!>x",
	"<svg><![CDATA[a < b ]] ]>]]>c<![CDATA[]]></svg>x",
	"<plaintext>a &amp; </plaintext> <b> \r\n é",
	"text then the end", "<p>unterminated comment<!-- a - b --", "<!-- a-", "<!-- a--!", "<script>a <!-- b <script> c",
	"<title>x</tit", "<textarea>a &am", "a\r", "a &", "a &amp", "\xff\xfe text \xe2\x82", "a\x00b\x00 c",
	// Runs longer than a named reference: numeric references read to
	// their last digit, names that are none, digits with no '&', runs of
	// CR and of '<' (longruns_test.go has them long).
	"<p>" + strings.Repeat("0", 60) + "&#" + strings.Repeat("0", 50) + "65;x&#X" + strings.Repeat("0", 45) + "41y&#" + strings.Repeat("0", 45) + "6" +
		strings.Repeat("a", 45) + "&" + strings.Repeat("a", 50) + ";b&" + strings.Repeat("amp", 15) + "&#x" + strings.Repeat("g", 45) + "&#12#" + strings.Repeat("3", 45) + "</p>",
	"<p>" + strings.Repeat("\r", 30) + "\r\n" + strings.Repeat("<", 30) + "<a>x</a>" + strings.Repeat("<", 20) + "</p>",
	"<title>&#" + strings.Repeat("1", 50) + ";" + strings.Repeat("f", 50) + "</title><textarea>" + strings.Repeat("\r", 20) + "&#x" + strings.Repeat("F", 45) + "</textarea>",
	"<script>&#" + strings.Repeat("0", 50) + strings.Repeat("<", 20) + "</script><style>" + strings.Repeat("<", 50) + "</style><plaintext>" + strings.Repeat("\r", 30) + "&#" + strings.Repeat("9", 50),
	"<!--" + strings.Repeat("&#"+strings.Repeat("0", 50)+";"+strings.Repeat("\r", 20)+strings.Repeat("<", 20)+"&"+strings.Repeat("a", 45)+" ", 10) + "-->after",
}

// TestPiecesJoinToXNetsTokens runs the tokenizer with small piece sizes:
// its pieces, joined, must be x/net's tokens, at every chunking.
func TestPiecesJoinToXNetsTokens(t *testing.T) {
	cases := append(append([]string{}, tokenizerCases...), pieceCases...)
	readers := []readerKind{wholeReader, oneByte, halfReader, chunks(3), dataErr}
	for _, src := range cases {
		for _, rk := range readers {
			x := html.NewTokenizer(rk.make([]byte(src)))
			want := joinPieces(trace(x, 0, len(src)+2))
			for _, inWords := range []bool{true, false} {
				for piece := 1; piece <= 24; piece++ {
					z := newTokenizer(rk.make([]byte(src)), 0)
					z.piece, z.cutInWords = piece, inWords
					got := joinPieces(trace(z, 0, len(src)+2))
					what := fmt.Sprintf("%q, %s, piece %d, cut in words %v", clip([]byte(src)), rk.name, piece, inWords)
					if len(got) != len(want) {
						t.Fatalf("%s: %d tokens joined, x/net has %d\n got %v\nwant %v", what, len(got), len(want), got, want)
					}
					for i := range want {
						if !got[i].equal(want[i]) {
							t.Fatalf("%s: token %d differs\n got %v\nwant %v", what, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestLongTextComesInPieces checks that pieces are cut where the text runs
// on past the piece size, and only where a piece can end.
func TestLongTextComesInPieces(t *testing.T) {
	tests := []struct {
		name, src  string
		inWords    bool
		wantPieces bool
	}{
		{"words", strings.Repeat("word ", 100), false, true},
		{"a word run, cut in words", strings.Repeat("a", 500), true, true},
		{"a word run in a multi-byte charset", strings.Repeat("a", 500), false, false},
		{"script", "<script>" + strings.Repeat("x=1;", 100), false, true},
		{"comment", "<!--" + strings.Repeat("x ", 2000), false, true},
		{"short comment", "<!--" + strings.Repeat("x ", 100) + "-->", false, false},
		{"comment of dashes", "<!--" + strings.Repeat("-", 3000) + "-->", false, false},
		{"plaintext", "<plaintext>" + strings.Repeat("a b ", 100), false, true},
		{"hex digits", "<p>" + strings.Repeat("0", 500), true, true},
		{"hex digits in a comment", "<!--" + strings.Repeat("a", 3000), true, true},
		{"a numeric reference's digits", "<p>&#" + strings.Repeat("0", 500), true, false},
		{"CR", "<p>" + strings.Repeat("\r", 500), true, true},
		{"'<'", "<p>" + strings.Repeat("<", 500), true, true},
		{"'<' in a script", "<script>" + strings.Repeat("<", 500), true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			z := newTokenizer(chunks(16).make([]byte(tc.src)), 0)
			z.piece, z.cutInWords = 64, tc.inWords
			longest, pieces := 0, 0
			for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
				longest = max(longest, len(z.Raw()))
				if tt == html.TextToken || tt == html.CommentToken {
					pieces++
				}
			}
			if tc.wantPieces && (pieces < 2 || longest > len(tc.src)/2) {
				t.Errorf("%d text or comment tokens, the longest %d bytes: not in pieces", pieces, longest)
			}
			if !tc.wantPieces && pieces != 1 {
				t.Errorf("%d text or comment tokens: cut where no piece can end", pieces)
			}
		})
	}
}

// runAllOutputs runs src through the stage with opts and returns its text,
// snippet text, links, archive copy and, after it, the warnings.
func runAllOutputs(t testing.TB, r io.Reader, opts Options) (outputs, string, error) {
	text, snip, links, out := collect()
	var archive bytes.Buffer
	out.Archive = &archive
	c, err := filter.NewCore(oracleOpts(), out)
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(r, c, opts)
	res, _ := c.Finish()
	for _, w := range res.Warnings {
		fmt.Fprintf(&archive, "\nwarning %s: %s", w.Pos, w.Message)
	}
	return outputs{text.String(), snip.String(), links.String()}, archive.String(), err
}

// piecesChangeNothing checks that all outputs are the same whatever the
// piece size. The input starts with a comment of prescanSize bytes: the
// charset prescan reads that much first, so what follows comes as the
// reader gives it, a few bytes at a time, and text runs past the pieces.
func piecesChangeNothing(t *testing.T, src []byte, charset string) {
	t.Helper()
	pad := "<!--" + strings.Repeat("-", prescanSize) + "-->"
	src = append([]byte(pad), src...)
	want, wantArchive, wantErr := runAllOutputs(t, bytes.NewReader(src), Options{Charset: charset})
	for _, piece := range []int{1, 2, 3, 7, 64} {
		for _, rk := range []readerKind{oneByte, chunks(5), wholeReader} {
			got, archive, err := runAllOutputs(t, rk.make(src), Options{Charset: charset, piece: piece})
			if got != want || archive != wantArchive || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("%q (%s), piece %d, %s:\n got %+v\n     archive %q, error %v\nwant %+v\n     archive %q, error %v",
					clip(src), charset, piece, rk.name, got, archive, err, want, wantArchive, wantErr)
			}
		}
	}
}

// TestOutputsDoNotDependOnPieces: the pieces are the tokenizer's business;
// text, links, the archive copy and the warnings are the same at any piece
// size.
func TestOutputsDoNotDependOnPieces(t *testing.T) {
	var cases []string
	for _, tc := range trickyCases {
		cases = append(cases, tc.src)
	}
	cases = append(cases, pieceCases...)
	cases = append(cases,
		"<p>a<!--googleoff: index-->b <!-- a long comment, which is no marker --> c<!--googleon: index-->d",
		"<p>a <span class=robots-noarchive>secret words here</span> b <a href=/x>anchor text of a link</a>",
		"<table><tr><td>cell text with words<td>more</table>after the table",
		// Past the head text's bound, which a piece may cross anywhere.
		"<html><head><title>"+strings.Repeat("word ", 14000)+"</title></head><body>x")
	for _, src := range cases {
		piecesChangeNothing(t, []byte(src), "utf-8")
	}
	// Multi-byte charsets: pieces end only after punctuation and spaces.
	for _, cs := range []string{"shift_jis", "big5", "gbk", "gb18030", "euc-kr", "euc-jp", "windows-1252"} {
		src := []byte("<p>a \x83\x5c\x83\x41 \xa4\x40\x81\x30\x81\x30 b, c; \x8f\xa2\xaf&amp;x\x83\x5c.\xb0\xa1\x81;\x81\x30:\x81\x3f\x81\x30</p>")
		piecesChangeNothing(t, src, cs)
	}
}

// generatedText is a reader of head, then fill repeated n times, then tail,
// that makes its bytes as they are read.
type generatedText struct {
	head, fill, tail []byte
	n, i             int
	read             int64
}

func (g *generatedText) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		switch {
		case len(g.head) > 0:
			k := copy(p[n:], g.head)
			g.head, n = g.head[k:], n+k
		case g.n > 0:
			k := copy(p[n:], g.fill[g.i:])
			n, g.i = n+k, g.i+k
			if g.i == len(g.fill) {
				g.i, g.n = 0, g.n-1
			}
		case len(g.tail) > 0:
			k := copy(p[n:], g.tail)
			g.tail, n = g.tail[k:], n+k
		default:
			g.read += int64(n)
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
	}
	g.read += int64(n)
	return n, nil
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// TestTextLongerThanTheTokenLimit: a text node, a script, a comment or
// plaintext far longer than the token size limit is read to its end, in
// memory bounded by the piece size.
func TestTextLongerThanTheTokenLimit(t *testing.T) {
	size := 8 << 20
	if raceDetector {
		size = 3 << 20
	}
	const limit = 1 << 20 // pieces of at most half of it
	tests := []struct {
		name, head, fill, tail string
		text                   int64 // the length of the text output
	}{
		{"text node", "<p>", "word ", "</p>after", int64(5*(size/5) - 1 + len("\nafter\n"))},
		{"text node with references", "<p>", "a&amp;b ", "", int64(4*(size/8) - 1 + 1)},
		{"script", "<script>", "x=1;", "</script>after", int64(len("after\n"))},
		{"unterminated script", "<script><!--", "x<y;", "", 0},
		{"comment", "<!--", "x- ", "-->after", int64(len("after\n"))},
		{"unterminated comment", "<p>before<!--", "x- ", "", int64(len("before\n"))},
		{"plaintext", "<plaintext>", "a b ", "", int64(4*(size/4) - 1 + 1)},
		{"textarea", "<textarea>", "a&lt;", "</textarea>", int64(2*(size/5) + 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &generatedText{head: []byte(tc.head), fill: []byte(tc.fill), tail: []byte(tc.tail), n: size / len(tc.fill)}
			total := int64(len(tc.head) + len(tc.tail) + size/len(tc.fill)*len(tc.fill))
			var text, archive countingWriter
			c, err := filter.NewCore(filter.Options{}, filter.Outputs{Text: phrase.NewWriter(&text), Archive: &archive})
			if err != nil {
				t.Fatal(err)
			}
			b, err := run(g, c, Options{MaxTokenSize: limit})
			if _, ferr := c.Finish(); err == nil {
				err = ferr
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if g.read != total || archive.n != total {
				t.Errorf("read %d bytes and copied %d of %d", g.read, archive.n, total)
			}
			if text.n != tc.text {
				t.Errorf("text output of %d bytes, want %d", text.n, tc.text)
			}
			if c := cap(b.z.buf); c > limit+maxRead {
				t.Errorf("the tokenizer's buffer grew to %d bytes (pieces of at most %d)", c, limit/2)
			}
		})
	}
}

// joinedText runs the tokenizer over src with the given limit and piece
// size and returns the text of its text tokens joined, the other tokens'
// raw bytes between brackets, and its error.
func joinedText(src string, rk readerKind, maxBuf, piece int, inWords bool) (string, error) {
	z := newTokenizer(rk.make([]byte(src)), maxBuf)
	z.piece, z.cutInWords = piece, inWords
	var b strings.Builder
	for {
		cont := z.commentCont
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return b.String(), z.Err()
		case html.TextToken:
			b.Write(z.Text())
		case html.CommentToken:
			if cont {
				s := strings.TrimSuffix(b.String(), "}")
				b.Reset()
				b.WriteString(s)
			} else {
				b.WriteString("{")
			}
			b.WriteString(string(z.Text()) + "}")
		default:
			b.WriteString("[" + string(z.Raw()) + "]")
		}
	}
}

// TestPiecesEndBeforeTheLimit: text, raw text and comments longer than the
// token limit come in pieces whatever the reads (the window may already
// hold the limit's worth of bytes when the piece size is reached), and a
// script whose escape no piece can leave before the limit is the limit's
// error, never x/net's reading of it from a state it was not in.
func TestPiecesEndBeforeTheLimit(t *testing.T) {
	gbk := strings.Repeat("\xd6\xd0", 1100) // no place to end a piece where words cannot be cut
	tests := []struct {
		name, src, want string
		maxBuf, piece   int
		inWords         bool
	}{
		{"script", "<script>" + strings.Repeat("x=1; ", 40) + "</script>after", "[<script>]" + strings.Repeat("x=1; ", 40) + "[</script>]after", 64, 32, true},
		{"style", "<style>" + strings.Repeat("p {} ", 40) + "</style>after", "[<style>]" + strings.Repeat("p {} ", 40) + "[</style>]after", 64, 32, true},
		{"plaintext", "<plaintext>" + strings.Repeat("a b ", 40), "[<plaintext>]" + strings.Repeat("a b ", 40), 64, 32, true},
		{"text with a '<' last in the window", strings.Repeat("a", 62) + "< b" + strings.Repeat(" c", 40), strings.Repeat("a", 62) + "< b" + strings.Repeat(" c", 40), 64, 32, true},
		{"comment", "<!--" + strings.Repeat("x- ", 1500) + "-->after", "{" + strings.Repeat("x- ", 1500) + "}after", 4096, 2048, true},
		// Where the first place to end a piece is past twice the piece
		// size, and the limit is less than four times it: the last round
		// looks in all the window the limit allows.
		{"style with its first place late", "<style>" + gbk + strings.Repeat(" a", 3000) + "</style>after", "[<style>]" + gbk + strings.Repeat(" a", 3000) + "[</style>]after", 4096, 1024, false},
		{"comment with its first place late", "<!--" + strings.Repeat("-", 2200) + strings.Repeat(" a", 3000) + "-->after", "{" + strings.Repeat("-", 2200) + strings.Repeat(" a", 3000) + "}after", 4096, 1024, true},
	}
	for _, tc := range tests {
		for _, rk := range []readerKind{wholeReader, chunks(7), oneByte} {
			got, err := joinedText(tc.src, rk, tc.maxBuf, tc.piece, tc.inWords)
			if err != io.EOF || got != tc.want {
				t.Errorf("%s, %s: error %v, text\n%q\nwant\n%q", tc.name, rk.name, err, clip([]byte(got)), clip([]byte(tc.want)))
			}
		}
	}
	// A double escape that pieces go on with, then, in the escape, tags no
	// piece can end in before the limit (in a multi-byte charset, not after
	// '>' that follows a byte above ASCII). From script data, x/net would
	// end the script at the first "</script>".
	src := "<script><!--<script> " + strings.Repeat("a b ", 20) + "</script>" + strings.Repeat("<b\x81>", 30) + "--></script>after"
	for _, rk := range []readerKind{wholeReader, chunks(7)} {
		z := newTokenizer(rk.make([]byte(src)), 64)
		z.piece, z.cutInWords = 16, false
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tt == html.TextToken && strings.Contains(string(z.Raw()), "after") {
				t.Fatalf("%s: the script ended early: text %q", rk.name, z.Raw())
			}
		}
		if z.Err() != html.ErrBufferExceeded {
			t.Errorf("%s: error %v, want the limit's", rk.name, z.Err())
		}
	}
}

// TestTextWithoutPlacesToCut: text where no piece can end for a long
// stretch (characters of several bytes with no ASCII between them) is
// searched for a place once, not again at every read: 4 MB of CJK in 4 KiB
// reads took about 5 s when each read searched the window again.
func TestTextWithoutPlacesToCut(t *testing.T) {
	n := 4 << 20
	if raceDetector {
		n = 1 << 20
	}
	for _, tc := range []struct {
		name, fill, charset string
		text                int64
	}{
		{"UTF-8", "中", "", int64(n/3*3 + len("\nafter\n"))},
		{"long numeric reference", "0", "", int64(len("\uFFFD\nafter\n"))}, // never cut: it is one reference
		// '<' that open nothing, in GBK (where words are not cut): each
		// read, scanData asks again for a place to end a piece.
		{"'<' that open nothing", "\xd6\xd0\xd6\xd0<1", "gbk", int64(n/6*8 + len("\nafter\n"))},
	} {
		head := "<p>"
		if tc.fill == "0" {
			head = "<p>&#"
		}
		g := &generatedText{head: []byte(head), fill: []byte(tc.fill), tail: []byte("\n</p>after"), n: n / len(tc.fill)}
		var text countingWriter
		c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Text: phrase.NewWriter(&text)})
		_, err := run(chunked.Reader(g, 4<<10), c, Options{MaxTokenSize: 64 << 20, piece: 16 << 10, Charset: tc.charset})
		c.Finish()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if text.n != tc.text {
			t.Errorf("%s: text output of %d bytes, want %d", tc.name, text.n, tc.text)
		}
	}
}
