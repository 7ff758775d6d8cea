package htmlstream

import (
	"hash/maphash"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/net/html"
	a "golang.org/x/net/html/atom"
)

// node is an element the HTML parser would have in its tree, kept only
// while it can still matter: while it is open (on the stack of open
// elements, or an ancestor of one), in the list of active formatting
// elements, or pointed at as the head or form element. Closed nodes go back
// to a free list, so memory follows nesting depth, not document size.
type node struct {
	nodeState
	saved savedAttrs // its buffers are kept when the node is reused
}

// nodeState is everything a reused node starts again from zero.
type nodeState struct {
	atom        a.Atom
	name        string // lower-cased tag name (interned)
	ns          uint8
	parent      *node // DOM parent, valid while the node is open
	open        int32 // 1 while on the stack, plus one per open child
	onStack     bool
	inAFE       bool
	pinned      uint8  // head and form element pointers
	hasChild    bool   // the DOM node has a child (pre/textarea newline rule)
	hadClass    bool   // html/body: a later tag of the same name cannot add a class
	flags       uint16 // the element's categories (atomFlags), looked up once
	track       uint8  // its slot in openCount (0: not counted; always 0 for foreign nodes)
	integration bool   // an HTML integration point (foreign content)
	startCopied bool   // its start tag was copied to the archive
	// countedBeforeBody: it is one of builder.copiedBeforeBody.
	countedBeforeBody bool
	scope             filter.Scope
	layout            filter.Layout
	pos               filter.Pos
	fmtKey            uint64 // formatting elements: identity of the attributes (Noah's Ark)

	// Set while the node is in the deep part of the stack (deepstack.go).
	idx       int32             // its depth
	sameBelow *node             // the next entry down with the same name
	stops     [nStopKinds]int32 // the depth of the nearest stop of each kind
}

// savedAttrs is what cloning a formatting element needs of its attributes.
type savedAttrs struct {
	class, href, rel []byte
	hasHref          bool
	noSnippet        bool
}

// scopeMarker separates the active formatting elements of nested scopes.
var scopeMarker = &node{nodeState: nodeState{name: "#marker"}}

type insertionMode func(*builder) bool

// token is the builder's view of the current token.
type token struct {
	typ         html.TokenType
	atom        a.Atom
	name        string
	data        []byte // text, comment or doctype
	attrs       []attr
	selfClosing bool
	implied     bool
	// noNUL: text known to have no NUL byte (the driver checked its raw
	// bytes), so the modes need not search it; parts of it have none either.
	noNUL bool
	// utf8: text known to be valid UTF-8 (the tokenizer validated its
	// bytes), so the core need not check it; parts split off at ASCII
	// bytes are valid too.
	utf8 bool

	// Attributes the builder and the core look at, found in one pass;
	// href, src and xlinkHref mean something only under their has- flags
	// (readTag does not clear them).
	class, href, src, rel, xlinkHref     []byte
	hasClass, hasHref, hasSrc, noSnippet bool
	hasXlinkHref                         bool
}

// setText makes the token a text token without clearing the tag fields
// (the builder reads those only for tags).
func (t *token) setText(data []byte) {
	t.typ, t.data, t.atom, t.name, t.implied, t.selfClosing = html.TextToken, data, 0, "", false, false
	t.noNUL, t.utf8 = false, false
}

type attr struct {
	key, val []byte
}

func (t *token) attr(key string) ([]byte, bool) {
	for i := range t.attrs {
		if string(t.attrs[i].key) == key {
			return t.attrs[i].val, true
		}
	}
	return nil, false
}

var fmtSeed = maphash.MakeSeed()

// builder is the HTML tree construction algorithm (the one html.Parse
// implements) without the tree: it keeps the stack of open elements and
// the list of active formatting elements, and tells the core where each
// element, text and comment lands.
type builder struct {
	// done, set by run, ends the run for Run: what the window still
	// holds is passed on, and the window goes back to its pool.
	done func()
	core *filter.Core
	z    *tokenizer
	tok  token

	doc             *node
	oe              []*node
	afe             []*node
	head, form      *node
	im, originalIM  insertionMode
	templateStack   []insertionMode
	framesetOK      bool
	quirks          bool
	fosterParenting bool
	selfClosing     bool
	headEnded       bool
	// copiedBeforeBody counts the open elements whose start tags are in
	// the archive copy, opened before the body (ellipsisCanStand).
	copiedBeforeBody int

	free      []*node
	allocated int // nodes ever made; all are back on free after EOF
	maxDepth  int
	depthErr  bool
	// afterToken: the driver has something to do after the token (the
	// depth limit is exceeded, or a test looks at every step); one test
	// per token for both.
	afterToken bool
	links      bool // links are wanted: keep href/rel of <a> for clones
	archive    bool // the archive copy is wanted: note where text lands

	// What the current token did, for the archive copy.
	tokNode *node // the element created for the token itself
	// tokOn and tokParentOn: its own scope, and the scope it was inserted
	// in, are archived. Decided at insertion: nothing a start tag does
	// after it changes them (the flat regions move only between tokens),
	// and two bools cost less to keep than two scopes.
	tokOn, tokParentOn bool
	tokVoid            bool // it has no content (void, or self-closed foreign)
	// endMatched: an end tag token took its own element (the one of its
	// name) off the stack; endStartCopied: that element's start tag was
	// copied to the archive (see leftStack).
	endMatched, endStartCopied bool
	textOff                    bool // some text of the token landed in a no-archive scope
	textOn                     bool // some text of the token landed in an archived scope
	// commentTo is where a comment token landed when that is not the
	// current node (the document, or the html element after the body).
	commentTo *node

	// A UTF-8 sequence cut short at the end of the last text, and where it
	// was going (see addText).
	tail      []byte
	tailNode  *node
	tailScope filter.Scope

	// Counters of the two places where a stream cannot follow the tree
	// exactly (tests report them): content foster-parented out of a table
	// (the tree puts it before the table; the stream keeps source order),
	// adoption-agency moves of content already written, and a <frameset>
	// that removes a body holding only whitespace-like text, and a second
	// <html> or <body> tag that adds a class to an element already written.
	fostered, adopted, removedBody, lateClass int
	// charset is how the input is read, for META charsets (metaCharset).
	charset *input
	// htmlClass is the html start tag's class, read again when the head
	// names the profile under --require-profile (elementHooks).
	htmlClass []byte

	openCount   [256]int32   // open HTML elements per scopeTracked slot (indexed by a uint8)
	afeKeys     *alikeCounts // active formatting elements alike (Noah's Ark); from alikePool
	afeKeyCount int          // counts in afeKeys: 0 when it goes back to the pool
	openForeign int32        // open SVG and MathML elements
	dx          deepIndex    // the stack above deepIndex.from
}

// newBuilder makes a document's builder; maxDepth and deepFrom are
// positive (run gives their defaults).
func newBuilder(core *filter.Core, z *tokenizer, maxDepth, deepFrom int) *builder {
	b := &builder{core: core, z: z, framesetOK: true, maxDepth: maxDepth,
		links: core.WantsLinks(), archive: core.WantsArchive()}
	b.dx.from, b.dx.indexed, b.dx.last = deepFrom, deepFrom, noneIndexed
	b.afeKeys = alikePool.Get().(*alikeCounts)
	b.doc = &node{nodeState: nodeState{name: "#document", open: 1, scope: core.Root()}}
	b.im = initialIM
	return b
}

func (b *builder) top() *node {
	if len(b.oe) > 0 {
		return b.oe[len(b.oe)-1]
	}
	return b.doc
}

func (b *builder) alloc() *node {
	if k := len(b.free); k > 0 {
		n := b.free[k-1]
		b.free = b.free[:k-1]
		return n
	}
	b.allocated++
	return &node{}
}

// maybeFree returns a node nobody refers to any more to the free list.
func (b *builder) maybeFree(n *node) {
	if n.open != 0 || n.inAFE || n.pinned != 0 || n == b.doc || n == scopeMarker {
		return
	}
	n.nodeState = nodeState{} // saved is set afresh by whoever uses it (saveAttrs, cloneOf)
	b.free = append(b.free, n)
}

// decOpen drops one reason a node is open; a node that is no longer open
// can receive no more content: its layout boundary, link and region end.
func (b *builder) decOpen(n *node) {
	for n != nil {
		n.open--
		if n.open > 0 || n == b.doc {
			return
		}
		if n == b.tailNode {
			b.flushTail() // its text ends with it
		}
		b.core.End(&n.scope, n.layout)
		p := n.parent
		n.parent = nil
		b.maybeFree(n)
		n = p
	}
}

func (b *builder) setParent(n, p *node) {
	n.parent = p
	if p != nil {
		p.open++
		p.hasChild = true
	}
}

// reparent moves an open node under a new parent.
func (b *builder) reparent(n, p *node) {
	old := n.parent
	if old == p {
		return
	}
	b.setParent(n, p)
	if old != nil {
		b.decOpen(old)
	}
}

// scopeTracked are the elements the scope searches look for; an element's
// slot in openCount is its index here plus one (0: not counted). The
// builder counts how many of each are open, so a search for one that is
// not open costs nothing; without it, 100,000 nested <div>s would take
// quadratic time (each block start looks for an open <p>).
var scopeTracked = []a.Atom{
	a.P, a.Li, a.Dd, a.Dt, a.H1, a.H2, a.H3, a.H4, a.H5, a.H6, a.Button, a.Select, a.Ruby, a.Nobr,
	a.Table, a.Td, a.Th, a.Tr, a.Tbody, a.Thead, a.Tfoot, a.Caption, a.Body, a.Form, a.Applet,
	a.Marquee, a.Object, a.Template, a.Address, a.Article, a.Aside, a.Blockquote, a.Center, a.Details,
	a.Dialog, a.Dir, a.Div, a.Dl, a.Fieldset, a.Figcaption, a.Figure, a.Footer, a.Header, a.Hgroup,
	a.Listing, a.Main, a.Menu, a.Nav, a.Ol, a.Pre, a.Search, a.Section, a.Summary, a.Ul, a.A, a.B,
	a.Big, a.Code, a.Em, a.Font, a.I, a.S, a.Small, a.Strike, a.Strong, a.Tt, a.U, a.Html, a.Colgroup,
}

// scopeTrackIndex is x's slot in openCount (0: not counted), from the atom
// table (the scope searches ask on every block start).
func scopeTrackIndex(x a.Atom) int { return int(atomFlags.lookup(x).track) }

func (b *builder) countOpen(n *node, delta int32) {
	// Slot 0 counts the elements not tracked, foreign ones among them (a
	// foreign node has no slot), and nobody reads it: no test for it.
	b.openCount[n.track] += delta
	if n.ns != nsHTML {
		b.openForeign += delta
	}
}

// mayBeOpen reports whether an element with one of the atoms may be on the
// stack (false only when none of them is).
func (b *builder) mayBeOpen(atoms []a.Atom) bool {
	for _, x := range atoms {
		k := scopeTrackIndex(x)
		if k == 0 || b.openCount[k] > 0 {
			return true
		}
	}
	return false
}

func (b *builder) push(n *node) {
	n.onStack = true
	b.countOpen(n, 1)
	n.open++
	b.oe = append(b.oe, n)
	if len(b.oe) > b.maxDepth {
		b.depthErr, b.afterToken = true, true
	}
}

// pop removes the current node from the stack.
func (b *builder) pop() *node {
	p := len(b.oe) - 1
	n := b.oe[p]
	if p == b.dx.last {
		b.unindexTop()
	}
	b.oe = b.oe[:p]
	b.leftStack(n)
	return n
}

// leftStack ends n's time on the stack of open elements. Under an end tag
// of n's name it also notes, for the archive copy, whether n's start tag
// was copied: an end tag whose start tag was copied is copied too, even
// inside a comment region that crosses it, so the copy keeps the tags
// that hold its structure (SPEC section 5).
func (b *builder) leftStack(n *node) {
	if b.archive && b.tok.typ == html.EndTagToken && !b.endMatched && b.isTokensElement(n) {
		b.endMatched, b.endStartCopied = true, n.startCopied
	}
	n.onStack = false
	if n.countedBeforeBody {
		n.countedBeforeBody = false
		b.copiedBeforeBody--
	}
	b.countOpen(n, -1)
	b.decOpen(n)
}

// isTokensElement reports whether n is an element of the current tag's
// name (SVG and MathML names, such as clipPath, keep their case in the
// tree; the token's is lower).
func (b *builder) isTokensElement(n *node) bool {
	if n.ns == nsHTML {
		return n.atom == b.tok.atom && (n.atom != 0 || n.name == b.tok.name)
	}
	return strings.EqualFold(n.name, b.tok.name)
}

// popTo pops until the stack has length i.
func (b *builder) popTo(i int) {
	for len(b.oe) > i {
		b.pop()
	}
}

// indexOf is n's index on the stack of open elements, or -1. A node off
// the stack is known by its flag: the adoption agency and a second <a> ask
// about such nodes, and a scan of a deep stack for each of them made
// "<b><i><a>x" repeated quadratic (hostile_test.go).
func (b *builder) indexOf(n *node) int {
	if !n.onStack {
		return -1
	}
	start := len(b.oe) - 1
	if b.deep() {
		if i := int(n.idx); i >= b.dx.from && i < len(b.oe) && b.oe[i] == n {
			return i
		}
		start = b.dx.from - 1 // it is below the indexed part
	}
	for i := start; i >= 0; i-- {
		if b.oe[i] == n {
			return i
		}
	}
	return -1
}

// indexWithin is indexOf for a node looked for among the top max entries
// of the stack: beyondReach if it is on the stack below them.
func (b *builder) indexWithin(n *node, max int) int {
	if !n.onStack {
		return -1
	}
	for i := len(b.oe) - 1; i >= 0 && i >= len(b.oe)-max; i-- {
		if b.oe[i] == n {
			return i
		}
	}
	return beyondReach
}

const beyondReach = -2

// maxAdoptionReach bounds how many open elements the adoption agency
// reorders above its formatting element (its cost grows with them): the
// depth html.Parse itself refuses, so no document it parses can tell.
const maxAdoptionReach = 512

// removeFromStack takes n off the stack wherever it is.
func (b *builder) removeFromStack(n *node) {
	i := b.indexOf(n)
	if i < 0 {
		return
	}
	b.suspendIndex(i)
	copy(b.oe[i:], b.oe[i+1:])
	b.oe[len(b.oe)-1] = nil
	b.oe = b.oe[:len(b.oe)-1]
	b.leftStack(n)
}

func (b *builder) stackContains(x a.Atom) bool {
	if k := scopeTrackIndex(x); k != 0 {
		return b.openCount[k] > 0
	}
	for _, n := range b.oe {
		if n.atom == x && n.ns == nsHTML {
			return true
		}
	}
	return false
}

func (b *builder) afeIndex(n *node) int {
	for i := len(b.afe) - 1; i >= 0; i-- {
		if b.afe[i] == n {
			return i
		}
	}
	return -1
}

func (b *builder) afeRemove(n *node) {
	i := b.afeIndex(n)
	if i < 0 {
		return
	}
	if i < len(b.afe)-1 { // usually it is the last ("<b>x</b>")
		copy(b.afe[i:], b.afe[i+1:])
	}
	b.afe[len(b.afe)-1] = nil
	b.afe = b.afe[:len(b.afe)-1]
	b.afeDropped(n)
}

// afeDropped notes that n left the list of active formatting elements.
func (b *builder) afeDropped(n *node) {
	n.inAFE = false
	b.afeKeys.remove(afeKey(n))
	b.afeKeyCount--
	b.maybeFree(n)
}

// alikeCounts counts the active formatting elements per afeKey. It is a
// fixed open-addressing table rather than a Go map: it is updated on every
// formatting element (twice per "<b>x</b>"), and a map's insert and delete
// cost several times more. The list holds at most maxActiveFormatting+1
// elements, so the table is about half full at worst and a probe always
// ends at a free slot.
type alikeCounts [1 << alikeBits]alikeSlot

// alikePool keeps the tables of finished documents: one is 16 KiB, most
// of what a builder allocates, and a run over many small documents (the
// records mode makes one per feed entry) paid for clearing a new one each
// time. A document's table is empty again when it ends (every active
// formatting element is dropped), so it goes back as it is; should the
// count of what was added and removed say otherwise, it is cleared first,
// so that no later document inherits a count.
var alikePool = sync.Pool{New: func() any { return new(alikeCounts) }}

const (
	alikeBits = 10
	alikeMask = 1<<alikeBits - 1
)

type alikeSlot struct {
	key uint64
	n   int32 // 0: the slot is free
}

func alikeHome(key uint64) uint32 {
	return uint32((key * 0x9E3779B97F4A7C15) >> (64 - alikeBits))
}

// find is the slot holding key, or the free slot where it would go.
func (t *alikeCounts) find(key uint64) uint32 {
	i := alikeHome(key)
	for t[i].n != 0 && t[i].key != key {
		i = (i + 1) & alikeMask
	}
	return i
}

func (t *alikeCounts) count(key uint64) int32 { return t[t.find(key)].n }

func (t *alikeCounts) add(key uint64) {
	i := t.find(key)
	t[i].key = key
	t[i].n++
}

// remove drops one count of key; a slot that becomes free is refilled by
// shifting back the entries of its probe run (linear probing's deletion,
// no tombstones).
func (t *alikeCounts) remove(key uint64) {
	i := t.find(key)
	if t[i].n == 0 {
		return
	}
	if t[i].n--; t[i].n > 0 {
		return
	}
	for j := (i + 1) & alikeMask; t[j].n != 0; j = (j + 1) & alikeMask {
		// The entry at j may move to the hole at i only if its home is
		// not in the cyclic range (i, j].
		if h := alikeHome(t[j].key); (j-h)&alikeMask >= (j-i)&alikeMask {
			t[i] = t[j]
			t[j] = alikeSlot{}
			i = j
		}
	}
}

func (b *builder) afeInsert(i int, n *node) {
	b.afe = append(b.afe, nil)
	copy(b.afe[i+1:], b.afe[i:])
	b.afe[i] = n
	n.inAFE = true
	b.afeKeys.add(afeKey(n))
	b.afeKeyCount++
}

func (b *builder) pin(slot **node, n *node) {
	if old := *slot; old != nil {
		old.pinned--
		b.maybeFree(old)
	}
	*slot = n
	if n != nil {
		n.pinned++
	}
}

// Scopes (the HTML parser's "has an element in scope" variants).
type scopeKind int

const (
	defaultScope scopeKind = iota
	listItemScope
	buttonScope
	tableScope
	tableRowScope
	tableBodyScope
)

func isDefaultScopeStop(n *node) bool {
	switch n.ns {
	case nsHTML:
		switch n.atom {
		case a.Applet, a.Caption, a.Html, a.Table, a.Td, a.Th, a.Marquee, a.Object, a.Template, a.Select:
			return true
		}
	}
	return n.isForeignBoundary()
}

func (b *builder) indexOfElementInScope(s scopeKind, match ...a.Atom) int {
	if !b.mayBeOpen(match) {
		return -1
	}
	start := len(b.oe) - 1
	if b.deep() && s <= tableScope {
		k := scopeStops[s]
		m := -1
		for _, t := range match {
			m = max(m, b.topmostNamed(nsHTML, t.String()))
		}
		if r := deepSearch(m, b.stopBelow(k)); r != walkBelow {
			return r
		}
		start = b.dx.from - 1
	}
	for i := start; i >= 0; i-- {
		n := b.oe[i]
		if n.ns == nsHTML {
			for _, t := range match {
				if t == n.atom {
					return i
				}
			}
			switch s {
			case listItemScope:
				if n.atom == a.Ol || n.atom == a.Ul {
					return -1
				}
			case buttonScope:
				if n.atom == a.Button {
					return -1
				}
			case tableScope:
				if n.atom == a.Html || n.atom == a.Table || n.atom == a.Template {
					return -1
				}
			}
		}
		switch s {
		case defaultScope, listItemScope, buttonScope:
			if isDefaultScopeStop(n) {
				return -1
			}
		}
	}
	return -1
}

// scopeStops are the stop kinds of the scope searches (deepstack.go).
var scopeStops = [...]stopKind{
	defaultScope: stopDefault, listItemScope: stopList, buttonScope: stopButton, tableScope: stopTable,
}

func (b *builder) elementInScope(s scopeKind, match ...a.Atom) bool {
	return b.indexOfElementInScope(s, match...) != -1
}

func (b *builder) popUntil(s scopeKind, match ...a.Atom) bool {
	if i := b.indexOfElementInScope(s, match...); i != -1 {
		b.popTo(i)
		return true
	}
	return false
}

func (b *builder) clearStackToContext(s scopeKind) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		x := b.oe[i].atom
		switch s {
		case tableScope:
			if x == a.Html || x == a.Table || x == a.Template {
				b.popTo(i + 1)
				return
			}
		case tableRowScope:
			if x == a.Html || x == a.Tr || x == a.Template {
				b.popTo(i + 1)
				return
			}
		case tableBodyScope:
			if x == a.Html || x == a.Tbody || x == a.Tfoot || x == a.Thead || x == a.Template {
				b.popTo(i + 1)
				return
			}
		}
	}
}

func (b *builder) generateImpliedEndTags(except ...a.Atom) {
	i := len(b.oe) - 1
loop:
	for ; i >= 0; i-- {
		n := b.oe[i]
		switch n.atom {
		case a.Dd, a.Dt, a.Li, a.Optgroup, a.Option, a.P, a.Rb, a.Rp, a.Rt, a.Rtc:
			for _, e := range except {
				if n.atom == e {
					break loop
				}
			}
			continue
		}
		break
	}
	b.popTo(i + 1)
}

func (b *builder) shouldFosterParent() bool {
	if b.fosterParenting {
		switch b.top().atom {
		case a.Table, a.Tbody, a.Tfoot, a.Thead, a.Tr:
			return true
		}
	}
	return false
}

// fosterTarget is where foster-parented content lands: before the last
// table, so in the table's parent.
func (b *builder) fosterTarget() *node {
	// The last template if it is above the last table, else the table's
	// parent: whichever of the two comes first from the top. Content is
	// fostered with a table-like element on top, so that is a few entries
	// down (the adoption agency asks with at most maxAdoptionReach above).
	for i := len(b.oe) - 1; i >= 0; i-- {
		switch n := b.oe[i]; n.atom {
		case a.Template:
			return n
		case a.Table:
			if n.parent != nil {
				return n.parent
			}
			return b.oe[i-1]
		}
	}
	return b.oe[0]
}

func (b *builder) insertionTarget() *node {
	if !b.fosterParenting && len(b.oe) > 0 {
		return b.oe[len(b.oe)-1] // the usual case, decided inline
	}
	return b.fosterTargetIfDue()
}

func (b *builder) fosterTargetIfDue() *node {
	if b.shouldFosterParent() {
		b.fostered++
		return b.fosterTarget()
	}
	return b.top()
}

// addText inserts character data where the parser would. Text that ends
// in the middle of a UTF-8 sequence keeps those bytes back: if the next
// text lands in the same node with nothing between (a tag the parser
// drops), the DOM has them joined, and so does the stream.
func (b *builder) addText(text []byte) {
	if len(text) == 0 {
		return
	}
	t := b.insertionTarget()
	t.hasChild = true
	if b.archive {
		b.noteText(&t.scope)
	}
	if b.tok.utf8 && len(b.tail) == 0 {
		// Valid text cannot end inside a character: nothing to hold back.
		b.core.ValidText(&t.scope, text)
		return
	}
	if len(b.tail) > 0 {
		if b.tailNode == t {
			text = append(append([]byte(nil), b.tail...), text...)
			b.tail = b.tail[:0]
		} else {
			b.flushTail()
		}
	}
	if n := incompleteTail(text); n > 0 {
		b.tail = append(b.tail[:0], text[len(text)-n:]...)
		b.tailNode, b.tailScope = t, t.scope
		text = text[:len(text)-n]
	}
	b.core.Text(&t.scope, text)
}

// flushTail writes text held back for a joined character: something other
// than text came next, so the bytes stand alone.
func (b *builder) flushTail() {
	if len(b.tail) > 0 {
		b.core.Text(&b.tailScope, b.tail)
		b.tail, b.tailNode = b.tail[:0], nil
	}
}

// incompleteTail is the length of a UTF-8 sequence cut short at the end of
// text (0 if none).
func incompleteTail(text []byte) int {
	if text[len(text)-1] < 0x80 {
		return 0
	}
	for i := len(text) - 1; i >= 0 && i >= len(text)-4; i-- {
		if utf8.RuneStart(text[i]) {
			if utf8.FullRune(text[i:]) {
				return 0
			}
			return len(text) - i
		}
	}
	return 0
}

func (b *builder) noteText(s *filter.Scope) {
	if b.core.ArchiveOn(s) {
		b.textOn = true
	} else {
		b.textOff = true
	}
}

// addComment notes a comment child of the current node (it counts as a
// first child for the pre/textarea newline rule).
func (b *builder) addComment() {
	b.flushTail() // a comment ends the DOM's text node
	b.top().hasChild = true
}

// refresh recomputes the scopes of the open elements from index i up,
// after the adoption agency moved some of them.
func (b *builder) refresh(from int) {
	for i := from; i < len(b.oe); i++ {
		n := b.oe[i]
		if n.parent != nil {
			n.scope = b.core.Rescope(n.parent.scope, n.scope)
		}
	}
}
