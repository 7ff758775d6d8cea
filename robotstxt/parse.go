package robotstxt

import (
	"fmt"
	"strings"
)

// field is a key robofilter understands.
type field uint8

const (
	fieldUnknown field = iota
	fieldUserAgent
	fieldAllow
	fieldDisallow
	fieldSitemap
	fieldCrawlDelay
	fieldRequestRate
	fieldVisitTime
	fieldComment
	fieldRobotVersion
	fieldHost
	fieldCleanParam
	fieldContentUsage
	fieldContentSignal
)

var fieldByName = map[string]field{
	"user-agent":     fieldUserAgent,
	"allow":          fieldAllow,
	"disallow":       fieldDisallow,
	"sitemap":        fieldSitemap,
	"crawl-delay":    fieldCrawlDelay,
	"request-rate":   fieldRequestRate,
	"visit-time":     fieldVisitTime,
	"comment":        fieldComment,
	"robot-version":  fieldRobotVersion,
	"host":           fieldHost,
	"clean-param":    fieldCleanParam,
	"content-usage":  fieldContentUsage,
	"content-signal": fieldContentSignal,
}

// googleMaxLine is where Google's parser cuts a line (a buffer of
// 8 × 2083 bytes, the longest URL IE took, less the terminating NUL).
const googleMaxLine = 2083*8 - 1

// Parse reads a robots.txt body. It never fails: lines it cannot use are
// reported by Warnings and the rest still counts.
func Parse(body []byte, opts Options) *Robots {
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	text, encoding, cut := decodeBody(body, maxBytes)
	if cut {
		// A line cut in two could turn "Disallow: /private" into
		// "Disallow: /": drop the partial line.
		text = text[:strings.LastIndexAny(text, "\r\n")+1]
	}
	r := &Robots{mode: opts.Mode, encoding: encoding, size: len(text)}
	p := parser{r: r, mode: opts.Mode, cur: -1, markup: looksLikeMarkup(text)}
	num := 0
	for len(text) > 0 {
		var seg string
		if j := strings.IndexByte(text, '\n'); j >= 0 {
			seg, text = text[:j], text[j+1:]
		} else {
			seg, text = text, ""
		}
		// A CR ends a line too: CRLF ends it once, a lone CR (old Mac
		// files) splits the segment.
		for {
			k := strings.IndexByte(seg, '\r')
			num++
			if k < 0 {
				p.line(num, seg)
				break
			}
			p.line(num, seg[:k])
			if seg = seg[k+1:]; seg == "" {
				break
			}
		}
	}
	r.lines = num
	if p.markup {
		p.markupWarning()
	}
	if cut {
		p.warn(num+1, "file longer than %d bytes: the rest is ignored", maxBytes)
	}
	r.indexAgents()
	return r
}

// parser holds the state of a Parse.
type parser struct {
	r    *Robots
	mode Mode
	// cur is the index of the group being read, -1 before the first
	// User-agent line and, in v1, after a blank line ended the record.
	cur int
	// curHasRule: an Allow or Disallow line was seen in cur, so the next
	// User-agent line starts a new group. curHasField: any line other than
	// User-agent was seen in cur (Robot-version must come before).
	curHasRule, curHasField bool
	// markup: the file is an HTML (or XML) page, as a site that serves
	// its home page or an error page at /robots.txt sends: its lines are
	// not warned of one by one (unused counts them), one warning says so.
	markup bool
	unused int
	// runFrom is where, in cur's Agents, the User-agent lines start that
	// the next Content-Usage or Content-Signal line concerns; runEnded is
	// set once a rule or such a line ended that run, so that the next
	// User-agent line starts another (usage.go).
	runFrom  int
	runEnded bool
}

// looksLikeMarkup reports whether a robots.txt file is markup: its first
// character that is not white space opens a tag, a comment, a DOCTYPE or
// a processing instruction. No robots.txt line starts so.
func looksLikeMarkup(text string) bool {
	text = strings.TrimLeft(text, " \t\r\n")
	if len(text) < 2 || text[0] != '<' {
		return false
	}
	c := text[1]
	return c == '!' || c == '?' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// markupWarning is the one warning about a file that is markup, first.
func (p *parser) markupWarning() {
	what := "no group: every URL is allowed (RFC 9309 section 2.2.1)"
	if n := len(p.r.groups); n > 0 {
		what = fmt.Sprintf("it still has %d group(s), which apply", n)
	}
	w := Warning{Line: 1, Message: fmt.Sprintf("the file looks like an HTML page, not robots.txt (as when a site serves a page at /robots.txt): %d unusable lines not listed; %s", p.unused, what)}
	p.r.warnings = append([]Warning{w}, p.r.warnings...)
	p.markup = false // later warnings (a file cut short) are the file's
}

func (p *parser) warn(line int, format string, args ...any) {
	if p.markup {
		p.unused++
		return
	}
	p.r.warnings = append(p.r.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}

// warnOutsideGroup reports a group's line found where no group is open.
func (p *parser) warnOutsideGroup(num int, key string) {
	if p.mode == V1 && len(p.r.groups) > 0 {
		p.warn(num, "%s outside any record (a blank line ends a record): ignored", key)
		return
	}
	p.warn(num, "%s before any User-agent line: ignored", key)
}

func (p *parser) group() *Group { return &p.r.groups[p.cur] }

func (p *parser) line(num int, line string) {
	raw := line
	if p.mode == Google && len(line) > googleMaxLine {
		p.warn(num, "line longer than %d bytes: the rest is ignored (Google)", googleMaxLine)
		line = line[:googleMaxLine]
	}
	if i := strings.IndexByte(line, 0); i >= 0 {
		p.warn(num, "NUL byte: the rest of the line is ignored")
		line = line[:i]
	}
	content := line
	if i := strings.IndexByte(content, '#'); i >= 0 {
		content = content[:i]
	}
	content = trimSpace(content)
	if content == "" {
		// A blank line ends a v1 record; a comment line does not.
		if p.mode == V1 && trimSpace(raw) == "" {
			p.cur = -1
		}
		return
	}
	key, value, ok := p.split(content)
	if !ok {
		p.warn(num, "no colon: %q is not a field", content)
		return
	}
	switch f := p.field(key); f {
	case fieldUserAgent:
		p.userAgent(num, value)
	case fieldAllow, fieldDisallow:
		if p.cur < 0 {
			p.warnOutsideGroup(num, key)
			return
		}
		g := p.group()
		g.Rules = append(g.Rules, Rule{Allow: f == fieldAllow, Pattern: value, Line: num})
		p.curHasRule, p.curHasField = true, true
		p.runEnded = true
		if value != "" && value[0] != '/' && value[0] != '*' {
			p.warn(num, "pattern %q does not start with / or *: it can match no path", value)
		}
	case fieldRobotVersion:
		p.robotVersion(num, value)
	case fieldContentUsage, fieldContentSignal:
		p.usage(num, f, key, value)
	case fieldCrawlDelay, fieldRequestRate, fieldVisitTime, fieldComment:
		p.groupExtension(num, f, key, value)
	case fieldSitemap:
		switch {
		case value == "":
			p.warn(num, "empty Sitemap: ignored")
		default:
			if !strings.Contains(value, "://") {
				p.warn(num, "sitemap %q is not an absolute URL", value)
			}
			p.r.sitemaps = append(p.r.sitemaps, Sitemap{URL: value, Line: num})
		}
	case fieldHost:
		if value == "" {
			p.warn(num, "empty Host: ignored")
			return
		}
		p.r.hosts = append(p.r.hosts, Host{Name: value, Line: num})
	case fieldCleanParam:
		cp := parseCleanParam(value)
		if len(cp.Params) == 0 {
			p.warn(num, "Clean-param without parameters: ignored")
			return
		}
		cp.Line = num
		p.r.cleanParams = append(p.r.cleanParams, cp)
	default:
		if lower := strings.ToLower(key); (lower == "http" || lower == "https") && strings.HasPrefix(value, "//") {
			p.warn(num, "a URL alone is not a field (Sitemap: missing?): ignored")
			return
		}
		p.warn(num, "unknown field %q: ignored", key)
	}
}

// split cuts a line into key and value at the first colon. Google also
// accepts a space for a forgotten colon, when the line is exactly two words.
func (p *parser) split(content string) (key, value string, ok bool) {
	if i := strings.IndexByte(content, ':'); i >= 0 {
		return trimSpace(content[:i]), trimSpace(content[i+1:]), true
	}
	if p.mode != Google {
		return "", "", false
	}
	i := strings.IndexAny(content, " \t")
	if i < 0 {
		return "", "", false
	}
	value = trimSpace(content[i:])
	if strings.ContainsAny(value, " \t") {
		return "", "", false
	}
	return content[:i], value, true
}

func (p *parser) field(key string) field {
	var stack [32]byte
	lower := appendLowerASCII(stack[:0], key)
	if f, ok := fieldByName[string(lower)]; ok {
		return f
	}
	if p.mode == Google {
		return googleField(string(lower))
	}
	return fieldUnknown
}

// googleField recognises keys the way Google's parser does: by prefix, and
// with the misspellings it has seen often.
func googleField(key string) field {
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(key, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("user-agent", "useragent", "user agent"):
		return fieldUserAgent
	case has("allow"):
		return fieldAllow
	case has("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		return fieldDisallow
	case has("sitemap", "site-map"):
		return fieldSitemap
	}
	return fieldUnknown
}

func (p *parser) userAgent(num int, value string) {
	if p.cur < 0 || p.curHasRule {
		p.r.groups = append(p.r.groups, Group{Line: num})
		p.cur = len(p.r.groups) - 1
		p.curHasRule, p.curHasField = false, false
		p.runFrom, p.runEnded = 0, false
	} else if p.runEnded {
		p.runFrom, p.runEnded = len(p.group().Agents), false
	}
	a := Agent{Name: value, Line: num}
	switch {
	case p.mode == V1 && value == "*":
		a.Token = "*"
	case p.mode == V1:
		if a.Token = v1Name(value); a.Token == "" {
			p.warn(num, "user-agent %q has no letters or digits: it matches no robot", value)
		}
	case value != "" && value[0] == '*' && (len(value) == 1 || value[1] == ' ' || value[1] == '\t'):
		a.Token = "*"
		if value != "*" {
			p.warn(num, "user-agent %q: the text after * is ignored", value)
		}
	default:
		token := productToken(value)
		a.Token = strings.ToLower(token)
		switch {
		case token == "":
			p.warn(num, "user-agent %q has no product token: it matches no robot", value)
		case token != value:
			p.warn(num, "user-agent %q is not a product token: matching %q", value, token)
		}
	}
	g := p.group()
	g.Agents = append(g.Agents, a)
}

func (p *parser) robotVersion(num int, value string) {
	switch {
	case p.cur < 0:
		p.warnOutsideGroup(num, "Robot-version")
		return
	case p.group().RobotVersion != "":
		p.warn(num, "second Robot-version in the record: ignored")
		return
	case p.curHasField:
		p.warn(num, "Robot-version is not right after the User-agent lines: ignored, the record stays 1.0")
		return
	}
	p.curHasField = true
	major, minor, ok := parseRobotVersion(value)
	if !ok || major < 1 {
		p.warn(num, "Robot-version %q is not a version: the record stays 1.0", value)
		return
	}
	g := p.group()
	g.RobotVersion, g.RobotVersionLine = value, num
	switch {
	case major == 2 && minor%2 == 0:
		g.Proposal = true
	case major == 2:
		g.Skipped = true
		p.warn(num, "Robot-version %s is experimental (odd minor number): the record is ignored, as the proposal asks", value)
	case major > 2:
		g.Skipped = true
		p.warn(num, "Robot-version %s is unknown: the record is ignored", value)
	}
}

func (p *parser) groupExtension(num int, f field, key, value string) {
	if p.cur < 0 {
		p.warnOutsideGroup(num, key)
		return
	}
	p.curHasField = true
	g := p.group()
	place := Place{Line: num, Agents: len(g.Agents)}
	switch f {
	case fieldCrawlDelay:
		d, err := parseCrawlDelay(value)
		if err != nil {
			p.warn(num, "%v: ignored", err)
			return
		}
		g.CrawlDelays = append(g.CrawlDelays, CrawlDelay{Delay: d, Place: place})
	case fieldRequestRate:
		rr, err := parseRequestRate(value)
		if err != nil {
			p.warn(num, "%v: ignored", err)
			return
		}
		rr.Place = place
		g.RequestRates = append(g.RequestRates, rr)
	case fieldVisitTime:
		w, err := parseTimeWindow(value)
		switch {
		case err != nil:
			p.warn(num, "visit-time %q: %v: ignored", value, err)
		case len(g.VisitTimes) > 0:
			p.warn(num, "second Visit-time in the record (one is allowed): ignored")
		default:
			g.VisitTimes = append(g.VisitTimes, VisitTime{TimeWindow: w, Place: place})
		}
	case fieldComment:
		g.Comments = append(g.Comments, Comment{Text: value, Place: place})
	}
}

// productToken returns the leading run of the characters RFC 9309 allows in
// a product token: letters, "-" and "_".
func productToken(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			break
		}
		i++
	}
	return s[:i]
}

// v1Name is what v1 mode compares of a robot name: the name lower-cased,
// without hyphens, underscores and spaces. The seed's Table 9-4 calls the
// robot of the "Suzy-Spider" record SuzySpider, so those do not count;
// every other character does ("barbarbot*" is no substring of
// "barbarbot", "* foo" none of "FooBot").
func v1Name(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '-' || c == '_' || c == ' ' || c == '\t':
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c - 'A' + 'a')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func appendLowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}
