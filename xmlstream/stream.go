package xmlstream

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/url"
	"slices"
	"strings"
	"unsafe"

	"github.com/robofilter/robofilter/elements"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/weburl"
	"golang.org/x/net/html/atom"
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

// startElement views the scanner's start tag as an xml.StartElement. The
// element's name and prefix are kept (interned: a document uses few
// names); every other string borrows the scanner's buffer and is valid
// only while the token is handled: what outlives it is cloned where it is
// kept (namespace bindings, xml:base, the META content, warned prefixes).
func (d *driver) startElement() xml.StartElement {
	z := d.scan
	se := &d.startTag
	se.Name.Space, se.Name.Local = splitQName(d.names.Intern(z.name))
	n := z.attrCount()
	if cap(se.Attr) < n || cap(se.Attr) > max(n, attrChunk) {
		// Of the size needed: a huge tag's list is not grown by append,
		// nor kept for the tags after it.
		se.Attr = make([]xml.Attr, 0, n)
	}
	se.Attr = se.Attr[:0]
	for i := range n {
		name, value := z.attr(i)
		prefix, local := splitQName(borrowString(name))
		se.Attr = append(se.Attr, xml.Attr{Name: xml.Name{Space: prefix, Local: local}, Value: borrowString(value)})
	}
	return *se
}

// maxElementDefaults bounds the attribute defaults applied per element
// name, so that a start tag of a few bytes costs a bounded amount of work
// whatever the DOCTYPE holds (which the token limit bounds).
const maxElementDefaults = 32

// withDefaults adds to t's attributes those the internal subset gives a
// default for and the tag does not have (XML 1.0 section 3.3.2).
func (d *driver) withDefaults(t xml.StartElement) []xml.Attr {
	attrs := t.Attr
	for _, def := range d.attDefaults[qname(t.Name)] {
		if !slices.ContainsFunc(t.Attr, func(a xml.Attr) bool { return a.Name == def.Name }) {
			attrs = append(attrs, def)
		}
	}
	return attrs
}

// declareDefaults keeps the internal subset's attribute defaults as the
// attributes withDefaults adds, their names split and their white space
// read as spaces once, here, not at every tag.
func (d *driver) declareDefaults(defaults []attDefault) {
	dropped := 0
	for _, a := range defaults {
		prefix, local := splitQName(a.attr)
		name := xml.Name{Space: prefix, Local: local}
		defs := d.attDefaults[a.element]
		switch {
		case slices.ContainsFunc(defs, func(b xml.Attr) bool { return b.Name == name }):
			// The first declaration binds.
		case len(defs) == maxElementDefaults:
			dropped++
		default:
			if d.attDefaults == nil {
				d.attDefaults = map[string][]xml.Attr{}
			}
			v := strings.Map(func(r rune) rune {
				if r == '\t' || r == '\n' || r == '\r' {
					return ' '
				}
				return r
			}, a.value)
			d.attDefaults[a.element] = append(defs, xml.Attr{Name: name, Value: v})
		}
	}
	if dropped > 0 {
		d.core.Warn(d.pos, "%d attribute defaults of the internal subset are not applied (at most %d per element)", dropped, maxElementDefaults)
	}
}

// splitQName splits a qualified name at its first colon, as encoding/xml
// does; a name with a colon at either end is all local.
func splitQName(s string) (prefix, local string) {
	i := strings.IndexByte(s, ':')
	if i < 1 || i > len(s)-2 {
		return "", s
	}
	return s[:i], s[i+1:]
}

// borrowString views bytes as a string without copying them: the string
// is valid only as long as the bytes are not overwritten.
func borrowString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// topScope is the scope of the current element, or the document's.
func (d *driver) topScope() *filter.Scope {
	if n := len(d.stack); n > 0 {
		return &d.stack[n-1].scope
	}
	return &d.docScope
}

// notWellFormed is the error for XML that breaks a well-formedness rule
// between tokens (the scanner checks each token's own).
func notWellFormed(pos filter.Pos, format string, args ...any) error {
	return &filter.PosError{Pos: pos, Err: fmt.Errorf("%w: %s", ErrNotWellFormed, fmt.Sprintf(format, args...))}
}

// cutToken writes the character data of a text or CDATA token that fails
// on a well-formedness error, or where the input fails, up to that point,
// as the whole token would have been written: text, archive copy and link
// text, in the scopes open there. Nothing is closed: the error follows.
// It returns the position after what it wrote.
func (d *driver) cutToken() filter.Pos {
	end := d.scan.cutEnd
	if end <= d.tokStart {
		return d.pos
	}
	raw, text := d.src.rawSpan(d.tokStart, end), d.src.decSpan(d.tokStart, end)
	d.core.SetPos(d.pos)
	// Text outside the root element writes nothing and is an error of its
	// own; the scanner's is the one reported, as for any other token.
	_ = d.charData(d.scan.text, raw, text)
	return d.src.advance(d.pos, raw, text)
}

// stopAt ends what is open where err stands (not where the token it is
// in started: the last piece of a long text node, perhaps) and returns it.
func (d *driver) stopAt(err error) error {
	var pe *filter.PosError
	if errors.As(err, &pe) {
		d.core.SetPos(pe.Pos)
	}
	return err
}

func (d *driver) failure(err error) error {
	var se *scanError
	// A well-formedness error is in bytes read: it comes first also when
	// the read that brought them failed too (a reader may return bytes and
	// an error together), as when the failure comes with the next read.
	switch {
	case errors.Is(err, errTokenTooLong):
		return filter.LimitError(d.pos, filter.ErrTokenTooLong, d.maxToken)
	case errors.As(err, &se):
		return &filter.PosError{Pos: d.posAt(se.off), Err: se.wrapped()}
	case d.src.readErr:
		return &filter.PosError{Pos: d.pos, Err: err}
	}
	return &filter.PosError{Pos: d.pos, Err: fmt.Errorf("%w: %v", ErrNotWellFormed, err)}
}

// posAt is the position of a decoded offset inside the current token.
func (d *driver) posAt(off int64) filter.Pos {
	return d.src.advance(d.pos, d.src.rawSpan(d.tokStart, off), d.src.decSpan(d.tokStart, off))
}

// posWalk gives the positions of offsets in the current token one after
// the other, each from the one before: the positions of many references
// or PIs in one long token (entity warnings, the PIs of an internal
// subset) then cost the token's length once, where posAt costs the length
// up to each. An offset before the last one is given by posAt.
type posWalk struct {
	d        *driver
	started  bool  // off, raw and pos are set: at has been called
	off, raw int64 // the last offset given, decoded and original
	pos      filter.Pos
}

// walk starts a posWalk at the current token's start. It costs nothing
// until a position is asked for: most tokens have nothing to warn about.
func (d *driver) walk() *posWalk { return &posWalk{d: d} }

func (w *posWalk) at(off int64) filter.Pos {
	s := w.d.src
	if !w.started {
		w.started = true
		w.off, w.raw, w.pos = w.d.tokStart, s.rawAt(w.d.tokStart), w.d.pos
	}
	if off < w.off {
		return w.d.posAt(off)
	}
	r := s.rawFrom(w.off, w.raw, off)
	w.pos = s.advance(w.pos, s.rawBetween(w.off, w.raw, off, r), s.decSpan(w.off, off))
	w.off, w.raw = off, r
	return w.pos
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

func (d *driver) start(t xml.StartElement, raw, text []byte) error {
	if d.rootDone {
		return notWellFormed(d.pos, "a second root element <%s>: a document has exactly one", qname(t.Name))
	}
	if len(d.stack) >= d.maxDepth {
		return filter.LimitError(d.pos, filter.ErrTooDeep, d.maxDepth)
	}
	if n, dup := duplicateAttr(t.Attr); dup {
		return notWellFormed(d.pos, "attribute %s appears twice in <%s>", qname(n), qname(t.Name))
	}
	if d.attDefaults != nil {
		t.Attr = d.withDefaults(t)
	}
	f := frame{prefix: t.Name.Space, local: t.Name.Local, pos: d.pos, nsMark: len(d.ns), layout: filter.Cell}
	for _, a := range t.Attr {
		switch {
		case a.Name.Space == "xmlns":
			d.bind(a.Name.Local, a.Value)
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			d.bind("", a.Value)
		}
	}
	f.ns = d.resolve(t.Name.Space, true)
	parent := d.core.Root()
	if n := len(d.stack); n > 0 {
		top := &d.stack[n-1]
		top.hasChild = true
		parent, f.base, f.baseLen = top.scope, top.base, top.baseLen
	}
	var at attrs
	el := filter.Element{Pos: d.pos}
	for _, a := range t.Attr {
		switch a.Name.Space {
		case "":
			at.set(a, &el)
		case "xml":
			if a.Name.Local == "base" {
				if u, n, ok := d.xmlBase(f.base, f.baseLen, a.Value); ok {
					f.base, f.baseLen, f.baseCost = u, n, n
				}
			}
		case "xmlns":
		default:
			if d.resolve(a.Name.Space, false) == nsXLink {
				switch a.Name.Local {
				case "href":
					at.xlinkHref, at.hasXlinkHref = a.Value, true
				case "type":
					at.xlinkType = a.Value
				case "show":
					at.xlinkShow = a.Value
				}
			}
		}
	}
	if !d.rootSeen {
		d.rootSeen = true
		d.root = rootKindOf(f.ns, f.local)
		d.core.EndHead()
		if el.Class != nil {
			d.rootClass = bytes.Clone(el.Class)
		}
	}
	d.classify(&f, &el, &at)
	if d.profileTurnedOn {
		d.profileTurnedOn = false
		if len(d.stack) == 1 && d.rootClass != nil {
			// The root started before its head named the profile: its
			// classes count after all, and no content has been written.
			root := &d.stack[0]
			rootEl := filter.Element{Tag: root.tag(), Pos: root.pos, Class: d.rootClass, Clone: true}
			top := d.core.Root()
			d.core.StartBased(&root.scope, &top, &rootEl, root.base)
			parent = root.scope
		}
	}
	if el.Class != nil || el.NoSnippet || el.Link != filter.NoLink || f.collect {
		el.Tag = f.tag()
	} else {
		el.Tag = f.local
	}
	if f.yandex {
		d.core.Toggle(filter.DialectYandex, "<noindex>", filter.NoIndex, 0)
	}
	d.core.StartBased(&f.scope, &parent, &el, f.base)
	// Outside the root element the copy takes everything (see archive):
	// the root's start tag is always there.
	parentOn, selfOn := len(d.stack) == 0 || d.core.ArchiveOn(&parent), d.core.ArchiveOn(&f.scope)
	d.noteArchiveOff(parentOn && selfOn)
	empty := bytes.HasSuffix(text, []byte("/>"))
	voidElided := false
	switch {
	case parentOn && !selfOn && f.xhtml && elements.IsVoid(atom.Lookup([]byte(f.local))):
		// A void XHTML element is replaced, as in HTML, tags and all,
		// whether written <img/> or <input …></input>.
		d.elide()
		voidElided = true
	case parentOn && !selfOn && empty:
		// Any other empty element keeps its tag: the document stays
		// well-formed, and there is no content to elide.
		d.archive(raw, true)
	case parentOn && !selfOn:
		d.archive(raw, true)
		d.elide()
	default:
		d.archive(raw, parentOn || selfOn)
	}
	f.tagWritten = (parentOn || selfOn || len(d.refs) > 0) && !voidElided
	if !f.tagWritten && !empty && !voidElided && parent.Off&filter.NoArchive == 0 {
		// Elided by a comment region alone, which may end first.
		f.heldTag = bytes.Clone(raw)
		d.held = append(d.held, len(d.stack))
	}
	d.ents.flush(d.core, d.scan.end(), d.walk().at)
	f.textStart = len(d.linkText)
	d.stack = append(d.stack, f)
	return nil
}

// writeHeldTags writes, where the last comment region that turned
// archiving off ends, the start tags it elided of the elements still open
// whose parents are archived again, outermost first. Each held tag is
// visited once per such end: then, with no such region open, every parent
// is archived again (a tag is held only when a region alone elided it),
// so the list empties. A tag that an inner region alone elided, and whose
// element ends before every region does, is not written, and neither is
// its end tag: the copy stays well-formed without them.
func (d *driver) writeHeldTags() {
	kept := d.held[:0]
	for _, i := range d.held {
		parent := d.core.Root()
		if i > 0 {
			parent = d.stack[i-1].scope
		}
		f := &d.stack[i]
		if !d.core.ArchiveOn(&parent) {
			kept = append(kept, i)
			continue
		}
		d.core.Archive(f.heldTag, true)
		f.tagWritten, f.heldTag = true, nil
	}
	d.held = kept
}

// noteArchiveOff notes, inside an expansion, that a token stood where
// archiving was off, or started or ended a no-archive region (on false):
// the reference is then elided, even where the token's own bytes would
// have been copied (the tag of an empty no-archive element, a googleoff
// comment).
func (d *driver) noteArchiveOff(on bool) {
	if !on && len(d.refs) > 0 {
		d.refNoArchive = true
	}
}

// borrow views an attribute value as bytes without copying it. The core
// only borrows an Element's byte slices for the duration of the call and
// never writes to them (filter.Element's contract), and a start element's
// strings are not used after it: a copy per class and link would only feed
// the garbage collector.
func borrow(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// attrs are the unprefixed attributes robofilter reads, and XLink's.
type attrs struct {
	href, src, rel, url, name, content, profile  string
	hasHref, hasSrc, hasURL, hasName, hasContent bool
	hasProfile                                   bool
	inputType                                    string
	xlinkHref, xlinkType, xlinkShow              string
	hasXlinkHref                                 bool
}

func (at *attrs) set(a xml.Attr, el *filter.Element) {
	switch a.Name.Local {
	case "class":
		el.Class = borrow(a.Value)
	case "data-nosnippet":
		el.NoSnippet = true
	case "href":
		at.href, at.hasHref = a.Value, true
	case "src":
		at.src, at.hasSrc = a.Value, true
	case "rel":
		at.rel = a.Value
	case "url":
		at.url, at.hasURL = a.Value, true
	case "name":
		at.name, at.hasName = a.Value, true
	case "content":
		at.content, at.hasContent = a.Value, true
	case "profile":
		at.profile, at.hasProfile = a.Value, true
	case "type":
		at.inputType = a.Value
	}
}

// classify decides an element's layout, whether its content is text, and
// the link it carries, by vocabulary.
func (d *driver) classify(f *frame, el *filter.Element, at *attrs) {
	link := func(kind filter.LinkKind, href, rel string) {
		el.Link, el.Href = kind, borrow(href)
		if rel != "" {
			el.Rel = borrow(rel)
		}
	}
	switch ns, local := f.ns, f.local; {
	case ns == nsXHTML:
		d.xhtml(f, el, at)
	case ns == "" && local == "noindex":
		f.yandex = true // Yandex's tag, in a document without namespaces too
	case ns == nsSVG || ns == nsMathML:
		_, el.Hidden = elements.Classify(atom.Lookup([]byte(local)), true)
		if ns == nsSVG && local == "a" && at.hasHref {
			link(filter.LinkAnchor, at.href, at.rel)
		}
	case isAtom(ns) && local == "link" && at.hasHref:
		link(filter.LinkRef, at.href, at.rel)
	case isAtom(ns) && local == "content" && at.hasSrc:
		link(filter.LinkRef, at.src, "")
	case isRSSNamespace(ns) && local == "link",
		isRSS2(ns) && d.root == rootRSS && local == "link" && !at.hasHref,
		isSitemap(ns) && local == "loc",
		ns == "" && d.root == rootSitemap && local == "loc":
		f.collect = true
	case isRSS2(ns) && d.root == rootRSS && local == "enclosure" && at.hasURL:
		link(filter.LinkRef, at.url, "")
	}
	svgA := f.ns == nsSVG && f.local == "a"
	if el.Link == filter.NoLink && !f.collect && at.hasXlinkHref && (svgA || f.ns != nsSVG) {
		// XLink: a simple link's content is its anchor text; a locator
		// only points. href means nothing on the other types. A simple
		// link shown embedded (xlink:show="embed") loads a resource into
		// the document, as an img does: it is not a link to follow, and
		// neither is the xlink:href of an SVG element other than a (use,
		// image, script, feImage, textPath …), which SVG reads so. SVG's
		// a is a link whatever its xlink:show says, as browsers read it.
		switch at.xlinkType {
		case "simple", "":
			switch {
			case svgA:
				link(filter.LinkAnchor, at.xlinkHref, at.rel) // SVG 2's a has rel
			case strings.TrimSpace(at.xlinkShow) != "embed":
				link(filter.LinkAnchor, at.xlinkHref, "")
			}
		case "locator":
			link(filter.LinkRef, at.xlinkHref, "")
		}
	}
	el.Layout = f.layout
}

// xhtmlElement is what the HTML rules say about an XHTML element name.
type xhtmlElement struct {
	atom   atom.Atom
	layout filter.Layout
	hidden bool
}

// xhtmlKind looks an XHTML element name up, through a small cache (a page
// uses few names, many times).
func (d *driver) xhtmlKind(local string) xhtmlElement {
	if k, ok := d.xhtmlNames[local]; ok {
		return k
	}
	k := xhtmlElement{atom: atom.Lookup([]byte(local))}
	k.layout, k.hidden = elements.Classify(k.atom, false)
	if d.xhtmlNames == nil {
		d.xhtmlNames = map[string]xhtmlElement{}
	}
	if len(d.xhtmlNames) < 512 && len(local) <= 64 { // HTML's names are short
		d.xhtmlNames[local] = k
	}
	return k
}

// xhtml applies the HTML rules to an element in the XHTML namespace.
func (d *driver) xhtml(f *frame, el *filter.Element, at *attrs) {
	k := d.xhtmlKind(f.local)
	a := k.atom
	f.xhtml = true
	f.layout, el.Hidden = k.layout, k.hidden
	el.Inert = a == atom.Template
	el.Title = a == atom.Title
	el.Head = a == atom.Head
	switch a {
	case atom.A:
		if at.hasHref {
			el.Link, el.Href, el.Rel = filter.LinkAnchor, borrow(at.href), borrow(at.rel)
		}
	case atom.Area, atom.Link:
		if at.hasHref {
			el.Link, el.Href, el.Rel = filter.LinkRef, borrow(at.href), borrow(at.rel)
		}
	case atom.Frame, atom.Iframe:
		if at.hasSrc {
			el.Link, el.Href = filter.LinkRef, borrow(at.src)
		}
	case atom.Input:
		if elements.HiddenInput([]byte(at.inputType)) {
			f.layout = filter.Inline
		}
	case atom.Meta:
		if at.hasName && at.hasContent {
			d.metaTag(at.name, at.content)
		}
	case atom.Base:
		if at.hasHref {
			d.core.BaseHref([]byte(at.href))
		}
	case atom.Head:
		if at.hasProfile && d.core.HeadProfile([]byte(at.profile)) {
			d.profileTurnedOn = true
		}
	case 0:
		f.yandex = f.local == "noindex"
	}
}

// metaTag reads a robots META of an XHTML document. The robots PI decides
// in XML; the META is compared with it when the document ends.
func (d *driver) metaTag(name, content string) {
	ds := d.core.Meta([]byte(name), []byte(content), d.pos, false)
	if ds == nil {
		return
	}
	m := &d.meta
	for x := range ds {
		if !m.seen {
			m.seen, m.pos, m.content = true, d.pos, strings.Clone(content)
		}
		switch x.Name {
		case "noindex":
			m.noindex = true
		case "nofollow":
			m.nofollow = true
		case "none":
			m.noindex, m.nofollow = true, true
		case "noarchive", "nocache", "nosnippet":
			d.core.Warn(d.pos, "<meta name=%q content=%q>: %s is not obeyed in XML, where the robots PI decides (and cannot say it)", name, content, x.Name)
		}
	}
}

// compareMeta warns where the XHTML robots META and the robots PI (or its
// absence, which means index and follow) disagree.
func (d *driver) compareMeta() {
	m := &d.meta
	if !m.seen {
		return
	}
	pi, piSays := RobotsPI{Index: true, Follow: true}, "there is no robots PI (index and follow)"
	if d.pi != nil {
		pi, piSays = d.pi.v, fmt.Sprintf("the robots PI at %s says %s", d.pi.pos, d.pi.v)
	}
	if m.noindex == !pi.Index && m.nofollow == !pi.Follow {
		return
	}
	metaSays := RobotsPI{Index: !m.noindex, Follow: !m.nofollow}
	d.core.Warn(m.pos, "the robots META (content=%q) means %s but %s: in XML the PI decides and the META is not obeyed", m.content, metaSays, piSays)
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

// resolve maps a prefix to its namespace. An element without a prefix is in
// the default namespace; an attribute without one is in none.
func (d *driver) resolve(prefix string, element bool) string {
	if prefix == "" && !element {
		return ""
	}
	if prefix == "xml" {
		return nsXML
	}
	if len(d.ns) > nsScan {
		if i, ok := d.nsTop[prefix]; ok {
			return d.ns[i].uri
		}
	} else {
		for i := len(d.ns) - 1; i >= 0; i-- {
			if d.ns[i].prefix == prefix {
				return d.ns[i].uri
			}
		}
	}
	if key := warnedKey(prefix); prefix != "" && !d.unboundNS[key] && len(d.unboundNS) < 100 {
		if d.unboundNS == nil {
			d.unboundNS = map[string]bool{}
		}
		d.unboundNS[strings.Clone(key)] = true
		d.core.Warn(d.pos, "namespace prefix %q is not declared; names with it are in no namespace", clipRunes(prefix, 80))
	}
	return ""
}

// bind declares a namespace prefix ("": the default namespace) until
// unbind drops it. Both strings may borrow the scanner's buffer. What the
// binding keeps does not grow with the declaration: the namespace as
// boundNamespace gives it, and the prefix's text shared with the binding
// it hides, if any (a deep nesting that declares a long URI, or a long
// prefix, on every level held a copy per level).
func (d *driver) bind(prefix, uri string) {
	prev, ok := d.nsTop[prefix]
	if ok {
		prefix = d.ns[prev].prefix
	} else {
		prev, prefix = -1, strings.Clone(prefix)
	}
	if d.nsTop == nil {
		d.nsTop = map[string]int{}
	}
	d.nsTop[prefix] = len(d.ns)
	d.ns = append(d.ns, nsBinding{prefix: prefix, uri: boundNamespace(uri), prev: prev})
}

// unbind drops the bindings from ns[mark] on (an element's, at its end),
// innermost first, so that those they hid are in scope again.
func (d *driver) unbind(mark int) {
	for i := len(d.ns) - 1; i >= mark; i-- {
		if b := d.ns[i]; b.prev < 0 {
			delete(d.nsTop, b.prefix)
		} else {
			d.nsTop[b.prefix] = b.prev
		}
	}
	d.ns = d.ns[:mark]
}

// Resolved xml:base values are bounded, so that nesting cannot make them
// grow with the square of the depth (each level's base can be longer than
// its parent's by the attribute's length): one is at most maxBaseLen bytes,
// and those of the open elements together at most maxBaseBytes. A value
// past either bound is ignored with a warning, as one that does not parse.
//
// So is the time they take. Resolving a value goes through the base it
// resolves against and the URL it makes, up to maxBaseLen bytes each for
// an attribute of a few bytes: 100,000 nested xml:base="x/" (2 MB) went
// through 1.6 GB of URLs, in 8 s. A document may spend baseWorkFree bytes
// of resolving, plus baseWorkPerByte per byte read (replacement text
// included); past that, its xml:base values are ignored with a warning
// each. A real document's bases are short and far apart: it never gets
// near the bound.
const (
	maxBaseLen      = weburl.MaxBaseLen
	maxBaseBytes    = 4 << 20
	baseWorkFree    = 8 * maxBaseBytes
	baseWorkPerByte = 8
)

// xmlBase resolves an xml:base value against the base in effect (parent,
// whose string is parentLen bytes long; nil: the document's). It returns
// the new base and its length, which the caller charges to d.baseBytes
// until the element ends; ok false when the value is ignored (with a
// warning) and parent stays in effect.
func (d *driver) xmlBase(parent *url.URL, parentLen int, v string) (u *url.URL, n int, ok bool) {
	v = strings.TrimSpace(v)
	if read := d.scan.end() + int64(d.ents.expanded); len(v) <= maxBaseLen && int64(d.baseWork) > baseWorkFree+baseWorkPerByte*read {
		d.core.Warn(d.pos, "xml:base %q: resolving the document's xml:base values has gone through more than %d MiB of URLs and %d bytes per byte read; ignored", clipRunes(v, 80), baseWorkFree>>20, baseWorkPerByte)
		return nil, 0, false
	}
	base := parent
	if base == nil {
		base, parentLen = d.core.Base(), d.measureDocBase()
	}
	if len(v) <= maxBaseLen {
		d.baseWork += parentLen + len(v)
	}
	u, err := weburl.ResolveBase(base, v)
	if err != nil {
		d.core.Warn(d.pos, "xml:base %q %v; ignored", clipRunes(v, 80), err)
		return nil, 0, false
	}
	n = len(u.String())
	d.baseWork += n
	if d.baseBytes+n > maxBaseBytes {
		d.core.Warn(d.pos, "xml:base %q: the open elements' bases would exceed %d bytes; ignored", clipRunes(v, 80), maxBaseBytes)
		return nil, 0, false
	}
	d.baseBytes += n
	return u, n, true
}

// measureDocBase is the length of the document's base as a string,
// measured again only when the base changes.
func (d *driver) measureDocBase() int {
	if b := d.core.Base(); b != d.docBase {
		d.docBase, d.docBaseLen = b, 0
		if b != nil {
			d.docBaseLen = len(b.String())
		}
	}
	return d.docBaseLen
}

func (d *driver) end(t xml.EndElement, raw []byte) error {
	n := len(d.stack)
	if n == 0 {
		return notWellFormed(d.pos, "end tag </%s> without a start tag", qname(t.Name))
	}
	f := &d.stack[n-1]
	if f.prefix != t.Name.Space || f.local != t.Name.Local {
		return notWellFormed(d.pos, "element <%s> (opened at %s) is closed by </%s>", f.tag(), f.pos, qname(t.Name))
	}
	before := d.core.ArchiveOn(&f.scope)
	if f.collect {
		d.endLink(f)
	}
	layout := f.layout
	if !f.xhtml && f.hasChild && !f.hasText {
		layout = filter.Block // a container of elements (a feed entry, a sitemap url) ends a line
	}
	d.core.End(&f.scope, layout)
	if f.yandex {
		d.core.Toggle(filter.DialectYandex, "</noindex>", 0, filter.NoIndex)
	}
	d.unbind(f.nsMark)
	d.baseBytes -= f.baseCost
	if f.heldTag != nil {
		d.held = d.held[:len(d.held)-1]
	}
	written := f.tagWritten
	d.stack = d.stack[:n-1]
	after := d.core.ArchiveOn(d.topScope())
	d.noteArchiveOff(before && after)
	if len(raw) > 0 {
		// With its start tag, whatever the regions say (see tagWritten).
		d.archive(raw, written)
	}
	if n == 1 {
		d.rootDone = true
	}
	return nil
}

// endLink emits the link an element's text was (RSS <link>, sitemap <loc>).
func (d *driver) endLink(f *frame) {
	href := d.linkText[f.textStart:]
	d.linkText = d.linkText[:f.textStart]
	if f.collectCut {
		d.core.Warn(f.pos, "the URL in <%s> is longer than %d bytes; it is not listed", f.tag(), maxLinkText)
		return
	}
	if len(bytes.TrimSpace(href)) == 0 {
		return
	}
	el := filter.Element{Tag: f.tag(), Pos: f.pos, Href: href}
	d.core.EndLink(f.scope, &el, f.base)
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

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// duplicateAttr finds an attribute written twice on one element.
func duplicateAttr(as []xml.Attr) (xml.Name, bool) {
	if len(as) < 2 {
		return xml.Name{}, false
	}
	if len(as) <= 16 {
		for i := 1; i < len(as); i++ {
			for j := 0; j < i; j++ {
				if as[i].Name == as[j].Name {
					return as[i].Name, true
				}
			}
		}
		return xml.Name{}, false
	}
	// Many attributes: sorted by a hash of their names, 16 bytes each (a
	// map of the names cost about 80 bytes an attribute in a huge tag).
	// Within a run of equal hashes, in document order, the first attribute
	// that has the name of one before it is the one a map finds: the
	// first, in document order, whose name came before.
	type hashed struct {
		h uint64
		i int
	}
	hs := make([]hashed, len(as))
	for i, a := range as {
		hs[i] = hashed{maphash.Comparable(attrSeed, a.Name), i}
	}
	slices.SortFunc(hs, func(a, b hashed) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	first := -1
	for lo := 0; lo < len(hs); {
		hi := lo + 1
		for hi < len(hs) && hs[hi].h == hs[lo].h {
			hi++
		}
	run:
		for k := lo + 1; k < hi; k++ {
			for j := lo; j < k; j++ {
				if as[hs[j].i].Name == as[hs[k].i].Name {
					if first < 0 || hs[k].i < first {
						first = hs[k].i
					}
					break run
				}
			}
		}
		lo = hi
	}
	if first < 0 {
		return xml.Name{}, false
	}
	return as[first].Name, true
}

var attrSeed = maphash.MakeSeed()
