package filter

import (
	"fmt"
	"net/url"

	"github.com/robofilter/robofilter/internal/quote"
	"github.com/robofilter/robofilter/weburl"
)

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
	flat      Switch                  // switches turned off by flat (comment/tag toggled) regions
	flatBy    [numFlatDialects]Switch // per flat dialect (flatYandex, flatGoogleOff)
	flatSeq   [numFlatDialects][numSwitches]uint32
	seq       uint32   // counts regions as they open (element and flat)
	headEnded bool     // body content from now on releases what is held
	linkBase  *url.URL // a base for the next link instead of the document's (xml:base)
	// noArchiveSource is the directive that first withheld the archive.
	noArchiveSource DirectiveSource
	flatWhy         causes
	flatOpen        [numFlatDialects][numSwitches]*Region
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
	ai         aiState // AI usage preferences (aipref.go)
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
		u, err := weburl.ParseBase(opts.Base)
		if err != nil {
			return nil, err
		}
		c.base = u
	}
	ell := opts.Ellipsis
	if ell == "" {
		ell = "…"
	}
	if out.Source != nil {
		if out.Archive != nil {
			return nil, fmt.Errorf("Outputs.Archive and Outputs.Source exclude each other")
		}
		// The source takes the archive copy's path, with nothing elided,
		// held or withheld: every place that passes the copy its bytes
		// passes them to the source.
		c.out.Archive = out.Source
		c.archive = newArchiveWriter(out.Source, nil)
		c.archive.all = true
		c.archive.release()
	} else if out.Archive != nil {
		c.archive = newArchiveWriter(out.Archive, []byte(ell))
	}
	c.track = out.Region != nil || out.Link != nil
	c.wantsText = out.Text != nil || out.ArchiveText != nil || out.ExcludedText != nil
	c.ai.purpose = opts.Purpose
	for _, v := range opts.XRobotsTag {
		c.xRobotsTag(v)
	}
	c.aiHeaders()
	return c, nil
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

// Warn reports a problem in the input at pos.
func (c *Core) Warn(pos Pos, format string, args ...any) {
	if c.warningsUnread() {
		c.res.WarningsDropped++ // not formatted
		return
	}
	w := Warning{Pos: pos, Line: pos.Line, Col: pos.Col, Offset: pos.Offset, Message: quote.Clip(fmt.Sprintf(format, args...), MaxWarningBytes)}
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
	if c.out.Source != nil {
		c.out.Source.Charset(charset)
	}
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
	copying := c.out.Archive != nil && !c.archive.all // an archive copy, not Source
	if c.docOff&NoArchive != 0 && (copying || c.out.ArchiveText != nil) {
		src := c.noArchiveSource
		c.Warn(Pos{Line: src.Line, Col: src.Col}, "%s says %s: no archive copy is written", src.Origin, c.noArchiveWhy())
	}
	if copying {
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
	if c.out.ExcludedText != nil {
		if e := c.out.ExcludedText.Flush(); err == nil {
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
	c.res.Directives.AI = c.aiReport()
	return &c.res, err
}
