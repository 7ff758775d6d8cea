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
	"strconv"
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
// entity references read as the XML stage reads them (feedReader), without
// its warnings. ProcessRecords stops at the first error, fn's included:
// the records before it have been passed to fn, the one that fails has
// not. An XML document that is not well-formed fails with a
// *filter.PosError (xmlstream.ErrNotWellFormed, or
// xmlstream.ErrEntityExpansion) at the line and column of the error.
func ProcessRecords(r io.Reader, xpath string, opts Options, fn func(Record) error) error {
	head := &headBytes{r: r}
	in, cs, err := xmlstream.UTF8Reader(head, opts.Charset)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	feed := newFeedReader(in, cs, head.bom(cs), opts)
	// xmlquery reads through bufio.NewReader, which returns a *bufio.Reader
	// of at least its default size as it is: the decoder then reads this
	// one, byte by byte, and where it stopped is what feed handed out less
	// what br still holds.
	br := bufio.NewReaderSize(feed, feedBufSize)
	sp, err := xmlquery.CreateStreamParserWithOptions(br, xmlquery.ParserOptions{
		Decoder: &xmlquery.DecoderOptions{
			Strict: true,
			Entity: feed.ents.m,
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
// reports a well-formedness error with a line only, reads undeclared
// entities through its Entity map, and leaves out checks the XML stage
// makes. feedReader stands between the document (decoded to UTF-8) and
// the decoder, and:
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
//     another markup declaration outside the internal subset;
//   - reads the DOCTYPE's internal subset and fills the decoder's Entity
//     map before each entity reference is read, as the XML stage reads
//     entities (feedEntities).
//
// The decoder reads the bytes handed out before an error first: the records
// that end before it are returned, then the error.
type feedReader struct {
	r    io.Reader
	ents *feedEntities
	win  posWindow
	off  int64  // bytes handed out
	held []byte // bytes scanned and not handed out yet: a character's first bytes
	err  error  // once set, every Read returns it

	tags, bytes int // read since the last record (ProcessRecords resets them)

	maxToken int

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
	capture   []byte  // the XML declaration or the DOCTYPE, as read
	capturing bool
	// split: encoding/xml ended the DOCTYPE inside its internal subset (at
	// a '>' in a PI there): what follows up to the root element is kept
	// with it, and read as the DOCTYPE when the root starts; the checks
	// of the prolog are off meanwhile.
	split        bool
	doctypeStart int64
	refStart     int64
	ref          []byte
	refLong      bool
	runeBuf      [utf8.UTFMax]byte
	runeN        int
	runeNeed     int
	runeStart    int64
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

// feedNameMax bounds the names kept for messages and entity references.
const feedNameMax = 256

func newFeedReader(r io.Reader, charset string, bom int, opts Options) *feedReader {
	maxToken := opts.MaxTokenSize
	if maxToken <= 0 {
		maxToken = filter.DefaultMaxTokenSize
	}
	f := &feedReader{r: r, maxToken: maxToken, ents: newFeedEntities(min(maxToken, xmlstream.MaxEntityExpansion))}
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
	captured := -1 // a byte read again is kept once
	for i := 0; i < len(b); {
		c := b[i]
		at := base + int64(i)
		if f.split && i > captured {
			if len(f.capture) >= f.maxToken {
				return i, f.doctypeTooLong()
			}
			f.capture, captured = append(f.capture, c), i
		}
		switch f.st {
		case fsText:
			switch {
			case f.depth == 0 && c != '<' && !isFeedSpace(c) && !f.split:
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
				f.st, f.name, f.prev = fsPI, f.name[:0], [2]byte{}
				if f.tagStart == 0 { // an XML declaration is at the start
					f.capture, f.capturing = append(f.capture[:0], '<', '?'), true
				}
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
				if f.split {
					// The root starts: the DOCTYPE ended before it.
					f.ents.declare(scanFeedDoctype(f.capture))
					f.split, f.capture = false, f.capture[:0]
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
			if f.capturing {
				if len(f.capture) < feedNameMax*4 {
					f.capture = append(f.capture, c)
				} else {
					f.capturing = false
				}
			}
			if f.prev[1] == '?' && c == '>' {
				if f.capturing {
					f.xmlDecl(f.capture)
				}
				f.capturing = false
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
				if !f.split {
					f.capture, f.capturing = append(f.capture[:0], '<', '!', c), true
					f.doctypeStart = f.tagStart
				}
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
				if fe := f.directiveByte(c); fe != nil {
					return i, fe
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
					if fe := f.directiveByte(c); fe != nil {
						return i, fe
					}
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
				if f.capturing {
					f.capture = append(f.capture, c)
					f.capturing = false
					if dt := scanFeedDoctype(f.capture); dt.unclosed {
						f.split = true
					} else {
						f.ents.declare(dt)
						f.capture = f.capture[:0]
					}
				}
				f.endToken(at)
				break
			}
			if fe := f.directiveByte(c); fe != nil {
				return i, fe
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
			if fe := f.directiveByte(c); fe != nil {
				return i, fe
			}
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
				if len(f.ref) < feedNameMax {
					f.ref = append(f.ref, c)
				} else {
					f.refLong = true
				}
			case c == ';':
				if fe := f.reference(at); fe != nil {
					return i, fe
				}
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
	f.refStart, f.ref, f.refLong = at, f.ref[:0], false
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

// directiveByte keeps a byte of the DOCTYPE being read, within the token
// size limit.
func (f *feedReader) directiveByte(c byte) *feedError {
	if !f.capturing {
		return nil
	}
	if len(f.capture) >= f.maxToken {
		return f.doctypeTooLong()
	}
	f.capture = append(f.capture, c)
	return nil
}

func (f *feedReader) doctypeTooLong() *feedError {
	return &feedError{f.doctypeStart, fmt.Errorf("%w (limit %d); output stops here", filter.ErrTokenTooLong, f.maxToken)}
}

// directiveStart checks where a markup declaration stands, once its first
// word is read (word: it ended at white space or '>'): a DOCTYPE before
// the root element, once.
func (f *feedReader) directiveStart(word bool) *feedError {
	first := clipFeedName(string(f.name), 20)
	switch {
	case f.split:
		return nil // part of the DOCTYPE
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

// xmlDecl reads standalone="yes" from the XML declaration, a PI at the
// start of the document whose target is xml.
func (f *feedReader) xmlDecl(pi []byte) {
	body := pi[len("<?") : len(pi)-len("?>")]
	i := 0
	for i < len(body) && !isFeedSpace(body[i]) {
		i++
	}
	if string(body[:i]) != "xml" {
		return
	}
	v, _ := feedPseudoAttr(body[i:], "standalone")
	f.ents.standalone = v == "yes"
}

// reference handles the reference to an entity (not a character
// reference) that ends at the ';' at decoded offset end.
func (f *feedReader) reference(end int64) *feedError {
	name := string(f.ref)
	if f.refLong {
		name += "…"
	}
	err := f.ents.reference(name, f.refLong, end, f.off)
	if err != nil {
		return &feedError{f.refStart, err}
	}
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

// feedPseudoAttr reads a pseudo-attribute of the XML declaration.
func feedPseudoAttr(decl []byte, name string) (string, bool) {
	i := bytes.Index(decl, []byte(name))
	if i < 0 {
		return "", false
	}
	rest := bytes.TrimLeft(decl[i+len(name):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return "", false
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
		return "", false
	}
	j := bytes.IndexByte(rest[1:], rest[0])
	if j < 0 {
		return "", false
	}
	return string(rest[1 : 1+j]), true
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

// Entities, read as the XML stage reads them (go doc ./xmlstream,
// "Entities"), through encoding/xml's Entity map, which holds the text a
// reference reads as, inserted as text. feedReader sees every reference in
// text and attribute values before the decoder reads it, and:
//
//   - for an entity declared in the internal subset, checks its expansion
//     as the XML stage expands it (references in the replacement text read
//     in turn, an entity that refers to itself is not well-formed, an
//     undeclared one inside is handled as in the document), charges it to
//     the document's expansion budget (the same: every use, nested entities
//     included, in all at most xmlstream.MaxEntityExpansion and the token
//     size limit), and gives the map its expansion the first time;
//   - for an external entity, gives the map the reference as written;
//   - for one nobody declared, stops the decoder where XML's WFC "Entity
//     Declared" applies (no DTD; only an internal subset, without parameter
//     entity references; standalone="yes"), else gives the map the HTML
//     entity of that name or the reference as written.
//
// Errors are at the reference, like the XML stage's.
type feedEntities struct {
	m    map[string]string // the decoder's Entity map
	defs map[string]*feedEntity
	// What decides whether an undeclared name is an error.
	doctype, externalSubset, peRefs, standalone bool

	budget, expanded int64
	// undeclared: where the last reference to each undeclared name in m
	// ends, so that names the decoder has read can leave m.
	undeclared map[string]int64
}

// feedEntity is a general entity declared in the internal subset.
type feedEntity struct {
	name     string
	value    string // the replacement text: character references replaced, entity references as written
	external bool
	state    uint8 // feedUnvisited, feedOpen (being checked), feedChecked (cost known)
	cost     int64 // replacement text read where it is used, nested entities included
}

const (
	feedUnvisited = iota
	feedOpen
	feedChecked
)

// maxUndeclaredEntities bounds the undeclared names the map holds.
const maxUndeclaredEntities = 4096

func newFeedEntities(budget int) *feedEntities {
	return &feedEntities{m: map[string]string{}, defs: map[string]*feedEntity{}, budget: int64(budget), undeclared: map[string]int64{}}
}

// declare records the internal subset's entities; the first declaration of
// a name binds, and the predefined ones cannot be redeclared.
func (e *feedEntities) declare(dt feedDoctype) {
	e.doctype, e.externalSubset, e.peRefs = true, dt.externalSubset, dt.peRefs
	for _, d := range dt.entities {
		if _, ok := e.defs[d.name]; ok {
			continue
		}
		if _, ok := feedPredefined(d.name); ok {
			continue
		}
		e.defs[d.name] = &feedEntity{name: d.name, value: d.value, external: d.external}
		if d.external {
			e.m[d.name] = "&" + d.name + ";" // never loaded: kept as written
		}
	}
}

// mustDeclare reports whether XML's WFC "Entity Declared" applies.
func (e *feedEntities) mustDeclare() bool {
	return e.standalone || !e.externalSubset && !e.peRefs
}

// undeclaredMsg is the XML stage's error for a reference to an undeclared
// entity, or "" where it is not an error.
func (e *feedEntities) undeclaredMsg(name string) string {
	if _, ok := e.defs[name]; ok || !e.mustDeclare() {
		return ""
	}
	switch {
	case !e.doctype:
		return fmt.Sprintf("entity &%s; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)", name)
	case e.standalone && (e.externalSubset || e.peRefs):
		return fmt.Sprintf("entity &%s; is not declared in the internal subset, as a standalone document requires", name)
	}
	return fmt.Sprintf("entity &%s; is not declared: the internal subset does not declare it and there is no external DTD subset", name)
}

// undeclaredValue is what an entity nobody declared reads as where that is
// allowed: the HTML entity of that name, or the reference as written.
func undeclaredValue(name string) string {
	if v, ok := xml.HTMLEntity[name]; ok {
		return v
	}
	return "&" + name + ";"
}

// reference handles a reference to name (long: the name was clipped)
// whose ';' is at decoded offset end; handed is what the feed reader
// handed out before the current chunk.
func (e *feedEntities) reference(name string, long bool, end, handed int64) error {
	if _, ok := feedPredefined(name); ok {
		return nil
	}
	def, ok := e.defs[name]
	switch {
	case ok && def.external:
		return nil
	case ok:
		cost, err := e.check(def, e.budget-e.expanded)
		if err != nil {
			return err
		}
		e.expanded += cost
		if _, ok := e.m[name]; !ok {
			e.m[name] = e.expand(def)
		}
		return nil
	}
	if msg := e.undeclaredMsg(name); msg != "" {
		return fmt.Errorf("%w: %s", xmlstream.ErrNotWellFormed, msg)
	}
	if long {
		// Longer than any name the map learns: the decoder would not find it.
		return fmt.Errorf("%w: entity &%s; is not declared, and its name is longer than %d bytes", xmlstream.ErrNotWellFormed, name, feedNameMax)
	}
	if _, ok := e.m[name]; !ok {
		if len(e.undeclared) >= maxUndeclaredEntities {
			// The decoder has read every reference before what its
			// buffer may hold: those names can go.
			for n, last := range e.undeclared {
				if last < handed-feedBufSize {
					delete(e.undeclared, n)
					delete(e.m, n)
				}
			}
		}
		e.m[name] = undeclaredValue(name)
	}
	e.undeclared[name] = end
	return nil
}

// check walks the expansion of def as the XML stage reads it, in the same
// order, and returns what it costs (the replacement text of every entity
// read, nested ones included), or the error the XML stage gives where the
// entity is used: an entity that refers to itself, an undeclared one where
// a declaration is required, an illegal character reference, or a cost
// past remaining (ErrEntityExpansion). An entity checked once without
// error has its cost kept.
func (e *feedEntities) check(def *feedEntity, remaining int64) (int64, error) {
	overBudget := func() error {
		return fmt.Errorf("%w (limit %d bytes of replacement text per document, expanding &%s;); output stops here", xmlstream.ErrEntityExpansion, e.budget, def.name)
	}
	if def.state == feedChecked {
		if def.cost > remaining {
			return 0, overBudget()
		}
		return def.cost, nil
	}
	type frame struct {
		def   *feedEntity
		i     int
		start int64 // the cost charged before it
	}
	var stack []frame
	var total int64
	reset := func() {
		for _, f := range stack {
			f.def.state = feedUnvisited
		}
	}
	push := func(d *feedEntity) error {
		if d.state == feedOpen {
			from := 0
			for i, f := range stack {
				if f.def == d {
					from = i
				}
			}
			var chain []string
			for _, f := range stack[from:] {
				chain = append(chain, "&"+f.def.name+";")
			}
			if len(chain) > 8 {
				chain = append(append(chain[:4:4], "…"), chain[len(chain)-3:]...)
			}
			chain = append(chain, "&"+d.name+";")
			return fmt.Errorf("%w: entity &%s; refers to itself (%s)", xmlstream.ErrNotWellFormed, d.name, strings.Join(chain, " → "))
		}
		if total+int64(len(d.value)) > remaining {
			return overBudget()
		}
		stack = append(stack, frame{def: d, start: total})
		total += int64(len(d.value))
		d.state = feedOpen
		return nil
	}
	if err := push(def); err != nil {
		return 0, err
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		v := top.def.value
		k := strings.IndexByte(v[top.i:], '&')
		if k < 0 {
			top.def.state, top.def.cost = feedChecked, total-top.start
			stack = stack[:len(stack)-1]
			continue
		}
		top.i += k
		ref, n := feedRefAt(v[top.i:])
		if n == 0 {
			top.i++ // an '&' a character reference gave: text
			continue
		}
		top.i += n
		in := top.def.name
		if ref[0] == '#' {
			if r, ok := charRefDigits([]byte(ref[1:])); !ok || !isXMLChar(r) {
				reset()
				return 0, fmt.Errorf("%w: &%s; is not a legal character reference (in the replacement text of &%s;)", xmlstream.ErrNotWellFormed, ref, in)
			}
			continue
		}
		if _, ok := feedPredefined(ref); ok {
			continue
		}
		d, ok := e.defs[ref]
		switch {
		case !ok:
			if msg := e.undeclaredMsg(ref); msg != "" {
				reset()
				return 0, fmt.Errorf("%w: %s (in the replacement text of &%s;)", xmlstream.ErrNotWellFormed, msg, in)
			}
		case d.external:
		case d.state == feedChecked:
			if total+d.cost > remaining {
				reset()
				return 0, overBudget()
			}
			total += d.cost
		default:
			if err := push(d); err != nil {
				reset()
				return 0, err
			}
		}
	}
	return total, nil
}

// expand is the text a checked entity reads as.
func (e *feedEntities) expand(def *feedEntity) string {
	type frame struct {
		def *feedEntity
		i   int
	}
	var out []byte
	stack := []frame{{def: def}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		v := top.def.value
		k := strings.IndexByte(v[top.i:], '&')
		if k < 0 {
			out = append(out, v[top.i:]...)
			stack = stack[:len(stack)-1]
			continue
		}
		out = append(out, v[top.i:top.i+k]...)
		top.i += k
		ref, n := feedRefAt(v[top.i:])
		if n == 0 {
			out = append(out, '&')
			top.i++
			continue
		}
		top.i += n
		if ref[0] == '#' {
			r, _ := charRefDigits([]byte(ref[1:]))
			out = utf8.AppendRune(out, r)
			continue
		}
		if s, ok := feedPredefined(ref); ok {
			out = append(out, s...)
			continue
		}
		switch d, ok := e.defs[ref]; {
		case !ok:
			out = append(out, undeclaredValue(ref)...)
		case d.external:
			out = append(out, "&"+ref+";"...)
		default:
			stack = append(stack, frame{def: d})
		}
	}
	return string(out)
}

func feedPredefined(name string) (string, bool) {
	switch name {
	case "amp":
		return "&", true
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "apos":
		return "'", true
	case "quot":
		return `"`, true
	}
	return "", false
}

// feedRefAt reads the reference at the start of s ('&'): its name, or '#'
// and the digits of a character reference, and its length; n is 0 when no
// reference starts there.
func feedRefAt(s string) (ref string, n int) {
	k := 1
	for k < len(s) && k <= feedNameMax && s[k] != ';' && !endsFeedRefName(s[k]) {
		k++
	}
	if k >= len(s) || s[k] != ';' || k == 1 {
		return "", 0
	}
	ref = s[1:k]
	if ref[0] != '#' && !isXMLName(ref) {
		return "", 0
	}
	return ref, k + 1
}

func endsFeedRefName(c byte) bool {
	switch c {
	case ';', '<', '>', '&', '"', '\'', '=', ' ', '\t', '\r', '\n':
		return true
	}
	return false
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

// isXMLName reports whether s is one XML Name (XML 1.0 fifth edition).
func isXMLName(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError || i == 0 && !isXMLNameStart(r) || !isXMLNameStart(r) && !isXMLNameRest(r) {
			return false
		}
	}
	return s != ""
}

func isXMLNameStart(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == ':' ||
		r >= 0xC0 && r <= 0xD6 || r >= 0xD8 && r <= 0xF6 || r >= 0xF8 && r <= 0x2FF ||
		r >= 0x370 && r <= 0x37D || r >= 0x37F && r <= 0x1FFF || r >= 0x200C && r <= 0x200D ||
		r >= 0x2070 && r <= 0x218F || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF ||
		r >= 0xF900 && r <= 0xFDCF || r >= 0xFDF0 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF
}

func isXMLNameRest(r rune) bool {
	return r >= '0' && r <= '9' || r == '-' || r == '.' || r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// feedDoctype is what records mode needs from the DOCTYPE: the entities of
// its internal subset, and whether declarations it does not read may
// declare others (as the XML stage reads it; xmlstream does not export
// its scanner).
type feedDoctype struct {
	externalSubset bool // SYSTEM or PUBLIC: an external subset, never read
	peRefs         bool // a parameter entity reference in the internal subset
	entities       []feedEntityDecl
	// unclosed: the internal subset does not end in the text given (the
	// DOCTYPE is longer).
	unclosed bool
}

type feedEntityDecl struct {
	name     string
	value    string // character references replaced, entity references as written
	external bool
}

// scanFeedDoctype reads a DOCTYPE declaration, given as its whole text.
// Comments, PIs and quoted literals in the internal subset are skipped, so
// that none can fake a declaration.
func scanFeedDoctype(b []byte) feedDoctype {
	var d feedDoctype
	i := len("<!DOCTYPE")
	if len(b) < i {
		return d
	}
	words := 0 // the root element's name, then the external ID's keyword
	for i < len(b) {
		c := b[i]
		switch {
		case isFeedSpace(c):
			i++
		case c == '"' || c == '\'':
			j := bytes.IndexByte(b[i+1:], c)
			if j < 0 {
				return d
			}
			i += j + 2
		case c == '[':
			d.unclosed = !scanFeedSubset(b, i+1, &d)
			return d
		case c == '>':
			return d
		default:
			start := i
			for i < len(b) && !isFeedSpace(b[i]) && b[i] != '"' && b[i] != '\'' && b[i] != '[' && b[i] != '>' {
				i++
			}
			if word := string(b[start:i]); words > 0 && (word == "PUBLIC" || word == "SYSTEM") {
				d.externalSubset = true
			}
			words++
		}
	}
	return d
}

// scanFeedSubset reads the internal subset from b[i], and reports whether
// its ']' was found.
func scanFeedSubset(b []byte, i int, d *feedDoctype) bool {
	for i < len(b) {
		switch {
		case b[i] == ']':
			return true
		case bytes.HasPrefix(b[i:], []byte("<!--")):
			j := bytes.Index(b[i+4:], []byte("-->"))
			if j < 0 {
				return false
			}
			i += 4 + j + 3
		case bytes.HasPrefix(b[i:], []byte("<?")):
			j := bytes.Index(b[i+2:], []byte("?>"))
			if j < 0 {
				return false
			}
			i += 2 + j + 2
		case bytes.HasPrefix(b[i:], []byte("<!ENTITY")) && i+8 < len(b) && isFeedSpace(b[i+8]):
			i = scanFeedEntityDecl(b, i+8, d)
		case b[i] == '<':
			i = skipFeedDecl(b, i+1, d)
		default:
			if isFeedPERef(b, i) {
				d.peRefs = true
			}
			i++
		}
	}
	return false
}

// skipFeedDecl skips a markup declaration to just after its '>', honouring
// quoted literals, and notes a parameter entity reference outside them.
func skipFeedDecl(b []byte, i int, d *feedDoctype) int {
	for i < len(b) {
		switch c := b[i]; c {
		case '"', '\'':
			j := bytes.IndexByte(b[i+1:], c)
			if j < 0 {
				return len(b)
			}
			i += j + 2
		case '>':
			return i + 1
		default:
			if isFeedPERef(b, i) {
				d.peRefs = true
			}
			i++
		}
	}
	return i
}

// isFeedPERef reports whether a parameter entity reference ('%' Name ';')
// starts at b[i].
func isFeedPERef(b []byte, i int) bool {
	if b[i] != '%' {
		return false
	}
	j := i + 1
	for j < len(b) && isFeedNameByte(b[j]) {
		j++
	}
	return j > i+1 && j < len(b) && b[j] == ';'
}

func skipFeedSpace(b []byte, i int) int {
	for i < len(b) && isFeedSpace(b[i]) {
		i++
	}
	return i
}

// scanFeedEntityDecl reads `<!ENTITY` S ['%' S] Name S (EntityValue |
// ExternalID …) S? '>' from just after "<!ENTITY"; parameter entities are
// skipped.
func scanFeedEntityDecl(b []byte, i int, d *feedDoctype) int {
	i = skipFeedSpace(b, i)
	param := false
	if i < len(b) && b[i] == '%' {
		param = true
		i = skipFeedSpace(b, i+1)
	}
	start := i
	for i < len(b) && isFeedNameByte(b[i]) {
		i++
	}
	name := string(b[start:i])
	i = skipFeedSpace(b, i)
	if name == "" || param || i >= len(b) {
		return skipFeedDecl(b, i, d)
	}
	if q := b[i]; q == '"' || q == '\'' {
		j := bytes.IndexByte(b[i+1:], q)
		if j < 0 {
			return len(b)
		}
		v := b[i+1 : i+1+j]
		for k := range v {
			if isFeedPERef(v, k) {
				d.peRefs = true
			}
		}
		d.entities = append(d.entities, feedEntityDecl{name: name, value: feedEntityValue(v)})
		return skipFeedDecl(b, i+1+j+1, d)
	}
	d.entities = append(d.entities, feedEntityDecl{name: name, external: true})
	return skipFeedDecl(b, i, d)
}

// feedEntityValue turns an entity value into its replacement text (XML 1.0
// section 4.5): character references are replaced, entity references kept
// as written, to be read where the entity is used.
func feedEntityValue(v []byte) string {
	if bytes.IndexByte(v, '&') < 0 {
		return string(v)
	}
	var out []byte
	for i := 0; i < len(v); {
		if v[i] != '&' {
			out = append(out, v[i])
			i++
			continue
		}
		j := bytes.IndexByte(v[i:], ';')
		if j < 0 {
			out = append(out, v[i:]...)
			break
		}
		if r, ok := legalCharRef(v[i+1 : i+j]); ok {
			out = utf8.AppendRune(out, r)
		} else {
			out = append(out, v[i:i+j+1]...)
		}
		i += j + 1
	}
	return string(out)
}

// legalCharRef reads the inside of a legal character reference ("#38",
// "#x26").
func legalCharRef(ref []byte) (rune, bool) {
	if len(ref) == 0 || ref[0] != '#' {
		return 0, false
	}
	base, digits := 10, string(ref[1:])
	if strings.HasPrefix(digits, "x") {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || n > utf8.MaxRune || !isXMLChar(rune(n)) {
		return 0, false
	}
	return rune(n), true
}
