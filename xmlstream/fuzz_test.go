package xmlstream

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter/filter"
)

// fuzzOptions keep a fuzzed run's memory small: the limits bound it.
var fuzzOptions = Options{MaxDepth: 200, MaxTokenSize: 64 << 10}

// mayElide reports whether an input could hold no-archive markup (a class,
// data-nosnippet, googleoff: snippet|all), in ASCII or UTF-16. Without any, the archive copy is
// the input, or a prefix of it when the input is not well-formed.
func mayElide(b []byte) bool {
	l := bytes.ToLower(bytes.ReplaceAll(b, []byte{0}, nil)) // UTF-16 markup too
	return bytes.Contains(l, []byte("noarchive")) || bytes.Contains(l, []byte("nosnippet")) || bytes.Contains(l, []byte("googleoff"))
}

// keepsOriginalBytes reports whether a charset's archive copy is made of the
// original bytes (not re-encoded from decoded text).
func keepsOriginalBytes(charset string) bool {
	if charset == "utf-8" || strings.HasPrefix(charset, "utf-16") {
		return true
	}
	enc, _ := lookupCharset(charset)
	return enc != nil && asciiCompatible(enc, charset)
}

func FuzzXMLStage(f *testing.F) {
	for _, tc := range goldenCases {
		f.Add([]byte(tc.input))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		whole := runXML(t, bytes.NewReader(input), filter.Options{Base: "http://example.com/"}, fuzzOptions)
		var pe *filter.PosError
		if whole.err != nil && !errors.As(whole.err, &pe) {
			t.Fatalf("error without a position: %v", whole.err)
		}
		if !mayElide(input) && keepsOriginalBytes(whole.res.Charset) {
			if whole.err == nil && !bytes.Equal(whole.archive, input) {
				t.Fatalf("archive copy differs from the input:\n%q\n%q", whole.archive, input)
			}
			if whole.err != nil && !bytes.HasPrefix(input, whole.archive) {
				t.Fatalf("archive copy before the error is not a prefix of the input:\n%q\n%q", whole.archive, input)
			}
		}
		// The way the input arrives never changes the result.
		bytewise := runXML(t, iotest.OneByteReader(bytes.NewReader(input)), filter.Options{Base: "http://example.com/"}, fuzzOptions)
		if a, b := whole.render(input), bytewise.render(input); a != b {
			t.Fatalf("read whole and byte by byte, the results differ:\n%s\n---\n%s", a, b)
		}
		// Nor do the pieces long text nodes come in.
		pieces := fuzzOptions
		pieces.piece = 1 + len(input)%7
		inPieces := runXML(t, iotest.OneByteReader(bytes.NewReader(input)), filter.Options{Base: "http://example.com/"}, pieces)
		if a, b := whole.render(input), inPieces.render(input); a != b {
			t.Fatalf("read whole and in pieces of %d, the results differ:\n%s\n---\n%s", pieces.piece, a, b)
		}
	})
}
