package feed

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/weburl"
)

// recordBuffers are what the runs of a document's entries share: the
// reader the pipelines read a field through (Process takes a *bufio.Reader
// of its size as it is) and the buffer the field is written into for them.
// Without them every entry allocated a reader of 4 KiB.
type entryBuffers struct {
	in    *bufio.Reader
	buf   bytes.Buffer
	marks [][2]int // comment markers written into buf (writeHTML)
	// bases holds the base in effect at the ancestors of the entries
	// (nil: none), so that the entries under the same ancestors do not
	// resolve their xml:base values again. A entry's own elements are not
	// kept: they would keep the entry alive after it is done. It is
	// emptied when it holds maxBaseMemo of them.
	bases map[*xmlquery.Node]*url.URL
	// entry is the entry being made, and recordBase the base in effect
	// at its parent (see baseAt).
	entry     *xmlquery.Node
	entryBase *url.URL
}

// maxBaseMemo bounds recordBuffers.bases.
const maxBaseMemo = 4096

func newEntryBuffers() *entryBuffers {
	return &entryBuffers{in: bufio.NewReaderSize(nil, 4<<10)}
}

// makeRecord reads a entry's fields and runs its content. robotsPI are
// the X-Robots-Tag values of the feed's robots PI; regions says what the
// comment dialects are at the start of each of the entry's fields.
func (rb *entryBuffers) makeEntry(n *xmlquery.Node, index int, opts robofilter.Options, robotsPI []string, regions *regionTracker) (Entry, error) {
	rec := Entry{Index: index}
	rb.entry, rb.entryBase = n, rb.ancestorBase(n.Parent, opts.Base)
	defer func() { rb.entry, rb.entryBase = nil, nil }()
	var title, content, summary *xmlquery.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != xmlquery.ElementNode {
			continue
		}
		switch c.Data {
		case "id", "guid":
			if rec.ID == "" {
				rec.ID = strings.TrimSpace(c.InnerText())
			}
		case "title":
			if title == nil {
				title = c
			}
		case "link":
			if rec.Link != "" {
				break
			}
			if href, ok := attr(c, "href"); ok {
				if rel, _ := attr(c, "rel"); rel == "" || rel == "alternate" {
					rec.Link = rb.resolveAt(c, href)
				}
			} else if t := strings.TrimSpace(c.InnerText()); t != "" {
				rec.Link = rb.resolveAt(c, t)
			}
		case "loc":
			if t := strings.TrimSpace(c.InnerText()); t != "" && rec.Link == "" {
				rec.Link = rb.resolveAt(c, t)
			}
		case "content":
			if _, hasSrc := attr(c, "src"); !hasSrc && content == nil && c.NamespaceURI != nsMediaRSS {
				content = c
			}
		case "encoded":
			if c.NamespaceURI == nsContentModule && content == nil {
				content = c
			}
		case "summary", "description":
			if summary == nil && c.NamespaceURI != nsMediaRSS {
				summary = c
			}
		}
	}
	if rec.ID == "" {
		for _, a := range n.Attr {
			if a.Name.Local == "about" {
				rec.ID = a.Value
			}
		}
	}
	if content == nil {
		content = summary
	}
	// What the feed says around a field (the PI, robots classes on the
	// entry, its ancestors or the field's element) holds for the whole of
	// the field's run.
	feedSays := append(append([]string(nil), opts.XRobotsTag...), robotsPI...)
	around := func(off filter.Switch) []string {
		v := switchesAsDirectives(off)
		if v == "" {
			return feedSays
		}
		return append(feedSays[:len(feedSays):len(feedSays)], v)
	}
	if title != nil {
		rec.Title = rb.titleText(title, opts, around(entrySwitches(title, opts.Dialects)), regions.at(title))
	}
	if content == nil {
		return rec, nil
	}
	o := opts
	if b := rb.baseAt(content); b != nil {
		o.Base = b.String()
	}
	off := entrySwitches(content, opts.Dialects)
	o.XRobotsTag = around(off)
	doc, err := rb.runField(content, kindOf(content), regions.at(content), o)
	if err != nil {
		return rec, fmt.Errorf("records: record %d: %w", index, err)
	}
	if off&filter.NoAnchorText != 0 {
		// noanchortext on the entry, an ancestor or the content element
		// holds for every link of the field, and no X-Robots-Tag value
		// says it.
		for i := range doc.Links {
			doc.Links[i].Text = ""
		}
	}
	rec.Doc = doc
	return rec, nil
}

// recordSwitches are the switches the class and data-nosnippet attributes
// of n and its ancestors turn off.
func entrySwitches(n *xmlquery.Node, dialects filter.Dialects) filter.Switch {
	var classes [][]byte
	var noSnippet []bool
	var chain []*xmlquery.Node
	for c := n; c != nil; c = c.Parent {
		chain = append(chain, c)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		class, _ := attr(chain[i], "class")
		_, ns := attr(chain[i], "data-nosnippet")
		classes = append(classes, []byte(class))
		noSnippet = append(noSnippet, ns)
	}
	return filter.ClassSwitches(dialects, classes, noSnippet)
}

// switchesAsDirectives says switches as an X-Robots-Tag value, the way a
// region around a entry reaches the entry's own run. noanchortext has no
// document-level directive and is left out.
func switchesAsDirectives(off filter.Switch) string {
	var ds []string
	for _, d := range []struct {
		bit  filter.Switch
		name string
	}{{filter.NoIndex, "noindex"}, {filter.NoFollow, "nofollow"}, {filter.NoArchive, "noarchive"}} {
		if off&d.bit != 0 {
			ds = append(ds, d.name)
		}
	}
	return strings.Join(ds, ", ")
}

// recordNoIndex reports whether the X-Robots-Tag values make the entry noindex.
func entryNoIndex(values []string, agent string) bool {
	var d filter.Directives
	for _, v := range values {
		d.AddXRobotsTag(v, agent, nil)
	}
	return d.NoIndex
}

// titleText is a entry title's text, white space collapsed: read as its
// type says (runField), in the comment state st, with the X-Robots-Tag
// values around. A title under noindex has none: the title is indexable
// text too.
func (rb *entryBuffers) titleText(c *xmlquery.Node, opts robofilter.Options, around []string, st flatState) string {
	if entryNoIndex(around, opts.Agent) {
		return ""
	}
	k := kindOf(c)
	if k == kindText {
		plain := true
		for ch := c.FirstChild; ch != nil && plain; ch = ch.NextSibling {
			plain = ch.Type != xmlquery.CommentNode
		}
		if plain {
			// No comment inside: the state at its start holds for all of it.
			if st.off()&filter.NoIndex != 0 {
				return ""
			}
			return strings.Join(strings.Fields(c.InnerText()), " ")
		}
	}
	o := opts
	o.XRobotsTag = around
	if b := rb.baseAt(c); b != nil {
		o.Base = b.String()
	}
	d, err := rb.runField(c, k, st, o)
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(d.Text), " ")
}

func attr(n *xmlquery.Node, local string) (string, bool) {
	for _, a := range n.Attr {
		if a.Name.Local == local && a.NamespaceURI == "" {
			return a.Value, true
		}
	}
	return "", false
}

// baseAt is the base URL in effect at n, an element of the entry being
// made: the base at the entry's parent (ancestorBase), then the xml:base
// values from the entry down to n.
func (rb *entryBuffers) baseAt(n *xmlquery.Node) *url.URL {
	var chain []*xmlquery.Node
	for c := n; c != nil && c != rb.entry.Parent; c = c.Parent {
		chain = append(chain, c)
	}
	base := rb.entryBase
	for i := len(chain) - 1; i >= 0; i-- {
		base = xmlBaseOf(chain[i], base)
	}
	return base
}

// ancestorBase is the base URL in effect at n, an ancestor of the entries:
// the caller's base (read as weburl.ParseBase reads it), then every
// xml:base from the document element down to n. Each ancestor's base is
// resolved once (rb.bases), so that a feed of many entries under deeply
// nested xml:base values costs one resolution per element, not one per
// entry and ancestor.
func (rb *entryBuffers) ancestorBase(n *xmlquery.Node, docBase string) *url.URL {
	if n == nil {
		if docBase == "" {
			return nil
		}
		u, _ := weburl.ParseBase(docBase) // checked before any entry is read
		return u
	}
	if u, ok := rb.bases[n]; ok {
		return u
	}
	base := xmlBaseOf(n, rb.ancestorBase(n.Parent, docBase))
	if rb.bases == nil || len(rb.bases) >= maxBaseMemo {
		rb.bases = make(map[*xmlquery.Node]*url.URL)
	}
	rb.bases[n] = base
	return base
}

// xmlBaseOf is the base in effect at n whose parent's is base: n's
// xml:base resolved against it by the one rule (weburl.ResolveBase); a
// value that is no base is ignored, as in the XML stage.
func xmlBaseOf(n *xmlquery.Node, base *url.URL) *url.URL {
	for _, a := range n.Attr {
		if a.Name.Local != "base" || (a.NamespaceURI != nsXMLBase && a.Name.Space != "xml") {
			continue
		}
		if u, err := weburl.ResolveBase(base, a.Value); err == nil {
			base = u
		}
	}
	return base
}

// resolveAt resolves a entry's link (an href or a link's text) against
// the base in effect at n, as the links output resolves links.
func (rb *entryBuffers) resolveAt(n *xmlquery.Node, href string) string {
	u, _ := weburl.ResolveHref(rb.baseAt(n), href)
	return u
}
