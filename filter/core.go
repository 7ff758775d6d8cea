// Package filter is robofilter's format-neutral core: it holds the robots
// directives in force, the scope of every region, and the three outputs
// (indexable text, archive-safe copy, followable links), all fed by one pass
// of a format parser (htmlstream, xmlstream).
//
// A parser drives a Core with calls in document order:
//
//	c, _ := filter.NewCore(opts, outputs)
//	root := c.Root()
//	// per token: c.SetPos(pos), then any of
//	//   c.Start(&scope, &parentScope, &el)    an element opens (its region starts)
//	//   c.Text(&scope, text)                  character data inserted in scope
//	//   c.End(&scope, layout)                 an element ends (its region too)
//	//   c.Archive(raw, c.ArchiveOn(&scope))   the token's bytes, for the archive copy
//	//   c.Meta / c.Toggle / c.BaseHref / c.EndHead (the head has ended)
//	res, err := c.Finish()
//
// Scopes are values the parser owns: it keeps one per open element and
// has the core derive a child's from its parent's (passed by pointer, as
// they are several words long), so region state follows whatever tree the
// format defines (for HTML, the DOM html.Parse would build) without the
// core knowing about trees. Memory is bounded by what the parser keeps.
package filter

import (
	"fmt"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// Options configure one run. The zero value honours every dialect, with no
// agent, no base URL and the default ellipsis.
type Options struct {
	Agent          string   // --agent: robot name for agent-specific META and per-robot classes
	RequireProfile bool     // honour profile classes only with the profile URI in <head profile>
	Ellipsis       string   // replaces no-archive content; "" means "…"
	XRobotsTag     []string // X-Robots-Tag values from the HTTP response or the caller
	Dialects       Dialects // 0 means AllDialects
	Base           string   // the document's URL, for resolving links
}

// Outputs say where results go. A nil output is not produced and costs
// nothing; every output is fed by the same pass.
type Outputs struct {
	Text        *phrase.Writer     // indexable text
	ArchiveText *phrase.Writer     // text of the archive copy: indexable text with ellipses
	Archive     io.Writer          // archive-safe copy of the input bytes
	Link        func(Link) error   // every link, followed or not, in document order
	Region      func(Region) error // every excluded region, when it ends
	// Warning is given each warning the Result keeps (the first
	// MaxWarnings) as it is found; later ones are only counted, in
	// Result.WarningsDropped, at no cost in formatting.
	Warning func(Warning)
}

// Region is one place where the author turned switches off (or back on):
// an element with robots markup, or a comment- or tag-delimited span.
type Region struct {
	Dialect string `json:"dialect"` // profile, robotN, nocontent, nosnippet, yandex, googleoff
	Marker  string `json:"marker"`  // the markup that made it, e.g. class="robots-noindex"
	Tag     string `json:"tag,omitempty"`
	Off     Switch `json:"-"`
	On      Switch `json:"-"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	EndLine int    `json:"end_line,omitempty"`
	EndCol  int    `json:"end_col,omitempty"`
	Offset  int64  `json:"offset"`         // bytes before the region's start in the input
	Size    int64  `json:"size,omitempty"` // bytes from the region's start to its end
	start   Pos
}

// Switches names the switches the region turns off and on, for reports.
func (r *Region) Switches() (off, on string) {
	off, on = r.Off.String(), ""
	if r.On != 0 {
		for _, n := range switchNames {
			if r.On&n.bit != 0 {
				on += "," + n.on
			}
		}
		on = strings.TrimPrefix(on, ",")
	}
	return off, on
}

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
	seq       [4]uint32
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
type causes [4]*Region

func (w *causes) of(s Switch) *Region {
	if w == nil {
		return nil
	}
	for i := 0; i < 4; i++ {
		if s&(1<<i) != 0 && w[i] != nil {
			return w[i]
		}
	}
	return nil
}

// Result is what a run found about the document besides its outputs.
type Result struct {
	Directives Directives `json:"directives"`
	Warnings   []Warning  `json:"warnings,omitempty"`
	// WarningsDropped counts warnings past MaxWarnings (reported but not kept).
	WarningsDropped int    `json:"warnings_dropped,omitempty"`
	Charset         string `json:"charset,omitempty"`
	Format          string `json:"format,omitempty"`
}

// MaxWarnings bounds the warnings a Result keeps, and those the Warning
// output is given; the rest are counted (Result.WarningsDropped).
const MaxWarnings = 1000

// MaxWarningBytes bounds a warning's message: one that quotes a value of
// the input whole (a class, a META content) is cut there, with an
// ellipsis, so that warnings take no more than MaxWarnings times this.
const MaxWarningBytes = 1 << 10

// AddWarning keeps w, or counts it in WarningsDropped once MaxWarnings
// are kept.
func (r *Result) AddWarning(w Warning) {
	if len(r.Warnings) < MaxWarnings {
		r.Warnings = append(r.Warnings, w)
	} else {
		r.WarningsDropped++
	}
}

// Core is one document's run. It is not safe for concurrent use.
type Core struct {
	opts      Options
	out       Outputs
	dialects  Dialects
	base      *url.URL
	baseSet   bool
	pos       Pos
	posFrom   *Pos // when set, the position is read from there (FollowPos)
	doc       Directives
	docOff    Switch
	flat      Switch    // switches turned off by flat (comment/tag toggled) regions
	flatBy    [2]Switch // per flat dialect: Yandex, googleoff
	flatSeq   [2][4]uint32
	seq       uint32   // counts regions as they open (element and flat)
	headEnded bool     // body content from now on releases what is held
	linkBase  *url.URL // a base for the next link instead of the document's (xml:base)
	// noArchiveSource is the directive that first withheld the archive.
	noArchiveSource DirectiveSource
	flatWhy         causes
	flatOpen        [2][4]*Region
	held            bool // the head has not ended: outputs are held
	heldText        heldText
	archive         archiveWriter
	queue           []*anchor
	// resolved counts the links written so far that were resolved against
	// the base of the moment: a <base href> after them comes too late.
	resolved       int
	links          linkMemory // where anchors and their hrefs are allocated
	robotNames     map[int]string
	robotNamesFull bool         // MaxRobotNames reached (and warned about)
	warnedRobots   map[int]bool // unnamed robot numbers warned about
	profileOK      bool
	track          bool // track causes and regions (jsonl, check)
	wantsText      bool // a text output exists
	written        bool // body content has reached an output
	res            Result
	// snipElided: the text form of the archive ends with an ellipsis
	// (nothing but white space after it), which the next elision joins.
	snipElided bool
}

// NewCore starts a run. X-Robots-Tag values apply before anything is read.
func NewCore(opts Options, out Outputs) (*Core, error) {
	if unknown := opts.Dialects &^ AllDialects; unknown != 0 {
		// Dialects of unknown bits alone would turn every dialect off.
		return nil, fmt.Errorf("unknown dialect bits %#x in Options.Dialects", uint8(unknown))
	}
	c := &Core{opts: opts, out: out, dialects: opts.Dialects, pos: StartPos, held: true}
	if c.dialects == 0 {
		c.dialects = AllDialects
	}
	if opts.Base != "" {
		u, err := ParseBase(opts.Base)
		if err != nil {
			return nil, err
		}
		c.base = u
	}
	ell := opts.Ellipsis
	if ell == "" {
		ell = "…"
	}
	if out.Archive != nil {
		c.archive = newArchiveWriter(out.Archive, []byte(ell))
	}
	c.track = out.Region != nil || out.Link != nil
	c.wantsText = out.Text != nil || out.ArchiveText != nil
	for _, v := range opts.XRobotsTag {
		c.xRobotsTag(v)
	}
	return c, nil
}

// EncodeArchive makes the archive copy pass through an encoder: a parser
// that had to decode the whole input (UTF-16) writes the copy back in the
// input's charset.
func (c *Core) EncodeArchive(enc *encoding.Encoder) {
	if c.out.Archive == nil {
		return
	}
	tw := transform.NewWriter(c.out.Archive, enc)
	c.archive.setWriter(tw)
	c.archive.closer = tw
}

// SetEllipsis changes the bytes written for elided content: a parser that
// keeps the input's charset in the archive copy encodes the ellipsis in it.
func (c *Core) SetEllipsis(b []byte) { c.archive.ellipsis = b }

// Ellipsis is the ellipsis text as configured.
func (c *Core) Ellipsis() string {
	if c.opts.Ellipsis == "" {
		return "…"
	}
	return c.opts.Ellipsis
}

// SetPos tells the core where the current token starts, for warnings and regions.
func (c *Core) SetPos(p Pos) { c.pos, c.posFrom = p, nil }

// FollowPos tells the core to read where the current token starts from
// *p, which the parser keeps up to date, instead of being told each time
// (SetPos): one copy of the position per token fewer.
func (c *Core) FollowPos(p *Pos) { c.posFrom = p }

// position is where the current token starts.
func (c *Core) position() Pos {
	if c.posFrom != nil {
		return *c.posFrom
	}
	return c.pos
}

// Root is the scope of the document itself.
func (c *Core) Root() Scope { return Scope{} }

// Warn reports a problem in the input at pos.
func (c *Core) Warn(pos Pos, format string, args ...any) {
	if c.warningsUnread() {
		c.res.WarningsDropped++ // not formatted
		return
	}
	w := Warning{Pos: pos, Line: pos.Line, Col: pos.Col, Offset: pos.Offset, Message: clip(fmt.Sprintf(format, args...), MaxWarningBytes)}
	if c.out.Warning != nil {
		c.out.Warning(w)
	}
	c.res.AddWarning(w)
}

// warningsUnread reports whether a warning now would be read by nobody:
// the Result holds MaxWarnings already (and the Warning output is given
// only those).
func (c *Core) warningsUnread() bool {
	return len(c.res.Warnings) >= MaxWarnings
}

// SetResultInfo records the charset and format the parser used.
func (c *Core) SetResultInfo(format, charset string) {
	c.res.Format, c.res.Charset = format, charset
}

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
			marker = `class="` + clip(el.Class, 80) + `"`
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
		for i := 0; i < 4; i++ {
			if (ov.Off|ov.On)&(1<<i) != 0 {
				s.seq[i] = c.seq
			}
		}
		if c.needsRegion(ov) {
			r := &Region{Dialect: dialect, Marker: marker, Tag: el.Tag, Off: ov.Off, On: ov.On, Line: el.Pos.Line, Col: el.Pos.Col, Offset: el.Pos.Offset, start: el.Pos}
			s.region = r
			w := causes{}
			if parent.why != nil {
				w = *parent.why
			}
			for i := 0; i < 4; i++ {
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

func (c *Core) flatOffAt(s *Scope) Switch {
	off := s.Off
	for i := 0; i < 4; i++ {
		if c.flatTurnsOff(s, i) {
			off |= Switch(1) << i
		}
	}
	return off
}

// flatTurnsOff reports whether a flat span turns switch i off at a place
// in scope s: one that turns it off opened after the innermost element
// region that said something about it.
func (c *Core) flatTurnsOff(s *Scope, i int) bool {
	bit := Switch(1) << i
	return c.flatBy[0]&bit != 0 && c.flatSeq[0][i] > s.seq[i] ||
		c.flatBy[1]&bit != 0 && c.flatSeq[1][i] > s.seq[i]
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

// noIndexBit is NoIndex's index in a Scope's seq.
const noIndexBit = 0

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
	for i := 0; i < 4; i++ {
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
			for i := 0; i < 4; i++ {
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

// newLink decides whether a link is followed and why not. The href and rel
// are copied into the anchor (the element's bytes are the parser's); they
// become strings when the link is written (linkStrings).
func (c *Core) newLink(s *Scope, el *Element, own Override) *anchor {
	a := c.links.anchor()
	href, plain := hrefAsParsed(el.Href)
	a.raw, a.hrefLen, a.plain = c.links.keep(href, el.Rel), len(href), plain
	// The anchor is new and zeroed: only what is not zero is set.
	a.link.Tag, a.link.Line, a.link.Col, a.link.Offset, a.link.Followed = el.Tag, el.Pos.Line, el.Pos.Col, el.Pos.Offset, true
	a.base = c.linkBase
	a.text = a.short[:0]
	off := c.offAt(s)
	switch {
	case a.hrefLen == 0:
		a.link.Followed, a.link.Reason = false, "empty href"
	case isJavaScriptURL(a.raw[:a.hrefLen]):
		a.link.Followed, a.link.Reason = false, reasonJavaScript
	case !webScheme(a.raw[:a.hrefLen]):
		// A relative href takes its scheme from the base: linkStrings
		// looks again at the URL it resolves to (schemeNotFollowed).
		a.link.Followed, a.link.Reason = false, reasonNotWeb
	case el.Tag == "link" && relNotAHyperlink(el.Rel):
		a.link.Followed, a.link.Reason = false, "rel names a resource, not a page"
	case c.docOff&NoFollow != 0:
		a.link.Followed, a.link.Reason = false, "document nofollow"
	case off&NoFollow != 0:
		a.link.Followed, a.link.Reason = false, "nofollow region"
		if s.Off&NoFollow == 0 || c.flatWhy.of(NoFollow) != nil && s.why.of(NoFollow) == nil {
			a.link.Cause = c.flatWhy.of(NoFollow)
		} else {
			a.link.Cause = s.why.of(NoFollow)
		}
	case c.dialects&DialectRel != 0 && own.On&NoFollow == 0:
		if reason, ok := relNoFollow(el.Rel); ok {
			a.link.Followed, a.link.Reason = false, reason
		}
	}
	return a
}

// BaseHref applies the document's first <base href> (or xml:base on the root).
func (c *Core) BaseHref(href []byte) {
	if c.baseSet {
		return
	}
	c.baseSet = true
	h := trimHref(href)
	if len(h) > MaxBaseLen {
		c.Warn(c.position(), "base href %q is longer than %d bytes; ignored", clip(h, 80), MaxBaseLen)
		return
	}
	u, err := ParseReference(c.base, h)
	if err != nil {
		c.Warn(c.position(), "base href %q does not parse (%v); ignored", clip(h, 80), err)
		return
	}
	if s := u.Scheme; s == "javascript" || s == "data" {
		// HTML's frozen base URL is then the document's own.
		c.Warn(c.position(), "base href %q has a %s: URL, which HTML does not take as a base; ignored", clip(h, 80), s)
		return
	}
	r, ok := ResolveReference(c.base, u)
	if !ok {
		c.Warn(c.position(), "base href %q does not resolve against %s; ignored", clip(h, 80), c.base)
		return
	}
	if why := normalizeWeb(r); why != "" {
		c.Warn(c.position(), "base href %q: %s; ignored", clip(h, 80), strings.TrimPrefix(why, "no URL: "))
		return
	}
	if n := len(r.String()); n > MaxBaseLen {
		c.Warn(c.position(), "base href %q resolves to a URL of %d bytes, longer than %d; ignored", clip(h, 80), n, MaxBaseLen)
		return
	}
	if c.resolved > 0 {
		// HTML resolves every link of the document against its first base;
		// the links before it have been written (holding every link to
		// the end would take memory in proportion to the page).
		c.Warn(c.position(), "base href %q comes after links already written (%d): they were resolved without it, the links after it are resolved against it", clip(h, 80), c.resolved)
	}
	c.base = r
}

// Base returns the URL links are resolved against now (nil when none).
func (c *Core) Base() *url.URL { return c.base }

func (c *Core) enqueue(a *anchor) {
	c.queue = append(c.queue, a)
	if c.held && len(c.queue) > maxHeldLinks {
		// Bounded memory: the head's links are written now, and what
		// was held with them; a robots META after this applies from its
		// own position (and says so), as after body content.
		c.Warn(c.position(), "more than %d links before the body's first content: what was held is written now; a robots META after this point applies from there on", maxHeldLinks)
		c.bodyContent()
	}
	if len(c.queue) > maxQueuedLinks {
		c.queue[0].done = true
	}
	c.flushLinks()
}

func (c *Core) flushLinks() {
	if c.held {
		return
	}
	n := 0
	for n < len(c.queue) && c.queue[n].done {
		a := c.queue[n]
		c.linkStrings(a)
		if err := c.out.Link(a.link); err != nil {
			c.archive.fail(err)
		}
		c.written = true
		c.queue[n] = nil
		c.links.release(a)
		n++
	}
	switch {
	case n == len(c.queue): // the usual case: every link written
		c.queue = c.queue[:0]
	case n > 0:
		c.queue = append(c.queue[:0], c.queue[n:]...)
	}
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
	if err := c.out.Region(*r); err != nil {
		c.archive.fail(err)
	}
}

// Text adds character data inserted in scope s.
func (c *Core) Text(s *Scope, b []byte) { c.text(s, b, false) }

// ValidText is Text for character data the caller knows to be valid UTF-8
// (the HTML tokenizer validates its input a read at a time, which costs
// less than checking each piece of text).
func (c *Core) ValidText(s *Scope, b []byte) { c.text(s, b, true) }

func (c *Core) text(s *Scope, b []byte, valid bool) {
	if s.Hidden || len(b) == 0 {
		return
	}
	if c.held && c.headEnded && !isSpace(b) {
		c.bodyContent()
	}
	if !c.wantsText && s.anchor == nil {
		if !c.written && !c.held && (c.offAt(s)|c.docOff)&NoIndex == 0 && !isSpace(b) {
			// Indexable text went by, as if written: a robots META or
			// PI after it warns alike whatever the outputs (check has none).
			c.written = true
		}
		return
	}
	if !valid && !utf8.Valid(b) {
		b = replaceInvalidUTF8(b)
	}
	off := c.offAt(s) | c.docOff
	switch {
	case off&NoIndex != 0:
		c.heldText.brk(c)
	case !c.held && c.out.ArchiveText == nil:
		c.writeText(b) // heldText.text's usual case, without its call
	default:
		c.heldText.text(c, b, off&NoArchive != 0)
	}
	// Anchor text is the link's indexable text (SPEC section 5): what a
	// noindex region, of any dialect, keeps off the page is not anchor
	// text either.
	a := s.link()
	if a == nil {
		return
	}
	if off&(NoIndex|NoAnchorText) != 0 {
		c.anchorBreak(s)
		return
	}
	if len(a.text) < MaxAnchorText {
		room := MaxAnchorText - len(a.text)
		if len(b) > room {
			for room > 0 && !utf8.RuneStart(b[room]) {
				room-- // cut between characters, never inside one
			}
			b = b[:room]
			a.link.Truncated = true
		}
		a.text = append(a.text, b...)
	}
}

// writeText hands indexable text to the text output (nothing is held).
func (c *Core) writeText(b []byte) {
	c.written = true
	if c.out.Text != nil {
		c.out.Text.Text(b)
	}
}

func isSpace(b []byte) bool {
	for _, ch := range b {
		if ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' && ch != '\f' {
			return false
		}
	}
	return true
}

// WantsArchive reports whether the archive copy is an output of this run.
func (c *Core) WantsArchive() bool { return c.out.Archive != nil }

// WantsLinks reports whether the links are wanted (a parser need not keep
// what only links use).
func (c *Core) WantsLinks() bool { return c.out.Link != nil }

// ArchiveOn reports whether content in scope s belongs in the archive copy:
// offAt's rule for the one switch, so small that it is inlined (parsers
// ask for nearly every token).
func (c *Core) ArchiveOn(s *Scope) bool {
	return s.Off&NoArchive == 0 && !c.flatTurnsOff(s, 2) // NoArchive is bit 2
}

// Archive passes a token's raw bytes to the archive copy, or elides them.
// Bytes to copy that fit in the buffer, nearly every token's, are appended
// here; the rest (elisions, growing the held head, writing out) is
// archiveWriter.raw's.
func (c *Core) Archive(raw []byte, on bool) {
	if a := &c.archive; on && !a.stopped && len(raw) > 0 && len(raw) <= cap(a.buf)-len(a.buf) {
		n := len(a.buf) // a reslice and a copy: no store of the buffer's pointer
		a.buf = a.buf[:n+len(raw)]
		copy(a.buf[n:], raw)
		a.lastEll = false
		return
	}
	if c.out.Archive != nil {
		c.archive.raw(raw, on)
	}
}

// ArchivePending lets a parser put off passing the bytes of tokens to
// copy (it passes many at once, with Archive, where it would have passed
// each): pass is called before anything else is done to the archive copy,
// and must pass with Archive whatever is put off. The parser passes what
// it put off itself before any Archive call of its own (Archive's append
// of a token that fits does not call pass). The HTML stage uses it for
// the tokens that follow one another in its buffer.
func (c *Core) ArchivePending(pass func()) { c.archive.pending = pass }

// ArchiveMarkable lets a parser say where an ellipsis cannot stand:
// where markable reports false, what is elided leaves no ellipsis. HTML
// text directly in the head would end the head early and start the body,
// so an elided META or LINK there (data-nosnippet, a class, a comment
// region) leaves nothing; markable is asked only when something is
// elided.
func (c *Core) ArchiveMarkable(markable func() bool) { c.archive.markable = markable }

// Elide writes the ellipsis where a no-archive region starts, so an empty
// region is marked too; adjacent elisions give one ellipsis.
func (c *Core) Elide() {
	if c.out.Archive != nil {
		c.archive.elide()
	}
}

// Toggle turns flat (document-order) region switches off or back on: the
// comment and tag dialects whose regions cross element boundaries. Each
// dialect keeps its own state, so a Yandex close never ends a googleoff.
func (c *Core) Toggle(d Dialects, marker string, off, on Switch) {
	if c.dialects&d == 0 {
		return
	}
	k := 0
	if d == DialectGoogleOff {
		k = 1
	}
	before := c.flat
	st := &c.flatBy[k]
	if off != 0 {
		// Every switch the marker turns off opens now, also one whose
		// span was already open: an element region that opened since
		// (robots-index) is outside it then, and the span, as the
		// innermost region, decides again (SPEC 1.2).
		c.seq++
		for i := 0; i < 4; i++ {
			if off&(1<<i) != 0 {
				c.flatSeq[k][i] = c.seq
			}
		}
	}
	if off&*st&NoIndex != 0 {
		c.heldText.brk(c) // a span opened again: its region record goes on
	}
	if opening := off &^ *st; opening != 0 {
		pos := c.position()
		r := &Region{Dialect: dialectName(d), Marker: marker, Off: opening, Line: pos.Line, Col: pos.Col, Offset: pos.Offset, start: pos}
		for i := 0; i < 4; i++ {
			if opening&(1<<i) != 0 {
				c.flatOpen[k][i] = r
			}
		}
	}
	if closing := on & *st; closing != 0 {
		// One record per region; a googleon that ends part of a region
		// reports that part and leaves the rest open.
		for i := 0; i < 4; i++ {
			r := c.flatOpen[k][i]
			if r == nil || closing&(1<<i) == 0 {
				continue
			}
			part := r.Off & closing
			for j := 0; j < 4; j++ {
				if part&(1<<j) != 0 {
					c.flatOpen[k][j] = nil
				}
			}
			if c.out.Region != nil {
				done := *r
				done.Off = part
				c.endRegion(&done)
			}
			r.Off &^= part
		}
	}
	*st = (*st | off) &^ on
	c.flat = c.flatBy[0] | c.flatBy[1]
	for i := 0; i < 4; i++ {
		c.flatWhy[i] = c.flatOpen[0][i]
		if c.flatWhy[i] == nil {
			c.flatWhy[i] = c.flatOpen[1][i]
		}
	}
	if c.flat&NoIndex != 0 && before&NoIndex == 0 {
		c.heldText.brk(c)
	}
}

func dialectName(d Dialects) string {
	for _, n := range dialectNames {
		if n.d == d {
			return n.name
		}
	}
	return d.String()
}

// Pos is the position of the current token.
func (c *Core) Pos() Pos { return c.position() }

// Dialects are the dialects in effect (Options.Dialects, or all of them).
func (c *Core) Dialects() Dialects { return c.dialects }

// EndHead says the head has ended. What the head held (the title's text,
// head links, the archive bytes so far) stays held until the first body
// content (text or a link), so a robots META before any of it, even one
// the parser puts in the body, still applies to the whole document.
func (c *Core) EndHead() {
	c.headEnded = true
}

// bodyContent releases what was held: from here on, a robots META
// applies only from its own position.
func (c *Core) bodyContent() {
	if !c.held {
		return
	}
	c.held = false
	c.heldText.release(c)
	if c.docOff&NoFollow != 0 {
		c.unfollowQueued()
	}
	c.flushLinks()
	if c.docOff&NoArchive != 0 && (c.out.Archive != nil || c.out.ArchiveText != nil) {
		src := c.noArchiveSource
		c.Warn(Pos{Line: src.Line, Col: src.Col}, "%s says %s: no archive copy is written", src.Origin, c.noArchiveWhy())
	}
	if c.out.Archive != nil {
		if c.docOff&NoArchive != 0 {
			c.archive.withhold()
		} else {
			c.archive.release()
		}
	}
}

// unfollowQueued marks the links not yet written (held, still open, or
// queued behind an open one) as not followed under a document nofollow:
// what is not written can still obey.
func (c *Core) unfollowQueued() {
	for _, a := range c.queue {
		if a.link.Followed {
			a.link.Followed, a.link.Reason = false, "document nofollow"
		}
	}
}

func (c *Core) noArchiveWhy() string {
	if c.doc.NoArchive {
		return "noarchive"
	}
	return "nosnippet"
}

// Finish ends the run: it releases anything held, completes open links and
// regions, and flushes the outputs. The Core takes nothing after it: the
// text writers and the archive copy have given their buffers back, and
// archive bytes passed later are dropped.
func (c *Core) Finish() (*Result, error) {
	c.bodyContent()
	for _, a := range c.queue {
		a.done = true
	}
	c.flushLinks()
	for k := range c.flatOpen {
		for i := range c.flatOpen[k] {
			r := c.flatOpen[k][i] // not a range copy: entries are cleared below
			if r == nil {
				continue
			}
			c.Warn(r.start, "%s region opened here is never closed; it runs to the end of the document", r.Marker)
			if c.out.Region != nil {
				c.endRegion(r)
			}
			for j := range c.flatOpen[k] {
				if c.flatOpen[k][j] == r {
					c.flatOpen[k][j] = nil
				}
			}
		}
	}
	var err error
	if c.out.Text != nil {
		err = c.out.Text.Flush()
	}
	if c.out.ArchiveText != nil {
		if e := c.out.ArchiveText.Flush(); err == nil {
			err = e
		}
	}
	if c.out.Archive != nil {
		if e := c.archive.flush(); err == nil {
			err = e
		}
	} else if err == nil {
		err = c.archive.err // a Link or Region callback's error (fail), with no copy to write
	}
	c.res.Directives = c.doc
	return &c.res, err
}

// replaceInvalidUTF8 replaces each maximal subpart of an ill-formed UTF-8
// sequence with one U+FFFD, as the WHATWG UTF-8 decoder (and Unicode's
// recommended practice) does: "\xE2\x82X" is "\uFFFDX", "\xFF\xFF" two
// U+FFFD. Text cut inside a sequence is joined again before it gets here
// where the DOM joins it (htmlstream's addText), so the result does not
// depend on where a text was split.
func replaceInvalidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
			size = maximalSubpart(b)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// maximalSubpart is the length of the ill-formed sequence b starts with
// that one U+FFFD stands for: its lead byte and the continuation bytes
// that could still have made a character (Unicode 16, table 3-7).
func maximalSubpart(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF // only the second byte has a narrower range
	}
	return n
}

// clip returns s, or its first n bytes (cut between characters) and an
// ellipsis; a long []byte is not copied whole to be clipped.
func clip[S ~string | ~[]byte](s S, n int) string {
	if len(s) <= n {
		return string(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return string(s[:n]) + "…"
}
