package robotstxt

import (
	"strings"

	"github.com/robofilter/robofilter/aipref"
)

// Usage is a Content-Usage line (draft-ietf-aipref-attach-05 section 3: a
// statement of AI usage preferences in the vocabulary of
// draft-ietf-aipref-vocab-08) or a Content-Signal line (Cloudflare's
// Content Signals Policy), with the path pattern it applies to.
//
// The attach draft makes the line a rule of its group: it concerns the
// robots of the User-agent lines right above it (AgentsFrom up to
// Place.Agents), which the next User-agent line after it does not join.
// For fetching, robofilter keeps RFC 9309's groups as they are without
// the line (a User-agent line after a Content-Usage line still joins the
// group when no Allow or Disallow came between), so that a file's fetch
// answers do not change with it (docs/aipref.md).
type Usage struct {
	// Signal is set for a Content-Signal line, clear for Content-Usage.
	Signal bool
	// Path is the path pattern, "" when the line has none (it then
	// applies to every path, as the least specific match).
	Path string
	// Value is the statement of preference as written.
	Value string
	// Prefs are what it says in the vocabulary's terms (aipref.ParseUsage,
	// aipref.ParseContentSignal); none when it does not parse.
	Prefs aipref.Prefs
	// AgentsFrom is the first of the User-agent lines of its group the
	// line concerns; Place.Agents ends them.
	AgentsFrom int
	Place
}

// Field is the line's field name: "Content-Usage" or "Content-Signal".
func (u *Usage) Field() string {
	if u.Signal {
		return "Content-Signal"
	}
	return "Content-Usage"
}

func (u Usage) String() string {
	if u.Path == "" {
		return u.Field() + ": " + u.Value
	}
	return u.Field() + ": " + u.Path + " " + u.Value
}

// Statement is the line as a statement of preference, for aipref.Set.
func (u *Usage) Statement() aipref.Statement {
	mech := aipref.ContentUsage
	if u.Signal {
		mech = aipref.ContentSignal
	}
	return aipref.Statement{Mechanism: mech, Origin: "robots.txt " + u.Field(), Value: u.Value, Path: u.Path,
		Line: u.Line, Level: aipref.LevelSite, Prefs: u.Prefs}
}

// usage reads a Content-Usage or Content-Signal line (section 3.2 of the
// attach draft): a value starting with "/" is a path up to the first SP
// or HTAB, then the statement; any other value is the statement alone.
func (p *parser) usage(num int, f field, key, value string) {
	name := "Content-Usage"
	if f == fieldContentSignal {
		name = "Content-Signal"
	}
	if p.cur < 0 {
		p.warnOutsideGroup(num, name)
		return
	}
	u := Usage{Signal: f == fieldContentSignal, Value: value, AgentsFrom: p.runFrom, Place: Place{Line: num, Agents: len(p.group().Agents)}}
	p.runEnded = true
	if strings.HasPrefix(value, "/") {
		i := strings.IndexAny(value, " \t")
		if i < 0 {
			p.warn(num, "%s: the path %q has no statement of preference after it: ignored", name, value)
			return
		}
		u.Path, u.Value = value[:i], trimSpace(value[i:])
	}
	var warns []aipref.Warning
	if u.Signal {
		u.Prefs, warns = aipref.ParseContentSignal(u.Value)
	} else {
		u.Prefs, warns = aipref.ParseUsage(u.Value)
	}
	for _, w := range warns {
		p.warn(num, "%s: %s", name, w.Message)
	}
	g := p.group()
	g.Usages = append(g.Usages, u)
}

// usageRule is a Usage line compiled for matching.
type usageRule struct {
	src  *Usage
	pat  pattern
	prio int // the normalised path's length: the longest match wins
}

// usageSet is the compiled Usage lines of one robot.
type usageSet struct {
	first bool // v1: the first matching line, as for Allow and Disallow
	rules []usageRule
}

// usages compiles the robot's Usage lines on first use.
func (a *AgentRules) usages() *usageSet {
	a.usageOnce.Do(func() {
		r := a.robots
		s := &usageSet{first: r.mode == V1}
		norm := r.mode.normalizer()
		for k, gi := range a.groups {
			g := &r.groups[gi]
			for i := range g.Usages {
				u := &g.Usages[i]
				if !a.concerns(k, g, u) {
					continue
				}
				p := norm.appendPattern(nil, u.Path)
				pat := wildcardPattern(p)
				if s.first {
					pat = literalPattern(p, false)
				}
				s.rules = append(s.rules, usageRule{src: u, pat: pat, prio: len(p)})
			}
		}
		a.usageSet = s
	})
	return a.usageSet
}

// concerns reports whether a Usage line of the k-th selected group g
// concerns the robot: whether one of the User-agent lines right above it
// names the robot (v1: is the one that selected the record).
func (a *AgentRules) concerns(k int, g *Group, u *Usage) bool {
	if a.robots.mode == V1 {
		return u.AgentsFrom <= a.position[k] && a.position[k] < u.Agents
	}
	for _, ag := range g.Agents[u.AgentsFrom:u.Agents] {
		if ag.Token == a.token {
			return true
		}
	}
	return false
}

// UsageDecision is what a file says of the use of a URL's content.
type UsageDecision struct {
	// Fetch is the verdict on fetching the URL. Usage preferences apply
	// only to what may be fetched (attach-05 section 3.1): when Fetch
	// disallows, Lines is empty and Prefs says nothing.
	Fetch Decision
	// Lines are the lines that apply: of each field, Content-Usage and
	// Content-Signal, the lines of the longest matching path (several
	// when their paths are equally long; v1: the first matching line).
	Lines []*Usage
	// Prefs combines them: lines of equal paths and the two fields are
	// statements of equal standing, of which "disallowed" wins
	// (draft-ietf-aipref-vocab-08 section 5.1).
	Prefs aipref.Prefs
}

// Statements are the deciding lines as statements of preference.
func (d UsageDecision) Statements() []aipref.Statement {
	out := make([]aipref.Statement, len(d.Lines))
	for i, u := range d.Lines {
		out[i] = u.Statement()
	}
	return out
}

// Usage says which Content-Usage and Content-Signal lines apply to url,
// read as Decide reads it, and what they say: the lines are matched
// against its path as Allow and Disallow lines are (the same
// normalisation, "*" and "$"; the longest path wins), each field on its
// own, and what the deciding lines say is combined.
func (a *AgentRules) Usage(url string) UsageDecision {
	d := UsageDecision{Fetch: a.Decide(url)}
	if !d.Fetch.Allowed || len(a.groups) == 0 {
		return d
	}
	s := a.usages()
	if len(s.rules) == 0 {
		return d
	}
	path, slash := requestPath(url)
	var stack [256]byte
	buf := stack[:0]
	if slash {
		buf = append(buf, '/')
	}
	buf = a.robots.mode.normalizer().appendPath(buf, path)
	for _, signal := range []bool{false, true} {
		best, found := -1, false
		for i := range s.rules {
			r := &s.rules[i]
			if r.src.Signal != signal || !r.pat.match(buf) {
				continue
			}
			if s.first {
				d.Lines = append(d.Lines, r.src)
				found = true
				break
			}
			best = max(best, r.prio)
		}
		if found || best < 0 {
			continue
		}
		for i := range s.rules {
			if r := &s.rules[i]; r.src.Signal == signal && r.prio == best && r.pat.match(buf) {
				d.Lines = append(d.Lines, r.src)
			}
		}
	}
	for _, u := range d.Lines {
		d.Prefs = d.Prefs.Combine(u.Prefs)
	}
	return d
}
