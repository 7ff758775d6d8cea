package robotstxt

import "bytes"

// evalKind is how a compiled rule set reaches its verdict.
type evalKind uint8

const (
	evalLongest  evalKind = iota // RFC 9309 and Google: longest pattern wins, Allow wins ties
	evalFirst                    // v1: first matching rule in file order
	evalProposal                 // robots.txt 2.0 (1996 proposal) precedence
)

// ruleClass sorts the rules of a robots.txt 2.0 record.
type ruleClass uint8

const (
	classPlain    ruleClass = iota // a rule outside any 2.0 record
	classExplicit                  // 2.0, no wildcard: the path must equal the pattern
	classWildcard                  // 2.0, with "*": the pattern must match the whole path
	classGeneral                   // a 1.0 rule merged into a 2.0 set: a prefix, i.e. pattern + "*"
)

type compiledRule struct {
	src   *Rule
	pat   pattern
	prio  int // pattern length: the longest match wins
	class ruleClass
}

// ruleSet is the compiled rules of one robot: the groups that apply to it,
// merged, normalised and indexed. It is immutable once built.
type ruleSet struct {
	kind  evalKind
	norm  normalizer
	rules []compiledRule // in file order

	// The tree over the rules' heads (evalLongest and evalFirst); see trie.go.
	nodes      []trieNode // nodes[0] is the root
	childBytes []byte     // first label byte of each child
	childNodes []int32    // index of each child in nodes
	wildRules  []int32    // the nodes' wildcard rule lists

	hasExplicitAllow, hasWildcardAllow, hasDisallow bool // evalProposal
}

// compileRules builds the rule set of the given groups (indices into r.groups, ascending).
func compileRules(r *Robots, groups []int32) *ruleSet {
	s := &ruleSet{norm: r.mode.normalizer(), kind: evalLongest}
	if r.mode == V1 {
		s.kind = evalFirst
	}
	for _, gi := range groups {
		if r.groups[gi].Proposal {
			s.kind = evalProposal
		}
	}
	count, size := 0, 0
	for _, gi := range groups {
		count += len(r.groups[gi].Rules)
		for _, rule := range r.groups[gi].Rules {
			size += len(rule.Pattern)
		}
	}
	s.rules = make([]compiledRule, 0, count)
	// The normalised patterns share one buffer: one allocation, not one per
	// rule. When it grows, the patterns already cut from it keep the old
	// array, which stays as it was.
	buf := make([]byte, 0, size+size/8+16)
	for _, gi := range groups {
		g := &r.groups[gi]
		for ri := range g.Rules {
			buf = s.add(buf, &g.Rules[ri], g.Proposal, r.mode)
		}
	}
	if s.kind == evalProposal {
		return s
	}
	s.buildTrie()
	return s
}

// add compiles a rule, its normalised pattern appended to buf.
func (s *ruleSet) add(buf []byte, rule *Rule, proposal bool, mode Mode) []byte {
	if rule.Pattern == "" {
		// An empty Disallow forbids nothing. An empty Allow matches every
		// path; only first-match (v1) can see the difference, since under
		// longest match any other matching rule is longer. In a 2.0 set an
		// empty Disallow is still a Disallow line: the set is not one of
		// only Allow rules (decideProposal).
		if !rule.Allow && s.kind == evalProposal {
			s.hasDisallow = true
		}
		if !rule.Allow || s.kind != evalFirst {
			return buf
		}
	}
	start := len(buf)
	buf = s.norm.appendPattern(buf, rule.Pattern)
	norm := buf[start:len(buf):len(buf)]
	switch s.kind {
	case evalFirst:
		s.rules = append(s.rules, compiledRule{src: rule, pat: literalPattern(norm, false), prio: len(norm)})
	case evalLongest:
		s.rules = append(s.rules, compiledRule{src: rule, pat: wildcardPattern(norm), prio: len(norm)})
		if mode == Google && rule.Allow {
			// Google treats "Allow: /dir/index.html" (or index.htm…) as also
			// allowing "/dir/" itself, written "/dir/$".
			if slash := bytes.LastIndexByte(norm, '/'); slash >= 0 && bytes.HasPrefix(norm[slash:], []byte("/index.htm")) {
				start = len(buf)
				buf = append(append(buf, norm[:slash+1]...), '$')
				dir := buf[start:len(buf):len(buf)]
				s.rules = append(s.rules, compiledRule{src: rule, pat: wildcardPattern(dir), prio: len(dir)})
			}
		}
	case evalProposal:
		c := compiledRule{src: rule, prio: len(norm)}
		bare := bytes.TrimSuffix(norm, []byte("$"))
		switch {
		case !proposal && mode == V1:
			c.class, c.pat = classGeneral, literalPattern(norm, false)
		case !proposal:
			// A 1.0 rule keeps its own wildcards: "*" and a final "$".
			c.class, c.pat = classGeneral, wildcardPattern(norm)
		case bytes.IndexByte(norm, '*') >= 0:
			c.class, c.pat = classWildcard, wildcardPattern(norm)
			c.pat.anchored = !bytes.HasSuffix(bare, []byte("*"))
		default:
			c.class, c.pat = classExplicit, literalPattern(bare, true)
		}
		switch {
		case !rule.Allow:
			s.hasDisallow = true
		case c.class == classExplicit:
			s.hasExplicitAllow = true
		default:
			s.hasWildcardAllow = true
		}
		s.rules = append(s.rules, c)
	}
	return buf
}

// better reports whether rule a decides over rule b (b may be -1, no rule).
func (s *ruleSet) better(a, b int32) bool {
	if b < 0 {
		return true
	}
	if s.kind == evalFirst {
		return a < b
	}
	ra, rb := &s.rules[a], &s.rules[b]
	if ra.prio != rb.prio {
		return ra.prio > rb.prio
	}
	if ra.src.Allow != rb.src.Allow {
		return ra.src.Allow
	}
	return a < b
}

// decide returns the verdict for a normalised path and the deciding rule
// (an index into s.rules, or -1).
func (s *ruleSet) decide(path []byte) (allowed bool, rule int32, reason Reason) {
	if s.kind == evalProposal {
		return s.decideProposal(path)
	}
	// Walk down first, taking the literal rules and noting the nodes with
	// wildcard rules; then try those deepest first. Deeper heads are longer,
	// so the best rule is usually found early and most wildcard rules are
	// skipped without being tried.
	best := int32(-1)
	var nodeStack [32]int32
	var offsetStack [32]int
	wildNodes, offsets := nodeStack[:0], offsetStack[:0]
	for ni, i := int32(0), 0; ; {
		n := &s.nodes[ni]
		if n.prefix >= 0 && s.better(n.prefix, best) {
			best = n.prefix
		}
		if n.exact >= 0 && i == len(path) && s.better(n.exact, best) {
			best = n.exact
		}
		if n.wildEnd > n.wildStart {
			wildNodes, offsets = append(wildNodes, ni), append(offsets, i)
		}
		if i >= len(path) {
			break
		}
		if ni = s.child(n, path[i]); ni < 0 || !bytes.HasPrefix(path[i:], s.nodes[ni].label) {
			break
		}
		i += len(s.nodes[ni].label)
	}
	for k := len(wildNodes) - 1; k >= 0; k-- {
		n := &s.nodes[wildNodes[k]]
		for _, w := range s.wildRules[n.wildStart:n.wildEnd] {
			if !s.better(w, best) {
				break // the list is best first: nothing after it can win either
			}
			if s.rules[w].pat.matchTail(path[offsets[k]:]) {
				best = w
				break
			}
		}
	}
	if best < 0 {
		return true, -1, ReasonNoMatch
	}
	if s.kind == evalFirst {
		return s.rules[best].src.Allow, best, ReasonFirstMatch
	}
	return s.rules[best].src.Allow, best, ReasonLongestMatch
}

// decideProposal applies the 1996 robots.txt 2.0 proposal: an explicit
// Allow wins; otherwise a matching Disallow forbids; otherwise the URL must
// pass the wildcard Allow rules if there are any. With no wildcard Allow the
// proposal leaves the answer open ("Discuss"): robofilter allows, unless the
// set has Allow rules and no Disallow at all, where the proposal says only
// the allowed URLs may be fetched (docs/robotstxt.md explains the choice).
func (s *ruleSet) decideProposal(path []byte) (bool, int32, Reason) {
	if s.hasExplicitAllow {
		for i := range s.rules {
			if r := &s.rules[i]; r.src.Allow && r.class == classExplicit && r.pat.match(path) {
				return true, int32(i), ReasonExplicitAllow
			}
		}
	}
	if s.hasDisallow {
		for i := range s.rules {
			if r := &s.rules[i]; !r.src.Allow && r.pat.match(path) {
				return false, int32(i), ReasonProposalDisallow
			}
		}
	}
	if s.hasWildcardAllow {
		for i := range s.rules {
			if r := &s.rules[i]; r.src.Allow && r.class != classExplicit && r.pat.match(path) {
				return true, int32(i), ReasonWildcardAllow
			}
		}
		return false, -1, ReasonNoWildcardAllow
	}
	if s.hasExplicitAllow && !s.hasDisallow {
		return false, -1, ReasonOnlyAllowRules
	}
	return true, -1, ReasonNoMatch
}
