package filter

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/phrase"
)

// While the head may still turn indexing or following off, what comes is
// held; what is held must not grow with the document. A body of empty
// elements before its first text holds a few ops, not one per element,
// and the text written is the same as without holding.
func TestHeldOpsDoNotGrowWithEmptyElements(t *testing.T) {
	run := func(held bool) (text, snip string, ops int) {
		var tb, sb bytes.Buffer
		c, err := NewCore(Options{}, Outputs{Text: phrase.NewWriter(&tb), ArchiveText: phrase.NewWriter(&sb)})
		if err != nil {
			t.Fatal(err)
		}
		root := c.Root()
		var head, title Scope
		c.Start(&head, &root, &Element{Tag: "head", Head: true})
		c.Start(&title, &head, &Element{Tag: "title", Title: true})
		c.Text(&title, []byte("Title"))
		c.End(&title, Inline)
		c.End(&head, Inline)
		c.EndHead()
		if !held {
			c.bodyContent()
		}
		var body Scope
		c.Start(&body, &root, &Element{Tag: "body", Layout: Block})
		for i := 0; i < 100_000; i++ {
			var div, span, cell Scope
			c.Start(&div, &body, &Element{Tag: "div", Layout: Block})
			c.Start(&span, &div, &Element{Tag: "span", Class: []byte("robots-noindex")})
			c.End(&span, Inline)
			c.Start(&cell, &div, &Element{Tag: "td", Layout: Cell, Class: []byte("robots-noarchive")})
			c.End(&cell, Cell)
			c.End(&div, Block)
		}
		ops = len(c.heldText.ops)
		c.Text(&body, []byte("body"))
		if _, err := c.Finish(); err != nil {
			t.Fatal(err)
		}
		return tb.String(), sb.String(), ops
	}
	text, snip, ops := run(true)
	if ops > 8 {
		t.Errorf("%d ops held for 100,000 empty elements", ops)
	}
	if wantText, wantSnip, _ := run(false); text != wantText || snip != wantSnip {
		t.Errorf("held: text %q, archive text %q; written at once: %q, %q", text, snip, wantText, wantSnip)
	}
	if !strings.Contains(snip, "…") || !strings.Contains(text, "\n\nbody") {
		t.Errorf("text %q, archive text %q", text, snip)
	}
}

// The head's links are held for a robots META that may follow; past
// maxHeldLinks they are written, with a warning, and the links after
// them go out as they come.
func TestHeldLinksAreBounded(t *testing.T) {
	var links []Link
	c, err := NewCore(Options{}, Outputs{Link: func(l Link) error { links = append(links, l); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	root := c.Root()
	var head Scope
	c.Start(&head, &root, &Element{Tag: "head", Head: true})
	for i := 0; i < 3*maxHeldLinks; i++ {
		var link Scope
		c.Start(&link, &head, &Element{Tag: "link", Link: LinkRef, Href: []byte(fmt.Sprint("/l/", i))})
		c.End(&link, Inline)
		if len(c.queue) > maxHeldLinks+1 {
			t.Fatalf("%d links queued", len(c.queue))
		}
	}
	res, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 3*maxHeldLinks || links[0].Href != "/l/0" {
		t.Errorf("%d links written, the first %q", len(links), links[0].Href)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "links before the body's first content") {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// White space alone is held as one space whatever its length: 200 KB of
// it before the first word (an XML document's indentation, a body's) is
// no head text to bound, and the text written is as without holding.
func TestHeldWhiteSpaceIsNotHeadText(t *testing.T) {
	var tb, sb bytes.Buffer
	c, err := NewCore(Options{}, Outputs{Text: phrase.NewWriter(&tb), ArchiveText: phrase.NewWriter(&sb)})
	if err != nil {
		t.Fatal(err)
	}
	root := c.Root()
	var head, body Scope
	c.Start(&head, &root, &Element{Tag: "head", Head: true})
	c.End(&head, Inline)
	c.EndHead()
	c.Start(&body, &root, &Element{Tag: "body", Layout: Block})
	for range 2 {
		c.Text(&body, []byte(strings.Repeat("\n \r\t", 50_000)))
	}
	if len(c.heldText.buf) != 1 {
		t.Errorf("%d bytes held for white space", len(c.heldText.buf))
	}
	c.Text(&body, []byte("word"))
	res, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 || tb.String() != "word\n" || sb.String() != "word\n" {
		t.Errorf("text %q, archive text %q, warnings %v", tb.String(), sb.String(), res.Warnings)
	}
}

// A title longer than the bound keeps what fits, cut between characters,
// with a warning; it is not dropped whole because it came as one piece.
func TestHeldTitleIsCutNotDropped(t *testing.T) {
	var tb bytes.Buffer
	c, err := NewCore(Options{}, Outputs{Text: phrase.NewWriter(&tb)})
	if err != nil {
		t.Fatal(err)
	}
	root := c.Root()
	var head, title, body Scope
	c.Start(&head, &root, &Element{Tag: "head", Head: true})
	c.Start(&title, &head, &Element{Tag: "title", Title: true})
	c.Text(&title, []byte("x"+strings.Repeat("é", maxHeldText))) // the bound falls inside a character
	c.End(&title, Inline)
	c.End(&head, Inline)
	c.EndHead()
	c.Start(&body, &root, &Element{Tag: "body", Layout: Block})
	c.Text(&body, []byte("body"))
	res, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	want := "x" + strings.Repeat("é", (maxHeldText-1)/2) + "\nbody\n"
	if got := tb.String(); got != want {
		t.Errorf("text of %d bytes (%q…), want %d", len(got), got[:min(len(got), 20)], len(want))
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "head text") {
		t.Errorf("warnings %v, want one about the head text", res.Warnings)
	}
}

// Past the bound, the rest of the head text is dropped however it comes:
// the title's words that follow in other pieces are not kept in the bytes
// the cut between characters left (a title of "é0" pairs in pieces kept
// one more '0' than the title whole).
func TestHeldTitleInPiecesIsCutAsWhole(t *testing.T) {
	title := strings.Repeat("é0", maxHeldText/3+2) // the bound falls inside an é, the cut leaves a byte free
	var want string
	for _, pieces := range [][]string{{title}, {title[:maxHeldText-1], title[maxHeldText-1 : maxHeldText+1], title[maxHeldText+1 : maxHeldText+2], title[maxHeldText+2:]}} {
		var tb bytes.Buffer
		c, err := NewCore(Options{}, Outputs{Text: phrase.NewWriter(&tb)})
		if err != nil {
			t.Fatal(err)
		}
		root := c.Root()
		var head, ts Scope
		c.Start(&head, &root, &Element{Tag: "head", Head: true})
		c.Start(&ts, &head, &Element{Tag: "title", Title: true})
		for _, p := range pieces {
			c.Text(&ts, []byte(p))
		}
		c.End(&ts, Inline)
		c.End(&head, Inline)
		c.EndHead()
		if _, err := c.Finish(); err != nil {
			t.Fatal(err)
		}
		if want == "" {
			want = tb.String()
		} else if got := tb.String(); got != want {
			t.Errorf("in %d pieces: text of %d bytes ending %q, whole %d ending %q", len(pieces), len(got), got[len(got)-8:], len(want), want[len(want)-8:])
		}
	}
}
