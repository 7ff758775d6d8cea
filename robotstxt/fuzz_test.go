package robotstxt

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzPatternMatch checks the linear wildcard matcher against the
// quadratic reference on any pattern and path.
func FuzzPatternMatch(f *testing.F) {
	f.Add("/*a*a*a*b", "/aaaaaaaab")
	f.Add("/fish*.php$", "/fishheads/catfish.php")
	f.Add("*$", "")
	f.Add("/a**b$", "/ab")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if len(pattern) > 64 || len(path) > 256 {
			return // keep the quadratic reference quick
		}
		p := wildcardPattern([]byte(pattern))
		if got, want := p.match([]byte(path)), referenceMatch(pattern, path); got != want {
			t.Errorf("%q ~ %q = %v, reference says %v", pattern, path, got, want)
		}
	})
}

// FuzzParseAndMatch parses any body in every mode and matches a URL: no
// panic, and the indexed matcher agrees with a rule-by-rule evaluation.
func FuzzParseAndMatch(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /a\nAllow: /a/b$\n"), "FooBot", "http://h/a/b")
	f.Add([]byte("User-agent: FooBot\nRobot-version: 2.0\nAllow: */index.html\nDisallow: *.shtml\n"), "FooBot", "/x/index.html")
	f.Add([]byte("\xEF\xBBuser agent FooBot\ndissallow /\n"), "foobot", "/")
	f.Add([]byte("\xFF\xFEU\x00s\x00e\x00r\x00"), "x", "/robots.txt")
	f.Add([]byte("User-agent: *\nDisallow: /private/\n"), "FooBot", "private/x.html#top")
	f.Add([]byte("User-agent: *\nDisallow: /a-%2A.html\nAllow: /b-%24$\nDisallow: /b*\n"), "FooBot", "/b-$")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		for _, mode := range []Mode{RFC9309, Google, V1} {
			r := Parse(body, Options{Mode: mode})
			rules := r.ForAgent(agent)
			d := rules.Decide(url)
			if again := r.Decide(agent, url); again != d {
				t.Fatalf("%s: two decisions differ: %v, %v", mode, d, again)
			}
			if !hasAuthority(url) {
				// A URL without a host is a path, read from the root.
				if p := rules.DecidePath(url); p != d {
					t.Fatalf("%s: %q: Decide %v, DecidePath %v", mode, url, d, p)
				}
			}
			if d.Rule != nil && (d.Rule.Line < 1 || d.Rule.Line > r.Lines()) {
				t.Fatalf("%s: deciding rule on line %d of %d", mode, d.Rule.Line, r.Lines())
			}
			for _, w := range r.Warnings() {
				if w.Line < 1 || w.Line > r.Lines()+1 {
					t.Fatalf("%s: warning on line %d of %d", mode, w.Line, r.Lines())
				}
			}
			if want, ok := ruleByRule(r, rules, url); ok && want != d.Allowed {
				t.Fatalf("%s: agent %q url %q: allowed = %v (%v), rule by rule %v\n%q", mode, agent, url, d.Allowed, d, want, body)
			}
		}
	})
}

// ruleByRule decides without the trie: every rule of the robot's groups is
// tried in turn. ok is false where it does not apply (2.0 records, and the
// cases decided before any rule is read).
func ruleByRule(r *Robots, rules *AgentRules, url string) (allowed, ok bool) {
	path, slash := requestPath(url)
	if slash {
		path = "/" + path
	}
	norm := r.mode.normalizer()
	path = string(norm.appendPath(nil, path))
	if r.mode != Google && isRobotsTxt([]byte(path)) {
		return true, false
	}
	bestLen, bestAllow := -1, true
	for _, g := range rules.Groups() {
		if g.Proposal {
			return false, false
		}
		for _, rule := range g.Rules {
			if rule.Pattern == "" && !(r.mode == V1 && rule.Allow) {
				continue
			}
			p := norm.pattern(rule.Pattern)
			if r.mode == V1 {
				if strings.HasPrefix(path, p) {
					return rule.Allow, true
				}
				continue
			}
			patterns := []string{p}
			if i := strings.LastIndexByte(p, '/'); r.mode == Google && rule.Allow && i >= 0 && strings.HasPrefix(p[i:], "/index.htm") {
				patterns = append(patterns, p[:i+1]+"$")
			}
			for _, p := range patterns {
				if referenceMatch(p, path) && (len(p) > bestLen || len(p) == bestLen && rule.Allow) {
					bestLen, bestAllow = len(p), rule.Allow
				}
			}
		}
	}
	return bestAllow, true
}

// TestIndexedMatcherAgreesOnLargeRuleSets builds rule sets large enough for
// every path of the tree building (radix sorts of many heads, long shared
// prefixes, duplicates) and compares the indexed matcher with the
// rule-by-rule evaluation on many paths.
func TestIndexedMatcherAgreesOnLargeRuleSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"/", "a", "ab", "b", "*", "$", ".php", "%41", "x/", "?q=", "é", "%2A", "%2a", "%24"}
	piece := func(n int) string {
		var b strings.Builder
		b.WriteString("/")
		for range n {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	for _, mode := range []Mode{RFC9309, Google, V1} {
		for round := range 4 {
			var body strings.Builder
			body.WriteString("User-agent: *\n")
			for range 100 + 150*round {
				if rng.IntN(3) == 0 {
					body.WriteString("Allow: ")
				} else {
					body.WriteString("Disallow: ")
				}
				body.WriteString(piece(1+rng.IntN(6)) + "\n")
			}
			r := Parse([]byte(body.String()), Options{Mode: mode})
			rules := r.ForAgent("FooBot")
			for range 500 {
				url := piece(rng.IntN(9))
				want, _ := ruleByRule(r, rules, url)
				if got := rules.Allowed(url); got != want {
					t.Fatalf("%s round %d: %q allowed = %v (%v), rule by rule %v", mode, round, url, got, rules.Decide(url), want)
				}
			}
		}
	}
}

// FuzzUsage parses any body in every mode and asks what it says of a
// URL's use: no panic, no preference for what may not be fetched, and the
// deciding lines are those a line-by-line reading of the file finds.
func FuzzUsage(f *testing.F) {
	f.Add([]byte("User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n"), "OtherBot", "/ai-ok/test")
	f.Add([]byte("User-agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=yes\nAllow: /\n"), "x", "/a")
	f.Add([]byte("User-agent: a\nContent-Usage: /x* train-ai=n\nUser-agent: b\nContent-Usage: /x train-ai=y\nDisallow: /z\n"), "b", "/xy")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		for _, mode := range []Mode{RFC9309, Google, V1} {
			r := Parse(body, Options{Mode: mode})
			rules := r.ForAgent(agent)
			d := rules.Usage(url)
			if d.Fetch != rules.Decide(url) {
				t.Fatalf("%s: fetch %v, Decide %v", mode, d.Fetch, rules.Decide(url))
			}
			if !d.Fetch.Allowed && (len(d.Lines) > 0 || !d.Prefs.IsZero()) {
				t.Fatalf("%s: preferences for a URL that may not be fetched: %+v", mode, d)
			}
			if !d.Fetch.Allowed || mode == V1 {
				continue
			}
			want := usageLineByLine(r, rules, url)
			if len(want) != len(d.Lines) {
				t.Fatalf("%s: agent %q url %q: lines %v, line by line %v\n%q", mode, agent, url, d.Lines, want, body)
			}
			for i := range want {
				if want[i] != d.Lines[i] {
					t.Fatalf("%s: line %d: %v, line by line %v", mode, i, d.Lines[i], want[i])
				}
			}
		}
	})
}

// usageLineByLine finds the deciding Usage lines the slow way: the runs
// of User-agent lines read afresh from each group, each line matched with
// the quadratic reference, the longest of each field kept.
func usageLineByLine(r *Robots, rules *AgentRules, url string) []*Usage {
	path, slash := requestPath(url)
	if slash {
		path = "/" + path
	}
	norm := r.mode.normalizer()
	path = string(norm.appendPath(nil, path))
	var out []*Usage
	for _, signal := range []bool{false, true} {
		best := -1
		var lines []*Usage
		for _, g := range rules.Groups() {
			for i := range g.Usages {
				u := &g.Usages[i]
				named := false
				for _, a := range g.Agents[u.AgentsFrom:u.Agents] {
					named = named || a.Token == rules.token
				}
				p := norm.pattern(u.Path)
				if u.Signal != signal || !named || !referenceMatch(p, path) {
					continue
				}
				switch {
				case len(p) > best:
					best, lines = len(p), []*Usage{u}
				case len(p) == best:
					lines = append(lines, u)
				}
			}
		}
		out = append(out, lines...)
	}
	return out
}
