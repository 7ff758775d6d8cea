package htmlstream

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// textIsPlain must be true only for text tokens whose Text() is Raw()
// and holds no NUL (the tokenizer tests check this on every token they
// compare with x/net's, the fuzz target's included), and true for every
// text token without '\r', '&' or NUL (raw text with '&' is left to
// Text()), however it is read.
func TestPlainTextIsWhatTextReturns(t *testing.T) {
	var docs []string
	for _, special := range []string{"", "&amp;", "&", "\r", "\r\n", "\x00", "<", "<<", "< a", "<![CDATA[x]]>"} {
		for n := 0; n < 20; n++ {
			pad := strings.Repeat("ab cd", n)[:n]
			docs = append(docs,
				pad+special+pad,
				"<p>"+pad+special+"</p>",
				"<p>"+special+pad+"</p>",
				"<svg>"+pad+special+pad+"</svg>",
				"<script>"+pad+special+"</script>",
				"<title>"+pad+special+"</title>",
				"<textarea>"+special+pad+"</textarea>",
				"<plaintext>"+pad+special)
		}
	}
	for _, rk := range []readerKind{wholeReader, oneByte, chunks(3), chunks(9)} {
		plain, cdata := 0, 0
		for _, doc := range docs {
			z := newTokenizer(rk.make([]byte(doc)), 0)
			var top string
			z.cdataAllowed = func() bool { return top == "svg" }
			for {
				tt := z.Next()
				if tt == html.ErrorToken {
					break
				}
				if tt == html.StartTagToken {
					name, _ := z.TagName()
					top = string(name)
					continue
				}
				if tt != html.TextToken {
					continue
				}
				raw := append([]byte(nil), z.Raw()...)
				isPlain := z.textIsPlain()
				text := z.Text()
				section := bytes.HasPrefix(raw, []byte("<![CDATA[")) && !bytes.Equal(text, raw)
				if section {
					cdata++
				}
				if !bytes.ContainsAny(raw, "\r&\x00") && !section {
					if !isPlain {
						t.Errorf("%s, %q: text token %q is not found plain", rk.name, doc, raw)
					}
				}
				if isPlain {
					plain++
					if !bytes.Equal(text, raw) || bytes.IndexByte(raw, 0) >= 0 {
						t.Errorf("%s, %q: text token %q is plain, but Text() is %q", rk.name, doc, raw, text)
					}
				}
			}
		}
		if plain == 0 || cdata == 0 {
			t.Fatalf("%s: %d text tokens found plain, %d CDATA sections; want some of each", rk.name, plain, cdata)
		}
	}
}

// textStopMask's lowest high bit is at the first '<', '&', CR or NUL of
// the word, and wordHasTextSpecial finds '&', CR and NUL, whatever bytes
// stand around them.
func TestWordTestsFindTheFirstStop(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte{'<', '&', '\r', 0, 1, '\n', ' ', 'a', 0x3b, 0x3d, 0x25, 0x27, 0x0c, 0x0e, 0x7f, 0x80, 0xa6, 0xbc, 0x8d, 0xff}
	var w [8]byte
	for range 200000 {
		for i := range w {
			w[i] = alphabet[rng.Intn(len(alphabet))]
		}
		x := binary.LittleEndian.Uint64(w[:])
		first, special := 8, false
		for i, c := range w {
			if c == '<' || textSpecial[c] {
				first = min(first, i)
			}
			special = special || textSpecial[c]
		}
		got := 8
		if m := textStopMask(x); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != first || wordHasTextSpecial(x) != special {
			t.Fatalf("% x: first stop at %d, want %d; special %v, want %v", w, got, first, wordHasTextSpecial(x), special)
		}
	}
}
