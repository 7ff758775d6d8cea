package xmlstream

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/url"

	"github.com/robofilter/robofilter/filter"
)

// ErrNotWellFormed is returned, wrapped in a *filter.PosError that says
// where, for XML that is not well-formed. The limit errors are the core's
// (filter.ErrTooDeep, filter.ErrTokenTooLong).
var ErrNotWellFormed = errors.New("not well-formed XML")

// Options configure the XML stage.
type Options struct {
	MaxDepth     int    // 0: filter.DefaultMaxDepth
	MaxTokenSize int    // 0: filter.DefaultMaxTokenSize
	Charset      string // a label that overrides the XML declaration ("" to detect)

	// finished, when set, sees the driver at the end of the run (tests
	// read its counters).
	finished func(*driver)
	// piece, when set, is the scanner's piece size (tests set it low to
	// pass every text node in pieces).
	piece int
}

// maxLinkText bounds the text collected as the URL of an RSS <link> or a
// sitemap <loc>.
const maxLinkText = 8 << 10

// Run reads an XML document once and feeds the core. It returns nil for a
// well-formed document; otherwise a *filter.PosError (not well-formed, a
// limit exceeded, the input failing) after everything before that point has
// been fed. The caller calls core.Finish afterwards in every case.
func Run(r io.Reader, core *filter.Core, opts Options) error {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = filter.DefaultMaxDepth
	}
	if opts.MaxTokenSize <= 0 {
		opts.MaxTokenSize = filter.DefaultMaxTokenSize
	}
	src, err := openSource(r, core, opts)
	if err != nil {
		var pe *filter.PosError
		if errors.As(err, &pe) {
			return err
		}
		return &filter.PosError{Pos: filter.StartPos, Err: err}
	}
	d := &driver{core: core, docScope: core.Root(), src: src, maxDepth: opts.MaxDepth, maxToken: opts.MaxTokenSize, pos: filter.StartPos}
	d.ents = newEntities(opts.MaxTokenSize)
	d.scan = newScanner(src, d.ents)
	d.scan.piece = filter.TextPiece(opts.MaxTokenSize)
	if opts.piece > 0 {
		d.scan.piece = opts.piece
	}
	err = d.run()
	if opts.finished != nil {
		opts.finished(d)
	}
	return err
}

// nsBinding is one namespace declaration in scope; prev is the index in
// driver.ns of the binding of the same prefix it hides (-1: none).
type nsBinding struct {
	prefix, uri string
	prev        int
}

// nsScan is how many bindings resolve looks through one by one; past it,
// it looks the prefix up in driver.nsTop, so that a document declaring
// many namespaces (on one element, or one per level of a deep nesting)
// costs a lookup per name, not a pass over every binding in scope.
const nsScan = 8

// frame is one open element.
type frame struct {
	prefix, local string // as written, to match the end tag
	ns            string
	scope         filter.Scope
	pos           filter.Pos
	base          *url.URL // xml:base in effect; nil: the document's base
	baseLen       int      // the length of base as a string (0 when nil)
	baseCost      int      // bytes of base this element's xml:base added to driver.baseBytes
	// tagWritten: the start tag is in the archive copy, so the end tag
	// goes there too (and only then): the copy stays well-formed where a
	// comment region (googleoff: snippet) starts or ends inside the
	// element. heldTag is a start tag such a region elided, kept to be
	// written where the region ends, if the element is still open there.
	tagWritten bool
	heldTag    []byte
	nsMark     int // bindings before this element's own
	layout     filter.Layout
	xhtml      bool
	hasChild   bool // an element started inside
	hasText    bool // non-blank character data directly inside
	yandex     bool // an XHTML <noindex>: its end closes the Yandex region
	collect    bool // its text is a URL (RSS <link>, sitemap <loc>)
	collectCut bool
	textStart  int
}

func (f *frame) tag() string {
	if f.prefix == "" {
		return f.local
	}
	return f.prefix + ":" + f.local
}

type piSeen struct {
	pos filter.Pos
	v   RobotsPI
}

// metaSeen sums the robots META tags of an XHTML document, which the PI overrules.
type metaSeen struct {
	seen              bool
	pos               filter.Pos
	content           string
	noindex, nofollow bool
}

type driver struct {
	docScope filter.Scope // the document's (Core.Root)
	core     *filter.Core
	src      *source
	scan     *scanner
	ents     *entities
	maxDepth int
	maxToken int

	pos      filter.Pos // where the current token starts
	tokStart int64      // the same, as a decoded offset
	stack    []frame
	held     []int // the indices in stack of the frames with a heldTag, in order
	// attDefaults are the internal subset's attribute defaults, by
	// element name as written, ready to add to a tag (nil: none, the
	// usual case).
	attDefaults map[string][]xml.Attr
	// baseBytes is the length of the bases the open elements' xml:base
	// attributes set (see maxBaseBytes); baseWork the bytes of URL every
	// xml:base resolution so far went through (see baseWorkFree).
	baseBytes, baseWork int
	// docBase is the document's base that docBaseLen measured last.
	docBase    *url.URL
	docBaseLen int
	ns         []nsBinding
	nsTop      map[string]int // the index in ns of each prefix's innermost binding
	root       rootKind

	rootSeen, rootDone, doctypeSeen bool
	// rootClass is the root element's class, read again when its head
	// names the profile under --require-profile (profileTurnedOn).
	rootClass       []byte
	profileTurnedOn bool

	pi         *piSeen
	meta       metaSeen
	linkText   []byte
	unboundNS  map[string]bool
	xhtmlNames map[string]xhtmlElement
	names      filter.Names     // element names and prefixes, kept once
	startTag   xml.StartElement // the current start tag, its strings borrowed

	// refs are the references to entities with markup whose replacement
	// text is being read as content, the document's first. Meanwhile pos
	// and tokStart stay at that reference: everything found in the
	// expansion is at it. refNoArchive says whether anything in the
	// expansion was not to be archived: then the reference is elided.
	refs         []entityRef
	refNoArchive bool
}

// entityRef is a reference to an entity with markup being read.
type entityRef struct {
	name  string
	depth int // open elements at the reference: its own must end in it
}

func (d *driver) run() error {
	if d.src.prefix > 0 {
		bom := []byte("\xEF\xBB\xBF")
		switch {
		case d.src.unit == 2 && d.src.be:
			bom = []byte("\xFE\xFF")
		case d.src.unit == 2:
			bom = []byte("\xFF\xFE")
		}
		d.core.SetPos(d.pos)
		d.core.Archive(bom, true)
		d.pos = d.pos.Advance(bom)
	}
	for {
		d.scan.inElement = len(d.stack) > 0
		kind, err := d.scan.next()
		if len(d.refs) > 0 {
			// A token of an entity's replacement text, or its end.
			if err != nil {
				return d.failure(err)
			}
			if err := d.expansionToken(kind); err != nil {
				return err
			}
			continue
		}
		end := d.scan.end()
		if err == io.EOF {
			return d.eof()
		}
		if err != nil {
			if d.scan.cut {
				var se *scanError
				if after := d.cutToken(); d.src.readErr && !errors.As(err, &se) {
					d.pos = after // the input failed there, after what was written
				}
			}
			return d.stopAt(d.failure(err))
		}
		if end-d.tokStart > int64(d.maxToken) {
			// The source checks the limit only when it reads more; a token
			// that came in one read is checked here.
			return filter.LimitError(d.pos, filter.ErrTokenTooLong, d.maxToken)
		}
		raw, text := d.src.rawSpan(d.tokStart, end), d.src.decSpan(d.tokStart, end)
		d.core.SetPos(d.pos)
		if kind == tokRef {
			if err := d.enterRef(); err != nil {
				return err
			}
			continue // pos and tokStart stay at the reference until it ends
		}
		if err := d.token(kind, raw, text); err != nil {
			return err
		}
		d.pos = d.src.advance(d.pos, raw, text)
		d.tokStart = end
		if kind == tokStart && d.scan.empty {
			// <e/> is <e></e>: the end comes after the tag.
			d.core.SetPos(d.pos)
			if err := d.end(xml.EndElement{Name: d.startTag.Name}, nil); err != nil {
				return err
			}
		}
		d.src.release(end)
	}
}

// enterRef starts reading the replacement text of an entity with markup,
// referred to in the document: the archive copy keeps the reference as
// written if all its expansion is to be archived, else elides it.
func (d *driver) enterRef() error {
	if len(d.stack) == 0 {
		return notWellFormed(d.pos, "entity reference &%s; outside the root element", d.scan.refName)
	}
	d.refNoArchive = !d.core.ArchiveOn(d.topScope())
	d.refs = append(d.refs, entityRef{name: d.scan.refName, depth: len(d.stack)})
	return nil
}

// expansionToken handles a token of an entity's replacement text as the
// document's, at the reference's position, and checks that the text is
// content on its own: its elements start and end in it (XML 1.0 section
// 4.3.2, production [43]). The archive copy takes no bytes of it
// (archive, elide): at its end the reference is copied or elided.
func (d *driver) expansionToken(kind tokKind) error {
	z := d.scan
	d.core.SetPos(d.pos)
	r := &d.refs[len(d.refs)-1]
	switch kind {
	case tokRef:
		d.refs = append(d.refs, entityRef{name: z.refName, depth: len(d.stack)})
		return nil
	case tokRefEnd:
		if n := len(d.stack); n > r.depth {
			return notWellFormed(d.pos, "the replacement text of &%s; ends inside <%s>, which starts in it: an element must end in the entity where it starts", r.name, d.stack[n-1].tag())
		}
		d.refs = d.refs[:len(d.refs)-1]
		if len(d.refs) == 0 {
			end := z.end()
			raw, text := d.src.rawSpan(d.tokStart, end), d.src.decSpan(d.tokStart, end)
			d.core.Archive(raw, !d.refNoArchive)
			d.pos = d.src.advance(d.pos, raw, text)
			d.tokStart = end
			d.src.release(end)
		}
		return nil
	case tokEnd:
		if len(d.stack) <= r.depth {
			return notWellFormed(d.pos, "end tag </%s> in the replacement text of &%s; ends an element that starts outside it: an element must end in the entity where it starts", z.name, r.name)
		}
	}
	if err := d.token(kind, nil, z.buf[:z.i]); err != nil {
		return err
	}
	if kind == tokStart && z.empty {
		return d.end(xml.EndElement{Name: d.startTag.Name}, nil)
	}
	return nil
}

// archive passes a token's bytes to the archive copy; inside an expansion
// it only notes whether they were to be elided.
func (d *driver) archive(raw []byte, on bool) {
	if len(d.refs) > 0 {
		d.refNoArchive = d.refNoArchive || !on
		return
	}
	// Outside the root element (the prolog, the root's own tags, what
	// follows it) everything is copied: an ellipsis there would be text
	// outside the root, which XML does not allow. Only markup and white
	// space stand there.
	d.core.Archive(raw, on || len(d.stack) == 0)
}

// elide writes the ellipsis where a no-archive region starts; inside an
// expansion it notes that the reference is to be elided.
func (d *driver) elide() {
	if len(d.refs) > 0 {
		d.refNoArchive = true
		return
	}
	d.core.Elide()
}

func (d *driver) token(kind tokKind, raw, text []byte) error {
	z := d.scan
	switch kind {
	case tokStart:
		return d.start(d.startElement(), raw, text)
	case tokEnd:
		prefix, local := splitQName(borrowString(z.name))
		return d.end(xml.EndElement{Name: xml.Name{Space: prefix, Local: local}}, raw)
	case tokText, tokCDATA:
		return d.charData(z.text, raw, text)
	case tokComment:
		before := d.core.ArchiveOn(d.topScope())
		rootBefore := len(d.held) > 0 && d.core.ArchiveOn(&d.docScope)
		d.core.MarkerComment(z.text, len(raw) > filter.MaxMarkerComment)
		after := d.core.ArchiveOn(d.topScope())
		d.noteArchiveOff(before && after)
		if len(d.held) > 0 && !rootBefore && d.core.ArchiveOn(&d.docScope) {
			d.writeHeldTags() // the last comment region turning archiving off ended
		}
		d.archive(raw, before || after)
	case tokPI:
		if string(z.name) == "xml" {
			// The XML declaration: the scanner accepts one only at the
			// start of the document, and well written, or after white
			// space only.
			if d.tokStart != 0 {
				d.core.Warn(d.pos, "white space before the XML declaration, which XML wants first in the document; it is read as the declaration")
			}
			// standalone="yes": every entity used must be declared in the
			// internal subset (WFC "Entity Declared").
			d.ents.standalone = z.decl.standalone == "yes"
			if z.decl.version != "1.0" {
				// XML 1.0 section 2.8: a 1.x document is processed as 1.0.
				d.core.Warn(d.posAt(d.tokStart+int64(len("<?xml")+z.decl.versionAt)), "XML version %s is read as XML 1.0", clipRunes(z.decl.version, 20))
			}
		} else {
			d.robotsPI(d.pos, text)
		}
		d.archive(raw, d.core.ArchiveOn(d.topScope()))
	case tokDirective:
		return d.directive(z.text, raw, text)
	}
	return nil
}

// topScope is the scope of the current element, or the document's.
func (d *driver) topScope() *filter.Scope {
	if n := len(d.stack); n > 0 {
		return &d.stack[n-1].scope
	}
	return &d.docScope
}

func (d *driver) eof() error {
	// What is still open runs to the end of the input (not to where the
	// last token started: the last piece of a long text node, perhaps).
	d.core.SetPos(d.pos)
	if n := len(d.stack); n > 0 {
		f := &d.stack[n-1]
		return notWellFormed(d.pos, "the document ends inside <%s> (opened at %s)", f.tag(), f.pos)
	}
	if !d.rootSeen {
		return notWellFormed(d.pos, "no root element")
	}
	d.compareMeta()
	return nil
}

func (d *driver) robotsPI(pos filter.Pos, text []byte) {
	v, isRobots, err := ParseRobotsPI(text)
	if !isRobots {
		return
	}
	if err != nil {
		d.core.Warn(pos, "illegal robots PI %s: %v; it is ignored", clipRunes(string(text), 80), err)
		return
	}
	if d.pi != nil {
		d.core.Warn(pos, "a second robots PI (%s) is ignored: the first legal one, at %s, decides", v, d.pi.pos)
		return
	}
	d.pi = &piSeen{pos: pos, v: v}
	v.Apply(d.core, pos)
}

func (d *driver) charData(t []byte, raw, text []byte) error {
	cdata := bytes.HasPrefix(text, []byte("<![CDATA["))
	n := len(d.stack)
	if n == 0 {
		if cdata || !isXMLSpace(t) || !isXMLSpace(text) {
			// White space as written: a character reference is no S
			// ([22] prolog, [27] Misc).
			return notWellFormed(d.pos, "text outside the root element")
		}
		d.archive(raw, d.core.ArchiveOn(&d.docScope))
		return nil
	}
	end := d.scan.end()
	if d.scan.cut {
		end = d.scan.cutEnd
	}
	d.ents.flush(d.core, end, d.walk().at)
	f := &d.stack[n-1]
	if !f.hasText && !isXMLSpace(t) {
		f.hasText = true
	}
	if f.collect && !f.collectCut {
		if len(d.linkText)-f.textStart+len(t) > maxLinkText {
			f.collectCut = true
		} else {
			d.linkText = append(d.linkText, t...)
		}
	}
	d.core.Text(&f.scope, t)
	d.archive(raw, d.core.ArchiveOn(&f.scope))
	return nil
}

func (d *driver) directive(t []byte, raw, text []byte) error {
	if err := DeclarationError(t, d.rootSeen, d.doctypeSeen); err != nil {
		return &filter.PosError{Pos: d.pos, Err: err}
	}
	d.doctypeSeen = true
	if at, err := DoctypeError(text); err != nil {
		return &filter.PosError{Pos: d.walk().at(d.tokStart + int64(at)), Err: err}
	}
	dt := scanDoctype(text)
	d.ents.declare(&dt)
	d.declareDefaults(dt.defaults)
	w := d.walk()
	for _, pi := range dt.pis {
		d.robotsPI(w.at(d.tokStart+int64(pi.off)), pi.text)
	}
	d.archive(raw, d.core.ArchiveOn(&d.docScope))
	return nil
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

func firstWord(b []byte) []byte {
	if i := bytes.IndexAny(b, " \t\r\n"); i >= 0 {
		return b[:i]
	}
	return b
}

func isXMLSpace(b []byte) bool {
	for _, c := range b {
		if !isS(c) {
			return false
		}
	}
	return true
}
