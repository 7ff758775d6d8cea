package htmlstream

import (
	"bytes"
	"hash/maphash"
	"strings"

	"github.com/robofilter/robofilter/elements"
	"github.com/robofilter/robofilter/filter"
	a "golang.org/x/net/html/atom"
)

// addElement inserts an element for the current token (HTML namespace).
func (b *builder) addElement() *node {
	return b.insertElement(b.tok.atom, b.tok.name, nsHTML)
}

// insertElement creates the element for the current token where the parser
// would put it, tells the core, and pushes it on the stack.
func (b *builder) insertElement(x a.Atom, name string, ns uint8) *node {
	b.flushTail()
	t := b.insertionTarget()
	n := b.alloc()
	n.atom, n.name, n.ns, n.pos = x, name, ns, b.z.pos
	if ns == nsHTML {
		e := atomFlags.lookup(x)
		n.flags, n.track = e.flags, e.track
	}
	n.hadClass = b.tok.hasClass
	b.setParent(n, t)
	var el filter.Element
	b.element(&el, n)
	switch n.atom {
	case a.Html, a.Body, a.Frameset, a.Head, a.Meta, a.Base:
		b.elementHooks(n) // no call for the rest
	}
	b.core.Start(&n.scope, &t.scope, &el)
	n.layout = el.Layout
	if ns == nsHTML && n.flags&flagFormatting != 0 {
		b.saveAttrs(n)
	}
	if ns == nsMath && x == a.AnnotationXml {
		if enc, ok := b.tok.attr("encoding"); ok {
			e := strings.ToLower(string(enc))
			n.integration = e == "text/html" || e == "application/xhtml+xml"
		}
	}
	if ns == nsSVG && (x == a.Desc || x == a.ForeignObject || x == a.Title) {
		n.integration = true
	}
	b.push(n)
	if b.archive && !b.tok.implied && b.tokNode == nil { // only the archive copy reads these
		b.tokNode = n
		b.tokOn, b.tokParentOn = b.core.ArchiveOn(&n.scope), b.core.ArchiveOn(&t.scope)
		b.tokVoid = n.flags&flagVoid != 0 || ns != nsHTML && b.selfClosing
	}
	return n
}

// element describes the current token's element to the core (in place:
// an Element is many words long).
func (b *builder) element(el *filter.Element, n *node) {
	t := &b.tok
	el.Tag, el.Pos, el.Class, el.NoSnippet = n.name, b.z.pos, t.class, t.noSnippet
	if n.ns == nsHTML {
		el.Layout, el.Hidden = elements.ClassifyKind(elements.Kind(n.flags & kindMask))
	} else {
		el.Layout, el.Hidden = elements.ClassifyForeign(n.atom, n.name)
	}
	if n.ns == nsHTML {
		el.Inert = n.atom == a.Template
		el.Title = n.atom == a.Title
		el.Head = n.atom == a.Head
		switch n.atom {
		case a.A:
			if t.hasHref {
				el.Link, el.Href, el.Rel = filter.LinkAnchor, t.href, t.rel
			}
		case a.Area, a.Link:
			if t.hasHref {
				el.Link, el.Href, el.Rel = filter.LinkRef, t.href, t.rel
			}
		case a.Frame, a.Iframe:
			if t.hasSrc {
				el.Link, el.Href = filter.LinkRef, t.src
			}
		case a.Input:
			if typ, ok := t.attr("type"); ok && elements.HiddenInput(typ) {
				el.Layout = filter.Inline
			}
		}
	} else if n.ns == nsSVG && n.atom == a.A {
		switch {
		case t.hasHref:
			el.Link, el.Href, el.Rel = filter.LinkAnchor, t.href, t.rel
		case t.hasXlinkHref:
			el.Link, el.Href, el.Rel = filter.LinkAnchor, t.xlinkHref, t.rel
		}
	}
}

// elementHooks handles the elements that carry document-level information:
// insertElement calls it for html, body, frameset, head, meta and base only
// (the rest say nothing about the document).
func (b *builder) elementHooks(n *node) {
	if n.ns != nsHTML || b.tok.implied && n.atom != a.Body {
		if n.atom == a.Body && n.ns == nsHTML {
			b.endHead()
		}
		return
	}
	t := &b.tok
	if n.atom != a.Body && n.atom != a.Frameset && b.stackContains(a.Template) {
		return // template content is inert: its META and base say nothing
	}
	switch n.atom {
	case a.Body, a.Frameset:
		b.endHead()
	case a.Html:
		if t.hasClass {
			b.htmlClass = bytes.Clone(t.class) // for the head's profile (below)
		}
	case a.Head:
		if p, ok := t.attr("profile"); ok && b.core.HeadProfile(p) && b.htmlClass != nil && len(b.oe) > 0 && b.oe[0].atom == a.Html {
			// The html element started before its head named the
			// profile: its classes count after all, and nothing of the
			// document has been written yet.
			b.reclass(b.oe[0], b.htmlClass, b.oe[0].pos)
		}
	case a.Meta:
		name, hasName := t.attr("name")
		content, hasContent := t.attr("content")
		if hasName && hasContent {
			b.core.Meta(name, content, b.z.pos, true)
		}
		b.metaCharset()
	case a.Base:
		if t.hasHref {
			b.core.BaseHref(t.href)
		}
	}
}

func (b *builder) endHead() {
	if !b.headEnded {
		b.headEnded = true
		b.core.EndHead()
	}
}

// saveAttrs keeps what a clone of this formatting element needs, and the
// identity of its attributes for the Noah's Ark clause.
func (b *builder) saveAttrs(n *node) {
	t := &b.tok
	n.saved.class = append(n.saved.class[:0], t.class...)
	n.saved.noSnippet = t.noSnippet
	n.saved.hasHref = t.hasHref
	n.saved.href, n.saved.rel = n.saved.href[:0], n.saved.rel[:0]
	if b.links && t.hasHref {
		n.saved.href = append(n.saved.href, t.href...)
		n.saved.rel = append(n.saved.rel, t.rel...)
	}
	dropped, droppedKey := b.z.droppedAttrs()
	n.fmtKey = attrsKey(t.attrs) + uint64(dropped) + droppedKey
}

// attrsKey identifies a set of attributes regardless of their order: their
// number plus the sum of their identities.
func attrsKey(attrs []attr) uint64 {
	sum := uint64(len(attrs))
	for i := range attrs {
		sum += attrIdentity(attrs[i].key, attrs[i].val)
	}
	return sum
}

// attrIdentity is one attribute's part in attrsKey.
func attrIdentity(key, val []byte) uint64 {
	return maphash.Bytes(fmtSeed, key) ^ (maphash.Bytes(fmtSeed, val) * 0x9E3779B97F4A7C15)
}

// ellipsisCanStand reports whether an ellipsis written now would be text
// of the archive copy where it stands: not before the body starts, where
// text would end the head (or start it, or follow it) and start the body
// early in the copy (a robots META after it would then be in the body),
// unless an element whose start tag is in the copy (a title, a script, a
// template) is open there to hold it (copiedBeforeBody counts them).
func (b *builder) ellipsisCanStand() bool {
	return b.headEnded || b.copiedBeforeBody > 0
}

// startCopied notes that n's start tag went to the archive copy (while n
// is open): its end tag goes too, and before the body it can hold an
// ellipsis (ellipsisCanStand).
func (b *builder) startCopied(n *node) {
	n.startCopied = n.onStack
	if n.onStack && !b.headEnded && !(n.ns == nsHTML && (n.atom == a.Html || n.atom == a.Head)) {
		n.countedBeforeBody = true
		b.copiedBeforeBody++
	}
}

// cloneOf makes a new element like a formatting element (same tag, same
// attributes), not yet in the tree.
func (b *builder) cloneOf(src *node) *node {
	n := b.alloc()
	n.atom, n.name, n.ns, n.pos, n.flags, n.track = src.atom, src.name, src.ns, b.z.pos, src.flags, src.track
	n.fmtKey = src.fmtKey
	n.saved.class = append(n.saved.class[:0], src.saved.class...)
	n.saved.href = append(n.saved.href[:0], src.saved.href...)
	n.saved.rel = append(n.saved.rel[:0], src.saved.rel...)
	n.saved.hasHref, n.saved.noSnippet = src.saved.hasHref, src.saved.noSnippet
	return n
}

// startClone tells the core about a clone once its parent is known.
func (b *builder) startClone(n, parent *node) {
	el := filter.Element{Tag: n.name, Pos: b.z.pos, Class: n.saved.class, NoSnippet: n.saved.noSnippet, Clone: true}
	if n.atom == a.A && n.saved.hasHref {
		el.Link, el.Href, el.Rel = filter.LinkAnchor, n.saved.href, n.saved.rel
	}
	b.core.Start(&n.scope, &parent.scope, &el)
	n.layout = filter.Inline
}

// addFormattingElement inserts a formatting element and records it in the
// list of active formatting elements (Noah's Ark: at most three alike).
func (b *builder) addFormattingElement() {
	n := b.addElement()
	identical := 0
	if b.afeKeys.count(afeKey(n)) < 3 {
		// Fewer than three alike anywhere in the list: nothing to remove,
		// and no scan (a page of distinct formatting elements would
		// otherwise cost quadratic time).
		identical = -1 << 30
	}
	for i := len(b.afe) - 1; i >= 0 && identical >= 0; i-- {
		e := b.afe[i]
		if e == scopeMarker {
			break
		}
		if e.ns != nsHTML || e.atom != n.atom || e.fmtKey != n.fmtKey {
			continue
		}
		identical++
		if identical >= 3 {
			b.afeRemove(e)
		}
	}
	b.afe = append(b.afe, n)
	n.inAFE = true
	b.afeKeys.add(afeKey(n))
	b.afeKeyCount++
	if len(b.afe) > maxActiveFormatting {
		// Beyond html.Parse's own limit (it refuses depth over 512, which
		// reconstructing this many elements needs), the algorithm is
		// quadratic: every paragraph would re-create every earlier <b>.
		// The oldest entry goes.
		for _, e := range b.afe {
			if e != scopeMarker {
				b.afeRemove(e)
				break
			}
		}
	}
}

// maxActiveFormatting bounds the list of active formatting elements.
const maxActiveFormatting = 512

// afeKey identifies formatting elements that are alike (same tag, same
// attributes) for the Noah's Ark clause.
func afeKey(n *node) uint64 { return n.fmtKey ^ uint64(n.atom)<<20 }

func (b *builder) clearActiveFormattingElements() {
	for len(b.afe) > 0 {
		n := b.afe[len(b.afe)-1]
		b.afe = b.afe[:len(b.afe)-1]
		if n == scopeMarker {
			return
		}
		b.afeDropped(n)
	}
}

func (b *builder) reconstructActiveFormattingElements() {
	if k := len(b.afe); k > 0 && !b.afe[k-1].onStack {
		b.reconstructAFE() // the usual case (nothing to do) is decided inline
	}
}

func (b *builder) reconstructAFE() {
	i := len(b.afe) - 1
	n := b.afe[i]
	if n == scopeMarker {
		return
	}
	for n != scopeMarker && !n.onStack {
		if i == 0 {
			i = -1
			break
		}
		i--
		n = b.afe[i]
	}
	for {
		i++
		old := b.afe[i]
		clone := b.cloneOf(old)
		t := b.insertionTarget()
		b.setParent(clone, t)
		b.startClone(clone, t)
		b.push(clone)
		b.afe[i] = clone
		clone.inAFE = true
		old.inAFE = false
		b.maybeFree(old)
		if i == len(b.afe)-1 {
			break
		}
	}
}

// copyBodyClass handles a second <body> (or <html>) tag: the parser adds
// the attributes the element did not have. A class arriving that way
// applies from this point on; what was written before stays written.
func (b *builder) copyBodyClass(n *node) {
	if !b.tok.hasClass || n.hadClass {
		return
	}
	n.hadClass = true
	if b.reclass(n, b.tok.class, b.z.pos) {
		b.lateClass++
		b.core.Warn(b.z.pos, "a second <%s> tag adds class %q to the element: it applies from here on; earlier content was already written", n.name, bytes.TrimSpace(b.tok.class))
	}
}

// reclass reads the classes of the open element n again, as class (given
// at pos), for it and the open elements inside it; warnings were given the
// first time (Clone). It reports whether what n turns off changed.
func (b *builder) reclass(n *node, class []byte, pos filter.Pos) (changed bool) {
	el := filter.Element{Tag: n.name, Pos: pos, Class: class, Clone: true}
	parent := b.doc.scope
	if n.parent != nil {
		parent = n.parent.scope
	}
	var s filter.Scope
	b.core.Start(&s, &parent, &el)
	changed = s.Off != n.scope.Off
	n.scope = s
	b.refresh(b.indexOf(n) + 1)
	return changed
}
