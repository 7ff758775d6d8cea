package htmlstream

import a "golang.org/x/net/html/atom"

// The tree construction algorithm searches the stack of open elements from
// the top down: for an element in scope, for the element an end tag closes,
// for what decides the insertion mode. Each search ends at a match or at a
// stop (a scope boundary, a special element), and on real pages that is a
// few entries down. On a deep stack it need not be: with 100,000 <span>s
// open, every "</x>" walked all of them to reach the <body>, so 100 KB of
// such end tags took minutes (hostile_test.go).
//
// A stack deeper than deepFrom entries is indexed above that depth: each
// entry there knows the nearest stop of every kind at or below it, and the
// topmost entry of each element name is kept with a link to the next one
// down. A search then reads the answer from the top entry in constant time
// and walks, as before, only the bottom deepFrom entries when the indexed
// part holds neither the match nor a stop. Pages this deep are rare, so the
// index costs a normal page one comparison per push and pop.

// stopKind is a kind of search stop.
type stopKind uint8

const (
	stopDefault  stopKind = iota // "has an element in scope"
	stopList                     // "in list item scope"
	stopButton                   // "in button scope"
	stopTable                    // "in table scope"
	stopSpecial                  // any other end tag in body: a special element
	stopHTML                     // an end tag in foreign content: an HTML element
	stopMode                     // what resets the insertion mode
	stopListItem                 // <li>, <dd>, <dt>: special, but not address, div, p
	nStopKinds
)

// defaultDeepFrom is the depth from which the stack is indexed: searches
// walk at most this many entries.
const defaultDeepFrom = 256

// stopsOf returns the kinds of search n stops, as bits.
func stopsOf(n *node) uint16 {
	var m uint16
	html := n.ns == nsHTML
	if isDefaultScopeStop(n) {
		m |= 1<<stopDefault | 1<<stopList | 1<<stopButton
	}
	if html {
		m |= 1 << stopHTML
		switch n.atom {
		case a.Ol, a.Ul:
			m |= 1 << stopList
		case a.Button:
			m |= 1 << stopButton
		case a.Html, a.Table, a.Template:
			m |= 1 << stopTable
		}
	}
	special := n.isSpecial()
	if special {
		m |= 1 << stopSpecial
	}
	switch n.atom {
	case a.Address, a.Div, a.P:
	default:
		if special {
			m |= 1 << stopListItem
		}
	}
	switch n.atom {
	case a.Td, a.Th, a.Tr, a.Tbody, a.Thead, a.Tfoot, a.Caption, a.Colgroup, a.Table, a.Head,
		a.Body, a.Frameset, a.Html:
		m |= 1 << stopMode
	case a.Template:
		if html {
			m |= 1 << stopMode
		}
	}
	return m
}

// nameKey identifies the elements an end tag or a scope search matches.
// An HTML element's name is its atom's string when it has one.
type nameKey struct {
	ns   uint8
	name string
}

// deepIndex is the index of the stack above deepFrom.
type deepIndex struct {
	from int // entries at or above this depth are indexed
	// indexed is one past the last indexed entry: entries pushed since the
	// index last answered are not indexed yet (see deep).
	indexed int
	last    int               // indexed-1 when anything is indexed, else noneIndexed
	topmost map[nameKey]*node // the topmost indexed entry per name
	held    bool              // the adoption agency holds the index suspended
}

// deep reports whether the index can answer: the stack is deeper than its
// start, and the index is not held; it then indexes what was pushed since
// it last answered. Pushes do nothing for the index (a normal page's
// stack never reaches it, and push stays small enough to be inlined), and
// a search of a stack no deeper than b.dx.from pays one comparison.
func (b *builder) deep() bool {
	return len(b.oe) > b.dx.from && b.indexAll()
}

// indexAll is kept out of line, so that deep is inlined whole.
//
//go:noinline
func (b *builder) indexAll() bool {
	if b.dx.held {
		return false
	}
	for b.dx.indexed < len(b.oe) {
		b.indexTop()
	}
	return true
}

// noneIndexed is deepIndex.last with nothing indexed: no stack depth, not
// even an empty stack's -1, equals it, so pop makes one comparison.
const noneIndexed = -2

// indexTop indexes the entry at b.dx.indexed, the next one up.
func (b *builder) indexTop() {
	p := b.dx.indexed
	n := b.oe[p]
	n.idx = int32(p)
	m := stopsOf(n)
	for k := range n.stops {
		switch {
		case m&(1<<k) != 0:
			n.stops[k] = int32(p)
		case p > b.dx.from:
			n.stops[k] = b.oe[p-1].stops[k]
		default:
			n.stops[k] = -1
		}
	}
	if b.dx.topmost == nil {
		b.dx.topmost = make(map[nameKey]*node)
	}
	key := nameKey{n.ns, n.name}
	n.sameBelow = b.dx.topmost[key]
	b.dx.topmost[key] = n
	b.dx.last = b.dx.indexed
	b.dx.indexed++
}

// unindexTop takes the last indexed entry out of the index.
func (b *builder) unindexTop() {
	b.dx.indexed--
	b.dx.last = b.dx.indexed - 1
	if b.dx.last < b.dx.from {
		b.dx.last = noneIndexed
	}
	n := b.oe[b.dx.indexed]
	key := nameKey{n.ns, n.name}
	if n.sameBelow != nil {
		b.dx.topmost[key] = n.sameBelow
	} else {
		delete(b.dx.topmost, key)
	}
	n.sameBelow = nil
}

// suspendIndex takes the entries from depth p up out of the index, before
// they are reordered; deep indexes them again when next asked.
func (b *builder) suspendIndex(p int) {
	for b.dx.indexed > b.dx.from && b.dx.indexed > p {
		b.unindexTop()
	}
}

// releaseIndex ends the adoption agency's hold: deep indexes again what
// was taken out when next asked.
func (b *builder) releaseIndex() { b.dx.held = false }

// stopBelow is the depth of the nearest stop of kind k on the indexed part
// of the stack, or -1 when there is none there. Only when b.deep().
func (b *builder) stopBelow(k stopKind) int {
	return int(b.oe[len(b.oe)-1].stops[k])
}

// topmostNamed is the depth of the topmost indexed entry with the name, or
// -1. Only when b.deep().
func (b *builder) topmostNamed(ns uint8, name string) int {
	if n := b.dx.topmost[nameKey{ns, name}]; n != nil {
		return int(n.idx)
	}
	return -1
}

// topmostAtom is topmostNamed for an atom in any namespace (some searches
// look at atoms alone, as html.Parse does).
func (b *builder) topmostAtom(x a.Atom) int {
	s := x.String()
	return max(b.topmostNamed(nsHTML, s), b.topmostNamed(nsSVG, s), b.topmostNamed(nsMath, s))
}

// deepSearch answers a search on the indexed part of the stack: the depth
// of the match when it is at or above the nearest stop, -1 when a stop
// comes first, and walkBelow when neither is there (the caller walks the
// bottom entries from b.dx.from-1 down, as it would the whole stack).
func deepSearch(match, stop int) int {
	switch {
	case match >= 0 && match >= stop:
		return match
	case stop >= 0:
		return -1
	}
	return walkBelow
}

const walkBelow = -2
