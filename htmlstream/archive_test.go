package htmlstream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
)

// The driver puts off passing the tokens to copy while they follow one
// another in the tokenizer's buffer, and passes them when the core asks or
// the buffer moves. The copy must not depend on when that happens: each
// document here is read whole and at every chunk size up to 64 (the buffer
// moves at different tokens), including documents whose last token is cut
// short, which the tokenizer hands over to x/net (its tokens are then in
// x/net's buffer, never put off).
func TestArchiveOfPutOffTokens(t *testing.T) {
	long := strings.Repeat("<p>words and <b>more</b> words</p>\n", 300)
	cases := []struct {
		name, in, want string
		handsOver      bool
	}{
		{name: "nothing elided", in: "<!DOCTYPE html><title>t</title>" + long},
		{name: "elided regions between", in: "<p>a</p>" + long + `<div class="robots-noarchive"><p>x</p></div>` + long + `<img class=robots-noarchive src=i><p>z`,
			want: "<p>a</p>" + long + `<div class="robots-noarchive">…</div>` + long + `…<p>z`},
		{name: "cut inside a tag", in: long + `<p>b</p><a href="unterminated`}, // no hand-over for tags (tagCutShort)
		{name: "cut inside a comment", in: long + "<p>c<!-- never closed", handsOver: true},
		{name: "elided then cut", in: long + `<p class=robots-noarchive>x</p><b>y</b><a href="cut`,
			want: long + `<p class=robots-noarchive>…</p><b>y</b><a href="cut`},
		{name: "head held then body", in: "<html><head><meta charset=utf-8><title>t</title>" + strings.Repeat("<meta name=x content=y>", 200) + "</head><body>" + long},
		{name: "document-level noarchive", in: "<head><meta name=robots content=noarchive></head><body>" + long, want: ""},
	}
	for _, tc := range cases {
		want := tc.want
		if want == "" && !strings.Contains(tc.name, "noarchive") {
			want = tc.in
		}
		for n := 0; n <= 64; n++ {
			got, b := archiveOf(t, readAtATime(tc.in, n))
			if got != want {
				t.Fatalf("%s, read %d bytes at a time:\n got %q\nwant %q", tc.name, n, clipTail(got), clipTail(want))
			}
			if handedOver := b.z.x != nil; handedOver != tc.handsOver {
				t.Fatalf("%s, read %d bytes at a time: handed over to x/net: %v, want %v", tc.name, n, handedOver, tc.handsOver)
			}
		}
	}
}

// archiveOf runs the stage over src with the archive copy as the only
// output, and returns the copy and the builder (for its counters).
func archiveOf(t *testing.T, src io.Reader) (string, *builder) {
	t.Helper()
	var got bytes.Buffer
	c, err := filter.NewCore(filter.Options{}, filter.Outputs{Archive: &got})
	if err != nil {
		t.Fatal(err)
	}
	b, err := run(src, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	return got.String(), b
}

// readAtATime reads s n bytes at a time, or whole for n = 0.
func readAtATime(s string, n int) io.Reader {
	if n == 0 {
		return strings.NewReader(s)
	}
	return chunked.Reader(strings.NewReader(s), n)
}

func clipTail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

// A head too long to hold is written early; a noarchive META after it
// stops the copy right there, so the tokens put off before the META must be
// passed before the copy stops (and not be dropped with what follows).
func TestArchiveStopsAfterPutOffTokens(t *testing.T) {
	head := "<html><head><title>t</title>" + strings.Repeat(`<meta name=x content="`+strings.Repeat("y", 100)+`">`, 45000)
	for _, in := range []string{
		head + "<meta name=robots content=noarchive><link rel=x href=/y></head><body><p>after</p></body></html>\n",
		head + "</head><body><p>after</p><meta name=robots content=noarchive><p>more</p></body></html>\n",
	} {
		want := in[:strings.Index(in, "<meta name=robots")]
		for _, n := range []int{1 << 20, 4093} {
			if got, _ := archiveOf(t, readAtATime(in, n)); got != want {
				t.Fatalf("read %d bytes at a time: the copy has %d bytes, want the %d before the META", n, len(got), len(want))
			}
		}
	}
}

// When another output fails (a Link or Region callback), the archive copy
// stops there, with everything before the failing token written: where
// the bytes happened to be buffered must not decide how much is lost.
func TestArchiveEndsWhereAnOutputFails(t *testing.T) {
	long := strings.Repeat("<p>words and <b>more</b> words</p>\n", 300)
	failing := errors.New("the link output failed")
	for _, tc := range []struct {
		name, in, stop string
		link, region   bool
	}{
		{name: "link", in: "<p>" + strings.Repeat("<b>x</b>", 2500) + "</p><link rel=next href=/1><p>" + strings.Repeat("<i>y</i>", 100) + "</p>", stop: "<link", link: true},
		{name: "region", in: long + `<div class="robots-nofollow">` + long + "</div>" + long, stop: "</div>", region: true},
	} {
		for _, n := range []int{1 << 20, 4093, 977} {
			var got bytes.Buffer
			out := filter.Outputs{Archive: &got}
			if tc.link {
				out.Link = func(filter.Link) error { return failing }
			}
			if tc.region {
				out.Region = func(filter.Region) error { return failing }
			}
			c, err := filter.NewCore(filter.Options{}, out)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := run(chunked.Reader(strings.NewReader(tc.in), n), c, Options{}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Finish(); !errors.Is(err, failing) {
				t.Fatalf("%s: Finish gave %v, want the output's error", tc.name, err)
			}
			if want := tc.in[:strings.Index(tc.in, tc.stop)]; got.String() != want {
				t.Fatalf("%s, read %d bytes at a time: the copy has %d bytes, want the %d before %q", tc.name, n, got.Len(), len(want), tc.stop)
			}
		}
	}
}

// Where a comment region crosses an element, the element's end tag is
// copied when its start tag was (and not when the region elided that), so
// the copy keeps its structure; an end tag carrying anything besides its
// name is region bytes and stays elided. Each case is read at every chunk
// size up to its length.
func TestArchiveEndTagsACommentRegionCrosses(t *testing.T) {
	const off, on = "<!--googleoff: snippet-->", "<!--googleon: snippet-->"
	cases := []struct{ name, in, want string }{
		{"end tag of an element opened before", "<p>a" + off + "b</p>c" + on + "d", "<p>a" + off + "…</p>…" + on + "d"},
		{"a no-archive element's own end tag", `<div class="robots-noarchive">` + off + "x</div>y" + on + "z", `<div class="robots-noarchive">…</div>…` + on + "z"},
		{"element wholly inside", off + "<div>x</div>" + on + "y", off + "…" + on + "y"},
		{"start tag elided, end tag after the region", off + "<span>x" + on + "y</span>", off + "…" + on + "y</span>"},
		{"end tag with attributes", "<p>a" + off + `b</p data-x="secret">c`, "<p>a" + off + "…"},
		{"end tag with white space", "<p>a" + off + "b</p >c", "<p>a" + off + "…</p >…"},
		// A void element's node is free once its tag is read: the next
		// element to take it must not inherit its copied start tag.
		{"after a void element", "<br>" + off + "<span>secret</span>", "<br>" + off + "…"},
		{"after an image", "<img src=a>" + off + "<div>secret</div>", "<img src=a>" + off + "…"},
		{"formatting element", "<b>x" + off + "<p>y</b>z", "<b>x" + off + "…</b>…"},
		{"foreign elements keep their case", "<div>a<svg><clipPath><g>q" + off + "x</g></clipPath></svg></div>", "<div>a<svg><clipPath><g>q" + off + "…</g></clipPath></svg></div>"},
		{"body and html", "<html><body><p>a" + off + "b</p></body></html>", "<html><body><p>a" + off + "…</p></body></html>"},
		{"implied body", "<meta charset=utf-8>" + off + "x</body></html>", "<meta charset=utf-8>" + off + "…"},
	}
	for _, tc := range cases {
		for n := 0; n <= len(tc.in); n++ {
			if got, _ := archiveOf(t, readAtATime(tc.in, n)); got != tc.want {
				t.Fatalf("%s, read %d bytes at a time:\n got %q\nwant %q", tc.name, n, got, tc.want)
			}
		}
	}
}
