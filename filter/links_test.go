package filter

import (
	"fmt"
	"testing"
)

// An anchor is reused once its link is written. A scope that outlives its
// link (an <a> written early because more than maxQueuedLinks links queued
// behind it) must then neither add text to the link that took its anchor
// over nor end that link when it ends.
func TestReusedAnchorTakesNoStaleText(t *testing.T) {
	var links []Link
	c, err := NewCore(Options{}, Outputs{Link: func(l Link) error { links = append(links, l); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	c.EndHead()
	root := c.Root()
	var first, next, area Scope
	c.Start(&first, &root, &Element{Tag: "a", Link: LinkAnchor, Href: []byte("/first")})
	c.Text(&first, []byte("start"))
	for i := 0; i <= maxQueuedLinks; i++ {
		c.Start(&area, &first, &Element{Tag: "area", Link: LinkRef, Href: []byte(fmt.Sprint("/area/", i))})
		c.End(&area, Inline)
	}
	if len(links) != maxQueuedLinks+2 || links[0].Href != "/first" {
		t.Fatalf("the overflow wrote %d links, the first %q", len(links), links[0].Href)
	}
	// Hand the first link's anchor to the next link, whatever the order
	// of the free list.
	for k, a := range c.links.free {
		if a == first.anchor {
			c.links.free = append(append(c.links.free[:k:k], c.links.free[k+1:]...), a)
			break
		}
	}
	c.Start(&next, &root, &Element{Tag: "a", Link: LinkAnchor, Href: []byte("/next")})
	if next.anchor != first.anchor {
		t.Fatal("the next link did not take the first one's anchor")
	}
	c.Text(&first, []byte("stale"))
	c.End(&first, Inline)
	c.Text(&next, []byte("next"))
	c.End(&next, Inline)
	if _, err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	last := links[len(links)-1]
	if len(links) != maxQueuedLinks+3 || last.Href != "/next" || last.Text != "next" {
		t.Fatalf("last of %d links: %q with text %q, want /next with text \"next\"", len(links), last.Href, last.Text)
	}
}

func TestRelTokensFoldOnlyASCIICase(t *testing.T) {
	for _, tc := range []struct {
		rel      string
		nofollow bool
	}{
		{"NoFollow", true},
		{"\u017fponsored", false}, // long s: not "sponsored"
		{"ugc,noopener", true},
	} {
		if _, got := relNoFollow([]byte(tc.rel)); got != tc.nofollow {
			t.Errorf("relNoFollow(%q) = %v", tc.rel, got)
		}
	}
	for _, tc := range []struct {
		rel      string
		resource bool
	}{
		{"StyleSheet", true},
		{"\u017ftylesheet", false},
		{"alternate,stylesheet", true}, // split on commas, as rel=nofollow is
		{"preload,prefetch", true},
		{"alternate", false},
		{"fluid-icon", true},
		{"image_src", true},
		{"apple-touch-startup-image", true},
		{"EditURI", true},
		{"wlwmanifest", true},
		{"canonical", false},
		{"”stylesheet”", true}, // pasted with typographic quotes
	} {
		if got := relNotAHyperlink([]byte(tc.rel)); got != tc.resource {
			t.Errorf("relNotAHyperlink(%q) = %v", tc.rel, got)
		}
	}
}
