package robofilter

import (
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"net/url"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// Record is one record of a feed or sitemap (an Atom entry, an RSS item, a
// sitemap url…), selected by an XPath and processed as its own document.
type Record struct {
	Index int    // counts the records from 1, in document order
	ID    string // atom:id or RSS guid (or rdf:about), as written
	Title string // the title's text, white space collapsed
	// Link is the record's own URL, resolved against xml:base and the
	// caller's base: Atom link (rel alternate or none), RSS link, sitemap loc.
	Link string
	// Doc is the record's content run through the HTML pipeline: Atom
	// content (else summary), RSS content:encoded (else description). Escaped
	// HTML is unescaped once and read as HTML, so robots classes, comments
	// and links inside an entry are honoured; XHTML content is read as HTML;
	// plain text stays text. Doc is nil when the record has no content.
	Doc *Document
	// Warnings are about the feed around the record: robots PIs that are
	// illegal or come after the first legal one, seen since the previous
	// record. (xmlquery gives no positions.)
	Warnings []filter.Warning
}

// The records mode's bounds. xmlquery's stream parser builds a DOM and, at
// every start tag outside a record, evaluates the XPath over every node it
// holds: its cost grows with the square of what it holds between records
// (NOTES.md). ProcessRecords therefore prunes everything outside the path to
// the current record after each one (so the parser holds the ancestors
// only, never the feed's earlier parts), and fails rather than read more
// than these limits between two records (the record itself included). The
// cost per start tag is then bounded by MaxRecordTags nodes, whatever the
// document's size; an anchored XPath (/rss/channel/item, /feed/entry) is
// cheaper still than a // one. Records larger than this need the XML stage.
const (
	MaxRecordTags  = 1_000    // '<' of tags, comments and PIs read between two records
	MaxRecordBytes = 32 << 20 // bytes read between two records
)

// ErrRecordTooLarge is returned when more than MaxRecordTags or
// MaxRecordBytes are read between two records.
var ErrRecordTooLarge = errors.New("records: too much read without completing a record")

const (
	nsXMLBase       = "http://www.w3.org/XML/1998/namespace"
	nsContentModule = "http://purl.org/rss/1.0/modules/content/"
)

// ProcessRecords reads an XML document once and calls fn with every element
// the XPath selects (for feeds //entry or /feed/entry, //item or
// /rss/channel/item), as a Record whose content went through the HTML
// pipeline with opts (Format, Charset and Base are set per record). A robots
// PI of the feed (in the prolog or the DOCTYPE's internal subset, the first
// legal one) applies to every record: its noindex and nofollow reach each
// record's run as an X-Robots-Tag value. The charset is chosen as the XML
// stage chooses it (opts.Charset, if set, overrides the declaration), and
// undeclared entities read as the XML stage reads them, without its
// warnings. ProcessRecords stops at the first error, fn's included.
func ProcessRecords(r io.Reader, xpath string, opts Options, fn func(Record) error) error {
	in, _, err := xmlstream.UTF8Reader(r, opts.Charset)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	entities := map[string]string{}
	guard := &recordGuard{r: xmlstream.EntityFiller(in, entities)}
	sp, err := xmlquery.CreateStreamParserWithOptions(guard, xmlquery.ParserOptions{
		Decoder: &xmlquery.DecoderOptions{
			Strict: true,
			Entity: entities,
			// The input is UTF-8 already: the declaration's encoding needs no reader.
			CharsetReader: func(_ string, r io.Reader) (io.Reader, error) { return r, nil },
		},
	}, xpath)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	var pis robotsPIState
	for index := 1; ; index++ {
		n, err := sp.Read()
		switch {
		case err == io.EOF:
			return nil
		case guard.err != nil:
			return guard.err
		case err != nil:
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				// xmlquery reports the line only.
				return &filter.PosError{Pos: filter.Pos{Line: se.Line}, Err: fmt.Errorf("%w: %s", xmlstream.ErrNotWellFormed, se.Msg)}
			}
			return fmt.Errorf("records: %w", err)
		}
		guard.tags, guard.bytes = 0, 0
		warnings := pis.scan(n)
		rec, err := makeRecord(n, index, opts, pis.values)
		rec.Warnings = warnings
		pruneOutside(n)
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// recordGuard counts what the stream parser reads since the last record.
// It hands out small reads, so that what the parser's buffer holds ahead of
// the parser (and is counted too early) stays small.
type recordGuard struct {
	r     io.Reader
	tags  int
	bytes int
	err   error
}

// guardRead is the most a recordGuard hands out at once.
const guardRead = 512

func (g *recordGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	if len(p) > guardRead {
		p = p[:guardRead]
	}
	n, err := g.r.Read(p)
	g.bytes += n
	for _, c := range p[:n] {
		if c == '<' {
			g.tags++
		}
	}
	if g.tags > MaxRecordTags || g.bytes > MaxRecordBytes {
		g.err = fmt.Errorf("%w (limits: %d tags, %d bytes; an XPath that matches no records reads the whole document as one)", ErrRecordTooLarge, MaxRecordTags, MaxRecordBytes)
		return n, g.err
	}
	return n, err
}

// pruneOutside removes every node before the path from the document to n:
// what the stream parser holds is then the path and the current record
// (which the parser itself removes at the next Read).
func pruneOutside(n *xmlquery.Node) {
	for c := n; c != nil; c = c.Parent {
		for c.PrevSibling != nil {
			xmlquery.RemoveFromTree(c.PrevSibling)
		}
	}
}

// robotsPIState follows the feed's robots PIs from record to record: the
// first legal one applies from where it stands to every record after it
// (and to the record that holds it); illegal ones and later legal ones are
// reported and ignored (SPEC section 2).
type robotsPIState struct {
	found  bool
	values []string // X-Robots-Tag values the legal PI means
}

// scan looks at what the stream parser holds that is new since the last
// record (pruneOutside removed the rest): the siblings before the path to
// n, at every level, and n's own children.
func (s *robotsPIState) scan(n *xmlquery.Node) []filter.Warning {
	var path []*xmlquery.Node
	for c := n; c != nil; c = c.Parent {
		path = append(path, c)
	}
	var warns []filter.Warning
	look := func(c *xmlquery.Node) {
		var pis [][]byte
		switch {
		case c.Type == xmlquery.ProcessingInstruction && c.ProcInst != nil:
			pis = [][]byte{[]byte("<?" + c.ProcInst.Target + " " + c.ProcInst.Inst + "?>")}
		case c.Type == xmlquery.NotationNode && strings.HasPrefix(c.Data, "DOCTYPE"):
			pis = xmlstream.DoctypePIs([]byte("<!" + c.Data + ">"))
		}
		for _, pi := range pis {
			v, isRobots, err := xmlstream.ParseRobotsPI(pi)
			switch {
			case !isRobots:
			case err != nil:
				warns = append(warns, filter.Warning{Message: fmt.Sprintf("illegal robots PI %s: %v; it is ignored", pi, err)})
			case s.found:
				warns = append(warns, filter.Warning{Message: fmt.Sprintf("robots PI %s after the first legal one is ignored", pi)})
			default:
				s.found = true
				if ds := v.Directives(); len(ds) > 0 {
					s.values = []string{strings.Join(ds, ", ")}
				}
			}
		}
	}
	for i := len(path) - 1; i >= 1; i-- {
		for c := path[i].FirstChild; c != nil && c != path[i-1]; c = c.NextSibling {
			look(c)
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		look(c)
	}
	return warns
}

// makeRecord reads a record's fields and runs its content.
func makeRecord(n *xmlquery.Node, index int, opts Options, robotsPI []string) (Record, error) {
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
				rec.Title = titleText(c)
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
	doc, err := Filter(strings.NewReader(contentHTML(content)), o)
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
func titleText(c *xmlquery.Node) string {
	t := c.InnerText()
	if typ, _ := attr(c, "type"); strings.Contains(strings.ToLower(typ), "html") && !strings.Contains(strings.ToLower(typ), "xhtml") {
		if d, err := Filter(strings.NewReader(t), Options{Format: HTML, Charset: "utf-8"}); err == nil {
			t = d.Text
		}
	}
	return strings.Join(strings.Fields(t), " ")
}

// contentHTML is a content element as HTML: escaped HTML unescaped once
// (the XML parser did it), inline XHTML serialised, text escaped.
func contentHTML(c *xmlquery.Node) string {
	typ, _ := attr(c, "type")
	mode, _ := attr(c, "mode") // Atom 0.3
	typ, mode = strings.ToLower(typ), strings.ToLower(mode)
	switch {
	case c.Data == "encoded" || c.Data == "description" && c.NamespaceURI != "http://www.w3.org/2005/Atom":
		return c.InnerText() // RSS: HTML, escaped or in CDATA
	case mode == "xml" || typ == "xhtml" || strings.HasSuffix(typ, "+xml"):
		return c.OutputXML(false)
	case typ == "html" || strings.Contains(typ, "html") || mode == "escaped":
		return c.InnerText()
	}
	return html.EscapeString(c.InnerText()) // Atom text
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
