package feed

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// Entry is one entry of a feed or sitemap (an Atom entry, an RSS item, a
// sitemap url…), selected by an XPath and processed as its own document.
type Entry struct {
	Index int    // counts the entries from 1, in document order
	ID    string // atom:id or RSS guid (or rdf:about), as written
	// Title is the title's indexable text, white space collapsed: read as
	// its type says, as the content is (below), with the robots markup on
	// it, around it and inside it honoured; empty under noindex.
	Title string
	// Link is the entry's own URL, resolved against xml:base and the
	// caller's base: Atom link (rel alternate or none), RSS link, sitemap loc.
	Link string
	// Doc is the entry's content: Atom content (else summary), RSS
	// content:encoded (else description). Escaped HTML (Atom type="html",
	// RSS) is unescaped once and read by the HTML pipeline, so robots
	// classes, comments and links inside an entry are honoured; markup
	// (Atom type="xhtml", an XML media type, any content with child
	// elements) is read by the XML stage, as the XML stage reads it in the
	// feed; plain text stays text. What the feed says around the content
	// holds for all of it: the robots PI, robots classes and data-nosnippet
	// on the content element, the entry and their ancestors, and the
	// comment regions (googleoff, Yandex) open where the content starts.
	// Doc is nil when the entry has no content.
	Doc *robofilter.Document
	// Warnings are about the feed around the entry and in it, since the
	// previous entry, in document order: on the first entry, those about
	// the charset (as the XML stage gives them: an unknown encoding and the
	// like); robots PIs that are illegal or come after the first legal one,
	// and a legal one that comes after entries were given; and references
	// to entities whose replacement text holds markup, which entries mode
	// reads as nothing (one per entity name). All have their position.
	Warnings []filter.Warning
}

// The entries mode's bounds. xmlquery's stream parser builds a DOM and, at
// every start tag outside a entry, evaluates the XPath over every node it
// holds: its cost grows with the square of what it holds between entries
// (NOTES.md). Process therefore prunes everything outside the path to
// the current entry after each one (so the parser holds the ancestors
// only, never the feed's earlier parts), and fails rather than read more
// than these limits between two entries (the entry itself included). The
// cost per start tag is then bounded by MaxEntryTags nodes, whatever the
// document's size; an anchored XPath (/rss/channel/item, /feed/entry) is
// cheaper still than a // one. Entries larger than this need the XML stage.
const (
	MaxEntryTags  = 1_000    // tags, comments, PIs and CDATA sections read between two entries
	MaxEntryBytes = 32 << 20 // bytes read between two entries
)

// ErrEntryTooLarge is returned when more than MaxEntryTags or
// MaxEntryBytes are read between two entries, wrapped in a
// *filter.PosError at the first tag or byte past the limit.
var ErrEntryTooLarge = errors.New("records: too much read without completing a record")

const (
	nsXMLBase       = "http://www.w3.org/XML/1998/namespace"
	nsContentModule = "http://purl.org/rss/1.0/modules/content/"
)

// Process reads an XML document once and calls fn with every element
// the XPath selects (for feeds //entry or /feed/entry, //item or
// /rss/channel/item), as an Entry whose title and content went through the
// HTML pipeline or the XML stage with opts (Format, Charset and Base are set
// per entry). The feed's first legal robots PI, wherever it stands (the
// prolog, the DOCTYPE's internal subset, between entries, inside one),
// applies to the entry that holds it or follows it and to every entry
// after: its noindex and nofollow reach each entry's runs as an
// X-Robots-Tag value. The comment dialects' regions hold in document order,
// across entries and fields, as in the XML stage. The charset is chosen as
// the XML stage chooses it (opts.Charset, if set, overrides the
// declaration), with the XML stage's warnings about that choice, at line 1,
// column 1, on the first entry (a feed without entries gives none); entity
// references read as the XML stage reads them (feedReader), without its
// warnings. Process stops at the first error, fn's included: the
// entries before it have been passed to fn, the one that fails has not. An
// XML document that is not well-formed fails with a *filter.PosError
// (xmlstream.ErrNotWellFormed, or xmlstream.ErrEntityExpansion) at the line
// and column of the error.
//
// Process returns what the feed as a whole said, as robofilter.Process
// returns a document's Result, in every case where the run started, the
// failing ones too: Format "xml", the charset, and the document-level
// directives: opts.XRobotsTag and the feed's first legal
// robots PI read (the one that applied to the entries; else one read after
// the last entry, or before the error). Its Warnings are empty: the
// feed's are given with the entries (Entry.Warnings). The Result is nil
// only when opts are not a run's (an opts.Base that does not parse).
//
// A document that is no text (robofilter.NotText: an image, a gzip file)
// is not read, as robofilter.Process does not read it: no entry, no
// error, a Result whose Format is empty and whose one warning says what it
// is.
func Process(r io.Reader, xpath string, opts robofilter.Options, fn func(Entry) error) (res *robofilter.Result, err error) {
	br0 := bufio.NewReaderSize(r, notTextPeek)
	if notText(br0, opts) {
		// The XML stage's Result: it reads no further than the head, and
		// says what the document is.
		opts.Format = robofilter.XML
		return robofilter.Process(br0, opts, robofilter.Outputs{})
	}
	r = br0
	var cs string
	var feed *feedReader
	defer func() { res = feedResult(opts, cs, feed) }()
	head := &headBytes{r: r}
	in, irregular, cs, charsetWarnings, err := xmlstream.UTF8ReaderMeasured(head, opts.Charset)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	// The charset's warnings are about the feed's start: the first
	// entry's, as the feed's warnings before a entry are.
	var first []filter.Warning
	for _, w := range charsetWarnings {
		first = append(first, filter.Warning{Pos: filter.StartPos, Line: 1, Col: 1, Message: w})
	}
	feed = newFeedReader(in, cs, head.bom(cs), opts)
	feed.win.u.irregular = irregular
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
		return nil, fmt.Errorf("records: %w", err)
	}
	rb := newEntryBuffers()
	regions := newRegionTracker(opts.Dialects)
	for index := 1; ; index++ {
		n, err := sp.Read()
		switch {
		case err == io.EOF:
			return nil, nil
		case err != nil:
			return nil, feed.failure(err, br.Buffered())
		}
		stop := feed.off - int64(br.Buffered()) // the decoder read the entry's end before
		if err := feed.entryDone(stop); err != nil {
			return nil, err
		}
		warnings := append(first, sortedWarnings(feed.takePIs(stop, index), feed.takeNotes(stop))...)
		first = nil
		regions.entry(n)
		rec, err := rb.makeEntry(n, index, opts, feed.robots.values, regions)
		rec.Warnings = warnings
		pruneOutside(n)
		if err != nil {
			return nil, err
		}
		if err := fn(rec); err != nil {
			return nil, err
		}
	}
}

// feedResult is Process's Result for a feed read in charset cs by
// feed (nil: the run stopped before it started reading).
func feedResult(opts robofilter.Options, cs string, feed *feedReader) *robofilter.Result {
	core, err := filter.NewCore(opts.CoreOptions(), filter.Outputs{})
	if err != nil {
		return nil
	}
	if feed != nil {
		if v, pos, ok := feed.firstRobotsPI(); ok {
			v.Apply(core, pos)
		}
	}
	core.SetResultInfo("xml", cs)
	res, _ := core.Finish()                    // no output to fail
	res.Warnings, res.WarningsDropped = nil, 0 // the entries'
	return res
}

// notTextPeek is how much of a feed robofilter.NotText is given, as
// robofilter.Process gives it.
const notTextPeek = 1 << 10

// notText reports whether the document br starts is no text.
func notText(br *bufio.Reader, opts robofilter.Options) bool {
	head, _ := br.Peek(notTextPeek)
	if len(head) == 0 {
		return false
	}
	charset := opts.Charset
	if charset == "" {
		charset = opts.ContentType
	}
	return robofilter.NotText(head, charset) != ""
}

// sortedWarnings merges two lists of warnings in document order into one.
func sortedWarnings(a, b []filter.Warning) []filter.Warning {
	if len(a) == 0 {
		return b
	}
	all := append(a, b...)
	slices.SortStableFunc(all, func(x, y filter.Warning) int { return cmp.Compare(x.Pos.Offset, y.Pos.Offset) })
	return all
}

// pruneOutside removes every node before the path from the document to n:
// what the stream parser holds is then the path and the current entry
// (which the parser itself removes at the next Read).
func pruneOutside(n *xmlquery.Node) {
	for c := n; c != nil; c = c.Parent {
		for c.PrevSibling != nil {
			xmlquery.RemoveFromTree(c.PrevSibling)
		}
	}
}
