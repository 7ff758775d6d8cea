package robotstxt

import (
	"strings"
	"testing"
)

// matchCase asks whether agent may fetch url under robots.
type matchCase struct {
	name    string
	robots  string
	agent   string
	url     string
	allowed bool
}

func runMatchCases(t *testing.T, mode Mode, cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.robots), Options{Mode: mode})
			d := r.Decide(c.agent, c.url)
			if d.Allowed != c.allowed {
				t.Errorf("%s mode: agent %q url %q: allowed = %v (%s), want %v\nrobots.txt:\n%s", mode, c.agent, c.url, d.Allowed, d, c.allowed, c.robots)
			}
		})
	}
}

func TestRFC9309Matching(t *testing.T) {
	runMatchCases(t, RFC9309, []matchCase{
		{"longest match wins over earlier shorter rule", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "FooBot", "/a/b/c", true},
		{"longest match wins over later shorter rule", "User-agent: *\nAllow: /a/b\nDisallow: /a\n", "FooBot", "/a/c", false},
		{"allow wins a tie of equal length", "User-agent: *\nDisallow: /a\nAllow: /a\n", "FooBot", "/a", true},
		{"wildcard length counts with the star", "User-agent: *\nAllow: /page\nDisallow: /*.html\n", "FooBot", "/page.html", false},
		{"star matches any run", "User-agent: *\nDisallow: /*/private/\n", "FooBot", "/x/y/private/z", false},
		{"star needs what follows it", "User-agent: *\nDisallow: /*/private/\n", "FooBot", "/x/public/z", true},
		{"dollar anchors the end", "User-agent: *\nDisallow: /*.gif$\n", "FooBot", "/a.gif", false},
		{"dollar anchor rejects a longer path", "User-agent: *\nDisallow: /*.gif$\n", "FooBot", "/a.gif?x", true},
		{"dollar in the middle is literal", "User-agent: *\nDisallow: /a$b\n", "FooBot", "/a$bc", false},
		{"star then dollar matches everything after", "User-agent: *\nDisallow: /a*$\n", "FooBot", "/abc", false},
		{"exact path with dollar", "User-agent: *\nDisallow: /\nAllow: /$\n", "FooBot", "/", true},
		{"exact path with dollar does not cover below", "User-agent: *\nDisallow: /\nAllow: /$\n", "FooBot", "/x", false},
		{"robots.txt is always allowed", "User-agent: *\nDisallow: /\n", "FooBot", "http://example.com/robots.txt", true},
		{"robots.txt with a query is allowed", "User-agent: *\nDisallow: /\n", "FooBot", "/robots.txt?x=1", true},
		{"robots.txt below a directory is not special", "User-agent: *\nDisallow: /\n", "FooBot", "/a/robots.txt", false},
		{"product token is case-insensitive", "User-agent: FOOBOT\nDisallow: /\n", "foobot", "/x", false},
		{"groups for one agent are merged", "User-agent: FooBot\nDisallow: /a\n\nUser-agent: BarBot\nDisallow: /\n\nUser-agent: foobot\nDisallow: /b\n", "FooBot", "/b", false},
		{"merged groups keep the first group's rules", "User-agent: FooBot\nDisallow: /a\n\nUser-agent: foobot\nDisallow: /b\n", "FooBot", "/a", false},
		{"a specific group replaces the * group", "User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /private\n", "FooBot", "/public", true},
		{"the * group applies when no group names the robot", "User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nAllow: /\n", "BarBot", "/x", false},
		{"no group at all allows", "User-agent: FooBot\nDisallow: /\n", "BarBot", "/x", true},
		{"rules before the first user-agent are ignored", "Disallow: /\nUser-agent: FooBot\nDisallow: /private\n", "FooBot", "/x", true},
		{"consecutive user-agents share a group", "User-agent: FooBot\nUser-agent: BarBot\nDisallow: /\n", "BarBot", "/x", false},
		{"a sitemap line does not end the user-agent list", "User-agent: FooBot\nSitemap: http://x/s.xml\nUser-agent: BarBot\nDisallow: /\n", "FooBot", "/x", false},
		{"an unknown line does not end the user-agent list", "User-agent: FooBot\nFoo: bar\nUser-agent: BarBot\nDisallow: /\n", "FooBot", "/x", false},
		{"a user-agent after rules starts a new group", "User-agent: FooBot\nDisallow: /\nUser-agent: BarBot\nDisallow: /b\n", "FooBot", "/a", false},
		{"blank lines do not end a group", "User-agent: FooBot\n\nDisallow: /\n", "FooBot", "/x", false},
		{"empty disallow allows everything", "User-agent: *\nDisallow:\n", "FooBot", "/x", true},
		{"empty allow changes nothing", "User-agent: *\nAllow:\nDisallow: /\n", "FooBot", "/x", false},
		{"a bad line does not fail the file", "User-agent: *\n\x01\x02garbage\nCrawl-delay: soon\nDisallow: /x\n", "FooBot", "/x", false},
		{"version after slash in the robot's name is ignored", "User-agent: FooBot\nDisallow: /\n", "FooBot/2.1", "/x", false},
		{"digits end a product token in the file", "User-agent: Foo2Bot\nDisallow: /\n", "Foo", "/x", false},
		{"a name with digits does not match the cut token", "User-agent: Foo2Bot\nDisallow: /\n", "Foo2Bot", "/x", true},
		{"star followed by text is the * group", "User-agent: * # all\nDisallow: /\n", "FooBot", "/x", false},
		{"query is part of the path", "User-agent: *\nDisallow: /*?\n", "FooBot", "/a?b", false},
		{"fragment is not part of the path", "User-agent: *\nDisallow: /*#\nDisallow: /a$\n", "FooBot", "/a#frag", false},
		{"percent escapes of unreserved characters are decoded", "User-agent: *\nDisallow: /%7Euser\n", "FooBot", "/~user/x", false},
		{"non-ASCII in the URL is encoded", "User-agent: *\nDisallow: /caf%C3%A9\n", "FooBot", "/café", false},
		{"non-ASCII in the pattern is encoded", "User-agent: *\nDisallow: /café\n", "FooBot", "/caf%c3%a9", false},
		{"an encoded slash is not a slash", "User-agent: *\nDisallow: /a/b\n", "FooBot", "/a%2Fb", true},
		{"a stray percent is %25", "User-agent: *\nDisallow: /100%\n", "FooBot", "/100%25", false},
		{"a space is %20", "User-agent: *\nDisallow: /a b\n", "FooBot", "/a%20b", false},
		{"path of a URL without a path is /", "User-agent: *\nDisallow: /$\n", "FooBot", "http://example.com", false},
		{"path of a query-only URL gets its slash", "User-agent: *\nDisallow: /?\n", "FooBot", "http://example.com?q", false},
	})
}

func TestGoogleLeniencies(t *testing.T) {
	runMatchCases(t, Google, []matchCase{
		{"dissallow is disallow", "User-agent: FooBot\nDissallow: /\n", "FooBot", "/x", false},
		{"disalow is disallow", "User-agent: FooBot\ndisalow: /\n", "FooBot", "/x", false},
		{"useragent is user-agent", "useragent: FooBot\nDisallow: /\n", "FooBot", "/x", false},
		{"user agent with a space is user-agent", "user agent: FooBot\nDisallow: /\n", "FooBot", "/x", false},
		{"keys match by prefix", "User-agent: FooBot\nDisallowed: /\n", "FooBot", "/x", false},
		{"missing colon with two words", "User-agent FooBot\nDisallow /\n", "FooBot", "/x", false},
		{"missing colon with three words is ignored", "User-agent: FooBot\nDisallow / now\n", "FooBot", "/x", true},
		{"index.html allows its directory", "User-agent: *\nAllow: /d/index.html\nDisallow: /\n", "FooBot", "/d/", true},
		{"index.html allows only the directory itself", "User-agent: *\nAllow: /d/index.html\nDisallow: /\n", "FooBot", "/d/other", false},
		{"robots.txt is not special", "User-agent: *\nDisallow: /\n", "FooBot", "/robots.txt", false},
		{"the URL is not normalised", "User-agent: *\nDisallow: /%7Euser\n", "FooBot", "/~user", true},
		{"the pattern's hex digits are upper-cased", "User-agent: *\nDisallow: /a%3cb\n", "FooBot", "/a%3Cb", false},
		{"user-agent value cut at a space", "User-agent: Foo Bar\nDisallow: /\n", "Foo", "/x", false},
		{"the robot's name is compared as given", "User-agent: FooBot\nDisallow: /\n", "FooBot/2.1", "/x", true},
		{"overlong line is cut", "User-agent: FooBot\nDisallow: /x/" + strings.Repeat("a", 20000) + "\n", "FooBot", "/x/" + strings.Repeat("a", googleMaxLine-len("Disallow: /x/")), false},
	})
}

// TestV1Table93 checks "HTTP: The Definitive Guide" Table 9-3, path
// matching examples, exactly: rule path, URL path, match.
func TestV1Table93(t *testing.T) {
	cases := []struct {
		rule, path string
		match      bool
		comment    string
	}{
		{"/tmp", "/tmp", true, "rule path == URL path"},
		{"/tmp", "/tmpfile.html", true, "rule path is a prefix of URL path"},
		{"/tmp", "/tmp/a.html", true, "rule path is a prefix of URL path"},
		{"/tmp/", "/tmp", false, "/tmp/ is not a prefix of /tmp"},
		{"", "README.TXT", true, "empty rule path matches everything"},
		{"/~fred/hi.html", "%7Efred/hi.html", true, "%7E is treated the same as ~"},
		{"/%7Efred/hi.html", "/~fred/hi.html", true, "%7E is treated the same as ~"},
		{"/%7efred/hi.html", "/%7Efred/hi.html", true, "case isn't significant in escapes"},
		{"/~fred/hi.html", "~fred%2Fhi.html", false, "%2F is slash, but slash is a special case that must match exactly"},
	}
	for _, c := range cases {
		t.Run(c.comment, func(t *testing.T) {
			// The record's only rule decides exactly when it matches.
			robots := "User-agent: *\nAllow: " + c.rule + "\n"
			d := Parse([]byte(robots), Options{Mode: V1}).ForAgent("AnyBot").DecidePath(c.path)
			matched := d.Rule != nil
			if matched != c.match {
				t.Errorf("rule %q, path %q: match = %v (%s), want %v", c.rule, c.path, matched, d, c.match)
			}
		})
	}
}

// marysAntiques is the robots.txt of the seed's Mary's Antiques example.
const marysAntiques = `User-Agent: Suzy-Spider
Disallow: /dynamic
Allow: /private/suzy-stuff
Disallow: /private

User-Agent: Furniture-Finder
Allow: /dynamic/check-inventory
Disallow: /dynamic
Disallow: /private

User-Agent: *
Disallow: /dynamic
Disallow: /private
`

// TestV1Table94 checks Table 9-4, robot accessibility to the Mary's
// Antiques web site, exactly, with the robot names the table uses and
// with the names the records use.
func TestV1Table94(t *testing.T) {
	rows := []struct {
		url                  string
		suzy, furniture, any bool
	}{
		{"http://www.marys-antiques.com/", true, true, true},
		{"http://www.marys-antiques.com/index.html", true, true, true},
		{"http://www.marys-antiques.com/private/payroll.xls", false, false, false},
		{"http://www.marys-antiques.com/private/suzy-stuff/taxes.txt", true, false, false},
		{"http://www.marys-antiques.com/dynamic/buy-stuff?id=3546", false, false, false},
		{"http://www.marys-antiques.com/dynamic/check-inventory?kitchen", false, true, false},
	}
	r := Parse([]byte(marysAntiques), Options{Mode: V1})
	for _, names := range [][3]string{{"SuzySpider", "FurnitureFinder", "NosyBot"}, {"Suzy-Spider/1.0", "Furniture-Finder", "nosybot"}} {
		for _, row := range rows {
			for i, want := range []bool{row.suzy, row.furniture, row.any} {
				if got := r.Allowed(names[i], row.url); got != want {
					t.Errorf("%s %s: allowed = %v, want %v", names[i], row.url, got, want)
				}
			}
		}
	}
}

func TestV1Records(t *testing.T) {
	runMatchCases(t, V1, []matchCase{
		{"record name is a substring of the robot's name", "User-agent: bot\nDisallow: /\n", "Spambot/1.0", "/x", false},
		{"the first matching record wins over later ones", "User-agent: bot\nDisallow: /a\n\nUser-agent: spambot\nDisallow: /b\n", "spambot", "/b", true},
		{"the * record applies when no name matches", "User-agent: webcrawler\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n", "FooBot", "/x", false},
		{"a named record is preferred to an earlier * record", "User-agent: *\nDisallow: /\n\nUser-agent: foobot\nDisallow: /x\n", "FooBot", "/y", true},
		{"only one record applies: no merging", "User-agent: foobot\nDisallow: /a\n\nUser-agent: foobot\nDisallow: /b\n", "FooBot", "/b", true},
		{"first matching rule wins, not the longest", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "FooBot", "/a/b", false},
		{"star is literal", "User-agent: *\nDisallow: /*.gif\n", "FooBot", "/a.gif", true},
		{"dollar is literal", "User-agent: *\nDisallow: /a$\n", "FooBot", "/a$", false},
		{"a blank line ends the record", "User-agent: foobot\n\nDisallow: /\n", "FooBot", "/x", true},
		{"a comment line does not end the record", "User-agent: foobot\n# note\nDisallow: /\n", "FooBot", "/x", false},
		{"empty disallow allows everything", "User-agent: *\nDisallow:\n", "FooBot", "/x", true},
		{"empty allow matches everything first", "User-agent: *\nAllow:\nDisallow: /\n", "FooBot", "/x", true},
		{"escapes are decoded on both sides", "User-agent: *\nDisallow: /a%20b\n", "FooBot", "/a b", false},
		{"robots.txt is always allowed", "User-agent: *\nDisallow: /\n", "FooBot", "/robots.txt", true},
		{"no record for the robot allows", "User-agent: foobot\nDisallow: /\n", "BarBot", "/x", true},
	})
}

func TestProposal(t *testing.T) {
	// The records of the proposal's own example.
	const example = `User-agent: Fredsbot
Disallow: /

User-agent: Chives
Robot-version: 2.0.0
Allow: */index.html

User-agent: Alfred
Robot-version: 2.0.0
Allow: /blackhole/index.html
Allow: /blackhole/info*
Disallow: *.shtml
Disallow: /blackhole/info99*
Disallow: /blackhole/info8.html

User-agent: *
Disallow: /
`
	cases := []matchCase{
		{"a 1.0 record stays 1.0", example, "Fredsbot", "/index.html", false},
		{"only wildcard allows: a matching path is allowed", example, "Chives", "/a/b/index.html", true},
		{"only wildcard allows: anything else is not", example, "Chives", "/a/b/other.html", false},
		{"wildcard patterns must match the whole path", example, "Chives", "/a/index.html.bak", false},
		{"explicit allow beats a disallow", example, "Alfred", "/blackhole/index.html", true},
		{"explicit allow is exact", example, "Alfred", "/blackhole/index.html.bak", false},
		{"disallow beats a wildcard allow", example, "Alfred", "/blackhole/info99x", false},
		{"explicit disallow is exact", example, "Alfred", "/blackhole/info8.html", false},
		{"explicit disallow does not cover longer paths", example, "Alfred", "/blackhole/info8.htmlx", true},
		{"wildcard disallow", example, "Alfred", "/blackhole/info.shtml", false},
		{"a path past the disallows must pass a wildcard allow", example, "Alfred", "/blackhole/info1.html", true},
		{"a path matching no wildcard allow is refused", example, "Alfred", "/elsewhere.html", false},
		{"everyone else follows the * record", example, "FooBot", "/index.html", false},
		// The open "Discuss" point: explicit allows and disallows, no wildcard allow.
		{"discuss point: everything else is allowed", "User-agent: a\nRobot-version: 2.0\nAllow: /x/page\nDisallow: /x\n", "a", "/y", true},
		{"explicit allows and no disallow: only those paths", "User-agent: a\nRobot-version: 2.0\nAllow: /x/page\n", "a", "/y", false},
		{"higher even minor version is followed", "User-agent: a\nRobot-version: 2.2.0\nAllow: /x\n", "a", "/x/y", false},
		{"an experimental version's record is ignored", "User-agent: a\nRobot-version: 2.1.0\nAllow: /x\n\nUser-agent: *\nDisallow: /y\n", "a", "/y", false},
		{"a version not right after user-agent is ignored", "User-agent: a\nDisallow: /x\nRobot-version: 2.0.0\nAllow: /y\n", "a", "/xz", false},
		{"version 1.0.0 keeps 1.0 rules", "User-agent: a\nRobot-version: 1.0.0\nAllow: /x\n", "a", "/y", true},
	}
	runMatchCases(t, RFC9309, cases)
	runMatchCases(t, V1, cases)
}

func TestProposalMergedWithPlainGroup(t *testing.T) {
	// A 1.0 group merged into a 2.0 one: its patterns are general matches,
	// prefixes, ranked with the wildcard ones.
	robots := "User-agent: a\nRobot-version: 2.0\nAllow: /x/page\n\nUser-agent: a\nDisallow: /x\n"
	r := Parse([]byte(robots), Options{})
	for url, want := range map[string]bool{"/x/page": true, "/x/other": false, "/y": true} {
		if got := r.Allowed("a", url); got != want {
			t.Errorf("%s: allowed = %v, want %v", url, got, want)
		}
	}
}

// A 2.0 record's robot keeps the wildcards of its 1.0 groups: "*" and "$"
// in them are not literal bytes (they were, and the file failed open).
func TestProposalMergedWithPlainGroupKeepsItsWildcards(t *testing.T) {
	robots := "User-agent: a\nRobot-version: 2.0\nDisallow: /x\n\nUser-agent: a\nDisallow: /*.php\nDisallow: /end$\n"
	r := Parse([]byte(robots), Options{})
	for url, want := range map[string]bool{"/a.php": false, "/dir/b.php?q": false, "/end": false, "/endx": true, "/x": false, "/y": true} {
		if got := r.Allowed("a", url); got != want {
			t.Errorf("%s: allowed = %v, want %v", url, got, want)
		}
	}
}

// An empty Disallow line in a 2.0 record forbids nothing, but the record
// has a Disallow line: it is not one of only Allow rules, whose other
// paths are refused.
func TestProposalEmptyDisallowIsADisallowLine(t *testing.T) {
	for _, mode := range []Mode{RFC9309, V1} {
		r := Parse([]byte("User-agent: a\nRobot-version: 2.0\nAllow: /a\nDisallow:\n"), Options{Mode: mode})
		for url, want := range map[string]bool{"/a": true, "/b": true} {
			if got := r.Allowed("a", url); got != want {
				t.Errorf("mode %v, %s: allowed = %v, want %v", mode, url, got, want)
			}
		}
	}
}

// v1 decodes escapes but keeps "%" encoded: the text "%2F" (%252F) is not
// the encoded slash %2F, on either side.
func TestV1PercentStaysApartFromEncodedSlash(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /a%2Fb\nDisallow: /c%252Fd\nDisallow: /e%\n"), Options{Mode: V1})
	for url, want := range map[string]bool{
		"/a%2Fb": false, "/a%2fb": false, "/a%252Fb": true, "/a/b": true,
		"/c%252Fd": false, "/c%2Fd": true, "/e%25": false, "/e%": false,
	} {
		if got := r.Allowed("x", url); got != want {
			t.Errorf("%s: allowed = %v, want %v", url, got, want)
		}
	}
}

func TestDecisionExplains(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /private\nAllow: /private/ok\n"), Options{})
	cases := []struct {
		url    string
		want   string
		reason Reason
	}{
		{"/private/x", "line 2: Disallow: /private (longest match)", ReasonLongestMatch},
		{"/private/ok", "line 3: Allow: /private/ok (longest match)", ReasonLongestMatch},
		{"/public", "no rule matched", ReasonNoMatch},
		{"/robots.txt", "/robots.txt is always allowed", ReasonRobotsTxt},
	}
	for _, c := range cases {
		d := r.Decide("FooBot", c.url)
		if d.String() != c.want || d.Reason != c.reason {
			t.Errorf("%s: %q (%v), want %q (%v)", c.url, d, d.Reason, c.want, c.reason)
		}
	}
	if d := Parse([]byte("User-agent: BarBot\nDisallow: /\n"), Options{}).Decide("FooBot", "/x"); d.Reason != ReasonNoGroup {
		t.Errorf("no group: reason %v", d.Reason)
	}
}

func TestPathOf(t *testing.T) {
	cases := []struct {
		url   string
		path  string
		slash bool
	}{
		{"http://example.com/a/b?c=d#e", "/a/b?c=d", false},
		{"http://example.com", "/", false},
		{"http://example.com?q=1", "?q=1", true},
		{"http://example.com;p", ";p", true},
		{"//example.com/a", "/a", false},
		{"/a/b", "/a/b", false},
		{"", "/", false},
		{"http://example.com#frag/x", "/", false},
		{"example.com/a", "/a", false},
		{"http://user@example.com:8080/a://b", "/a://b", false},
		{"/a?x=http://b/c", "/a?x=http://b/c", false},
	}
	for _, c := range cases {
		path, slash := pathOf(c.url)
		if path != c.path || slash != c.slash {
			t.Errorf("pathOf(%q) = %q, %v; want %q, %v", c.url, path, slash, c.path, c.slash)
		}
	}
}

// A path without its leading "/" is read from the root by Decide and
// Allowed, in every mode, as DecidePath reads it: "private/x.html" is
// "/private/x.html", not a host "private" and a path "/x.html". Only a
// scheme with "://", or "//", starts a host. Deciding allocates nothing.
func TestDecideReadsABarePathFromTheRoot(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /private/\nDisallow: /example.com/\n"
	cases := []struct {
		url     string
		allowed bool
		line    int
	}{
		{"private/x.html", false, 2},
		{"private/x.html#top", false, 2},
		{"private/x.html?u=https://example.com/a", false, 2},
		{"example.com/a", false, 3},
		{"private", true, 0},
		{"x.html", true, 0},
		{"/private/x.html", false, 2},
		{"https://example.com/private/x.html", false, 2},
		{"HTTP://EXAMPLE.COM/private/x.html", false, 2},
		{"//example.com/private/x.html", false, 2},
		{"svn+ssh.1-a://host/private/x", false, 2},
		{"https://example.com/x.html", true, 0},
		{"1http://host/x", true, 0},   // no scheme: a path
		{"mailto:private/x", true, 0}, // no "//": a path, "/mailto:private/x"
	}
	for _, mode := range []Mode{RFC9309, Google, V1} {
		r := Parse([]byte(robots), Options{Mode: mode})
		rules := r.ForAgent("FooBot")
		for _, c := range cases {
			d := rules.Decide(c.url)
			line := 0
			if d.Rule != nil {
				line = d.Rule.Line
			}
			if d.Allowed != c.allowed || line != c.line || r.Allowed("FooBot", c.url) != c.allowed {
				t.Errorf("%s: %q: %v (%v), want %v by line %d", mode, c.url, d.Allowed, d, c.allowed, c.line)
			}
			if !hasAuthority(c.url) {
				if p := rules.DecidePath(c.url); p != d {
					t.Errorf("%s: %q: Decide %v, DecidePath %v", mode, c.url, d, p)
				}
			}
		}
		if n := testing.AllocsPerRun(100, func() { rules.Decide("private/x.html") }); n != 0 {
			t.Errorf("%s: Decide of a bare path allocates %v times", mode, n)
		}
	}
}

// v1: an empty Disallow means everything may be retrieved (the 1994
// standard and the 1996 draft; docs/robotstxt.md: the seed's first example reads it
// the other way, and is not followed). A record whose only rule is an empty
// Disallow allows every URL, and it is still the robot's record, so a
// later "*" record does not apply. Beside other Disallow lines, before or
// after them, an empty one forbids nothing and allows nothing they forbid:
// it is no rule that matches, so the first-match search goes on past it.
func TestV1EmptyDisallow(t *testing.T) {
	cases := []struct {
		name, robots, agent, url string
		allowed                  bool
		line                     int // the deciding rule's, 0 for none
	}{
		{"only an empty Disallow", "User-agent: *\nDisallow:\n", "FooBot", "/private/x", true, 0},
		{"only an empty Disallow, the root", "User-agent: *\nDisallow:\n", "FooBot", "/", true, 0},
		{"only an empty Disallow, a query", "User-agent: *\nDisallow:   # nothing\n", "FooBot", "/a?b=c", true, 0},
		{"the robot's record with an empty Disallow, before a * record", "User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n", "FooBot", "/x", true, 0},
		{"other robots take the * record", "User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n", "BarBot", "/x", false, 5},
		{"the seed's first example: other robots", "User-Agent: slurp\nUser-Agent: webcrawler\nDisallow: /private\n\nUser-Agent: *\nDisallow:\n", "NosyBot", "/private/x", true, 0},
		{"the seed's first example: slurp", "User-Agent: slurp\nUser-Agent: webcrawler\nDisallow: /private\n\nUser-Agent: *\nDisallow:\n", "Slurp/2.0", "/private/x", false, 3},
		{"empty Disallow first, then one that matches", "User-agent: *\nDisallow:\nDisallow: /private\n", "FooBot", "/private/x", false, 3},
		{"empty Disallow first, a URL no other line forbids", "User-agent: *\nDisallow:\nDisallow: /private\n", "FooBot", "/public/x", true, 0},
		{"empty Disallow last, then one that matches", "User-agent: *\nDisallow: /private\nDisallow:\n", "FooBot", "/private/x", false, 2},
		{"empty Disallow last, a URL no other line forbids", "User-agent: *\nDisallow: /private\nDisallow:\n", "FooBot", "/public/x", true, 0},
		{"empty Disallow between two", "User-agent: *\nDisallow: /a\nDisallow:\nDisallow: /b\n", "FooBot", "/b", false, 4},
		{"an Allow before still decides first", "User-agent: *\nDisallow:\nAllow: /private/ok\nDisallow: /private\n", "FooBot", "/private/ok/x", true, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Parse([]byte(c.robots), Options{Mode: V1}).Decide(c.agent, c.url)
			line := 0
			if d.Rule != nil {
				line = d.Rule.Line
			}
			if d.Allowed != c.allowed || line != c.line {
				t.Errorf("%q %q: %v (%v), want %v by line %d\n%s", c.agent, c.url, d.Allowed, d, c.allowed, c.line, c.robots)
			}
		})
	}
}

// RFC 9309's own tables, in the default mode: section 2.2.2's
// percent-encoding table (each path, written as it is in the table's
// three columns, matches a URL of each) and section 2.2.3's special
// characters ("*" and "$" in a URL are matched by %2A and %24 in a
// pattern), with the cases around them: lower-case hex digits, a literal
// "*" or "$" in the URL against the wildcard and the end, "$" inside a
// pattern. Each pattern both as written (the trie's literal heads) and
// after a wildcard (the compiled matcher's tails), and in a robots.txt 2.0
// record (as a prefix).
func TestRFC9309PercentEncodingTables(t *testing.T) {
	type tableCase struct {
		pattern, url string
		match        bool
	}
	cases := []tableCase{
		// Section 2.2.2: path, encoded path, path to match.
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz", true},
		{"/foo/bar/ツ", "/foo/bar/ツ", true},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/ツ", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/%e3%83%84", true},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz", true},
		{"/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", true},
		{"/foo/bar/baz", "/foo/bar/%62%61%7a", true},
		// Section 2.2.3: percent-encoded pattern, URI.
		{"/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-*.html", true},
		{"/path/foo-%24", "https://www.example.com/path/foo-$", true},
		// Lower-case hex digits, and the URL encoded too.
		{"/path/file-with-a-%2a.html", "https://www.example.com/path/file-with-a-*.html", true},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-%2A.html", true},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-%2a.html", true},
		{"/path/foo-%24", "/path/foo-%24", true},
		{"/path/foo-%24", "/path/foo-%24/below", true},
		// %2A and %24 are literal: no wildcard, no end.
		{"/path/file-with-a-%2A.html", "/path/file-with-a-x.html", false},
		{"/path/foo-%24", "/path/foo-", false},
		{"/path/foo-%24", "/path/foo-x", false},
		// A "*" in the pattern is the wildcard: it matches a literal "*".
		{"/path/file-with-a-*.html", "/path/file-with-a-*.html", true},
		{"/path/file-with-a-*.html", "/path/file-with-a-x.html", true},
		// A final "$" is the end: the URL's own "$" is text after the end.
		{"/path/foo-$", "/path/foo-", true},
		{"/path/foo-$", "/path/foo-$", false},
		{"/path/foo-%24$", "/path/foo-$", true},
		{"/path/foo-%24$", "/path/foo-$x", false},
		// A "$" inside a pattern is literal, as in the URL.
		{"/a$b", "/a$b", true},
		{"/a$b", "/a%24b", true},
		{"/a$b", "/ab", false},
		// "*" and "$" in the query.
		{"/search?q=%2A", "/search?q=*", true},
		{"/search?price=%24", "/search?price=$5", true},
	}
	for _, c := range cases {
		patterns := []string{c.pattern}
		if strings.HasPrefix(c.pattern, "/") {
			// The same pattern after a wildcard: the compiled matcher's
			// tail, not a literal head in the trie.
			patterns = append(patterns, "/*"+c.pattern[1:])
		}
		for _, p := range patterns {
			bodies := []string{
				"User-agent: *\nDisallow: " + p + "\n",
				"User-agent: *\nAllow: /\nDisallow: " + p + "\n",
			}
			if !strings.HasSuffix(p, "$") {
				// A 2.0 rule without a wildcard is the whole path: a
				// final "*" makes it a prefix, as the others are.
				bodies = append(bodies, "User-agent: *\nRobot-version: 2.0\nDisallow: "+p+"*\n")
			}
			for _, body := range bodies {
				r := Parse([]byte(body), Options{})
				d := r.Decide("FooBot", c.url)
				if d.Allowed == c.match {
					t.Errorf("pattern %q, URL %q: %s, want the pattern to %s\n%s", p, c.url, d,
						map[bool]string{true: "match", false: "not match"}[c.match], body)
				}
			}
		}
	}
}
