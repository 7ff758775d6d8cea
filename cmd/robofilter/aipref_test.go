package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// crawlRobots is the robots.txt of the crawl below: section 3.4's file of
// draft-ietf-aipref-attach-05, with a Content-Signal line.
const crawlRobots = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: /news/ ai-input=no

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`

// siteCrawl is a WARC file of one site's pages, each stating (or not) its
// preferences in another way.
func siteCrawl() string {
	const resp = "application/http; msgtype=response"
	page := func(uri, head, body string) string {
		return warcRecord("response", uri, resp, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"+head+"\r\n"+body)
	}
	return page("https://example.com/ai-ok/open", "", "<p>open page</p>") +
		page("https://example.com/ai-ok/noai", "", `<meta name="robots" content="noai"><p>noai page</p>`) +
		page("https://example.com/ai-ok/header", "Content-Usage: train-ai=n\r\n", "<p>header page</p>") +
		page("https://example.com/ai-ok/tdm", "tdm-reservation: 1\r\n", `<meta name="tdm-reservation" content="0"><p>tdm page</p>`) +
		page("https://example.com/ai-ok/tdm-header", "tdm-reservation: 1\r\n", "<p>reserved page</p>") +
		page("https://example.com/plain", "", "<p>robots.txt page</p>") +
		page("https://example.com/news/story", "", "<p>news page</p>")
}

// A crawl's text with --purpose train-ai leaves out exactly the documents
// whose preferences say no to it, each record saying why, and says so on
// stderr; their links are still there. Without --purpose every text is.
func TestTextOfACrawlLeavesOutWhatPreferencesDisallow(t *testing.T) {
	dir := t.TempDir()
	warc := writeFile(t, dir, "crawl.warc", siteCrawl())
	robots := writeFile(t, dir, "robots.txt", crawlRobots)
	out, errs, status := runCLI(t, "", "text", "--warc", "--format", "jsonl", "--purpose", "train-ai", "--robots", robots, warc)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errs)
	}
	var texts []string
	withheld := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec struct {
			Type, Text, URI string
			Directives      struct {
				AI *struct {
					Purpose *struct {
						Allowed bool
						By      *struct{ Origin string }
					}
				} `json:"ai_preferences"`
			}
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		switch {
		case rec.Type == "line":
			texts = append(texts, rec.Text)
		case rec.Type == "document" && rec.Directives.AI != nil && !rec.Directives.AI.Purpose.Allowed:
			withheld[rec.URI] = rec.Directives.AI.Purpose.By.Origin
		}
	}
	if got := strings.Join(texts, "|"); got != "open page|tdm page" {
		t.Errorf("texts %q", got)
	}
	want := map[string]string{
		"https://example.com/ai-ok/noai":       "meta robots",
		"https://example.com/ai-ok/header":     "content-usage header",
		"https://example.com/ai-ok/tdm-header": "tdm-reservation header",
		"https://example.com/plain":            "robots.txt Content-Usage",
		"https://example.com/news/story":       "robots.txt Content-Usage",
	}
	for uri, by := range want {
		if withheld[uri] != by {
			t.Errorf("%s: withheld by %q, want %q", uri, withheld[uri], by)
		}
	}
	if len(withheld) != len(want) || strings.Count(errs, "note: no text: --purpose train-ai") != len(want) {
		t.Errorf("withheld %v; stderr:\n%s", withheld, errs)
	}
	// The news page may not be used for ai-use: another purpose, another set.
	out, _, _ = runCLI(t, "", "text", "--warc", "--purpose", "ai-use", "--robots", robots, warc)
	if strings.Contains(out, "news page") || strings.Contains(out, "noai page") || !strings.Contains(out, "header page") {
		t.Errorf("ai-use: %q", out)
	}
	out, errs, _ = runCLI(t, "", "text", "--warc", warc)
	for _, p := range []string{"open", "noai", "header", "tdm", "reserved", "robots.txt", "news"} {
		if !strings.Contains(out, p+" page") {
			t.Errorf("without --purpose, %s page is missing: %q", p, out)
		}
	}
	if strings.Contains(errs, "note") {
		t.Errorf("without --purpose: %s", errs)
	}
}

// The site files are one site's: a document of another site does not get
// them, and the user hears of it once.
func TestSiteFilesApplyToTheirSiteOnly(t *testing.T) {
	dir := t.TempDir()
	const resp = "application/http; msgtype=response"
	doc := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>text</p>"
	warc := writeFile(t, dir, "two.warc", warcRecord("response", "https://example.com/a", resp, doc)+
		warcRecord("response", "https://other.example/a", resp, doc)+warcRecord("response", "https://other.example/b", resp, doc))
	robots := writeFile(t, dir, "robots.txt", "User-agent: *\nContent-Usage: train-ai=n\n")
	out, errs, _ := runCLI(t, "", "text", "--warc", "--purpose", "train-ai", "--robots", robots, warc)
	// --warc plain output names each document (FILE#N:).
	if out != warc+"#2:text\n"+warc+"#3:text\n" || strings.Count(errs, "not applied to this document of https://other.example") != 1 {
		t.Errorf("out %q\nstderr:\n%s", out, errs)
	}
	// --base names the site.
	out, _, _ = runCLI(t, "<p>text</p>", "text", "--purpose", "train-ai", "--robots", robots, "--base", "https://example.com/x")
	if out != "" {
		t.Errorf("--base of the site: %q", out)
	}
}

func TestPurposeFlagErrorsAndNotes(t *testing.T) {
	dir := t.TempDir()
	robots := writeFile(t, dir, "robots.txt", crawlRobots)
	for _, args := range [][]string{
		{"text", "--purpose", "ai-train"},
		{"links", "--purpose", "TRAIN-AI"},
		{"allowed", "--robots", robots, "--agent", "x", "--purpose", "tdm", "/a"},
		{"allowed", "--robots", robots, "--agent", "x", "--tdmrep", robots, "/a"},
	} {
		if _, errs, status := runCLI(t, "<p>x</p>", args...); status != exitUsage {
			t.Errorf("%v: status %d (%s), want 2", args, status, errs)
		}
	}
	_, errs, status := runCLI(t, "<p>x</p>", "text", "--purpose", "train-genai")
	if status != exitOK || !strings.Contains(errs, "train-genai is the label of generative AI training") {
		t.Errorf("train-genai: %d %s", status, errs)
	}
	tdm := writeFile(t, dir, "tdmrep.json", `[{"location": "/", "tdm-reservation": "1"}]`)
	_, errs, _ = runCLI(t, "<p>x</p>", "text", "--purpose", "train-ai", "--tdmrep", tdm)
	if !strings.Contains(errs, "tdmrep.json:1:2: warning: rule for \"/\": tdm-reservation \"1\" is not the integer 0 or 1") {
		t.Errorf("tdmrep.json warning: %s", errs)
	}
}

// allowed --purpose answers section 3.4's table of attach-05: whether a
// URL may be fetched and used, the deciding line named.
func TestAllowedPurposeAnswersTheAttachTable(t *testing.T) {
	dir := t.TempDir()
	robots := writeRobotsFile(t, crawlRobots)
	tdm := writeFile(t, dir, "tdmrep.json", "[\n{\"location\": \"/ai-ok/reserved/\", \"tdm-reservation\": 1}\n]")
	out, errs, status := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "OtherBot", "--purpose", "train-ai", "--tdmrep", tdm, "--explain",
		"/test", "/never/test", "/ai-ok/test", "/ai-ok/reserved/x")
	want := "disallowed\t/test\ttrain-ai disallowed by line 4: Content-Usage: train-ai=n\n" +
		"disallowed\t/never/test\tline 3: Disallow: /never/ (longest match)\n" +
		"allowed\t/ai-ok/test\tline 2: Allow: / (longest match); train-ai allowed by line 5: Content-Usage: /ai-ok/ train-ai=y\n" +
		"disallowed\t/ai-ok/reserved/x\ttrain-ai disallowed by tdmrep.json line 2: location \"/ai-ok/reserved/\", tdm-reservation: 1\n"
	if out != want || status != exitDisallowed {
		t.Errorf("status %d, stderr %s, output:\n%s\nwant:\n%s", status, errs, out, want)
	}
	out, _, status = runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "ExampleBot", "--purpose", "train-ai", "/test", "/never/test")
	if out != "allowed\t/test\nallowed\t/never/test\n" || status != exitOK {
		t.Errorf("ExampleBot: %d %q", status, out)
	}
	out, _, _ = runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "OtherBot", "--purpose", "search", "--format", "jsonl", "/test", "/never/test")
	var recs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, m)
	}
	if len(recs) != 2 || recs[0]["allowed"] != true || recs[0]["purpose"] != "search" || recs[0]["fetch_allowed"] != true ||
		recs[1]["allowed"] != false || recs[1]["fetch_allowed"] != false || recs[1]["use"] != nil {
		t.Errorf("jsonl: %s", out)
	}
	// Without --purpose, allowed answers fetching only, as before.
	out, _, _ = runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "OtherBot", "/test")
	if out != "allowed\t/test\n" {
		t.Errorf("without --purpose: %q", out)
	}
}

// The robots report lists the new lines, with what they say, instead of
// warning of unknown fields.
func TestRobotsReportListsUsageLines(t *testing.T) {
	robots := writeRobotsFile(t, crawlRobots+"User-agent: A\nContent-Usage: train-ai=no\nUser-agent: B\nDisallow: /b\n")
	out, errs, _ := runRobotsCLI(t, "", "robots", robots)
	for _, want := range []string{
		"  line 4: content-usage train-ai=n (train-ai=n)\n",
		"  line 5: content-usage /ai-ok/ train-ai=y (train-ai=y)\n",
		"  line 6: content-signal /news/ ai-input=no (ai-use=n)\n",
		"  line 12: content-usage train-ai=no (nothing usable) (for A)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(errs, "unknown field") || !strings.Contains(errs, ":12:1: warning: Content-Usage: train-ai=no: the value is the token no") {
		t.Errorf("stderr:\n%s", errs)
	}
	out, _, _ = runRobotsCLI(t, "", "robots", "--format", "jsonl", robots)
	if !strings.Contains(out, `"content_usage":[{"line":4,"field":"Content-Usage","agents":["*"],"value":"train-ai=n","preferences":{"train-ai":"disallowed"}}`) {
		t.Errorf("jsonl:\n%s", out)
	}
}

// check reports the preferences, their statements and the decision, in
// its text report and on its page.
func TestCheckReportsAIPreferences(t *testing.T) {
	const doc = `<html><head><meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="https://p.example/policy"><meta name="robots" content="noai"></head><body><p>x</p></body></html>`
	out, _, _ := runCLI(t, doc, "check", "--purpose", "search", "--content-usage", "search=n")
	for _, want := range []string{
		"  ai preferences: train-ai disallowed, ai-use disallowed, search disallowed\n",
		"    meta tdm-reservation \"1\" at 1:13: train-ai=n, ai-use=n\n",
		"    content-usage header \"search=n\": search=n\n",
		"    tdm-policy https://p.example/policy\n",
		"  purpose search: no text (--purpose search, and search is disallowed by content-usage header \"search=n\")\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check lacks %q:\n%s", want, out)
		}
	}
	page, _, _ := runCLI(t, doc, "check", "--format", "html", "--purpose", "search")
	if !strings.Contains(page, `<pre class="ai">ai preferences: train-ai disallowed`) {
		t.Errorf("page:\n%s", page)
	}
}
