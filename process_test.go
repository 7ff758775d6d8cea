package robofilter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/phrase"
)

// An HTTP Content-Type's charset reaches the XML stage as it reaches the
// HTML one (RFC 7303: it outranks the XML declaration); Charset outranks it.
func TestContentTypeCharsetDecodesXML(t *testing.T) {
	src := "<?xml version=\"1.0\"?><r>caf\xe9</r>"
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"content_type_charset", Options{Format: XML, ContentType: "application/xml; charset=windows-1252"}, "café\n"},
		{"charset_outranks_content_type", Options{Format: XML, Charset: "iso-8859-1", ContentType: "application/xml; charset=utf-8"}, "café\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Filter(strings.NewReader(src), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tc.want {
				t.Errorf("text %q, want %q", doc.Text, tc.want)
			}
		})
	}
}

// Process flushes the writers it is given; a caller's own Flush after it,
// as with text/tabwriter, adds nothing.
func TestFlushAfterProcessAddsNothing(t *testing.T) {
	var buf bytes.Buffer
	w := phrase.NewWriter(&buf)
	if _, err := Process(strings.NewReader("<p>a</p><p>b</p>"), Options{}, Outputs{Text: w}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "a\nb\n" {
		t.Errorf("text %q, want %q", got, "a\nb\n")
	}
}

// Anchor text longer than filter.MaxAnchorText is cut between characters,
// never inside one, and marked truncated.
func TestAnchorTextIsCutBetweenCharacters(t *testing.T) {
	src := "<a href=x>" + strings.Repeat("é", filter.MaxAnchorText/2-1) + "aééé</a>"
	doc, err := Filter(strings.NewReader(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Links) != 1 {
		t.Fatalf("%d links, want 1", len(doc.Links))
	}
	l := doc.Links[0]
	if !l.Truncated || !utf8.ValidString(l.Text) || len(l.Text) > filter.MaxAnchorText || !strings.HasSuffix(l.Text, "a") {
		t.Errorf("truncated %v, %d bytes, valid UTF-8 %v, ends %q", l.Truncated, len(l.Text), utf8.ValidString(l.Text), l.Text[len(l.Text)-3:])
	}
}

// Enumerated options outside their values are errors before anything is
// read: Dialects of unknown bits alone used to turn every dialect off.
func TestUnknownOptionValuesAreErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"dialects", Options{Dialects: 1 << 7}, "unknown dialect bits 0x80"},
		{"dialects beside known ones", Options{Dialects: DialectProfile | 1<<6}, "unknown dialect bits 0x40"},
		{"format", Options{Format: 7}, "unknown format 7"},
	} {
		_, err := Process(strings.NewReader(`<p class="robots-noindex">x</p>`), tc.opts, Outputs{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// Invalid UTF-8 becomes one U+FFFD per maximal subpart, as the WHATWG
// decoder and browsers have it: a sequence cut short is one, a byte that
// can start none is one, and the parts of an overlong form or a surrogate
// are one each.
func TestInvalidUTF8IsOneReplacementPerMaximalSubpart(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\xE2\x82X", "a\uFFFDX"},
		{"a\xE2\x82", "a\uFFFD"},
		{"\xF0\x9F\x98!", "\uFFFD!"},
		{"\xFF\xFE", "\uFFFD\uFFFD"},
		{"\xC0\xAF", "\uFFFD\uFFFD"},
		{"\xE0\x80\x80", "\uFFFD\uFFFD\uFFFD"},
		{"\xED\xA0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"\xF4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\xE2\x82\xAC\xE2\x82", "€\uFFFD"},
	} {
		for _, charset := range []string{"", "utf-8"} {
			var text bytes.Buffer
			opts := Options{Charset: charset}
			if _, err := Process(strings.NewReader("<meta charset=utf-8><p>"+tc.in+"</p>"), opts, Outputs{Text: phrase.NewWriter(&text)}); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSuffix(text.String(), "\n"); got != tc.want {
				t.Errorf("%q (charset %q): text %+q, want %+q", tc.in, charset, got, tc.want)
			}
		}
	}
}

// Regions, links and warnings say where they start in bytes as well as in
// lines and columns: the offset of the element's "<" or the comment's.
func TestPositionsCarryByteOffsets(t *testing.T) {
	page := "ab\n<p class=robots-noindex>x <a href=/y>y</a></p><!--googleoff: index-->z<!--googleon: index--><p class=robots-foo>"
	var regions []filter.Region
	var links []filter.Link
	res, err := Process(strings.NewReader(page), Options{}, Outputs{
		Region: func(r filter.Region) error { regions = append(regions, r); return nil },
		Link:   func(l filter.Link) error { links = append(links, l); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	at := func(what string, offset int64, want string) {
		if offset < 0 || offset > int64(len(page)) || !strings.HasPrefix(page[offset:], want) {
			t.Errorf("%s at offset %d, want it where %q starts", what, offset, want)
		}
	}
	if len(regions) != 2 || len(links) != 1 || len(res.Warnings) != 1 {
		t.Fatalf("%d regions, %d links, %d warnings; want 2, 1, 1", len(regions), len(links), len(res.Warnings))
	}
	at("the class region", regions[0].Offset, "<p class=robots-noindex>")
	at("the comment region", regions[1].Offset, "<!--googleoff")
	at("the link", links[0].Offset, "<a href=/y>")
	at("the warning", res.Warnings[0].Offset, "<p class=robots-foo>")
}

// failAfter returns the first n bytes of src, then fails.
type failAfter struct {
	src []byte
	n   int
}

var errFailAfter = errors.New("the connection broke")

func (r *failAfter) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, errFailAfter
	}
	k := copy(p[:min(len(p), r.n)], r.src)
	r.src, r.n = r.src[k:], r.n-k
	return k, nil
}

// An HTML document whose reader fails within the first KiB (the charset
// prescan's, and the 512 bytes Sniff peeks at) is processed up to there,
// and the error has its position, as one later in the document: the CLI
// prints FILE:LINE:COL: error: reading: …. The archive copy and the text
// are those of the bytes before the error.
func TestReadErrorInTheFirstKiBHasAPosition(t *testing.T) {
	src := "<html><head><title>T</title></head><body>\n" + strings.Repeat("<p>Text <a href=http://a.example/>link</a></p>\n", 100)
	for _, near := range []int{300, 3000} {
		at := strings.Index(src[near:], "\n") + near + 1
		doc, err := Filter(&failAfter{src: []byte(src), n: at}, Options{})
		var pe *filter.PosError
		if !errors.As(err, &pe) || !errors.Is(err, errFailAfter) {
			t.Fatalf("error after %d bytes: %v, want a *filter.PosError", at, err)
		}
		if line := 1 + strings.Count(src[:at], "\n"); pe.Pos.Line != line || pe.Pos.Col != 1 || pe.Pos.Offset != int64(at) {
			t.Fatalf("error after %d bytes at %d:%d (offset %d), want %d:1", at, pe.Pos.Line, pe.Pos.Col, pe.Pos.Offset, line)
		}
		whole, err := Filter(strings.NewReader(src[:at]), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if string(doc.Archive) != src[:at] || doc.Text != whole.Text || len(doc.Links) != len(whole.Links) || len(doc.Links) == 0 {
			t.Fatalf("error after %d bytes: archive of %d bytes, text %q, %d links; want the %d bytes before it, %q, %d links",
				at, len(doc.Archive), doc.Text, len(doc.Links), at, whole.Text, len(whole.Links))
		}
	}
}

// A reader that returns its last bytes together with its error loses none
// of them: every output, and the error and its position, are those of a
// reader that fails on the next read, at every read size. The XML stage
// and the records mode once dropped a failed read's bytes when it was the
// first (the charset's head) and reported the input's error before a
// well-formedness error the same bytes held.
func TestInputFailingWithItsLastBytesLosesNone(t *testing.T) {
	pad := strings.Repeat("word ", 300) // past the first KiB, the charset's head
	for _, doc := range []struct {
		name   string
		format Format
		src    string
	}{
		{"html", HTML, "<p>hello <b>x</b> <a href=/a>a</a> world"},
		{"html, long", HTML, "<meta charset=windows-1252><p>caf\xe9 " + pad + "<a href=/a>a</a>"},
		{"html, in a comment", HTML, "<p>hello<!-- x" + pad},
		{"xml", XML, "<a>x <b>y</b></a>"},
		{"xml, long", XML, "<?xml version='1.0' encoding='iso-8859-1'?><a>caf\xe9 " + pad + "</a><"},
		{"xml, not well-formed", XML, "<a>x]]>y</a>"},
		{"xml, not well-formed, late", XML, "<a>" + pad + "]]>y</a>"},
		{"xml, mismatched", XML, "<a><b>" + pad + "</a>"},
		{"xml, in text", XML, "<a>x" + pad},
		{"xml, decoded whole", XML, "<?xml version='1.0' encoding='ISO-2022-JP'?><r>x <b>y</b>"},
		{"xml, in UTF-16", XML, "\xff\xfe<\x00r\x00>\x00x\x00"},
	} {
		var want string
		for _, together := range []bool{false, true} {
			for _, n := range []int{0, 1, 7, 1000} {
				d, err := Filter(chunked.Failing([]byte(doc.src), n, together, errFailAfter), Options{Format: doc.format})
				got := fmt.Sprintf("%q %q %d links, error %v", d.Text, d.Archive, len(d.Links), err)
				if !errors.Is(err, errFailAfter) && !strings.Contains(doc.name, "not well-formed") && !strings.Contains(doc.name, "mismatched") {
					t.Errorf("%s: error %v, want the input's", doc.name, err)
				}
				if want == "" {
					want = got
				} else if got != want {
					t.Errorf("%s, reads of %d, bytes and error together %v:\n got %.300s\nwant %.300s", doc.name, n, together, got, want)
				}
			}
		}
	}
	// A token past the limit is the limit's error, also when the read that
	// brought it failed.
	for _, src := range []string{"<r><!-- " + strings.Repeat("c", 200), "<?xml version='1.0' encoding='Shift_JIS'?><r>" + strings.Repeat("\x82\xa0", 200)} {
		var want string
		for _, together := range []bool{false, true} {
			for _, n := range []int{0, 1, 7} {
				d, err := Filter(chunked.Failing([]byte(src), n, together, errFailAfter), Options{Format: XML, MaxTokenSize: 100})
				if !errors.Is(err, filter.ErrTokenTooLong) {
					t.Errorf("%.30q, reads of %d, together %v: error %v, want the limit's", src, n, together, err)
				}
				got := fmt.Sprintf("%q %q, error %v", d.Text, d.Archive, err)
				if want == "" {
					want = got
				} else if got != want {
					t.Errorf("%.30q, reads of %d, together %v:\n got %.200s\nwant %.200s", src, n, together, got, want)
				}
			}
		}
	}

}
