package xmlstream

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"

	"github.com/robofilter/robofilter/elements"
	"github.com/robofilter/robofilter/filter"
	"golang.org/x/net/html/atom"
)

// Elements as the driver meets them: attribute defaults from the DTD,
// robots classes and XHTML semantics at the start tag, links and the
// held tags at the end.

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
