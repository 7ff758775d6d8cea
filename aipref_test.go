package robofilter

import (
	"bufio"
	"net/http"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/aipref"
	"github.com/robofilter/robofilter/robotstxt"
)

// response reads an HTTP response as the drafts print it.
func draftResponse(t *testing.T, raw string) *http.Response {
	t.Helper()
	raw = strings.ReplaceAll(strings.TrimLeft(raw, "\n"), "\n", "\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func filterResponse(t *testing.T, resp *http.Response, opts Options) *Document {
	t.Helper()
	body, opts, err := FromResponse(resp, opts)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Filter(body, opts)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// draft-ietf-aipref-attach-05 section 1.2: the Content-Usage header field.
func TestAttachHeaderExample(t *testing.T) {
	const raw = `
HTTP/1.1 200 OK
Date: Wed, 23 Apr 2025 04:48:02 GMT
Content-Type: text/plain
Content-Usage: train-ai=n

This is some content.
`
	for purpose, text := range map[string]string{"train-ai": "", "search": "This is some content.\n", "": "This is some content.\n"} {
		doc := filterResponse(t, draftResponse(t, raw), Options{Purpose: purpose})
		if doc.Text != text || doc.ArchiveText != text {
			t.Errorf("purpose %q: text %q, archive text %q, want %q", purpose, doc.Text, doc.ArchiveText, text)
		}
		ai := doc.Result.Directives.AI
		if ai == nil || len(ai.Statements) != 1 || ai.Statements[0].Origin != "content-usage header" || ai.Preferences[aipref.TrainAI] != aipref.Disallowed {
			t.Errorf("purpose %q: report %+v", purpose, ai)
		}
	}
}

// The TDMRep report's header examples (section "TDM Header Field in HTTP
// Responses"): a reservation alone, and one with a policy.
func TestTDMRepHeaderExamples(t *testing.T) {
	const alone = `
HTTP/1.1 200 OK
Date: Wed, 14 Jul 2021 12:07:48 GMT
Content-type: image/jpg
tdm-reservation: 1

<p>An image, read as a page here.</p>
`
	const withPolicy = `
HTTP/1.1 200 OK
Date: Wed, 14 Jul 2021 12:07:48 GMT
Content-type: text/html
tdm-reservation: 1
tdm-policy: https://provider.com/policies/policy.json

<p>A page.</p>
`
	for raw, policy := range map[string]string{alone: "", withPolicy: "https://provider.com/policies/policy.json"} {
		doc := filterResponse(t, draftResponse(t, raw), Options{Purpose: "ai-use"})
		ai := doc.Result.Directives.AI
		if doc.Text != "" || ai == nil || ai.TDMPolicy != policy || ai.Purpose.Allowed || ai.Purpose.By.Origin != "tdm-reservation header" {
			t.Errorf("text %q, report %+v", doc.Text, ai)
		}
	}
}

// Site files apply by the document's URL: robots.txt's lines for the
// agent (attach-05 section 3.4's file), tdmrep.json's first matching rule.
func TestSiteFilesApplyByURL(t *testing.T) {
	robots := robotstxt.Parse([]byte(`User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`), robotstxt.Options{})
	tdm, _, _ := aipref.ParseTDMRep(strings.NewReader(`[{"location": "/reserved/", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy"}, {"location": "/ai-ok/secret", "tdm-reservation": 1}, {"location": "/", "tdm-reservation": 0}]`))
	page := "<p>Some text.</p>"
	for _, tc := range []struct {
		agent, url string
		withheld   bool
		by         string
	}{
		{"OtherBot", "https://example.com/test", true, "robots.txt Content-Usage"},
		{"OtherBot", "https://example.com/ai-ok/test", false, ""},
		{"ExampleBot", "https://example.com/test", false, ""},
		// Not crawlable: no preference in robots.txt (section 3.1);
		// tdmrep.json's "/" rule allows.
		{"OtherBot", "https://example.com/never/test", false, ""},
		{"ExampleBot", "https://example.com/reserved/x", true, "tdmrep.json"},
		// A robots.txt yes does not undo a tdmrep.json reservation.
		{"OtherBot", "https://example.com/ai-ok/secret", true, "tdmrep.json"},
		// The URL as the standard spells it: /ai-ok/x/../../test is /test.
		{"OtherBot", "https://example.com/ai-ok/x/../../test", true, "robots.txt Content-Usage"},
		{"OtherBot", "https://example.com/%61i-ok/test", false, ""},
	} {
		doc, err := Filter(strings.NewReader(page), Options{Agent: tc.agent, Base: tc.url, Purpose: "train-ai", RobotsTxt: robots, TDMRep: tdm})
		if err != nil {
			t.Fatal(err)
		}
		d := doc.Result.Directives.AI.Purpose
		if (doc.Text == "") != tc.withheld || tc.withheld && (d.By == nil || d.By.Origin != tc.by) {
			t.Errorf("%s %s: text %q, decision %+v", tc.agent, tc.url, doc.Text, d)
		}
	}
	// Without a URL the files cannot apply: a warning says so.
	doc, _ := Filter(strings.NewReader(page), Options{Purpose: "train-ai", RobotsTxt: robots})
	if doc.Text == "" || len(doc.Result.Warnings) != 1 || !strings.Contains(doc.Result.Warnings[0].Message, "no URL") {
		t.Errorf("no base: text %q, warnings %v", doc.Text, doc.Result.Warnings)
	}
}

// A purpose withholds the text, never the links or the archive copy,
// and never turns on a robots switch.
func TestPurposeIsNoSwitch(t *testing.T) {
	page := `<html><head><meta name="robots" content="noai"></head><body><p>Text <a href="/a">anchor</a></p></body></html>`
	with, _ := Filter(strings.NewReader(page), Options{Base: "https://example.com/", Purpose: "all"})
	without, _ := Filter(strings.NewReader(page), Options{Base: "https://example.com/"})
	d := with.Result.Directives
	if with.Text != "" || with.ArchiveText != "" || d.NoIndex || d.NoFollow || d.NoArchive || d.NoSnippet || !d.NoAI {
		t.Errorf("with a purpose: text %q, directives %+v", with.Text, d)
	}
	if string(with.Archive) != page || len(with.Links) != 1 || !with.Links[0].Followed || with.Links[0].URL != "https://example.com/a" {
		t.Errorf("archive %q, links %+v", with.Archive, with.Links)
	}
	if without.Text != "Text anchor\n" || without.Result.Directives.AI.Purpose != nil {
		t.Errorf("without a purpose: %q %+v", without.Text, without.Result.Directives.AI)
	}
	if _, err := Filter(strings.NewReader(page), Options{Purpose: "ai-train"}); err == nil || !strings.Contains(err.Error(), "Options.Purpose") {
		t.Errorf("unknown purpose: %v", err)
	}
}
