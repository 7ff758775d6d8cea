package robotstxt

import "fmt"

// Reason says what decided a verdict.
type Reason uint8

const (
	// ReasonNoMatch: rules apply to the robot but none matched the URL.
	ReasonNoMatch Reason = iota
	// ReasonNoGroup: no group names the robot and there is no "*" group.
	ReasonNoGroup
	// ReasonLongestMatch: the longest matching pattern (RFC9309, Google).
	ReasonLongestMatch
	// ReasonFirstMatch: the first matching rule in file order (v1).
	ReasonFirstMatch
	// ReasonRobotsTxt: /robots.txt itself is always allowed (RFC9309, v1).
	ReasonRobotsTxt
	// ReasonStatus: the HTTP status of the fetch decided, not the rules.
	ReasonStatus
	// ReasonExplicitAllow: robots.txt 2.0, an Allow without wildcard matched.
	ReasonExplicitAllow
	// ReasonProposalDisallow: robots.txt 2.0, a Disallow matched.
	ReasonProposalDisallow
	// ReasonWildcardAllow: robots.txt 2.0, a wildcard Allow matched.
	ReasonWildcardAllow
	// ReasonNoWildcardAllow: robots.txt 2.0, the record has wildcard Allow
	// rules and the URL matched none of them.
	ReasonNoWildcardAllow
	// ReasonOnlyAllowRules: robots.txt 2.0, the record has Allow rules and
	// no Disallow, and no Allow matched.
	ReasonOnlyAllowRules
)

var reasonText = [...]string{
	ReasonNoMatch:          "no rule matched",
	ReasonNoGroup:          "no group for this robot and no * group",
	ReasonLongestMatch:     "longest match",
	ReasonFirstMatch:       "first match",
	ReasonRobotsTxt:        "/robots.txt is always allowed",
	ReasonStatus:           "fetch status",
	ReasonExplicitAllow:    "robots.txt 2.0: explicit Allow",
	ReasonProposalDisallow: "robots.txt 2.0: Disallow",
	ReasonWildcardAllow:    "robots.txt 2.0: wildcard Allow",
	ReasonNoWildcardAllow:  "robots.txt 2.0: no wildcard Allow matched",
	ReasonOnlyAllowRules:   "robots.txt 2.0: only Allow rules and none matched",
}

func (r Reason) String() string {
	if int(r) < len(reasonText) {
		return reasonText[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Decision is a verdict and what decided it.
type Decision struct {
	Allowed bool
	Reason  Reason
	// Rule is the deciding rule; nil when no rule decided.
	Rule *Rule
	// Status is the HTTP status the file came with (FromResponse), 0 otherwise.
	Status int
}

// String explains the decision in one line, e.g.
// "line 4: Disallow: /private (longest match)".
func (d Decision) String() string {
	switch {
	case d.Rule != nil:
		return fmt.Sprintf("line %d: %s (%s)", d.Rule.Line, d.Rule, d.Reason)
	case d.Reason == ReasonStatus:
		return fmt.Sprintf("HTTP status %s: %s", statusText(d.Status), statusMeaning(d.Status, d.Allowed))
	}
	return d.Reason.String()
}
