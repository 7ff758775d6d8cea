package htmlstream

import (
	"bytes"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
)

// The comment dialects (googleoff/googleon, <!--noindex-->) are defined in
// document order, not by the tree, so their oracle works on the raw bytes:
// it walks the markup, keeps the flat state of every dialect, and collects
// the words that are indexed with the phrase they belong to. Generated
// documents put markers in text positions among nested, misnested and
// unclosed inline and block elements.

var (
	markupToken        = regexp.MustCompile(`<!--(.*?)-->|<[^>]*>|[^<\s]+|\s+`)
	commentDocElements = []string{"p", "div", "b", "i", "span", "em", "section", "li"}
	commentMarkers     = []string{"googleoff: index", "googleon: index", "googleoff: all", "googleon: all",
		"googleoff: anchor", "googleon: anchor", "googleoff: snippet", "googleon: snippet", "noindex", "/noindex"}
)

func generateCommentDoc(rng *rand.Rand) []byte {
	var b bytes.Buffer
	var open []string
	for i := 0; i < 20+rng.Intn(60); i++ {
		switch r := rng.Intn(10); {
		case r < 4:
			fmt.Fprintf(&b, "w%d ", i)
		case r < 6:
			fmt.Fprintf(&b, "<!--%s-->", commentMarkers[rng.Intn(len(commentMarkers))])
		case r < 8:
			e := commentDocElements[rng.Intn(len(commentDocElements))]
			open = append(open, e)
			fmt.Fprintf(&b, "<%s>", e)
		default:
			if len(open) > 0 {
				k := rng.Intn(len(open)) // any open element: misnesting too
				fmt.Fprintf(&b, "</%s>", open[k])
				open = append(open[:k], open[k+1:]...)
			}
		}
	}
	return b.Bytes()
}

type phrasedWord struct {
	word   string
	phrase int
}

// commentOracle computes the indexed words and their phrases from the raw
// bytes alone.
func commentOracle(src []byte) []phrasedWord {
	var google, yandex bool
	var out []phrasedWord
	phraseNo, pendingBreak := 1, false
	for _, m := range markupToken.FindAllSubmatch(src, -1) {
		tok := string(m[0])
		switch {
		case strings.HasPrefix(tok, "<!--"):
			before := google || yandex
			switch strings.TrimSpace(string(m[1])) {
			case "googleoff: index", "googleoff: all":
				google = true
			case "googleon: index", "googleon: all":
				google = false
			case "noindex":
				yandex = true
			case "/noindex":
				yandex = false
			}
			if !before && (google || yandex) {
				pendingBreak = true
			}
		case strings.HasPrefix(tok, "<"), strings.TrimSpace(tok) == "":
		default:
			if google || yandex {
				pendingBreak = true
				continue
			}
			if pendingBreak && len(out) > 0 {
				phraseNo++
			}
			pendingBreak = false
			out = append(out, phrasedWord{tok, phraseNo})
		}
	}
	return out
}

func streamWords(t *testing.T, src []byte) []phrasedWord {
	var out []phrasedWord
	w := phrase.NewLineWriter(func(l phrase.Line) error {
		for _, f := range strings.Fields(string(l.Text)) {
			out = append(out, phrasedWord{f, l.Phrase})
		}
		return nil
	})
	c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Text: w})
	if _, err := run(bytes.NewReader(src), c, Options{Charset: "utf-8"}); err != nil {
		t.Fatal(err)
	}
	c.Finish()
	return out
}

func TestCommentDialectsFollowDocumentOrderOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < 2000; i++ {
		src := generateCommentDoc(rng)
		want, got := commentOracle(src), streamWords(t, src)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("document %q:\nstream %v\nraw-bytes oracle %v", src, got, want)
		}
	}
}
