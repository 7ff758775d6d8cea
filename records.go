package robofilter

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"net/url"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
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
// warnings. ProcessRecords stops at the first error, fn's included: the
// records before it have been passed to fn, the one that fails has not.
// An XML document that is not well-formed fails with a *filter.PosError
// (xmlstream.ErrNotWellFormed) at the line and column of the error.
func ProcessRecords(r io.Reader, xpath string, opts Options, fn func(Record) error) error {
	head := &headBytes{r: r}
	in, cs, err := xmlstream.UTF8Reader(head, opts.Charset)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	entities := map[string]string{}
	feed := newFeedReader(xmlstream.EntityFiller(in, entities), cs, head.bom(cs))
	// xmlquery reads through bufio.NewReader, which returns a *bufio.Reader
	// of at least its default size as it is: the decoder then reads this
	// one, byte by byte, and where it stopped is what feed handed out less
	// what br still holds.
	br := bufio.NewReaderSize(feed, feedBufSize)
	sp, err := xmlquery.CreateStreamParserWithOptions(br, xmlquery.ParserOptions{
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
		case err != nil:
			return feed.failure(err, br.Buffered())
		}
		feed.tags, feed.bytes = 0, 0
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

// The feed reader. xmlquery's stream parser runs encoding/xml, which
// reports a well-formedness error with a line only, and leaves out checks
// the XML stage makes. feedReader stands between the document (decoded to
// UTF-8) and the decoder, and:
//
//   - bounds what is read between two records (MaxRecordTags,
//     MaxRecordBytes);
//   - keeps the last bytes it handed out, and their position, so that the
//     line and column of the point where the decoder stopped can be
//     computed (feedReader.failure);
//   - follows the document's tokens as encoding/xml draws them, and stops
//     the decoder with a positioned error where the XML stage finds an
//     error encoding/xml finds late or not at all: an illegal character or
//     invalid UTF-8 in text, an attribute value or a CDATA section (at the
//     character, where encoding/xml reports the token's end), an illegal
//     character reference, text outside the root element, a second root
//     element, no root element, a DOCTYPE after another or after the root,
//     another markup declaration outside the internal subset.
//
// The decoder reads the bytes handed out before an error first: the records
// that end before it are returned, then the error.
type feedReader struct {
	r    io.Reader
	win  posWindow
	off  int64  // bytes handed out
	held []byte // bytes scanned and not handed out yet: a character's first bytes
	err  error  // once set, every Read returns it

	tags, bytes int // read since the last record (ProcessRecords resets them)

	// The tokenizer: where encoding/xml's tokens start and end, as much as
	// the checks above need.
	st        feedState
	back      feedState // the state a reference returns to
	depth     int
	rootSeen  bool
	rootDone  bool
	doctype   bool // a DOCTYPE was read
	textStart int64
	tagStart  int64
	slash     bool    // the last byte of a start tag was '/'
	quote     byte    // the quote of the attribute value being read
	prev      [2]byte // the last bytes of a comment, PI or CDATA section
	match     int     // bytes of "-" or "CDATA[" matched after "<!"
	dirQuote  byte    // encoding/xml's directive: the open quote,
	dirDepth  int     // the depth of '<' in it,
	dirLT     int     // and the bytes of "!--" matched after a '<'
	name      []byte  // a start tag's name or a directive's first word (clipped)
	refStart  int64
	ref       []byte
	runeBuf   [utf8.UTFMax]byte
	runeN     int
	runeNeed  int
	runeStart int64
}

type feedState uint8

const (
	fsText       feedState = iota // character data (and between tokens)
	fsLT                          // after '<'
	fsStartName                   // a start tag's name
	fsStartTag                    // the rest of a start tag
	fsAttrValue                   // a quoted attribute value
	fsEndTag                      // after "</"
	fsPI                          // after "<?"
	fsBang                        // after "<!"
	fsBangDash                    // after "<!-"
	fsCDATAOpen                   // after "<![", matching "CDATA["
	fsCDATA                       // a CDATA section's text
	fsComment                     // after "<!--"
	fsDirective                   // a markup declaration (the DOCTYPE)
	fsDirFirst                    // its first word
	fsDirComment                  // a comment inside it
	fsRef                         // after '&'
	fsRefName                     // an entity reference's name
	fsCharRef                     // after "&#"
	fsDone                        // encoding/xml reports an error here: nothing more is checked
)

// feedBufSize is the size of the buffer xmlquery reads through: its
// default, so that it takes ProcessRecords' reader as it is.
const feedBufSize = 4096

// feedRead is the most a feedReader hands out at once, so that what the
// parser's buffer holds ahead of the parser (and is counted too early by
// the record bounds) stays small.
const feedRead = 512

// feedNameMax bounds the names kept for messages.
const feedNameMax = 256

func newFeedReader(r io.Reader, charset string, bom int) *feedReader {
	f := &feedReader{r: r}
	f.win.u = newFeedUnits(charset)
	f.win.pos = filter.Pos{Offset: int64(bom), Line: 1, Col: 1 + bom}
	return f
}

// feedError is an error the tokenizer found, at a decoded offset.
type feedError struct {
	off int64
	err error
}

func notWellFormedAt(off int64, format string, args ...any) *feedError {
	return &feedError{off, fmt.Errorf("%w: %s", xmlstream.ErrNotWellFormed, fmt.Sprintf(format, args...))}
}

func (f *feedReader) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if len(p) > feedRead {
		p = p[:feedRead]
	}
	// First the bytes held back (scanned already), then new ones.
	h := copy(p, f.held)
	f.held = append(f.held[:0], f.held[h:]...)
	var n int
	var err error
	if len(f.held) == 0 {
		n, err = f.r.Read(p[h:])
	}
	k, fe := f.scan(p[h:h+n], f.off+int64(h))
	end := h + k
	if fe == nil && err == io.EOF {
		fe = f.atEOF(f.off + int64(end))
	}
	// A multi-byte character is handed out whole, or not at all when it
	// is the error: before an error the decoder checks the text it holds,
	// and would find a cut character invalid (and report that instead).
	if f.runeN > 0 && f.st != fsDone && f.runeStart >= f.off && (fe != nil || err == nil && len(p) > utf8.UTFMax) {
		cut := int(f.runeStart - f.off)
		if fe == nil {
			f.held = append(f.held, p[cut:end]...)
		}
		end = min(end, cut)
	}
	f.win.add(p[:end])
	f.off += int64(end)
	f.bytes += end
	f.tags += bytes.Count(p[:end], []byte{'<'})
	switch {
	case fe != nil:
		f.err = &filter.PosError{Pos: f.win.at(fe.off), Err: fe.err}
		return end, f.err
	case f.tags > MaxRecordTags || f.bytes > MaxRecordBytes:
		f.err = fmt.Errorf("%w (limits: %d tags, %d bytes; an XPath that matches no records reads the whole document as one)", ErrRecordTooLarge, MaxRecordTags, MaxRecordBytes)
		return end, f.err
	case err != nil && err != io.EOF:
		f.err = err // a read error: returned as it is
	case len(f.held) > 0:
		return end, nil // the end of the input, if it comes, after them
	}
	return end, err
}

// failure is the error ProcessRecords returns for err, which the stream
// parser returned when buffered bytes handed out were still unread.
func (f *feedReader) failure(err error, buffered int) error {
	if f.err != nil && err == f.err {
		return err // the feed reader's own, positioned already (or a bound)
	}
	stop := f.off - int64(buffered) // the decoder read everything before
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return &filter.PosError{Pos: f.syntaxErrorPos(se.Msg, stop), Err: fmt.Errorf("%w: %s", xmlstream.ErrNotWellFormed, se.Msg)}
	}
	// xmlquery's own (a namespace prefix nobody declared, found at the end
	// of a start tag) and the decoder's others (an XML version it does not
	// know): at the markup that holds it.
	return &filter.PosError{Pos: f.win.at(f.win.lastIndex(stop, "<", stop-1)), Err: fmt.Errorf("records: %w", err)}
}

// syntaxErrorPos places an encoding/xml syntax error, given where the
// decoder stopped (stop: it read everything before). encoding/xml stops
// right after the byte that is wrong (a byte it put back counts as read):
// the error is at that byte, except where it is about something the
// decoder read earlier, or about the end of the input.
func (f *feedReader) syntaxErrorPos(msg string, stop int64) filter.Pos {
	last := max(stop-1, 0)
	var at int64
	switch {
	case strings.HasPrefix(msg, "unexpected EOF"):
		at = stop // the end of the input
	case strings.Contains(msg, " closed by </"), strings.HasPrefix(msg, "unexpected end element </"):
		at = f.win.lastIndex(stop, "<", last) // the end tag (it holds no '<')
	case strings.HasPrefix(msg, "invalid character entity "):
		ref := strings.TrimSuffix(strings.TrimPrefix(msg, "invalid character entity "), " (no semicolon)")
		at = f.win.lastIndex(stop, ref, last)
	case msg == `invalid sequence "--" not allowed in comments`, msg == "unescaped ]]> not in CDATA section":
		at = max(stop-3, 0) // the "--" or the "]]>"
	case strings.HasPrefix(msg, "invalid XML name: "):
		// The name ended at the byte put back.
		at = max(last-int64(len(msg)-len("invalid XML name: ")), 0)
	default:
		at = last
	}
	return f.win.at(at)
}

// atEOF checks the end of the input, at decoded offset end.
func (f *feedReader) atEOF(end int64) *feedError {
	if f.st == fsText && !f.rootSeen {
		return notWellFormedAt(end, "no root element")
	}
	return nil
}

// scan follows b, at decoded offset base, through the tokenizer and
// returns how much of it may be handed out: all of it, or the bytes before
// the one where an error was found, with the error.
func (f *feedReader) scan(b []byte, base int64) (int, *feedError) {
	for i := 0; i < len(b); {
		c := b[i]
		at := base + int64(i)
		switch f.st {
		case fsText:
			switch {
			case f.depth == 0 && c != '<' && !isFeedSpace(c):
				return i, notWellFormedAt(f.textStart, "text outside the root element")
			case f.runeN > 0 || c >= utf8.RuneSelf:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
			case c == '<':
				f.st, f.tagStart = fsLT, at
			case c == '&':
				f.startRef(at)
			default:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
			}
		case fsLT:
			switch c {
			case '/':
				f.st = fsEndTag
			case '?':
				f.st, f.prev = fsPI, [2]byte{}
			case '!':
				f.st = fsBang
			default:
				f.st, f.name = fsStartName, f.name[:0]
				continue
			}
		case fsStartName:
			if isFeedNameByte(c) {
				if len(f.name) < feedNameMax {
					f.name = append(f.name, c)
				}
				break
			}
			if f.depth == 0 {
				if f.rootDone {
					return i, notWellFormedAt(f.tagStart, "a second root element <%s>: a document has exactly one", f.name)
				}
				f.rootSeen = true
			}
			f.st, f.slash = fsStartTag, false
			continue
		case fsStartTag:
			switch c {
			case '"', '\'':
				f.st, f.quote = fsAttrValue, c
			case '>':
				if !f.slash {
					f.depth++
				} else if f.depth == 0 {
					f.rootDone = true
				}
				f.endToken(at)
			}
			f.slash = c == '/'
		case fsAttrValue:
			switch {
			case f.runeN > 0 || c >= utf8.RuneSelf:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
			case c == f.quote:
				f.st = fsStartTag
			case c == '&':
				f.startRef(at)
			default:
				if fe := f.char(c, at); fe != nil {
					return i, fe
				}
			}
		case fsEndTag:
			if c == '>' {
				if f.depth == 0 {
					f.st = fsDone // encoding/xml: an end element with no start
					break
				}
				if f.depth--; f.depth == 0 {
					f.rootDone = true
				}
				f.endToken(at)
			}
		case fsPI:
			if f.prev[1] == '?' && c == '>' {
				f.endToken(at)
			}
			f.prev = [2]byte{f.prev[1], c}
		case fsBang:
			switch c {
			case '-':
				f.st = fsBangDash
			case '[':
				f.st, f.match = fsCDATAOpen, 0
			default:
				// A markup declaration; encoding/xml does not look at its
				// first byte.
				f.st, f.dirQuote, f.dirDepth, f.dirLT = fsDirFirst, 0, 0, 0
				f.name = append(f.name[:0], c)
			}
		case fsBangDash:
			if c != '-' {
				f.st = fsDone // encoding/xml: "<!-" not part of "<!--"
				break
			}
			f.st, f.prev = fsComment, [2]byte{}
		case fsComment:
			if f.prev == [2]byte{'-', '-'} {
				if c != '>' {
					f.st = fsDone // encoding/xml: "--" in a comment
					break
				}
				f.endToken(at)
			}
			f.prev = [2]byte{f.prev[1], c}
		case fsCDATAOpen:
			if c != "CDATA["[f.match] {
				f.st = fsDone // encoding/xml: "invalid <![ sequence"
				break
			}
			if f.match++; f.match == len("CDATA[") {
				if f.depth == 0 {
					return i, notWellFormedAt(f.tagStart, "text outside the root element")
				}
				f.st, f.prev = fsCDATA, [2]byte{}
			}
		case fsCDATA:
			if f.runeN == 0 && c == '>' && f.prev == [2]byte{']', ']'} {
				f.endToken(at)
				break
			}
			if fe := f.char(c, at); fe != nil {
				return i, fe
			}
			f.prev = [2]byte{f.prev[1], c}
		case fsDirFirst:
			if !isFeedSpace(c) && c != '>' && c != '[' && c != '"' && c != '\'' && c != '<' {
				if len(f.name) < feedNameMax {
					f.name = append(f.name, c)
				}
				break
			}
			if fe := f.directiveStart(isFeedSpace(c) || c == '>'); fe != nil {
				return i, fe
			}
			f.st = fsDirective
			continue
		case fsDirective:
			if f.dirLT > 0 {
				// After '<': "!--" starts a comment; anything else is
				// markup, read again as such.
				if c == "!--"[f.dirLT-1] {
					if f.dirLT++; f.dirLT > len("!--") {
						f.st, f.dirLT, f.prev = fsDirComment, 0, [2]byte{}
					}
					break
				}
				f.dirLT = 0
				f.dirDepth++
				continue
			}
			if f.dirQuote == 0 && c == '>' && f.dirDepth == 0 {
				f.endToken(at)
				break
			}
			switch {
			case c == f.dirQuote:
				f.dirQuote = 0
			case f.dirQuote != 0:
			case c == '"' || c == '\'':
				f.dirQuote = c
			case c == '>':
				f.dirDepth--
			case c == '<':
				f.dirLT = 1
			}
		case fsDirComment:
			if f.prev == [2]byte{'-', '-'} && c == '>' {
				f.st = fsDirective
			}
			f.prev = [2]byte{f.prev[1], c}
		case fsRef:
			switch {
			case c == '#':
				f.st = fsCharRef
			case isFeedNameByte(c):
				f.st = fsRefName
				continue
			default:
				f.st = fsDone // encoding/xml: '&' that starts no reference
			}
		case fsRefName:
			switch {
			case isFeedNameByte(c):
			case c == ';':
				f.st = f.back
			default:
				f.st = fsDone // encoding/xml: no ';' ends the reference
			}
		case fsCharRef:
			switch {
			case c == ';':
				r, ok := charRefDigits(f.ref)
				if !ok || !isXMLChar(r) {
					return i, notWellFormedAt(f.refStart, "&#%s; is not a legal character reference", f.ref)
				}
				f.st = f.back
			case len(f.ref) < 16 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x'):
				f.ref = append(f.ref, c)
			default:
				f.st = fsDone // encoding/xml: not a character reference
			}
		case fsDone:
			return len(b), nil
		}
		i++
	}
	return len(b), nil
}

// endToken ends a markup token at its '>' (at).
func (f *feedReader) endToken(at int64) {
	f.st, f.textStart = fsText, at+1
}

func (f *feedReader) startRef(at int64) {
	f.back, f.st = f.st, fsRef
	f.refStart, f.ref = at, f.ref[:0]
}

// char checks a byte of text, of an attribute value or of a CDATA section
// as encoding/xml checks them (XML's Char, valid UTF-8), but at the
// character instead of the token's end.
func (f *feedReader) char(c byte, at int64) *feedError {
	if f.runeN > 0 {
		if c&0xC0 != 0x80 {
			return notWellFormedAt(f.runeStart, "invalid UTF-8")
		}
		f.runeBuf[f.runeN] = c
		if f.runeN++; f.runeN < f.runeNeed {
			return nil
		}
		r, size := utf8.DecodeRune(f.runeBuf[:f.runeN])
		if r == utf8.RuneError && size == 1 {
			return notWellFormedAt(f.runeStart, "invalid UTF-8")
		}
		if !isXMLChar(r) {
			return notWellFormedAt(f.runeStart, "illegal character code %U", r)
		}
		f.runeN = 0
		return nil
	}
	switch {
	case c < 0x20:
		if c != '\t' && c != '\n' && c != '\r' {
			return notWellFormedAt(at, "illegal character code %U", rune(c))
		}
	case c < utf8.RuneSelf:
	case c >= 0xC2 && c <= 0xDF:
		f.runeNeed = 2
	case c >= 0xE0 && c <= 0xEF:
		f.runeNeed = 3
	case c >= 0xF0 && c <= 0xF4:
		f.runeNeed = 4
	default:
		return notWellFormedAt(at, "invalid UTF-8")
	}
	if c >= utf8.RuneSelf {
		f.runeBuf[0], f.runeN, f.runeStart = c, 1, at
	}
	return nil
}

// directiveStart checks where a markup declaration stands, once its first
// word is read (word: it ended at white space or '>'): a DOCTYPE before
// the root element, once.
func (f *feedReader) directiveStart(word bool) *feedError {
	first := clipFeedName(string(f.name), 20)
	switch {
	case f.rootSeen:
		return notWellFormedAt(f.tagStart, "a markup declaration <!%s> is not allowed inside or after the root element", first)
	case string(f.name) != "DOCTYPE" || !word:
		return notWellFormedAt(f.tagStart, "<!%s> is not allowed here: only a DOCTYPE may stand before the root element", first)
	case f.doctype:
		return notWellFormedAt(f.tagStart, "a second DOCTYPE")
	}
	f.doctype = true
	return nil
}

func isFeedSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// isFeedNameByte is what encoding/xml reads as part of a name: a byte of
// an ASCII name character or any byte of a multi-byte character.
func isFeedNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':' || c >= utf8.RuneSelf
}

func clipFeedName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// headBytes reads through and keeps the first bytes of the document, for
// its byte order mark.
type headBytes struct {
	r    io.Reader
	head []byte
}

func (h *headBytes) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if len(h.head) < 3 {
		h.head = append(h.head, p[:min(n, 3-len(h.head))]...)
	}
	return n, err
}

// bom is the length of the byte order mark the document starts with, in
// the charset chosen (UTF8Reader drops it).
func (h *headBytes) bom(charset string) int {
	switch {
	case charset == "utf-8" && bytes.HasPrefix(h.head, []byte("\xEF\xBB\xBF")):
		return 3
	case charset == "utf-16le" && bytes.HasPrefix(h.head, []byte("\xFF\xFE")),
		charset == "utf-16be" && bytes.HasPrefix(h.head, []byte("\xFE\xFF")):
		return 2
	}
	return 0
}

// Positions. The feed reader sees the document decoded to UTF-8; a
// position counts the original bytes as the XML stage counts them: in
// UTF-8 they are the same (after the byte order mark, which the column of
// the first line counts); in a charset where every ASCII byte is that
// character (single-byte charsets, Shift_JIS, EUC, GBK, Big5 …) each
// character's original length is that of its encoding (one byte for a
// character the charset cannot encode: U+FFFD standing for bad input); in
// UTF-16, lines and columns count the decoded text (its newlines are not
// single bytes) and the offset the original; in a stateful charset
// (ISO-2022-JP), positions count the decoded text.
type feedUnits struct {
	enc   *encoding.Encoder // nil: the decoded bytes
	utf16 bool
	cache map[rune]int
}

func newFeedUnits(charset string) *feedUnits {
	u := &feedUnits{}
	switch {
	case charset == "utf-8":
	case strings.HasPrefix(charset, "utf-16"):
		u.utf16 = true
	default:
		if e := lookupFeedCharset(charset); e != nil && asciiCompatibleCharset(e, charset) {
			u.enc, u.cache = e.NewEncoder(), map[rune]int{}
		}
	}
	return u
}

// lookupFeedCharset finds the encoding UTF8Reader named, as the XML stage
// looks labels up: WHATWG, then IANA, then old names.
func lookupFeedCharset(name string) encoding.Encoding {
	if e, _ := charset.Lookup(name); e != nil {
		return e
	}
	if e, err := ianaindex.IANA.Encoding(name); err == nil && e != nil {
		return e
	}
	switch strings.ToLower(name) {
	case "maccyrillic", "mac-cyrillic", "x-mac-cyrillic", "cp10007":
		return charmap.MacintoshCyrillic
	}
	return nil
}

// asciiCompatibleCharset reports whether every ASCII byte is that character
// in the charset and nothing else carries state.
func asciiCompatibleCharset(e encoding.Encoding, name string) bool {
	n := strings.ToLower(name)
	if strings.HasPrefix(n, "iso-2022") || n == "replacement" || strings.HasPrefix(n, "utf-7") {
		return false
	}
	ascii := make([]byte, utf8.RuneSelf)
	for i := range ascii {
		ascii[i] = byte(i)
	}
	out, err := e.NewDecoder().Bytes(ascii)
	return err == nil && bytes.Equal(out, ascii)
}

// origLen is the length of decoded text in the original charset.
func (u *feedUnits) origLen(t []byte) int {
	n := 0
	for len(t) > 0 {
		if t[0] < utf8.RuneSelf && !u.utf16 {
			n++
			t = t[1:]
			continue
		}
		r, size := utf8.DecodeRune(t)
		t = t[size:]
		switch {
		case u.utf16:
			n += 2 * max(utf16.RuneLen(r), 1)
		case r == utf8.RuneError:
			n++
		default:
			l, ok := u.cache[r]
			if !ok {
				l = 1
				if b, err := u.enc.Bytes(utf8.AppendRune(nil, r)); err == nil && len(b) > 0 {
					l = len(b)
				}
				if len(u.cache) < 1<<16 {
					u.cache[r] = l
				}
			}
			n += l
		}
	}
	return n
}

// advance returns the position after the decoded bytes b, from p.
func (u *feedUnits) advance(p filter.Pos, b []byte) filter.Pos {
	q := p.Advance(b) // lines, and everything in UTF-8
	if u.enc == nil && !u.utf16 {
		return q
	}
	q.Offset = p.Offset + int64(u.origLen(b))
	if u.utf16 {
		return q
	}
	if i := bytes.LastIndexAny(b, "\r\n"); i >= 0 {
		q.Col = 1 + u.origLen(b[i+1:])
	} else {
		q.Col = p.Col + u.origLen(b)
	}
	return q
}

// posWindow keeps the last bytes handed out (at least posKeep), and the
// position of the first.
type posWindow struct {
	u    *feedUnits
	base int64 // decoded offset of buf[0]
	pos  filter.Pos
	buf  []byte
}

// posKeep is what a posWindow keeps: the parser's buffer, and what an
// error is looked for in before where the parser stopped.
const posKeep = 16 << 10

func (w *posWindow) add(b []byte) {
	w.buf = append(w.buf, b...)
	if len(w.buf) < 2*posKeep {
		return
	}
	cut := len(w.buf) - posKeep
	for k := 0; k < utf8.UTFMax-1 && cut > 0 && w.buf[cut]&0xC0 == 0x80; k++ {
		cut-- // at a character's start
	}
	w.pos = w.u.advance(w.pos, w.buf[:cut])
	w.base += int64(cut)
	w.buf = w.buf[:copy(w.buf, w.buf[cut:])]
}

// at is the position of a decoded offset the window holds (else of the
// nearest it holds).
func (w *posWindow) at(off int64) filter.Pos {
	i := min(max(off-w.base, 0), int64(len(w.buf)))
	return w.u.advance(w.pos, w.buf[:i])
}

// lastIndex is the offset of the last s that starts before end, or
// fallback.
func (w *posWindow) lastIndex(end int64, s string, fallback int64) int64 {
	i := min(max(end-w.base, 0), int64(len(w.buf)))
	if j := bytes.LastIndex(w.buf[:i], []byte(s)); j >= 0 {
		return w.base + int64(j)
	}
	return fallback
}

// charRefDigits reads the digits of a character reference ("38", "x26"),
// leading zeros allowed.
func charRefDigits(s []byte) (rune, bool) {
	base := 10
	if len(s) > 0 && s[0] == 'x' {
		base, s = 16, s[1:]
	}
	if len(s) == 0 {
		return 0, false
	}
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	if len(s) > 8 {
		return 0, false
	}
	var r rune
	for _, c := range s {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case base == 16 && c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*rune(base) + rune(d)
	}
	return r, r <= utf8.MaxRune
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
