package aipref

import (
	"fmt"
	"strconv"
	"strings"
)

// Mechanism names a way of stating preferences.
type Mechanism string

const (
	// ContentUsage is the vocabulary's format in a Content-Usage header
	// field or robots.txt rule (draft-ietf-aipref-attach-05).
	ContentUsage Mechanism = "content-usage"
	// ContentSignal is a Content-Signal robots.txt line.
	ContentSignal Mechanism = "content-signal"
	// TDMRep is the TDM Reservation Protocol: tdm-reservation in
	// /.well-known/tdmrep.json, an HTTP header or HTML META.
	TDMRep Mechanism = "tdmrep"
	// Robots is the noai robots directive, in a robots META tag, an
	// X-Robots-Tag value or the XML robots PI.
	Robots Mechanism = "robots"
)

// Level is how closely a statement is attached to the document: the site
// (robots.txt, tdmrep.json), the HTTP response, the document itself. Within
// TDMRep a statement at a closer level supersedes those further away (its
// section "Processing priority").
type Level uint8

const (
	LevelSite     Level = iota // robots.txt, tdmrep.json
	LevelResponse              // an HTTP header field
	LevelDocument              // a META tag, the robots PI
	numLevels
)

// Statement is one statement of preference and where it was found.
type Statement struct {
	Mechanism Mechanism `json:"mechanism"`
	// Origin says where: "robots.txt", "tdmrep.json", "content-usage
	// header", "tdm-reservation header", "meta tdm-reservation", "meta
	// robots", "x-robots-tag", "robots PI" …
	Origin string `json:"origin"`
	// Value is the statement as written (clipped to MaxValueBytes).
	Value string `json:"value"`
	// Path is the path pattern of a robots.txt line or tdmrep.json rule
	// that matched ("" for one without a path).
	Path string `json:"path,omitempty"`
	// Line and Col place it in the document, or Line in the robots.txt or
	// tdmrep.json file; 0 for a header.
	Line  int   `json:"line,omitempty"`
	Col   int   `json:"col,omitempty"`
	Level Level `json:"-"`
	Prefs Prefs `json:"preferences"`
	// Policy is the tdm-policy given with a TDMRep statement (a
	// tdmrep.json rule's), "" when none was.
	Policy string `json:"tdm_policy,omitempty"`
	// Superseded is set on a TDMRep statement that one closer to the
	// document replaced.
	Superseded bool `json:"superseded,omitempty"`
}

// String describes the statement for messages: `meta robots "noai" at
// 3:1`, `content-usage header "train-ai=n"`, and a site file's by its
// line: `robots.txt line 5 "Content-Usage: /ai-ok/ train-ai=y"`,
// `tdmrep.json line 2 "location /x/, tdm-reservation: 1"`.
func (s Statement) String() string {
	if field, ok := strings.CutPrefix(s.Origin, "robots.txt "); ok {
		text := field + ": " + s.Value
		if s.Path != "" {
			text = field + ": " + s.Path + " " + s.Value
		}
		return fmt.Sprintf("robots.txt line %d %q", s.Line, text)
	}
	if s.Origin == "tdmrep.json" {
		return fmt.Sprintf("tdmrep.json line %d %q", s.Line, "location "+s.Path+", "+s.Value)
	}
	where := ""
	switch {
	case s.Line > 0 && s.Col > 0:
		where = fmt.Sprintf(" at %d:%d", s.Line, s.Col)
	case s.Line > 0:
		where = " line " + strconv.Itoa(s.Line)
	}
	if s.Col == 0 && s.Line > 0 {
		return fmt.Sprintf("%s%s %q", s.Origin, where, s.Value)
	}
	return fmt.Sprintf("%s %q%s", s.Origin, s.Value, where)
}

// MaxStatements bounds the statements a Set lists, and MaxValueBytes the
// value each keeps: a page of a million META tags costs what one does.
// Statements past the bound still count.
const (
	MaxStatements = 100
	MaxValueBytes = 1 << 10
)

// Set gathers the statements that apply to one document and combines
// them. The zero value is an empty set.
type Set struct {
	statements []Statement
	dropped    int
	// groups: 0 for every mechanism but TDMRep, 1+level for TDMRep's.
	prefs [1 + numLevels]Prefs
	has   [1 + numLevels]bool
	// first[g][c][v] is the first statement of group g whose preference
	// for category c is v (Allowed or Disallowed): what decided.
	first  [1 + numLevels][NumCategories][3]*Statement
	policy [numLevels]string // a tdm-policy at each level, the first given
}

func group(s *Statement) int {
	if s.Mechanism == TDMRep {
		return 1 + int(s.Level)
	}
	return 0
}

// Add puts a statement in the set.
func (s *Set) Add(st Statement) {
	st.Value = clip(st.Value, MaxValueBytes)
	if st.Mechanism == TDMRep && st.Policy != "" {
		s.AddTDMPolicy(st.Level, st.Policy)
	}
	g := group(&st)
	s.prefs[g] = s.prefs[g].Combine(st.Prefs)
	if !st.Prefs.IsZero() {
		s.has[g] = true
	}
	var kept *Statement
	for c, v := range st.Prefs {
		if v != Unknown && s.first[g][c][v] == nil {
			if kept == nil {
				kept = new(Statement)
				*kept = st
			}
			s.first[g][c][v] = kept
		}
	}
	if len(s.statements) < MaxStatements {
		s.statements = append(s.statements, st)
	} else {
		s.dropped++
	}
}

// AddTDMPolicy records a tdm-policy URL given at a level; the first one
// of a level counts.
func (s *Set) AddTDMPolicy(level Level, url string) {
	if level < numLevels && s.policy[level] == "" {
		s.policy[level] = clip(url, MaxValueBytes)
	}
}

// IsEmpty reports whether no statement and no policy was added.
func (s *Set) IsEmpty() bool {
	return len(s.statements) == 0 && s.dropped == 0 && s.policy == [numLevels]string{}
}

// tdmLevel is the TDMRep level that decides: the closest with a
// statement (-1: none).
func (s *Set) tdmLevel() int {
	for l := int(numLevels) - 1; l >= 0; l-- {
		if s.has[1+l] {
			return l
		}
	}
	return -1
}

// Prefs combines the statements: TDMRep's closest level stands for
// TDMRep, and the mechanisms combine as section 5.1 says (disallowed
// wins, then allowed). by names, for each category, the statement that
// decided (nil while it is unknown).
func (s *Set) Prefs() (p Prefs, by [NumCategories]*Statement) {
	groups := []int{0}
	if l := s.tdmLevel(); l >= 0 {
		groups = append(groups, 1+l)
	}
	for _, g := range groups {
		p = p.Combine(s.prefs[g])
	}
	for c, v := range p {
		if v == Unknown {
			continue
		}
		for _, g := range groups {
			if st := s.first[g][c][v]; st != nil {
				by[c] = st
				break
			}
		}
	}
	return p, by
}

// Decision is what preferences say of a purpose.
type Decision struct {
	Purpose string `json:"purpose"`
	Allowed bool   `json:"allowed"`
	// Category is the category that is disallowed, By the statement that
	// disallows it (when not Allowed).
	Category string     `json:"category,omitempty"`
	By       *Statement `json:"by,omitempty"`
}

// String says the decision in a line: `train-ai: allowed`, `all:
// train-ai disallowed by meta robots "noai" at 3:1`.
func (d Decision) String() string {
	if d.Allowed {
		return d.Purpose + ": allowed"
	}
	s := d.Purpose + ": " + d.Category + " disallowed"
	if d.By != nil {
		s += " by " + d.By.String()
	}
	return s
}

// Decide says whether the set's preferences allow the purpose.
func (s *Set) Decide(p Purpose) Decision {
	prefs, by := s.Prefs()
	ok, c := p.Decide(prefs)
	d := Decision{Purpose: p.String(), Allowed: ok}
	if !ok {
		d.Category, d.By = c.String(), by[c]
	}
	return d
}

// Report is what a Set says, for a document's record.
type Report struct {
	Statements        []Statement `json:"statements,omitempty"`
	StatementsDropped int         `json:"statements_dropped,omitempty"`
	// Preferences are the combined preferences (Set.Prefs).
	Preferences Prefs `json:"preferences"`
	// TDMPolicy is the tdm-policy of the TDMRep level that decides, when
	// it reserves TDM rights (the report asks agents not to read a policy
	// beside a 0).
	TDMPolicy string `json:"tdm_policy,omitempty"`
	// Purpose is the decision for the caller's purpose, when one is set.
	Purpose *Decision `json:"purpose,omitempty"`
}

// Report sums the set up, with the decision for p when p is set.
func (s *Set) Report(p Purpose) *Report {
	r := &Report{StatementsDropped: s.dropped}
	top := s.tdmLevel()
	r.Statements = make([]Statement, len(s.statements))
	copy(r.Statements, s.statements)
	for i := range r.Statements {
		st := &r.Statements[i]
		st.Superseded = st.Mechanism == TDMRep && int(st.Level) < top
	}
	r.Preferences, _ = s.Prefs()
	if top >= 0 && r.Preferences[TrainAI] == Disallowed && s.prefs[1+top][TrainAI] == Disallowed {
		r.TDMPolicy = s.policy[top]
	}
	if !p.IsZero() {
		d := s.Decide(p)
		r.Purpose = &d
	}
	return r
}
