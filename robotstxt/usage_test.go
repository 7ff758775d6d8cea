package robotstxt

import (
	"strings"
	"testing"

	"github.com/robofilter/robofilter/aipref"
)

func usageOf(r *Robots, agent, url string) (string, UsageDecision) {
	d := r.ForAgent(agent).Usage(url)
	return d.Prefs.String(), d
}

// draft-ietf-aipref-attach-05 section 1.2: the rule in a robots.txt file.
func TestAttachExampleSection1_2(t *testing.T) {
	r := Parse([]byte("User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n"), Options{})
	if len(r.Warnings()) > 0 {
		t.Errorf("warnings %v", r.Warnings())
	}
	got, d := usageOf(r, "AnyBot", "https://example.com/some/content")
	if got != "train-ai=n" || len(d.Lines) != 1 || d.Lines[0].Line != 3 || !d.Fetch.Allowed {
		t.Errorf("got %q %+v", got, d)
	}
}

// Section 3.4's example file (figure 2) and its table 1, and the
// sentence on ExampleBot (which says "ai=y": the rule it names says
// train-ai=y).
func TestAttachExampleSection3_4(t *testing.T) {
	const figure2 = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`
	for _, mode := range []Mode{RFC9309, Google} {
		r := Parse([]byte(figure2), Options{Mode: mode})
		if len(r.Warnings()) > 0 {
			t.Errorf("%v: warnings %v", mode, r.Warnings())
		}
		for _, tc := range []struct {
			agent, path string
			crawl       bool
			pref        string
			line        int
		}{
			{"OtherBot", "/test", true, "train-ai=n", 4},
			{"OtherBot", "/never/test", false, "", 0},
			{"OtherBot", "/ai-ok/test", true, "train-ai=y", 5},
			{"ExampleBot", "/test", true, "train-ai=y", 9},
			{"ExampleBot", "/never/test", true, "train-ai=y", 9},
			{"ExampleBot/2.1", "/ai-ok/test", true, "train-ai=y", 9},
		} {
			if mode == Google && strings.Contains(tc.agent, "/") {
				continue // Google compares the name as given: no group is ExampleBot/2.1's
			}
			got, d := usageOf(r, tc.agent, tc.path)
			line := 0
			if len(d.Lines) == 1 {
				line = d.Lines[0].Line
			}
			if d.Fetch.Allowed != tc.crawl || got != tc.pref || line != tc.line || len(d.Lines) > 1 {
				t.Errorf("%v %s %s: crawl %v pref %q line %d (%d lines), want %v %q %d", mode, tc.agent, tc.path, d.Fetch.Allowed, got, line, len(d.Lines), tc.crawl, tc.pref, tc.line)
			}
		}
	}
}

// Cloudflare's managed robots.txt: the policy's comment block, then the
// signals for every robot.
func TestContentSignalAsCloudflareWritesIt(t *testing.T) {
	const file = `# As a condition of accessing this website, you agree to abide by
# the following content signals:
# ai-train: training or fine-tuning AI models.
User-Agent: *
Content-Signal: ai-train=no, search=yes, ai-input=yes
Allow: /
`
	r := Parse([]byte(file), Options{})
	if len(r.Warnings()) > 0 {
		t.Errorf("warnings %v", r.Warnings())
	}
	got, d := usageOf(r, "GPTBot", "/article")
	if got != "train-ai=n, ai-use=y, search=y" || len(d.Lines) != 1 || !d.Lines[0].Signal {
		t.Errorf("got %q %+v", got, d)
	}
	st := d.Statements()[0]
	if st.Mechanism != aipref.ContentSignal || st.Origin != "robots.txt Content-Signal" || st.Line != 5 || st.Level != aipref.LevelSite {
		t.Errorf("statement %+v", st)
	}
	// A path, as contentsignals.org's generator writes one.
	r = Parse([]byte("User-agent: *\nContent-Signal: /blog/ ai-train=no, search=yes\nAllow: /\n"), Options{})
	if got, _ := usageOf(r, "x", "/blog/post"); got != "train-ai=n, search=y" {
		t.Errorf("/blog/post: %q", got)
	}
	if got, d := usageOf(r, "x", "/about"); got != "" || len(d.Lines) != 0 {
		t.Errorf("/about: %q %+v", got, d)
	}
}

// Agent-scoped and path-scoped cases, ties, and the fields together.
func TestUsageScopes(t *testing.T) {
	const file = `User-agent: *
Content-Usage: train-ai=n, search=y
Content-Usage: /public/ train-ai=y
Content-Usage: /public/*.pdf$ ai-use=n
Content-Usage: /mixed/ train-ai=y
Content-Usage: /mixed/ train-ai=n
Content-Usage: /m*xed/ search=n
Content-Signal: /public/ ai-train=no

User-agent: GPTBot
User-agent: CCBot
Content-Usage: train-ai=n, ai-use=n
Disallow: /private/

User-agent: Google-Extended
Content-Signal: search=yes
User-agent: Bingbot
Disallow: /x
`
	r := Parse([]byte(file), Options{})
	if len(r.Warnings()) > 0 {
		t.Errorf("warnings %v", r.Warnings())
	}
	for _, tc := range []struct {
		agent, path, want string
		lines             int
	}{
		{"OtherBot", "/a", "train-ai=n, search=y", 1},
		// The longest path decides, not the file's order, and the other
		// field's line for the path combines with it: no wins.
		{"OtherBot", "/public/a", "train-ai=n", 2},
		{"OtherBot", "/public/doc.pdf", "train-ai=n, ai-use=n", 2},
		{"OtherBot", "/public/doc.pdf?x", "train-ai=n", 2},
		// Equal paths conflict: each says its piece, no wins (section 3.1).
		{"OtherBot", "/mixed/a", "train-ai=n, search=n", 3},
		// A robot's own group replaces the * group (RFC 9309).
		{"GPTBot", "/a", "train-ai=n, ai-use=n", 1},
		{"ccbot", "/a", "train-ai=n, ai-use=n", 1},
		{"GPTBot", "/private/a", "", 0}, // not crawlable: no preference
		// A line between User-agent lines concerns the robots above it.
		{"Google-Extended", "/a", "search=y", 1},
		{"Bingbot", "/a", "", 0},
		{"Bingbot", "/x", "", 0},
	} {
		got, d := usageOf(r, tc.agent, tc.path)
		if got != tc.want || len(d.Lines) != tc.lines {
			var lines []string
			for _, u := range d.Lines {
				lines = append(lines, u.String())
			}
			t.Errorf("%s %s: %q from %q, want %q from %d lines", tc.agent, tc.path, got, lines, tc.want, tc.lines)
		}
	}
	// Bingbot shares Google-Extended's group for fetching, as RFC 9309
	// reads the file without the extension.
	if r.Allowed("Google-Extended", "/x") {
		t.Error("Google-Extended may fetch /x: the Content-Signal line split the group")
	}
}

// v1 mode matches the lines as it matches rules: the first matching line
// of the record.
func TestUsageV1FirstMatch(t *testing.T) {
	r := Parse([]byte("User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a/b train-ai=n\nDisallow: /z\n"), Options{Mode: V1})
	if got, _ := usageOf(r, "x", "/a/b/c"); got != "train-ai=y" {
		t.Errorf("v1: %q", got)
	}
	r = Parse([]byte("User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a/b train-ai=n\n"), Options{})
	if got, _ := usageOf(r, "x", "/a/b/c"); got != "train-ai=n" {
		t.Errorf("rfc9309: %q", got)
	}
}

// Lines that say nothing usable are reported, by line, and the file's
// other lines still count.
func TestUsageLineWarnings(t *testing.T) {
	const file = `Content-Usage: train-ai=n
User-agent: *
Content-Usage: /only-a-path
Content-Usage: TRAIN-AI=n
Content-Usage: train-ai=no
Content-Usage: ai-train=n
Content-Signal: ai-train=n
Content-Usage: /x train-genai=n
Disallow: /p
`
	r := Parse([]byte(file), Options{})
	want := map[int]string{
		1: "before any User-agent line", 3: "no statement of preference", 4: "does not parse",
		5: "the token no", 6: "Content-Signal label", 7: "not yes or no", 8: "draft-ietf-aipref-vocab-04",
	}
	got := map[int]string{}
	for _, w := range r.Warnings() {
		got[w.Line] += w.Message
	}
	for line, word := range want {
		if !strings.Contains(got[line], word) {
			t.Errorf("line %d: %q, want %q", line, got[line], word)
		}
	}
	if len(got) != len(want) {
		t.Errorf("warnings %v", r.Warnings())
	}
	if r.Allowed("x", "/p") {
		t.Error("/p allowed")
	}
	if got, _ := usageOf(r, "x", "/x/y"); got != "train-ai=n" {
		t.Errorf("/x/y: %q", got)
	}
}

// Paths are compared as Allow and Disallow paths are: percent-normalised,
// "*" and "$".
func TestUsagePathsNormalised(t *testing.T) {
	r := Parse([]byte("User-agent: *\nContent-Usage: /caf%C3%A9/ train-ai=n\nContent-Usage: /%7Euser/ search=n\n"), Options{})
	for path, want := range map[string]string{"/café/menu": "train-ai=n", "/caf%c3%a9/menu": "train-ai=n", "/~user/x": "search=n", "/%7euser/x": "search=n"} {
		if got, _ := usageOf(r, "x", path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}

// The attach draft makes a Content-Usage line a rule: the User-agent line
// after it starts another group. Its preferences follow that grouping;
// fetching keeps RFC 9309's, as the file reads without the extension.
func TestUsageGroupsAsTheAttachDraftReadsThem(t *testing.T) {
	const file = `User-agent: *
Content-Usage: train-ai=n

User-agent: GPTBot
Content-Usage: ai-use=n
Disallow: /private

User-agent: CCBot
Crawl-delay: 5
User-agent: ClaudeBot
Content-Signal: search=no
Disallow: /private
`
	with := Parse([]byte(file), Options{})
	var without []string
	for _, line := range strings.Split(file, "\n") {
		if !strings.HasPrefix(line, "Content-") {
			without = append(without, line)
		}
	}
	plain := Parse([]byte(strings.Join(without, "\n")), Options{})
	for _, tc := range []struct{ agent, want string }{
		{"OtherBot", "train-ai=n"},
		{"GPTBot", "ai-use=n"},
		{"CCBot", "search=n"}, // a Crawl-delay line is no rule: the run goes on
		{"ClaudeBot", "search=n"},
	} {
		if got, _ := usageOf(with, tc.agent, "/public"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.agent, got, tc.want)
		}
		for _, path := range []string{"/", "/public", "/private/a"} {
			if with.Allowed(tc.agent, path) != plain.Allowed(tc.agent, path) {
				t.Errorf("%s %s: the Content- lines change the fetch answer", tc.agent, path)
			}
		}
	}
	// RFC 9309 without the extension: * and GPTBot are one group, which
	// disallows /private to both.
	if with.Allowed("OtherBot", "/private/a") {
		t.Error("OtherBot may fetch /private/a")
	}
}

// Every conformance case gives the answer it gave without Content-Usage
// and Content-Signal lines, when such lines are put after every line of
// its file, in every mode: the lines change no fetch answer.
func TestConformanceUnchangedByUsageLines(t *testing.T) {
	cases := loadConformanceCases(t)
	inserts := []string{"Content-Usage: train-ai=n", "Content-Usage: / train-ai=y, search=n", "Content-Signal: search=yes, ai-train=no", "content-usage:/x ai-use=n"}
	run := 0
	for _, c := range cases {
		body := c.body(t)
		if len(body) > 256<<10 || strings.HasPrefix(string(body), "\xFF\xFE") || strings.HasPrefix(string(body), "\xFE\xFF") || strings.ContainsRune(string(body), 0) {
			continue // UTF-16, NUL bytes, a file near the size limit: an ASCII line in it is another case
		}
		for k, ins := range inserts {
			withLines := strings.ReplaceAll(string(body), "\n", "\n"+ins+"\n")
			for _, mode := range []Mode{RFC9309, Google, V1} {
				want := Parse(body, Options{Mode: mode}).Allowed(c.Agent, c.URL)
				if got := Parse([]byte(withLines), Options{Mode: mode}).Allowed(c.Agent, c.URL); got != want {
					t.Errorf("%s (%v, line %d): allowed %v with the lines, %v without\n%s", c.Name, mode, k, got, want, withLines)
				}
				run++
			}
		}
	}
	t.Logf("%d answers compared", run)
}
