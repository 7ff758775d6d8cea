package feed

import (
	"bytes"
	"html"
	"strconv"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	nethtml "golang.org/x/net/html"
)

// A entry's fields with text (its title, its content) are read by one of
// three runs, as their type says:
//
//   - markup (Atom type="xhtml", a type ending in +xml or /xml, Atom 0.3
//     mode="xml", and any field that holds child elements, whatever its
//     type): the field's children are written out again as XML and read by
//     the XML stage, as the XML stage reads them in the feed (the document
//     element around them, so that the vocabulary it knows holds): robots
//     classes and the comment dialects inside count where they stand,
//     element boundaries separate words, XHTML elements follow the HTML
//     rules on the XML tree (not the tree an HTML parser would build from
//     the same tags), CDATA sections are text, PIs are nothing (a robots PI
//     is the feed's: feedReader reads it), links are those the XML stage
//     finds (XHTML a@href, XLink, …);
//   - escaped HTML (Atom type="html", RSS content:encoded and description):
//     the text (and CDATA sections) unescaped once, read by the HTML
//     pipeline;
//   - text: escaped, read by the HTML pipeline.
//
// Each run starts in the state of the comment dialects at the field's start
// (regionTracker), and the comment dialects among the field's text count
// where they stand.
type fieldKind uint8

const (
	kindText fieldKind = iota
	kindHTML
	kindMarkup
)

const (
	nsAtom = "http://www.w3.org/2005/Atom"
	// nsMediaRSS is Media RSS, whose media:content (a media object) and
	// media:description are not the item's content.
	nsMediaRSS = "http://search.yahoo.com/mrss/"
)

// kindOf says how the field c is read.
func kindOf(c *xmlquery.Node) fieldKind {
	for ch := c.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == xmlquery.ElementNode {
			// Child elements are markup, as the XML stage reads them (RFC
			// 4287 allows none in text and html content).
			return kindMarkup
		}
	}
	typ, _ := attr(c, "type")
	mode, _ := attr(c, "mode") // Atom 0.3
	if i := strings.IndexByte(typ, ';'); i >= 0 {
		typ = typ[:i] // media type parameters
	}
	typ, mode = strings.ToLower(strings.TrimSpace(typ)), strings.ToLower(strings.TrimSpace(mode))
	switch {
	case c.Data == "encoded" || c.Data == "description" && c.NamespaceURI != nsAtom:
		return kindHTML // RSS: HTML, escaped or in CDATA
	case mode == "xml" || typ == "xhtml" || strings.HasSuffix(typ, "+xml") || strings.HasSuffix(typ, "/xml"):
		return kindMarkup // RFC 4287 section 4.1.3.3: XML media types
	case strings.Contains(typ, "html") || mode == "escaped":
		return kindHTML
	}
	return kindText
}

// runField reads the field c (of kind k) with o, starting in the comment
// state st: Format, Charset and ContentType are set here.
func (rb *entryBuffers) runField(c *xmlquery.Node, k fieldKind, st flatState, o robofilter.Options) (*robofilter.Document, error) {
	rb.buf.Reset()
	var root *xmlquery.Node
	var prefix int
	if k == kindMarkup {
		root = c
		for root.Parent != nil && root.Parent.Type == xmlquery.ElementNode {
			root = root.Parent
		}
		rb.buf.WriteString("<" + root.Data)
		if root.NamespaceURI != "" {
			rb.buf.WriteString(` xmlns="`)
			writeXMLEscaped(&rb.buf, root.NamespaceURI, true)
			rb.buf.WriteByte('"')
		}
		rb.buf.WriteByte('>')
		rb.buf.WriteString(st.comments())
		prefix = rb.buf.Len()
		writeXMLChildren(&rb.buf, c, root.NamespaceURI)
		rb.buf.WriteString("</" + root.Data + ">")
		o.Format = robofilter.XML
	} else {
		// The feed's comment regions open where the field starts hold all
		// of it, as in the XML stage, which reads escaped HTML as text:
		// the field's own markers (read here as HTML) must not end a
		// noindex one, which reaches the run as an X-Robots-Tag value. The
		// others stay comments before the field (no archive gives an
		// ellipsis, not an empty copy; noanchortext has no such value).
		if st.off()&filter.NoIndex != 0 {
			o.XRobotsTag = append(o.XRobotsTag[:len(o.XRobotsTag):len(o.XRobotsTag)], "noindex")
		}
		rb.buf.WriteString(flatState{google: st.google &^ filter.NoIndex}.comments())
		prefix = rb.buf.Len()
		if inner := rb.writeHTML(c, k == kindHTML, st, o.Dialects); inner != 0 {
			// Comment markers in the HTML where they do not read as
			// comments: what they turn off holds for the whole field.
			if v := switchesAsDirectives(inner); v != "" {
				o.XRobotsTag = append(o.XRobotsTag[:len(o.XRobotsTag):len(o.XRobotsTag)], v)
			}
		}
		o.Format = robofilter.HTML
	}
	o.Charset, o.ContentType = "utf-8", ""
	rb.in.Reset(bytes.NewReader(rb.buf.Bytes()))
	doc, err := robofilter.Filter(rb.in, o)
	if doc != nil {
		// The archive copy is the field's: without what was put around it
		// (Filter does not write to rb.buf).
		doc.Archive = bytes.TrimPrefix(doc.Archive, rb.buf.Bytes()[:prefix])
		if root != nil {
			doc.Archive = bytes.TrimSuffix(doc.Archive, []byte("</"+root.Data+">"))
		}
		// Warnings about what was put before the field (a region the
		// comments there open is never closed in the field) are not the
		// field's.
		if res := doc.Result; res != nil && prefix > 0 {
			ws := res.Warnings[:0]
			for _, w := range res.Warnings {
				if w.Line == 0 || w.Pos.Offset >= int64(prefix) {
					ws = append(ws, w)
				}
			}
			res.Warnings = ws
		}
	}
	return doc, err
}

// writeHTML writes the field c's text as HTML: raw (escaped HTML, which the
// XML parser unescaped once) or escaped (text); comment markers as HTML
// comments, where they stand; other comments and PIs as nothing. Where a
// marker would not read as a comment in the HTML (inside a tag, a script,
// a comment…), the HTML is written without them and inner says what the
// markers turn off (from st on), for the whole field.
func (rb *entryBuffers) writeHTML(c *xmlquery.Node, raw bool, st flatState, dialects filter.Dialects) (inner filter.Switch) {
	if dialects == 0 {
		dialects = filter.AllDialects
	}
	start := rb.buf.Len()
	rb.marks = rb.marks[:0]
	for pass := 0; ; pass++ {
		s := st
		for ch := c.FirstChild; ch != nil; ch = ch.NextSibling {
			switch ch.Type {
			case xmlquery.TextNode, xmlquery.CharDataNode:
				if raw {
					rb.buf.WriteString(ch.Data)
				} else {
					rb.buf.WriteString(html.EscapeString(ch.Data))
				}
			case xmlquery.CommentNode:
				if !s.comment(ch.Data, dialects) {
					break
				}
				inner |= s.off()
				if pass == 0 {
					m := "<!--" + strings.TrimSpace(ch.Data) + "-->"
					rb.marks = append(rb.marks, [2]int{rb.buf.Len() - start, len(m)})
					rb.buf.WriteString(m)
				}
			}
		}
		switch {
		case pass > 0:
			return inner
		case len(rb.marks) == 0 || !raw || markersHold(rb.buf.Bytes()[start:], rb.marks):
			return 0
		}
		rb.buf.Truncate(start)
		inner = 0
	}
}

// markersHold reports whether each comment written at marks (offset and
// length in h) reads as that comment token where it stands: the HTML
// tokenizer is then in its data state there. A CDATA section before one
// (which HTML reads as such in foreign content only) counts as not.
func markersHold(h []byte, marks [][2]int) bool {
	if bytes.Contains(h[:marks[len(marks)-1][0]], []byte("<![CDATA[")) {
		return false
	}
	z := nethtml.NewTokenizer(bytes.NewReader(h))
	off := 0
	for _, m := range marks {
		for off < m[0] {
			if z.Next() == nethtml.ErrorToken {
				return false
			}
			off += len(z.Raw())
		}
		if off != m[0] || z.Next() != nethtml.CommentToken || len(z.Raw()) != m[1] {
			return false
		}
		off += m[1]
	}
	return true
}

// writeXMLChildren writes n's children as XML, in the namespace defNS by
// default: elements without prefixes (a namespace declaration where it
// changes), attributes in a namespace with a prefix declared on their
// element, text and CDATA sections as escaped text, comments as they are,
// PIs not at all. Repeated attributes (which encoding/xml does not report)
// are written once.
func writeXMLChildren(b *bytes.Buffer, n *xmlquery.Node, defNS string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case xmlquery.TextNode, xmlquery.CharDataNode:
			writeXMLEscaped(b, c.Data, false)
		case xmlquery.CommentNode:
			b.WriteString("<!--" + c.Data + "-->")
		case xmlquery.ElementNode:
			b.WriteString("<" + c.Data)
			if c.NamespaceURI != defNS {
				b.WriteString(` xmlns="`)
				writeXMLEscaped(b, c.NamespaceURI, true)
				b.WriteByte('"')
			}
			writeXMLAttrs(b, c.Attr)
			if c.FirstChild == nil {
				b.WriteString("/>")
				continue
			}
			b.WriteByte('>')
			writeXMLChildren(b, c, c.NamespaceURI)
			b.WriteString("</" + c.Data + ">")
		}
	}
}

func writeXMLAttrs(b *bytes.Buffer, as []xmlquery.Attr) {
	var prefixOf map[string]int // the namespaces given a prefix: p1, p2…
	var seen map[[2]string]bool
	for i, a := range as {
		if a.NamespaceURI == "xmlns" || a.NamespaceURI == "" && a.Name.Local == "xmlns" {
			continue // namespace declarations: written where needed
		}
		key := [2]string{a.NamespaceURI, a.Name.Local}
		if seen != nil {
			if seen[key] {
				continue
			}
			seen[key] = true
		} else {
			repeated := false
			for _, p := range as[:i] {
				if p.NamespaceURI == a.NamespaceURI && p.Name.Local == a.Name.Local {
					repeated = true
					break
				}
			}
			if repeated {
				continue
			}
			if i >= 16 {
				seen = map[[2]string]bool{}
				for _, p := range as[:i+1] {
					seen[[2]string{p.NamespaceURI, p.Name.Local}] = true
				}
			}
		}
		switch a.NamespaceURI {
		case "":
			b.WriteString(" " + a.Name.Local)
		case nsXMLBase:
			b.WriteString(" xml:" + a.Name.Local)
		default:
			k, known := prefixOf[a.NamespaceURI]
			if !known {
				if prefixOf == nil {
					prefixOf = map[string]int{}
				}
				k = len(prefixOf)
				prefixOf[a.NamespaceURI] = k
			}
			p := "p" + strconv.Itoa(k+1)
			if !known {
				b.WriteString(" xmlns:" + p + `="`)
				writeXMLEscaped(b, a.NamespaceURI, true)
				b.WriteByte('"')
			}
			b.WriteString(" " + p + ":" + a.Name.Local)
		}
		b.WriteString(`="`)
		writeXMLEscaped(b, a.Value, true)
		b.WriteByte('"')
	}
}

// writeXMLEscaped writes s as XML text or an attribute value (inAttr): the
// characters markup would read otherwise as references, and CR, which
// would read as a line end (and, in a value, white space that would be
// normalised) too.
func writeXMLEscaped(b *bytes.Buffer, s string, inAttr bool) {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case '&':
			r = "&amp;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		case '\r':
			r = "&#13;"
		case '"':
			if inAttr {
				r = "&quot;"
			}
		case '\t':
			if inAttr {
				r = "&#9;"
			}
		case '\n':
			if inAttr {
				r = "&#10;"
			}
		}
		if r != "" {
			b.WriteString(s[last:i])
			b.WriteString(r)
			last = i + 1
		}
	}
	b.WriteString(s[last:])
}
