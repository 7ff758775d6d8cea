package robotstxt

import (
	"fmt"
	"strings"
	"sync"
)

// Mode selects the rules a file is read and matched by.
type Mode uint8

const (
	// RFC9309 follows RFC 9309, the Robots Exclusion Protocol (the default).
	RFC9309 Mode = iota
	// Google follows Google's matcher, leniencies included.
	Google
	// V1 follows the 1994 standard and 1996 draft as "HTTP: The Definitive
	// Guide" describes them.
	V1
)

var modeNames = [...]string{RFC9309: "rfc9309", Google: "google", V1: "v1"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode reads a mode name: "rfc9309", "google" or "v1".
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if strings.EqualFold(s, name) {
			return Mode(m), nil
		}
	}
	return RFC9309, fmt.Errorf("unknown robots.txt mode %q (want rfc9309, google or v1)", s)
}

func (m Mode) normalizer() normalizer {
	switch m {
	case Google:
		return normGoogle
	case V1:
		return normV1
	}
	return normRFC
}

// DefaultMaxBytes is how much of a body is read unless Options say
// otherwise. RFC 9309 asks crawlers to parse at least 500 KiB.
const DefaultMaxBytes = 512 << 10

// Options control parsing.
type Options struct {
	Mode Mode
	// MaxBytes bounds the text read (after decoding); 0 means
	// DefaultMaxBytes. Lines after the limit are ignored, with a warning.
	MaxBytes int
}

// Rule is an Allow or Disallow line.
type Rule struct {
	Allow   bool
	Pattern string // the value as written, comment and spaces removed
	Line    int
}

func (r Rule) String() string {
	if r.Allow {
		return "Allow: " + r.Pattern
	}
	return "Disallow: " + r.Pattern
}

// Agent is one User-agent line of a group.
type Agent struct {
	Name string // the value as written
	// Token is what is compared with a robot's name: "*" for the wildcard;
	// the lower-cased product token (RFC 9309, Google), which is the value
	// up to the first character other than a letter, "-" or "_"; in v1 the
	// value lower-cased, without "-", "_" and spaces. Empty matches no robot.
	Token string
	Line  int
}

// Place says where an extension line stands and whom it concerns. An
// extension line does not end a group's list of user-agents (RFC 9309
// section 2.2.4), so a line between two User-agent lines concerns only the
// robots named above it: Agents counts them, from the group's first.
type Place struct {
	Line   int
	Agents int
}

// Group is a record: one or more User-agent lines and the lines that follow
// them up to the next group.
type Group struct {
	Line   int // line of the first User-agent line
	Agents []Agent
	Rules  []Rule
	// RobotVersion is the Robot-version value, when the line came right
	// after the User-agent lines; Proposal is set when it is 2.x with an
	// even minor number, and the group then follows the 1996 proposal.
	RobotVersion     string
	RobotVersionLine int
	Proposal         bool
	// Skipped is set for a group whose Robot-version declares a version
	// robofilter does not follow (an odd, experimental minor number or a
	// major number above 2): the proposal asks robots to ignore it.
	Skipped bool

	CrawlDelays  []CrawlDelay
	RequestRates []RequestRate
	VisitTimes   []VisitTime
	Comments     []Comment
	// Usages are the Content-Usage and Content-Signal lines, in file order.
	Usages []Usage
}

// Sitemap is a Sitemap line.
type Sitemap struct {
	URL  string
	Line int
}

// Host is a Host line (Yandex): the site's preferred host name.
type Host struct {
	Name string
	Line int
}

// CleanParam is a Clean-param line (Yandex): query parameters that do not
// change a page, optionally only under a path prefix.
type CleanParam struct {
	Params []string
	Path   string
	Line   int
}

// Warning is a line, or part of one, that could not be used.
type Warning struct {
	Line    int
	Message string
}

func (w Warning) String() string { return fmt.Sprintf("line %d: %s", w.Line, w.Message) }

// verdict is what the fetch outcome says before any rule is read.
type verdict uint8

const (
	verdictRules       verdict = iota // the body's rules decide
	verdictAllowAll                   // the file is unavailable (4xx): no restriction
	verdictDisallowAll                // unreachable (5xx, network failure): complete disallow
	verdictNotModified                // 304: the caller's cached copy is in force; disallow until it is used
)

// Robots is a parsed robots.txt file. It is immutable and safe for
// concurrent use.
type Robots struct {
	mode     Mode
	encoding string
	size     int
	lines    int

	groups      []Group
	sitemaps    []Sitemap
	hosts       []Host
	cleanParams []CleanParam
	warnings    []Warning

	status  int
	verdict verdict

	// agents holds the rules for each lower-cased product token named in
	// the file (RFC9309 and Google modes); global is for robots no group
	// names, when there are "*" groups; none is for robots nothing applies to.
	agents map[string]*AgentRules
	global *AgentRules
	none   *AgentRules

	// v1Sets caches the compiled rules of each v1 record, by group index.
	v1Sets sync.Map // int32 → *ruleSet
}

// Mode returns the mode the file was parsed in.
func (r *Robots) Mode() Mode { return r.mode }

// Encoding returns the encoding the body was read in (EncodingUTF8,
// EncodingUTF16LE or EncodingUTF16BE).
func (r *Robots) Encoding() string { return r.encoding }

// Size returns how many bytes of text were read, after decoding.
func (r *Robots) Size() int { return r.size }

// Lines returns how many lines were read.
func (r *Robots) Lines() int { return r.lines }

// Status returns the HTTP status given to FromResponse (0 for Parse).
func (r *Robots) Status() int { return r.status }

// Groups returns the groups in file order. The slice is shared: do not modify it.
func (r *Robots) Groups() []Group { return r.groups }

// Sitemaps returns the Sitemap lines in file order.
func (r *Robots) Sitemaps() []Sitemap { return r.sitemaps }

// SitemapURLs returns the distinct sitemap URLs, in the order first seen.
func (r *Robots) SitemapURLs() []string {
	var urls []string
	seen := map[string]bool{}
	for _, s := range r.sitemaps {
		if !seen[s.URL] {
			seen[s.URL] = true
			urls = append(urls, s.URL)
		}
	}
	return urls
}

// Hosts returns the Host lines in file order; Yandex uses the first.
func (r *Robots) Hosts() []Host { return r.hosts }

// CleanParams returns the Clean-param lines in file order.
func (r *Robots) CleanParams() []CleanParam { return r.cleanParams }

// Warnings returns the lines that could not be used, in line order.
func (r *Robots) Warnings() []Warning { return r.warnings }

// Allowed reports whether the robot named agent may fetch url: an absolute
// URL, of which only the path and query count, or a path, read from the
// root with or without its leading "/" (see AgentRules.Decide).
func (r *Robots) Allowed(agent, url string) bool {
	return r.ForAgent(agent).Allowed(url)
}

// Decide is Allowed with the reason for the verdict.
func (r *Robots) Decide(agent, url string) Decision {
	return r.ForAgent(agent).Decide(url)
}

// AgentRules is what a file says to one robot: its rules, compiled for fast
// matching on first use, and its extension fields. Get it once with ForAgent
// and match many URLs with it; it is safe for concurrent use.
type AgentRules struct {
	robots *Robots
	// groups are the groups that apply, in file order; position[k] is the
	// index, within groups[k], of the first User-agent line that selected it.
	groups   []int32
	position []int
	// token is the product token the groups were selected by ("*" for
	// the groups of every robot no group names); v1 selects by position.
	token string

	compile sync.Once
	set     *ruleSet // nil when no group applies

	usageOnce sync.Once
	usageSet  *usageSet // the Content-Usage and Content-Signal lines (Usage)
}

// rules returns the compiled rule set, building it on first use.
func (a *AgentRules) rules() *ruleSet {
	a.compile.Do(func() {
		if len(a.groups) == 0 {
			return
		}
		if a.robots.mode != V1 {
			a.set = compileRules(a.robots, a.groups)
			return
		}
		set, ok := a.robots.v1Sets.Load(a.groups[0])
		if !ok {
			set, _ = a.robots.v1Sets.LoadOrStore(a.groups[0], compileRules(a.robots, a.groups))
		}
		a.set = set.(*ruleSet)
	})
	return a.set
}

// ForAgent returns the rules for the robot named agent: its product token,
// such as "FooBot", compared case-insensitively with the product tokens of
// the User-agent lines. In RFC9309 mode a version after a "/" ("FooBot/2.1")
// is ignored (NameToken); a name that is no product token ("bot3") is
// compared whole, so it matches no User-agent line, which are read up to
// their product token (as the conformance cases want: "AB42bot" matches no
// "User-agent: AB42bot"). Google mode compares agent as given, as Google's
// matcher does; v1 looks for the record names inside agent.
func (r *Robots) ForAgent(agent string) *AgentRules {
	if r.verdict != verdictRules {
		return r.none
	}
	if r.mode == V1 {
		groups, position := r.selectV1(agent)
		return &AgentRules{robots: r, groups: groups, position: position}
	}
	if r.mode == RFC9309 {
		agent = NameToken(agent)
	}
	var stack [64]byte
	key := appendLowerASCII(stack[:0], agent)
	if a, ok := r.agents[string(key)]; ok && len(key) > 0 {
		return a
	}
	if r.global != nil {
		return r.global
	}
	return r.none
}

// ProductToken is the leading run of the characters RFC 9309 allows in a
// product token (letters, "-" and "_"): what a User-agent line names. A
// robot whose NameToken differs from it ("bot3") is named by no line.
func ProductToken(agent string) string { return productToken(agent) }

// NameToken is a robot's name up to a "/" (which starts a version) or a
// space: the product token it means to give.
func NameToken(agent string) string {
	if i := strings.IndexAny(agent, "/ \t"); i >= 0 {
		return agent[:i]
	}
	return agent
}

// indexAgents builds the rules of every robot the file names, compiled lazily.
func (r *Robots) indexAgents() {
	r.none = &AgentRules{robots: r}
	if r.mode == V1 {
		return
	}
	byToken := map[string][]int32{}
	var global []int32
	for gi := range r.groups {
		g := &r.groups[gi]
		if g.Skipped {
			continue
		}
		seen := map[string]bool{}
		for _, a := range g.Agents {
			switch {
			case a.Token == "" || seen[a.Token]:
			case a.Token == "*":
				global = append(global, int32(gi))
			default:
				byToken[a.Token] = append(byToken[a.Token], int32(gi))
			}
			seen[a.Token] = true
		}
	}
	r.agents = make(map[string]*AgentRules, len(byToken))
	for token, groups := range byToken {
		r.agents[token] = &AgentRules{robots: r, groups: groups, position: positions(r, groups, token), token: token}
	}
	if len(global) > 0 {
		r.global = &AgentRules{robots: r, groups: global, position: positions(r, global, "*"), token: "*"}
	}
}

// positions finds, in each group, the first User-agent line with the token.
func positions(r *Robots, groups []int32, token string) []int {
	pos := make([]int, len(groups))
	for k, gi := range groups {
		for i, a := range r.groups[gi].Agents {
			if a.Token == token {
				pos[k] = i
				break
			}
		}
	}
	return pos
}

// selectV1 picks the record of a robot the v1 way: the first record with a
// name that is a substring of the robot's name, else the first "*" record.
func (r *Robots) selectV1(agent string) ([]int32, []int) {
	name := v1Name(agent)
	star, starPos := int32(-1), 0
	for gi := range r.groups {
		g := &r.groups[gi]
		if g.Skipped {
			continue
		}
		for i, a := range g.Agents {
			if a.Token == "*" {
				if star < 0 {
					star, starPos = int32(gi), i
				}
				continue
			}
			if a.Token != "" && name != "" && strings.Contains(name, a.Token) {
				return []int32{int32(gi)}, []int{i}
			}
		}
	}
	if star >= 0 {
		return []int32{star}, []int{starPos}
	}
	return nil, nil
}

// Groups returns the groups that apply to the robot, in file order: the
// groups naming it (merged), else the "*" groups (RFC9309, Google); the one
// record v1 selects. Empty when no group applies.
func (a *AgentRules) Groups() []*Group {
	gs := make([]*Group, len(a.groups))
	for k, gi := range a.groups {
		gs[k] = &a.robots.groups[gi]
	}
	return gs
}

// Allowed reports whether the robot may fetch url: an absolute URL or a
// path, read as Decide reads it.
func (a *AgentRules) Allowed(url string) bool { return a.Decide(url).Allowed }

// Decide returns the verdict for url with its reason. url is an absolute
// URL ("https://example.com/a?b", "//example.com/a"), of which only the
// path and query count, or a path, which is read from the root whether or
// not it starts with "/": "private/x.html" is "/private/x.html", never a
// host "private" with a path "/x.html". Only a URL with a scheme and "://",
// or one starting with "//", has a host. A fragment ("#…") never counts.
func (a *AgentRules) Decide(url string) Decision {
	path, slash := requestPath(url)
	return a.decide(path, slash)
}

// DecidePath is Decide for a path given on its own (the URL's path and
// query); a missing leading "/" is supplied.
func (a *AgentRules) DecidePath(path string) Decision {
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	return a.decide(path, !strings.HasPrefix(path, "/"))
}

func (a *AgentRules) decide(path string, slash bool) Decision {
	r := a.robots
	// Most paths are short: normalise on the stack.
	var stack [256]byte
	buf := stack[:0]
	if slash {
		buf = append(buf, '/')
	}
	buf = r.mode.normalizer().appendPath(buf, path)
	if r.mode != Google && isRobotsTxt(buf) {
		return Decision{Allowed: true, Reason: ReasonRobotsTxt, Status: r.status}
	}
	switch r.verdict {
	case verdictAllowAll:
		return Decision{Allowed: true, Reason: ReasonStatus, Status: r.status}
	case verdictDisallowAll, verdictNotModified:
		return Decision{Allowed: false, Reason: ReasonStatus, Status: r.status}
	}
	set := a.rules()
	if set == nil {
		return Decision{Allowed: true, Reason: ReasonNoGroup}
	}
	allowed, rule, reason := set.decide(buf)
	d := Decision{Allowed: allowed, Reason: reason, Status: r.status}
	if rule >= 0 {
		d.Rule = set.rules[rule].src
	}
	return d
}

// isRobotsTxt reports whether a normalised path is /robots.txt, which RFC
// 9309 (and the v1 draft) always allow.
func isRobotsTxt(path []byte) bool {
	const p = "/robots.txt"
	return len(path) >= len(p) && string(path[:len(p)]) == p && (len(path) == len(p) || path[len(p)] == '?')
}

// requestPath returns what the rules are matched against in the url given
// to Decide, and whether a "/" must be put in front: pathOf's for a URL
// with a host, else the path itself up to any "#".
func requestPath(url string) (path string, slash bool) {
	if hasAuthority(url) {
		return pathOf(url)
	}
	if i := strings.IndexByte(url, '#'); i >= 0 {
		url = url[:i]
	}
	return url, !strings.HasPrefix(url, "/")
}

// hasAuthority reports whether url names a host: it starts with "//" or
// with a scheme (RFC 3986: a letter, then letters, digits, "+", "-" and
// ".") and "://".
func hasAuthority(url string) bool {
	if strings.HasPrefix(url, "//") {
		return true
	}
	for i := 0; i < len(url); i++ {
		c := url[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.HasPrefix(url[i+1:], "//")
		default:
			return false
		}
	}
	return false
}

// pathOf returns the path, parameters and query of a URL, which is what
// rules are matched against, the way Google's matcher finds them: the part
// from the first "/", "?" or ";" after the authority, up to any "#". slash
// reports that a "/" must be put in front (the URL had a query but no path).
// A URL with neither gives "/".
func pathOf(url string) (path string, slash bool) {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	early := indexAnyFrom(url, start)
	proto := strings.Index(url[start:], "://")
	switch {
	case proto < 0 || (early >= 0 && early < start+proto):
		proto = start
	default:
		proto += start + 3
	}
	begin := indexAnyFrom(url, proto)
	if begin < 0 {
		return "/", false
	}
	end := len(url)
	if hash := strings.IndexByte(url[start:], '#'); hash >= 0 {
		if start+hash < begin {
			return "/", false
		}
		end = start + hash
	}
	return url[begin:end], url[begin] != '/'
}

// indexAnyFrom finds the first "/", "?" or ";" at or after from.
func indexAnyFrom(s string, from int) int {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '/', '?', ';':
			return i
		}
	}
	return -1
}
