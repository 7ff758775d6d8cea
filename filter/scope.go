package filter

import "github.com/robofilter/robofilter/internal/quote"

// Layout is how an element's boundaries affect the text.
type Layout uint8

const (
	Inline Layout = iota // no boundary: <b>wo</b>rd is one word
	Cell                 // a word boundary (table cells)
	Block                // a line boundary
)

// Element is what a parser tells the core about an element. Byte slices are
// borrowed: valid only during the call.
type Element struct {
	Tag       string
	Pos       Pos
	Class     []byte
	NoSnippet bool // data-nosnippet present (any value)
	Layout    Layout
	Hidden    bool // its content is never text (script, style, template…)
	Head      bool // it is the document's head: its content is not text, but for the title
	Inert     bool // its content is never followed (template)
	Link      LinkKind
	Href      []byte
	Rel       []byte
	// Title marks the element whose text is indexed even though it is held
	// in a hidden context (the HTML title inside the head).
	Title bool
	// Clone marks an element the HTML parser re-creates from an earlier one
	// (formatting elements): its markup was already warned about.
	Clone bool
}

// Scope is what holds inside one element: the switches its regions turned
// off, whether its content is text at all, and the link collecting its text.
type Scope struct {
	Off    Switch
	Hidden bool
	Inert  bool
	owns   bool // this element's link is anchor (it collects the text)
	code   bool // inside an element whose content is never text (script, template…)
	head   bool // inside the head (only the title's text counts there)
	hides  bool // the element itself hides its content
	isHead bool // the element is the head
	inerts bool // the element itself makes its content inert
	title  bool // the element is the title: its text counts in the head
	// boxed: the element stands where text is (its parent's content is
	// text), so its layout separates the words around it even when its own
	// content is not text (<video>fallback</video>).
	boxed bool
	// rejoins: the element turns indexing back on inside an excluded
	// parent, whose Off and NoIndex seq outerOff and outerSeq keep; where
	// it ends, the parent's excluded stretch goes on (a phrase break).
	rejoins  bool
	outerOff Switch
	outerSeq uint32
	ov       Override
	// seq says, per switch, when the innermost element region that said
	// something about it opened (0: none); regionSeq is this element's.
	// A flat span (a comment region) that opened later is inside it.
	seq       [numSwitches]uint32
	regionSeq uint32
	// anchorGen is anchor's generation when it was taken: an anchor is
	// reused once its link is written, and a scope still pointing at it
	// then has none (see link).
	anchorGen uint32
	anchor    *anchor
	region    *Region // the region this element opened
	why       *causes
}

// link returns the anchor collecting the scope's text: nil when there is
// none, or when the link was written and its anchor given to another (a
// written link's anchor takes no more text that matters).
func (s *Scope) link() *anchor {
	if a := s.anchor; a != nil && a.gen == s.anchorGen {
		return a
	}
	return nil
}

// causes records, per switch, the region that turned it off.
type causes [numSwitches]*Region

func (w *causes) of(s Switch) *Region {
	if w == nil {
		return nil
	}
	for i := 0; i < numSwitches; i++ {
		if s&(1<<i) != 0 && w[i] != nil {
			return w[i]
		}
	}
	return nil
}

// Root is the scope of the document itself.
func (c *Core) Root() Scope { return Scope{} }

// Start opens an element inside parent: *s becomes the element's scope.
// s and parent are distinct; scopes are passed by pointer because a parser
// opens one per element and they are several words long.
func (c *Core) Start(s, parent *Scope, el *Element) {
	*s = *parent
	s.anchor, s.anchorGen, s.region, s.owns, s.regionSeq, s.rejoins = parent.anchor, parent.anchorGen, nil, false, 0, false
	s.hides, s.isHead, s.inerts, s.title = el.Hidden, el.Head, el.Inert, el.Title
	s.hideFrom(parent)
	s.boxed = !parent.Hidden || !s.Hidden
	var ov Override
	dialect, marker := "", ""
	if len(el.Class) > 0 && mentionsRobot(el.Class) { // most classes say nothing to robots
		quiet := el.Clone || c.warningsUnread()
		v := resolveClasses(el.Class, c.dialects, c.agentIsRobot, !c.opts.RequireProfile || c.profileOK, quiet)
		if quiet && !el.Clone {
			c.res.WarningsDropped += v.made // as Warn counts what nobody reads
		}
		if !el.Clone {
			for _, w := range v.warnings {
				c.Warn(el.Pos, "<%s>: %s", el.Tag, w)
			}
			for _, n := range v.unnamed {
				c.warnUnnamedRobot(el, n)
			}
		}
		ov, dialect = v.override, v.dialect
		if !ov.IsZero() && c.needsRegion(ov) {
			marker = `class="` + quote.Clip(el.Class, 80) + `"`
		}
	}
	if ov.On&NoIndex != 0 && el.Tag == "noindex" && c.dialects&DialectYandex != 0 {
		// Yandex's <noindex> says noindex of this very element: markers
		// on one element that disagree, so no wins (SPEC section 1).
		ov.On &^= NoIndex
		if !el.Clone {
			c.Warn(el.Pos, "<noindex> with a class that turns indexing on: they disagree; noindex applies")
		}
	}
	if el.NoSnippet && c.dialects&DialectNoSnippet != 0 {
		if ov.On&NoArchive != 0 {
			// Equally specific markers that disagree: no wins (SPEC section 1).
			ov.On &^= NoArchive
			if !el.Clone {
				c.Warn(el.Pos, "<%s>: data-nosnippet and a class that turns archiving on disagree; no archive applies", el.Tag)
			}
		}
		ov.Off |= NoArchive
		if dialect == "" {
			dialect, marker = "nosnippet", "data-nosnippet"
		}
	}
	s.ov = ov
	elide := false
	if !ov.IsZero() {
		s.Off = ov.Apply(parent.Off)
		c.seq++
		s.regionSeq = c.seq
		s.seq = parent.seq
		for i := 0; i < numSwitches; i++ {
			if (ov.Off|ov.On)&(1<<i) != 0 {
				s.seq[i] = c.seq
			}
		}
		if c.needsRegion(ov) {
			r := &Region{Dialect: dialect, Marker: marker, Tag: el.Tag, Off: ov.Off, On: ov.On, Line: el.Pos.Line, Col: el.Pos.Col, Offset: el.Pos.Offset, start: el.Pos}
			s.region = r
			if c.out.Source != nil {
				c.sourceUpToHere()
				c.out.Source.StartRegion(*r)
			}
			w := causes{}
			if parent.why != nil {
				w = *parent.why
			}
			for i := 0; i < numSwitches; i++ {
				if ov.Off&(1<<i) != 0 {
					w[i] = r
				} else if ov.On&(1<<i) != 0 {
					w[i] = nil
				}
			}
			s.why = &w
		}
		before, after := c.offAt(parent), c.offAt(s)
		if after&NoIndex != 0 && before&NoIndex == 0 && !parent.Hidden {
			c.heldText.brk(c)
			c.anchorBreak(parent)
		}
		if after&NoIndex == 0 && before&NoIndex != 0 && !parent.Hidden {
			s.rejoins, s.outerOff, s.outerSeq = true, parent.Off, parent.seq[noIndexBit]
		}
		// The ellipsis comes after the element's own line break (below).
		elide = after&NoArchive != 0 && before&NoArchive == 0 && !s.Hidden && after&NoIndex == 0
	}
	if s.boxed {
		switch el.Layout {
		case Block:
			c.heldText.line(c)
			c.anchorBreak(parent)
		case Cell:
			c.heldText.space(c)
			c.anchorBreak(parent)
		}
	}
	if elide {
		c.heldText.elide(c)
	}
	if el.Link != NoLink && !s.Inert && c.headEnded {
		c.bodyContent()
	}
	if el.Link != NoLink && c.out.Link != nil && !s.Inert {
		a := c.newLink(s, el, ov)
		if c.out.Source != nil {
			c.sourceUpToHere()
			c.out.Source.StartLink(a.link)
		}
		if el.Link == LinkAnchor {
			s.anchor, s.anchorGen, s.owns = a, a.gen, true
		} else {
			a.done = true
		}
		c.enqueue(a)
	}
}

// hideFrom derives whether the element's content is text: code elements
// hide everything inside them; the head hides all but the title.
func (s *Scope) hideFrom(parent *Scope) {
	s.code = parent.code || s.hides
	s.head = (parent.head || s.isHead) && !s.title
	s.Hidden = s.code || s.head
	s.Inert = parent.Inert || s.inerts
}

// offAt is what is off at a place in scope s, before the document-level
// rules: for each switch the innermost region decides, an element's or a
// flat span's, by when it opened.
func (c *Core) offAt(s *Scope) Switch {
	if c.flat == 0 {
		return s.Off // no flat span is open: the usual case, decided inline
	}
	return c.flatOffAt(s)
}

// warnUnnamedRobot warns, once per robot number (for the first
// maxWarnedRobots numbers), of a per-robot class whose robot no
// RobotExclusion.RobotNameN META has named: every element of a page may
// carry the class.
func (c *Core) warnUnnamedRobot(el *Element, n int) {
	if c.warnedRobots[n] || len(c.warnedRobots) >= maxWarnedRobots {
		return
	}
	if c.warnedRobots == nil {
		c.warnedRobots = map[int]bool{}
	}
	c.warnedRobots[n] = true
	c.Warn(el.Pos, "<%s>: per-robot class robot%d-…: no RobotExclusion.RobotName%d META has named robot %d; its classes are ignored", el.Tag, n, n, n)
}

// maxWarnedRobots bounds the robot numbers warnUnnamedRobot remembers.
const maxWarnedRobots = 100

// outerExcluded reports whether the parent of a rejoining element is still
// excluded where the element ends (a comment region may have closed inside).
func (c *Core) outerExcluded(s *Scope) bool {
	if s.outerOff&NoIndex != 0 {
		return true
	}
	for k := range c.flatBy {
		if c.flatBy[k]&NoIndex != 0 && c.flatSeq[k][noIndexBit] > s.outerSeq {
			return true
		}
	}
	return false
}

// anchorBreak separates words in the anchor text being collected in s.
func (c *Core) anchorBreak(s *Scope) {
	if a := s.link(); a != nil && len(a.text) > 0 && len(a.text) < MaxAnchorText {
		a.text = append(a.text, ' ')
	}
}

// needsRegion reports whether a region record is wanted for an element
// with this override: for the region output, or, when only links are
// wanted, for a region that decides whether links are followed (a link's
// Cause names it).
func (c *Core) needsRegion(ov Override) bool {
	return c.out.Region != nil || c.out.Link != nil && (ov.Off|ov.On)&NoFollow != 0
}

// Rescope recomputes an element's scope under a new parent, for parsers
// whose tree moves open elements (the HTML adoption agency). It has no side
// effects: what was written under the old parent stays written.
func (c *Core) Rescope(parent, s Scope) Scope {
	s.hideFrom(&parent)
	s.Inert = parent.Inert || s.inerts
	if !s.owns {
		s.anchor, s.anchorGen = parent.anchor, parent.anchorGen
	}
	s.Off = s.ov.Apply(parent.Off)
	own := s.seq
	s.seq = parent.seq
	for i := 0; i < numSwitches; i++ {
		if (s.ov.Off|s.ov.On)&(1<<i) != 0 {
			s.seq[i] = own[i]
		}
	}
	if s.why != nil || parent.why != nil {
		w := causes{}
		if parent.why != nil {
			w = *parent.why
		}
		if r := s.region; r != nil {
			for i := 0; i < numSwitches; i++ {
				if r.Off&(1<<i) != 0 {
					w[i] = r
				} else if r.On&(1<<i) != 0 {
					w[i] = nil
				}
			}
		}
		s.why = &w
	}
	return s
}

// End says an element has ended: its content's layout boundary, and, as
// it can take no more content, its link is complete and its region ends at
// the current position. Most elements are inline, own no link and open no
// region: End is small enough to inline, and costs them a few tests.
func (c *Core) End(s *Scope, layout Layout) {
	if layout != Inline && s.boxed || s.owns || s.region != nil || s.rejoins {
		c.end(s, layout)
	}
}

func (c *Core) end(s *Scope, layout Layout) {
	if s.rejoins && c.outerExcluded(s) {
		// Back in the excluded parent: what follows is in another phrase,
		// even if the parent's stretch after this element is empty.
		c.heldText.brk(c)
		c.anchorBreak(s)
	}
	if layout != Inline && s.boxed {
		if layout == Block {
			c.heldText.line(c)
		} else {
			c.heldText.space(c)
		}
		c.anchorBreak(s)
	}
	if a := s.link(); s.owns && a != nil {
		a.done = true
		c.flushLinks()
	}
	if s.region != nil && c.out.Region != nil {
		c.endRegion(s.region)
	}
}

func (c *Core) endRegion(r *Region) {
	pos := c.position()
	r.EndLine, r.EndCol, r.Size = pos.Line, pos.Col, pos.Offset-r.start.Offset
	// Bytes a parser put off go to the archive writer first: a caller that
	// writes both to one stream (JSON Lines) then sees the region's record
	// at most the writer's buffer (4 KiB) ahead of the archive bytes before
	// it, as when each token was passed at once.
	c.archive.settle()
	if c.out.Source != nil {
		c.archive.pass() // the source has every byte before the region's end
	}
	if err := c.out.Region(*r); err != nil {
		c.archive.fail(err)
	}
}
