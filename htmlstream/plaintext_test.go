package htmlstream

import (
	"bytes"
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
			for {
				z.AllowCDATA(top == "svg")
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
