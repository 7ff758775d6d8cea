package robofilter

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"io"
	"net/url"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter/filter"
)

// recordBuffers are what the runs of a document's records share: the
// reader the HTML pipeline reads a record's content through (Process takes
// a *bufio.Reader of its size as it is) and the buffer XHTML content is
// serialised into (xmlquery's Write takes a *bufio.Writer of its size as
// it is). Without them every record allocated both, 4 KiB each.
type recordBuffers struct {
	in    *bufio.Reader
	xhtml bytes.Buffer
	out   *bufio.Writer
}

func newRecordBuffers() *recordBuffers {
	rb := &recordBuffers{in: bufio.NewReaderSize(nil, 4<<10)}
	rb.out = bufio.NewWriterSize(&rb.xhtml, 4<<10)
	return rb
}

// makeRecord reads a record's fields and runs its content.
func (rb *recordBuffers) makeRecord(n *xmlquery.Node, index int, opts Options, robotsPI []string) (Record, error) {
	rec := Record{Index: index}
	var content, summary *xmlquery.Node
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
			if rec.Title == "" {
				rec.Title = rb.titleText(c)
			}
		case "link":
			if rec.Link != "" {
				break
			}
			if href, ok := attr(c, "href"); ok {
				if rel, _ := attr(c, "rel"); rel == "" || rel == "alternate" {
					rec.Link = resolveAt(c, opts.Base, href)
				}
			} else if t := strings.TrimSpace(c.InnerText()); t != "" {
				rec.Link = resolveAt(c, opts.Base, t)
			}
		case "loc":
			if t := strings.TrimSpace(c.InnerText()); t != "" && rec.Link == "" {
				rec.Link = resolveAt(c, opts.Base, t)
			}
		case "content":
			if _, hasSrc := attr(c, "src"); !hasSrc && content == nil {
				content = c
			}
		case "encoded":
			if c.NamespaceURI == nsContentModule && content == nil {
				content = c
			}
		case "summary", "description":
			if summary == nil {
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
	// What the feed says around the content (the PI, robots classes on the
	// record or its ancestors or the content element) holds for the whole
	// of the record's document.
	around := append(append([]string(nil), opts.XRobotsTag...), robotsPI...)
	inner := n
	if content != nil {
		inner = content
	}
	if v := switchesAsDirectives(recordSwitches(inner, opts.Dialects)); v != "" {
		around = append(around, v)
	}
	if recordNoIndex(around, opts.Agent) {
		rec.Title = "" // the title is indexable text too
	}
	if content == nil {
		return rec, nil
	}
	o := opts
	o.Format, o.Charset, o.ContentType = HTML, "utf-8", ""
	if b := baseAt(content, opts.Base); b != nil {
		o.Base = b.String()
	}
	o.XRobotsTag = around
	rb.in.Reset(rb.contentHTML(content))
	doc, err := Filter(rb.in, o)
	if err != nil {
		return rec, fmt.Errorf("records: record %d: %w", index, err)
	}
	rec.Doc = doc
	return rec, nil
}

// recordSwitches are the switches the class and data-nosnippet attributes
// of n and its ancestors turn off.
func recordSwitches(n *xmlquery.Node, dialects filter.Dialects) filter.Switch {
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
// region around a record reaches the record's own run. noanchortext has no
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

// recordNoIndex reports whether the X-Robots-Tag values make the record noindex.
func recordNoIndex(values []string, agent string) bool {
	var d filter.Directives
	for _, v := range values {
		for _, sd := range filter.ParseXRobotsTag(v) {
			if sd.Bot == "" || filter.AgentMatches(sd.Bot, agent) {
				d.Add(filter.DirectiveSource{}, sd.Directives)
			}
		}
	}
	return d.NoIndex
}

// titleText is a record title's text: an HTML title (type="html") is read
// as HTML, others as text.
func (rb *recordBuffers) titleText(c *xmlquery.Node) string {
	t := c.InnerText()
	if typ, _ := attr(c, "type"); strings.Contains(strings.ToLower(typ), "html") && !strings.Contains(strings.ToLower(typ), "xhtml") {
		rb.in.Reset(strings.NewReader(t))
		if d, err := Filter(rb.in, Options{Format: HTML, Charset: "utf-8"}); err == nil {
			t = d.Text
		}
	}
	return strings.Join(strings.Fields(t), " ")
}

// contentHTML is a content element as HTML: escaped HTML unescaped once
// (the XML parser did it), inline XHTML serialised, text escaped.
func (rb *recordBuffers) contentHTML(c *xmlquery.Node) io.Reader {
	typ, _ := attr(c, "type")
	mode, _ := attr(c, "mode") // Atom 0.3
	typ, mode = strings.ToLower(typ), strings.ToLower(mode)
	switch {
	case c.Data == "encoded" || c.Data == "description" && c.NamespaceURI != "http://www.w3.org/2005/Atom":
		return strings.NewReader(c.InnerText()) // RSS: HTML, escaped or in CDATA
	case mode == "xml" || typ == "xhtml" || strings.HasSuffix(typ, "+xml"):
		rb.xhtml.Reset()
		_ = c.Write(rb.out, false) // flushed into rb.xhtml; writing to a bytes.Buffer does not fail
		return bytes.NewReader(rb.xhtml.Bytes())
	case typ == "html" || strings.Contains(typ, "html") || mode == "escaped":
		return strings.NewReader(c.InnerText())
	}
	return strings.NewReader(html.EscapeString(c.InnerText())) // Atom text
}

func attr(n *xmlquery.Node, local string) (string, bool) {
	for _, a := range n.Attr {
		if a.Name.Local == local && a.NamespaceURI == "" {
			return a.Value, true
		}
	}
	return "", false
}

// baseAt is the base URL in effect at n: the caller's base, then every
// xml:base from the document element down to n.
func baseAt(n *xmlquery.Node, docBase string) *url.URL {
	var bases []string
	for c := n; c != nil; c = c.Parent {
		for _, a := range c.Attr {
			if a.Name.Local == "base" && (a.NamespaceURI == nsXMLBase || a.Name.Space == "xml") {
				bases = append(bases, a.Value)
			}
		}
	}
	var base *url.URL
	if docBase != "" {
		base, _ = url.Parse(docBase)
	}
	for i := len(bases) - 1; i >= 0; i-- {
		u, err := url.Parse(strings.TrimSpace(bases[i]))
		if err != nil {
			continue
		}
		if base != nil {
			u = base.ResolveReference(u)
		}
		base = u
	}
	return base
}

func resolveAt(n *xmlquery.Node, docBase, href string) string {
	ref, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return strings.TrimSpace(href)
	}
	if base := baseAt(n, docBase); base != nil {
		return base.ResolveReference(ref).String()
	}
	return ref.String()
}
