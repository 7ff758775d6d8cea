package robofilter

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
)

// wordBytes counts the bytes of a plain text output's words: all but the
// spaces and line breaks the phrase writer puts between them.
func wordBytes(s string) int {
	return len(s) - strings.Count(s, " ") - strings.Count(s, "\n")
}

// textAndExcluded runs a document with the Text and ExcludedText outputs.
func textAndExcluded(t *testing.T, src []byte, opts Options) (text, excluded string) {
	t.Helper()
	var tb, xb bytes.Buffer
	if _, err := Process(bytes.NewReader(src), opts, Outputs{Text: NewTextWriter(&tb), ExcludedText: NewTextWriter(&xb)}); err != nil {
		t.Fatal(err)
	}
	return tb.String(), xb.String()
}

// TestExcludedTextIsWhatNoindexKeepsOut checks ExcludedText against the
// text of the page read with no in-page dialect but rel (which excludes
// no text): the indexed and the excluded words, together, are that
// text's, byte for byte. The Text output is as without ExcludedText.
func TestExcludedTextIsWhatNoindexKeepsOut(t *testing.T) {
	docs := map[string][]byte{}
	for name, c := range sourceCases {
		if c.opts.Charset == "" && !strings.Contains(c.doc, "noindex,") {
			docs[name] = []byte(c.doc)
		}
	}
	docs["glued words"] = []byte(`<p>wo<span class=robots-noindex>rd</span>s and <b>mo</b><!--googleoff: index-->re<!--googleon: index--> text`)
	docs["title excluded"] = []byte(`<title class=robots-noindex>The title</title><p>body <noindex>not this</noindex>`)
	for _, f := range shared.Glob(t, "corpus/html/*.html") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(f)] = b
	}
	for name, src := range docs {
		text, excluded := textAndExcluded(t, src, Options{})
		var plain bytes.Buffer
		if _, err := Process(bytes.NewReader(src), Options{}, Outputs{Text: NewTextWriter(&plain)}); err != nil {
			t.Fatal(err)
		}
		if plain.String() != text {
			t.Errorf("%s: the text differs with ExcludedText", name)
		}
		res, err := Process(bytes.NewReader(src), Options{}, Outputs{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Directives.NoIndex {
			if text != "" {
				t.Errorf("%s: a noindex document has text %q", name, text)
			}
			continue // TestExcludedTextOfANoindexDocument
		}
		all := mustText(t, src, Options{Dialects: DialectRel})
		if got, want := wordBytes(text)+wordBytes(excluded), wordBytes(all); got != want {
			t.Errorf("%s: indexed %d + excluded %d = %d bytes of words, the page has %d", name, wordBytes(text), wordBytes(excluded), got, want)
		}
	}
}

// A document-level noindex excludes all the text, the title held in the
// head before it too.
func TestExcludedTextOfANoindexDocument(t *testing.T) {
	page := `<html><head><title>The title</title>%s</head><body><p>Some <b>body</b> text.<p class=robots-noindex>More.`
	with := strings.Replace(page, "%s", `<meta name=robots content=noindex>`, 1)
	without := strings.Replace(page, "%s", "", 1)
	text, excluded := textAndExcluded(t, []byte(with), Options{})
	if text != "" {
		t.Errorf("text %q", text)
	}
	if want := mustText(t, []byte(without), Options{Dialects: DialectRel}); excluded != want {
		t.Errorf("excluded %q, want %q", excluded, want)
	}
}

func mustText(t *testing.T, src []byte, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := Process(bytes.NewReader(src), opts, Outputs{Text: NewTextWriter(&b)}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
