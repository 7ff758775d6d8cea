package filter

import (
	"bytes"
	"iter"
	"strconv"
	"strings"

	"github.com/robofilter/robofilter/internal/ascii"
	"github.com/robofilter/robofilter/internal/quote"
)

// Meta handles a <meta name=… content=…> element: robots META for every
// robot or for the agent, and RobotExclusion.RobotNameN. With obey false
// (XHTML read as XML, where the robots PI decides) the robots rules are
// only returned, for the caller to compare with the PI.
func (c *Core) Meta(name, content []byte, pos Pos, obey bool) iter.Seq[Directive] {
	n := ascii.ToLower(strings.TrimSpace(string(name)))
	if c.aiMeta(n, content, pos) {
		return nil
	}
	origin := ""
	switch {
	case n == "robots":
		origin = "meta robots"
	case AgentMatches(n, c.opts.Agent):
		origin = "meta " + n
	case strings.HasPrefix(n, "robotexclusion.robotname"):
		num, err := strconv.Atoi(n[len("robotexclusion.robotname"):])
		if err != nil || num < 0 {
			c.Warn(pos, "meta name %q: the robot number is not a number; ignored", quote.Clip(name, 80))
			return nil
		}
		if c.robotNames == nil {
			c.robotNames = map[int]string{}
		}
		v := strings.TrimSpace(string(content))
		old, ok := c.robotNames[num]
		if !ok && len(c.robotNames) >= MaxRobotNames {
			if !c.robotNamesFull {
				c.robotNamesFull = true
				c.Warn(pos, "meta name %q: more than %d robot numbers named; this one and later new ones are ignored", quote.Clip(name, 80), MaxRobotNames)
			}
			return nil
		}
		if ok && !ascii.EqualFold(old, v) {
			c.Warn(pos, "meta name %q names robot %d %q after %q; the later name applies", name, num, quote.Clip(v, 80), quote.Clip(old, 80))
		}
		c.robotNames[num] = v
		return nil
	default:
		return nil
	}
	// Read in place, not listed: a content of millions of tokens costs
	// what the directives keep.
	t := newDirectiveText(string(content))
	if obey {
		src := DirectiveSource{Origin: origin, Value: t.s, Line: pos.Line, Col: pos.Col}
		before := c.docOff
		warn := func(w directiveWarning) { c.warnDirective(pos, w) }
		dropped := c.doc.startSource(src, warn)
		t.each(0, len(t.s), func(x Directive) bool {
			c.doc.take(x, warn)
			return true
		})
		c.doc.endSource(dropped, warn)
		c.applied(src, before, pos)
	} else if !c.doc.NoAI {
		// In XML the robots PI decides the switches, but it cannot say
		// noai: the META's noai is taken (docs/aipref.md).
		t.each(0, len(t.s), func(x Directive) bool {
			if x.Name == "noai" {
				c.doc.NoAI = true
				c.aiDirectives(DirectiveSource{Origin: origin, Value: t.s, Line: pos.Line, Col: pos.Col}, pos)
				return false
			}
			return true
		})
	}
	return func(yield func(Directive) bool) { t.each(0, len(t.s), yield) }
}

// Apply adds document-level directives from one source. Before the head
// ends they apply to the whole document; after, from this point on.
func (c *Core) Apply(src DirectiveSource, ds []Directive, pos Pos) {
	before := c.docOff
	warn := func(w directiveWarning) { c.warnDirective(pos, w) }
	dropped := c.doc.startSource(src, warn)
	for _, x := range ds {
		c.doc.take(x, warn)
	}
	c.doc.endSource(dropped, warn)
	c.applied(src, before, pos)
}

// warnDirective gives a warning of the directives at pos, made into text
// only when it is kept.
func (c *Core) warnDirective(pos Pos, w directiveWarning) {
	if c.warningsUnread() {
		c.res.WarningsDropped++ // not formatted, as Warn does
		return
	}
	c.Warn(pos, "%s", w.String())
}

// applied does what follows a source's directives (Apply): before is
// what the document's directives turned off before them.
func (c *Core) applied(src DirectiveSource, before Switch, pos Pos) {
	c.docOff = c.doc.Switches() | c.ai.off
	newly := c.docOff &^ before
	defer c.aiDirectives(src, pos)
	if newly&NoArchive != 0 {
		c.noArchiveSource = src
		c.archive.settle() // the copy stops after what came before
	}
	if newly == 0 || c.held {
		// Nothing of the document has been written: the rule applies to
		// all of it (the held outputs are decided when released).
		if newly&NoArchive != 0 && c.archive.overflow {
			c.archive.stopped = true
			c.Warn(pos, "%s after more than %d bytes of head: the archive copy was already written up to here and stops now", src.Origin, maxHeldArchive)
		}
		return
	}
	if newly&NoFollow != 0 {
		c.unfollowQueued() // one still open, whose anchor text goes on, too
	}
	if c.written {
		c.Warn(pos, "%s says %s after content was written: earlier content was already written, the rules apply from here on", src.Origin, newly)
	}
	if newly&NoArchive != 0 && c.out.Archive != nil && !c.archive.all {
		c.archive.stopped = true
		c.Warn(pos, "%s says %s: the archive copy stops here; what came before was already written", src.Origin, c.noArchiveWhy())
	}
}

// xRobotsTag applies an X-Robots-Tag value, read in place
// (Directives.AddXRobotsTag).
func (c *Core) xRobotsTag(v string) {
	warn := func(w directiveWarning) { c.warnDirective(Pos{}, w) }
	var origins xRobotsTagOrigins
	newDirectiveText(v).eachScope(func(sc directiveScope) bool {
		if sc.bot != "" && !AgentMatches(sc.bot, c.opts.Agent) {
			return true
		}
		src := DirectiveSource{Origin: origins.of(sc.bot), Value: v}
		before := c.docOff
		dropped := c.doc.startSource(src, warn)
		sc.each(func(x Directive) bool {
			c.doc.take(x, warn)
			return true
		})
		c.doc.endSource(dropped, warn)
		c.applied(src, before, Pos{})
		return true
	})
}

// HeadProfile reads the head's profile attribute: the classes count under
// --require-profile only if it names the Robot Exclusion Profile. It
// reports whether it turned them on under --require-profile: the root
// element, which starts before its head, then needs its classes read
// again (a parser calls Start for it once more, with Clone set).
func (c *Core) HeadProfile(profile []byte) (turnedOn bool) {
	was := c.profileOK
	for _, f := range bytes.Fields(profile) {
		u := strings.Trim(string(f), TypographicQuotes+`"'`)
		if strings.Trim(string(f), TypographicQuotes) != string(f) {
			c.Warn(c.position(), "head profile URI %q has typographic quotes around it; read as %q", quote.Clip(f, 80), quote.Clip(u, 80))
		}
		if strings.HasSuffix(u, "robots-profile#") || strings.HasSuffix(u, "robots-profile") {
			c.profileOK = true
		}
	}
	return c.opts.RequireProfile && c.profileOK && !was
}

// MaxRobotNames bounds the robot numbers RobotExclusion.RobotNameN META
// tags may name in one document, so that a page of such tags takes no more
// memory than one; a real page names a handful.
const MaxRobotNames = 10000

// agentIsRobot reports whether robot number n (RobotExclusion.RobotNameN)
// is the agent: the agent string contains the robot's name, ignoring case.
// named is false while no META has named robot n.
func (c *Core) agentIsRobot(n int) (is, named bool) {
	name, named := c.robotNames[n]
	return name != "" && c.opts.Agent != "" && strings.Contains(ascii.ToLower(c.opts.Agent), ascii.ToLower(name)), named
}
