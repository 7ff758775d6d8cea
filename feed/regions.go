package feed

import (
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter/filter"
)

// Comment regions in entries mode. The comment dialects (Yandex
// <!--noindex--> … <!--/noindex-->, googleoff/googleon) and the XHTML
// <noindex> element open regions in document order, across element
// boundaries: a comment between two entries, or inside an entry before its
// title, holds for what follows, as in the XML stage. The stream parser
// hands a entry over with what it read since the previous one (the rest
// was pruned), so regionTracker reads those comments where the XML stage
// would, and knows the state in force at the start of each of the entry's
// fields; a field's own run starts in that state (flatState.comments) and
// reads the comments inside it itself.

// flatState is the state of the comment dialects at a point.
type flatState struct {
	google filter.Switch // what googleoff turned off (index, anchor, snippet)
	yandex bool          // inside a Yandex region
}

// off is what the state turns off.
func (s flatState) off() filter.Switch {
	if s.yandex {
		return s.google | filter.NoIndex
	}
	return s.google
}

// comments are the comments that put a run in this state at its start.
func (s flatState) comments() string {
	var b strings.Builder
	if s.google != 0 {
		b.WriteString("<!--googleoff:")
		for _, f := range []struct {
			bit  filter.Switch
			name string
		}{{filter.NoIndex, "index"}, {filter.NoAnchorText, "anchor"}, {filter.NoArchive, "snippet"}} {
			if s.google&f.bit != 0 {
				b.WriteString(" " + f.name)
			}
		}
		b.WriteString("-->")
	}
	if s.yandex {
		b.WriteString("<!--noindex-->")
	}
	return b.String()
}

// comment applies a comment's text, as htmlstream.CommentMarker reads it
// (filter.ParseCommentMarker, the XML stage's reading too); marker reports
// whether it is one of the dialects' markers (enabled or not).
func (s *flatState) comment(data string, dialects filter.Dialects) (marker bool) {
	m := filter.ParseCommentMarker([]byte(data))
	switch {
	case m.Dialect == 0:
		return false
	case dialects&m.Dialect == 0:
	case m.Dialect == filter.DialectYandex:
		s.yandex = m.Off != 0
	default:
		s.google = (s.google | m.Off) &^ m.On
	}
	return true
}

// isYandexElement reports whether n is the XHTML <noindex> element, a
// Yandex region in the XML stage too.
func isYandexElement(n *xmlquery.Node) bool {
	return n.Type == xmlquery.ElementNode && n.Data == "noindex" && n.NamespaceURI == nsXHTML
}

const nsXHTML = "http://www.w3.org/1999/xhtml"

// regionTracker follows the comment dialects from entry to entry.
type regionTracker struct {
	dialects filter.Dialects
	st       flatState
	// path: the ancestors of the last entry (document first), whose
	// start tags were read; an XHTML <noindex> among them opened its region
	// then, and only its end is still to come.
	path []*xmlquery.Node
	up   []*xmlquery.Node // scratch
	// fields: the state at the start of each element child of the entry.
	fields []fieldState
}

type fieldState struct {
	n  *xmlquery.Node
	st flatState
}

func newRegionTracker(dialects filter.Dialects) *regionTracker {
	if dialects == 0 {
		dialects = filter.AllDialects
	}
	return &regionTracker{dialects: dialects}
}

// entry reads what the stream parser holds before entry n (everything
// there is new since the last entry: pruneOutside removed the rest), in
// document order, then n itself, noting the state at the start of each of
// its element children.
func (t *regionTracker) entry(n *xmlquery.Node) {
	path := t.up[:0] // the ancestors, n's parent first
	for c := n.Parent; c != nil; c = c.Parent {
		path = append(path, c)
	}
	t.up = path
	for i := len(path) - 1; i >= 0; i-- {
		next := n
		if i > 0 {
			next = path[i-1]
		}
		for c := path[i].FirstChild; c != nil && c != next; c = c.NextSibling {
			t.walk(c, nil)
		}
		if next != n && !t.wasOpen(next) {
			t.enter(next)
		}
	}
	t.fields = t.fields[:0]
	t.walk(n, n)
	// The new path, document first.
	t.path = t.path[:0]
	for i := len(path) - 1; i >= 0; i-- {
		t.path = append(t.path, path[i])
	}
}

// wasOpen reports whether n is an ancestor of the last entry, whose start
// was read then.
func (t *regionTracker) wasOpen(n *xmlquery.Node) bool {
	for _, p := range t.path {
		if p == n {
			return true
		}
	}
	return false
}

// walk reads the subtree at root in document order, without recursion
// (a entry may nest deeply). With entry set (root itself), the state at
// the start of each of the entry's element children is noted.
func (t *regionTracker) walk(root, entry *xmlquery.Node) {
	for c := root; ; {
		if entry != nil && c.Parent == entry && c.Type == xmlquery.ElementNode {
			t.fields = append(t.fields, fieldState{c, t.st})
		}
		if !isYandexElement(c) || !t.wasOpen(c) {
			t.enter(c)
		}
		if c.FirstChild != nil {
			c = c.FirstChild
			continue
		}
		for {
			if isYandexElement(c) && t.dialects&filter.DialectYandex != 0 {
				t.st.yandex = false // its end closes the Yandex region
			}
			if c == root {
				return
			}
			if c.NextSibling != nil {
				c = c.NextSibling
				break
			}
			c = c.Parent
		}
	}
}

func (t *regionTracker) enter(c *xmlquery.Node) {
	switch {
	case c.Type == xmlquery.CommentNode:
		t.st.comment(c.Data, t.dialects)
	case isYandexElement(c) && t.dialects&filter.DialectYandex != 0:
		t.st.yandex = true
	}
}

// at is the state at the start of the entry's element child c.
func (t *regionTracker) at(c *xmlquery.Node) flatState {
	for _, f := range t.fields {
		if f.n == c {
			return f.st
		}
	}
	return t.st
}
