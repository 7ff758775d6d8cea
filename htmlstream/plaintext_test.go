package htmlstream

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// isPlainText must be true only for text tokens whose Text() is Raw().
func TestPlainTextIsWhatTextReturns(t *testing.T) {
	var docs []string
	for _, special := range []string{"", "&amp;", "&", "\r", "\r\n", "\x00", "<![CDATA[x]]>"} {
		for n := 0; n < 20; n++ {
			pad := strings.Repeat("ab cd", n)[:n]
			docs = append(docs,
				"<p>"+pad+special+"</p>",
				"<p>"+special+pad+"</p>",
				"<svg>"+pad+special+pad+"</svg>",
				"<script>"+pad+special+"</script>",
				"<title>"+pad+special+"</title>",
				"<textarea>"+special+pad+"</textarea>",
				"<plaintext>"+pad+special)
		}
	}
	plain, cdata := 0, 0
	for _, doc := range docs {
		z := html.NewTokenizer(strings.NewReader(doc))
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
			isPlain := isPlainText(raw)
			text := z.Text()
			if bytes.HasPrefix(raw, []byte("<![CDATA[")) {
				cdata++
			}
			if isPlain {
				plain++
				if !bytes.Equal(text, raw) {
					t.Errorf("%q: text token %q is plain, but Text() is %q", doc, raw, text)
				}
			}
		}
	}
	if plain == 0 || cdata == 0 {
		t.Fatalf("%d plain text tokens and %d CDATA sections seen; want some of each", plain, cdata)
	}
}
