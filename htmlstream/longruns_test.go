package htmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/hostile"
	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/net/html"
)

// Long runs of one character class, in every context that comes in pieces
// (pieces.go) and in the bogus comment, which does not. A run of
// hexadecimal digits once made the piece cutter look back over it at
// every place ("maybe inside a numeric reference"), so that only a piece
// of 40 bytes could end, and the next token looked over its window again:
// 2 MiB of '0' in a <p> never ended.

// runContexts and runClasses are the contexts a run stands in and the
// runs (internal/hostile, which the hostile-shape matrix shares).
var (
	runContexts = hostile.HTMLRunContexts
	runClasses  = hostile.RunClasses
)

// repeatTo returns s repeated to n bytes.
func repeatTo(s string, n int) string { return hostile.RepeatTo(s, n) }

// errOverBudget stops a run whose work passes its budget.
var errOverBudget = errors.New("over the work budget")

// stageWork runs the HTML stage over src and returns the work the
// tokenizer did (bytes its searches looked at, and 64 a token), the text
// output and the error. Past budget (when positive), it stops the run and
// returns errOverBudget, so that superlinear work fails a test quickly.
func stageWork(t testing.TB, src []byte, opts Options, budget int) (work int, text string, err error) {
	var out bytes.Buffer
	c, cerr := filter.NewCore(filter.Options{}, filter.Outputs{Text: phrase.NewWriter(&out)})
	if cerr != nil {
		t.Fatal(cerr)
	}
	tokens := 0
	opts.afterToken = func(b *builder) {
		tokens++
		if budget > 0 && b.z.examined+64*tokens > budget {
			panic(errOverBudget)
		}
	}
	var b *builder
	func() {
		defer func() {
			if r := recover(); r != nil {
				if r != errOverBudget {
					panic(r)
				}
				err = errOverBudget
			}
		}()
		b, err = run(bytes.NewReader(src), c, opts)
	}()
	c.Finish()
	if err == errOverBudget {
		return budget, "", err
	}
	if b == nil {
		t.Fatalf("no builder: %v", err)
	}
	return b.z.examined + 64*tokens, out.String(), err
}

// TestLongRunsTakeLinearWork: in every context, a run of every class,
// ended or not, at n and 2n bytes (many pieces of 4 KiB): doubling the
// input does not much more than double the tokenizer's work.
func TestLongRunsTakeLinearWork(t *testing.T) {
	n := 48 << 10
	if raceDetector {
		n = 24 << 10
	}
	// perByte bounds the work a byte of input: the searches look at a
	// byte a few times (for '<', for a place to end a piece, for
	// textSpecial).
	const piece, perByte = 4 << 10, 24
	for _, ctx := range runContexts {
		for _, cl := range runClasses {
			for _, ended := range []bool{true, false} {
				name := fmt.Sprintf("%s/%s/ended=%v", ctx.Name, cl.Name, ended)
				var work [2]int
				for i, size := range []int{n, 2 * n} {
					src := ctx.Open + cl.Lead + repeatTo(cl.Cycle, size)
					if ended {
						src += ctx.End + "<p>after"
					}
					w, _, err := stageWork(t, []byte(src), Options{Charset: "utf-8", piece: piece}, perByte*size)
					if err != nil {
						t.Errorf("%s, %d bytes: %v (%d a byte)", name, size, err, perByte)
						break
					}
					work[i] = w
				}
				if work[1] > 3*work[0] {
					t.Errorf("%s: work %d at %d bytes, %d at %d: more than three times", name, work[0], n, work[1], 2*n)
				}
			}
		}
	}
}

// TestReportedLongRunsEnd: the inputs of the report end, with html.Parse's
// text, at the default piece size and at small ones. The work is bounded
// as the tokens come, so that the test fails rather than hangs where it
// is not.
func TestReportedLongRunsEnd(t *testing.T) {
	big := 2<<20 + 4<<10 // past twice the default piece
	pieces := []int{0, 1, 7, 64, 4 << 10}
	if raceDetector {
		big, pieces = 1<<20+4<<10, []int{0, 4 << 10}
	}
	tests := []struct {
		name string
		src  string
	}{
		{"digits in a p", "<p>" + strings.Repeat("0", big) + "</p>"},
		{"hex letters in a comment", "<p>a</p><!--" + strings.Repeat("a", big)},
		{"hex letters in a title", "<title>" + strings.Repeat("f", big) + "</title><p>x"},
		{"digits in a textarea", "<textarea>" + strings.Repeat("7", big) + "</textarea>x"},
		{"hex in a script", "<script>" + strings.Repeat("0x", big/2) + "</script>x"},
		{"a reference, then digits", "<p>&#65;" + strings.Repeat("1", big) + "</p>"},
		{"a hex reference, then hex letters", "<p>&#x41;" + strings.Repeat("f", big) + "</p>"},
		{"a long name after '&'", "<p>&" + strings.Repeat("a", big) + "</p>"},
		{"'&#' and a word", "<p>&#" + strings.Repeat("b", big) + "</p>"},
	}
	for _, tc := range tests {
		src := []byte(tc.src)
		want, ok := domRun(t, src)
		if !ok {
			t.Fatal("html.Parse failed")
		}
		for _, piece := range pieces {
			budget := 40 * len(src)
			opts := Options{Charset: "utf-8", piece: piece, afterToken: func(b *builder) {
				if b.z.examined > budget {
					t.Fatalf("%s, piece %d: the tokenizer looked at %d bytes, %d a byte of the input, by the token ending at byte %d",
						tc.name, piece, b.z.examined, b.z.examined/len(src), b.z.endOffset())
				}
			}}
			got, _ := streamRunOpts(t, src, opts)
			if got != want {
				t.Errorf("%s, piece %d: %s", tc.name, piece, describeDiff(got, want))
			}
		}
	}
}

// TestDigitRunsComeInWholePieces: a run of digits with no '&' before it
// comes in pieces of about the piece size, not of a few bytes; "&#" and
// digits past the token limit is one reference, which no piece may cut:
// the limit's error stops the document, in text, RCDATA and comments (x/net
// decodes a comment's references too); in raw text nothing is decoded, so
// it comes in pieces.
func TestDigitRunsComeInWholePieces(t *testing.T) {
	const piece = 4 << 10
	n := 256 << 10
	for _, src := range []string{"<p>" + strings.Repeat("0", n), "<p>x" + strings.Repeat("0123456789abcdef", n/16) + "</p>"} {
		z := newTokenizer(bytes.NewReader([]byte(src)), 0)
		z.piece, z.cutInWords = piece, true
		var sizes []int
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tt == html.TextToken {
				sizes = append(sizes, len(z.Raw()))
			}
		}
		for i, s := range sizes[:len(sizes)-1] {
			if s < piece/2 {
				t.Fatalf("%q: piece %d of %d is %d bytes (pieces of %d)", clip([]byte(src)), i, len(sizes), s, piece)
			}
		}
	}

	const limit = 64 << 10
	digits := strings.Repeat("0", 4*limit)
	for _, tc := range []struct {
		src     string
		tooLong bool
	}{
		{"<p>&#" + digits + "</p>after", true},
		{"<p>&#x" + digits + "</p>after", true},
		{"<title>&#" + digits + "</title>after", true},
		{"<textarea>&#" + digits + "</textarea>after", true},
		{"<p>x<!--&#" + digits + "-->after", true},
		{"<p>" + digits + "</p>after", false},
		{"<p>&#65;" + digits + "</p>after", false},
		{"<script>&#" + digits + "</script>after", false},
		{"<xmp>&#" + digits + "</xmp>after", false},
		{"<p>x<!--&#65;" + digits + "-->after", false},
	} {
		// Without the limit, the whole reading (the input is less than a
		// piece of the default size).
		_, want, err := stageWork(t, []byte(tc.src), Options{Charset: "utf-8"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, rk := range []readerKind{wholeReader, chunks(1000)} {
			var out bytes.Buffer
			c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Text: phrase.NewWriter(&out)})
			_, err := run(rk.make([]byte(tc.src)), c, Options{Charset: "utf-8", MaxTokenSize: limit})
			c.Finish()
			what := fmt.Sprintf("%q, %s", clip([]byte(tc.src)), rk.name)
			switch {
			case tc.tooLong && !errors.Is(err, filter.ErrTokenTooLong):
				t.Errorf("%s: error %v, want the token limit's", what, err)
			case tc.tooLong && strings.Contains(out.String(), "after"):
				t.Errorf("%s: read on past the limit: %q", what, clip(out.Bytes()))
			case !tc.tooLong && err != nil:
				t.Errorf("%s: error %v", what, err)
			case !tc.tooLong && out.String() != want:
				t.Errorf("%s: text %q, want %q", what, clip(out.Bytes()), clip([]byte(want)))
			}
		}
	}
}

// FuzzLongRuns builds a long run from a short seed (repeated up to 64 KiB)
// in one of runContexts, ended or not, and reads it a few bytes at a time
// in pieces of 1 to 8192 bytes: the outputs must be those of the whole
// reading, and the bytes the tokenizer looks at at most longRunWorkPerByte
// a byte of input, whatever the seed.
func FuzzLongRuns(f *testing.F) {
	for i, cl := range runClasses {
		f.Add([]byte(cl.Lead+cl.Cycle), uint8(i), uint16(3000), uint16(i*97), uint8(i))
	}
	for _, s := range []string{"&#1", "0&#", "a&", "&#x1f600;", "\r\n", "<a", "--!", "-->", "é0", "\x80", "&amp"} {
		f.Add([]byte(s), uint8(len(s)), uint16(5000), uint16(7), uint8(3))
	}
	pad := "<!--" + strings.Repeat("-", prescanSize) + "-->"
	f.Fuzz(func(t *testing.T, seed []byte, context uint8, repeat, piece uint16, chunk uint8) {
		if len(seed) == 0 || len(seed) > 64 {
			return
		}
		ctx := runContexts[int(context)%len(runContexts)]
		src := pad + ctx.Open + strings.Repeat(string(seed), min(int(repeat), (64<<10)/len(seed)))
		if int(context)/len(runContexts)%2 == 0 {
			src += ctx.End + "<p>after"
		}
		charset := "utf-8"
		if context >= 128 {
			charset = "windows-1252"
		}
		want, wantArchive, wantErr := runAllOutputs(t, strings.NewReader(src), Options{MaxDepth: 1 << 16, Charset: charset})
		var b *builder
		opts := Options{MaxDepth: 1 << 16, Charset: charset, piece: 1 + int(piece)%8192,
			afterToken: func(bb *builder) { b = bb }}
		got, archive, err := runAllOutputs(t, chunks(1+int(chunk)).make([]byte(src)), opts)
		if got != want || archive != wantArchive || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("%q, piece %d:\n got %+v\n     archive %q, error %v\nwant %+v\n     archive %q, error %v",
				clip([]byte(src[len(pad):])), opts.piece, got, clip([]byte(archive)), err, want, clip([]byte(wantArchive)), wantErr)
		}
		if b == nil {
			return
		}
		if work := b.z.examined; work > longRunWorkPerByte*len(src)+longRunWorkFixed {
			t.Fatalf("%q, piece %d, reads of %d: the tokenizer looked at %d bytes for %d", clip([]byte(src[len(pad):])), opts.piece, 1+int(chunk), work, len(src))
		}
	})
}

// The bound FuzzLongRuns sets on the bytes the tokenizer looks at: a few
// searches each look at a byte once or twice, and a raw text's rounds,
// which double from the piece size, scan the window once each.
const longRunWorkPerByte, longRunWorkFixed = 32, 64 << 10
