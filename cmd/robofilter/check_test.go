package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
)

// verdictPages are the pages the verdict's numbers are checked on: the
// hand-made ones and the corpus's HTML pages.
func verdictPages(t *testing.T) []string {
	pages := []string{
		filepath.Join("testdata", "overlay", "dialects.html"),
		filepath.Join("testdata", "overlay", "hostile.html"),
		filepath.Join("..", "..", "testdata", "example.html"),
	}
	return append(pages, corpusSample(t)...)
}

// corpusSample is a part of the corpus's HTML pages, for tests that run
// each through several commands: the pages with robots markup the issues
// name, and every eighth of the others.
func corpusSample(t *testing.T) []string {
	if shared.Dir() == "" || testing.Short() {
		return nil
	}
	var pages []string
	for i, p := range shared.Glob(t, "corpus/html/*.html") {
		switch filepath.Base(p) {
		case "heise.html", "nytimes-1.html", "nytimes-2.html", "wordpress.html":
			pages = append(pages, p)
		default:
			if i%8 == 0 {
				pages = append(pages, p)
			}
		}
	}
	return pages
}

// jsonlRecords runs a command and returns its JSON Lines records.
func jsonlRecords(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	out, errOut, code := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("%v: status %d, %s", args, code, errOut)
	}
	var recs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, m)
	}
	return recs
}

// textWordBytes counts the bytes of words in a text command's line
// records (all but the spaces between them), less the ellipses marked.
func textWordBytes(recs []map[string]any, ellipsis string) int64 {
	var n int64
	for _, r := range recs {
		if r["type"] != "line" {
			continue
		}
		s := r["text"].(string)
		if ellipsis != "" {
			s = strings.ReplaceAll(s, ellipsis, "")
		}
		n += int64(len(s) - strings.Count(s, " "))
	}
	return n
}

// TestCheckVerdictIsWhatTextArchiveAndLinksSay computes the verdict's
// numbers from the other commands' JSON Lines, for the same page, and
// compares: the text indexed is text's, the text of snippets archive
// --text's (without its ellipses), the links links --all's, counted by
// reason; the page's text is the text read with no in-page dialect but
// rel, which excludes no text (for a page that is not noindex).
func TestCheckVerdictIsWhatTextArchiveAndLinksSay(t *testing.T) {
	const ell = "⟦ELLIPSIS⟧"
	for _, page := range verdictPages(t) {
		t.Run(filepath.Base(page), func(t *testing.T) {
			var v verdict
			for _, r := range jsonlRecords(t, "check", "-q", "--format", "jsonl", page) {
				if r["type"] == "page_verdict" {
					b, _ := json.Marshal(r)
					json.Unmarshal(b, &v)
				}
			}
			if v.Type != "page_verdict" {
				t.Fatal("no verdict record")
			}
			want := verdict{Type: "page_verdict", File: page, Indexed: v.Indexed, Followed: v.Followed, Archived: v.Archived, Regions: v.Regions, Leaks: v.Leaks}
			want.IndexedBytes = textWordBytes(jsonlRecords(t, "text", "-q", "--format", "jsonl", page), "")
			want.SnippetBytes = textWordBytes(jsonlRecords(t, "archive", "-q", "--text", "--ellipsis", ell, "--format", "jsonl", page), ell)
			for _, r := range jsonlRecords(t, "links", "-q", "--all", "--format", "jsonl", page) {
				if r["type"] != "link" {
					continue
				}
				want.Links++
				reason, _ := r["reason"].(string)
				switch {
				case r["followed"] == true:
					want.LinksFollowed++
				case robotsReason(reason):
					if want.NotFollowed == nil {
						want.NotFollowed = map[string]int{}
					}
					want.NotFollowed[reason]++
				default:
					want.NotPages++
				}
			}
			if v.Indexed {
				want.TextBytes = textWordBytes(jsonlRecords(t, "text", "-q", "--dialects", "rel", "--format", "jsonl", page), "")
			} else {
				want.TextBytes = v.TextBytes
				if v.IndexedBytes != 0 {
					t.Errorf("a noindex page with %d bytes indexed", v.IndexedBytes)
				}
			}
			regions := 0
			for _, r := range jsonlRecords(t, "text", "-q", "--format", "jsonl", page) {
				if r["type"] == "region" {
					regions++
				}
			}
			if regions != v.Regions {
				t.Errorf("the verdict counts %d regions, text's records %d", v.Regions, regions)
			}
			if !reflect.DeepEqual(v, want) {
				t.Errorf("verdict\n%+v\nthe commands say\n%+v", v, want)
			}
			// The pages show the same numbers.
			for _, format := range []string{"html", "overlay"} {
				out, _, _ := runCLI(t, "", "check", "-q", "--format", format, page)
				for _, s := range []string{"Text: " + bytesOf(v.TextBytes), share(v.TextBytes-v.IndexedBytes, v.TextBytes), thousands(int64(v.Links)) + ", " + thousands(int64(v.LinksFollowed)) + " followed"} {
					if v.TextBytes == 0 && strings.HasPrefix(s, "Text") {
						continue
					}
					if !strings.Contains(out, s) {
						t.Errorf("--format %s does not say %q", format, s)
					}
				}
			}
		})
	}
}

func TestCheckVerdictSaysWhyNot(t *testing.T) {
	page := "<html><head><meta name=robots content=\"noindex, noarchive\"><meta name=googlebot content=nofollow></head><body><p>x <a href=/a>a</a>"
	out, _, _ := runCLI(t, page, "check", "-q", "--agent", "Googlebot")
	for _, want := range []string{
		`verdict: not indexed: meta robots "noindex, noarchive" at line 1; links not followed: meta googlebot "nofollow" at line 1; not archived: meta robots "noindex, noarchive" at line 1`,
		"text: 2 bytes; not indexed: 2 bytes (100%)",
		"1 link: 0 followed; 1 not followed because of robots markup (1 document nofollow)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "<p>x", "check", "-q", "--x-robots-tag", "noindex")
	if !strings.Contains(out, `not indexed: x-robots-tag "noindex" (HTTP header)`) {
		t.Errorf("report:\n%s", out)
	}
	out, _, _ = runCLI(t, "<p>x", "check", "-q", "--format", "html", "--x-robots-tag", "nosnippet")
	if !strings.Contains(out, `<span class="no">No snippets, no archive copy: x-robots-tag <code>nosnippet</code> (HTTP header)</span>`) {
		t.Errorf("page:\n%s", out)
	}
}

// The warnings of markup that does not do what it seems to are those the
// core gives: each pattern is found in a real warning.
func TestCheckLeakWarningsAreTheCoresWarnings(t *testing.T) {
	page := `<html><head><meta name=robots content=noindex></head><body>
<p class="robots-noidnex">typo</p><p class="robot1-noindex">unnamed</p><p class="robot1-nofoo">x</p>
<!--googleoff index-->near miss<!--googleoff: index, bogus-->x<!--googleon: index-->
<!--googleoff: snippet-->never closed`
	var warnings []string
	for _, r := range jsonlRecords(t, "check", "-q", "--format", "jsonl", writeFile(t, t.TempDir(), "p.html", page)) {
		if r["type"] == "document" {
			for _, w := range r["warnings"].([]any) {
				warnings = append(warnings, w.(map[string]any)["message"].(string))
			}
		}
	}
	for _, pattern := range leakWarnings {
		found := false
		for _, w := range warnings {
			found = found || strings.Contains(w, pattern)
		}
		if !found && pattern != "after content was written" {
			t.Errorf("no warning has %q:\n%s", pattern, strings.Join(warnings, "\n"))
		}
	}
	late := `<html><body><p>text</p><meta name=robots content=noindex>`
	for _, r := range jsonlRecords(t, "check", "-q", "--format", "jsonl", writeFile(t, t.TempDir(), "late.html", late)) {
		if r["type"] == "page_verdict" && r["leaks"] != float64(1) {
			t.Errorf("a META after content: leaks %v", r["leaks"])
		}
	}
}
