package robotstxt

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
)

// conformanceCase is one case of ../shared/conformance/robotstxt/*.json.
type conformanceCase struct {
	Name            string `json:"name"`
	RobotsTxt       string `json:"robotstxt"`
	RobotsTxtBase64 string `json:"robotstxt_base64"`
	Agent           string `json:"agent"`
	URL             string `json:"url"`
	Allowed         bool   `json:"allowed"`
	GoogleSpecific  bool   `json:"google_specific"`
	// RFC9309Allowed, when present, is the answer under RFC 9309's
	// percent-normalisation where Google's matcher does not normalise.
	RFC9309Allowed *bool `json:"rfc9309_allowed"`
	// V1Allowed is the answer of a first-match robots.txt reader of the
	// 1996 kind (v1 mode).
	V1Allowed *bool `json:"v1_first_match_allowed"`
}

func (c conformanceCase) body(t *testing.T) []byte {
	if c.RobotsTxtBase64 == "" {
		return []byte(c.RobotsTxt)
	}
	b, err := base64.StdEncoding.DecodeString(c.RobotsTxtBase64)
	if err != nil {
		t.Fatalf("%s: robotstxt_base64: %v", c.Name, err)
	}
	return b
}

func loadConformanceCases(t *testing.T) []conformanceCase {
	t.Helper()
	files := shared.Glob(t, "conformance/robotstxt/*.json")
	var all []conformanceCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cases []conformanceCase
		if err := json.Unmarshal(data, &cases); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		all = append(all, cases...)
	}
	return all
}

// googleDifferences lists the cases Google mode answers differently from
// Google on purpose, with the reason (docs/robotstxt.md repeats the list). It is
// empty: Google mode gives Google's answer on every case. A case added here
// that starts passing fails the test, so the list cannot go stale.
var googleDifferences = map[string]string{}

// rfcNormalisationCases are cases without rfc9309_allowed whose answer RFC
// 9309's percent-normalisation changes: each is the same check as a case of
// google_robotstxt_cases.json that does carry rfc9309_allowed.
var rfcNormalisationCases = map[string]string{
	"spec/correctness/non-ascii-paths#t02.e02": "as ID_Encoding#03: the URL's ツ is compared as %E3%83%84",
	"spec/correctness/non-ascii-paths#t03.e02": "as ID_Encoding#05: the URL's ツ is compared as %E3%83%84",
	"spec/correctness/non-ascii-paths#t04.e01": "as ID_Encoding#06: the pattern's %62%61%7A is compared as baz",
}

// defaultExpectation is the answer RFC9309 mode must give: rfc9309_allowed
// where the case has it, else Google's answer, except where RFC 9309's
// rules that Google does not follow change it (corpus README: such cases
// are not to be "fixed" to Google's answer).
func defaultExpectation(c conformanceCase) (allowed bool, why string) {
	if c.RFC9309Allowed != nil {
		return *c.RFC9309Allowed, "rfc9309_allowed"
	}
	if why, ok := rfcNormalisationCases[c.Name]; ok {
		return !c.Allowed, why
	}
	if path, slash := requestPath(c.URL); !slash && isRobotsTxt([]byte(path)) {
		return true, "RFC 9309 2.2.2: /robots.txt is implicitly allowed"
	}
	return c.Allowed, "allowed"
}

func TestConformanceDefaultMode(t *testing.T) {
	cases := loadConformanceCases(t)
	var run, failed int
	for _, c := range cases {
		// A google_specific case says something about the default mode
		// only when it carries rfc9309_allowed.
		if c.GoogleSpecific && c.RFC9309Allowed == nil {
			continue
		}
		run++
		want, why := defaultExpectation(c)
		r := Parse(c.body(t), Options{})
		if got := r.Allowed(c.Agent, c.URL); got != want {
			failed++
			t.Errorf("%s: agent %q url %q: allowed = %v, want %v (%s)\n%s", c.Name, c.Agent, c.URL, got, want, why, c.RobotsTxt)
		}
	}
	t.Logf("default mode: %d of %d cases pass (those without google_specific, and those with rfc9309_allowed)", run-failed, run)
	// For information: how the google_specific cases fare without the leniencies.
	var specific, same int
	for _, c := range cases {
		if c.GoogleSpecific && c.RFC9309Allowed == nil {
			specific++
			if Parse(c.body(t), Options{}).Allowed(c.Agent, c.URL) == c.Allowed {
				same++
			}
		}
	}
	t.Logf("default mode gives Google's answer on %d of %d google_specific cases", same, specific)
}

func TestConformanceGoogleMode(t *testing.T) {
	cases := loadConformanceCases(t)
	var run, failed, specific, differ int
	for _, c := range cases {
		run++
		if c.GoogleSpecific {
			specific++
		}
		r := Parse(c.body(t), Options{Mode: Google})
		got := r.Allowed(c.Agent, c.URL)
		if reason, ok := googleDifferences[c.Name]; ok {
			differ++
			if got == c.Allowed {
				t.Errorf("%s is listed as a deliberate difference (%s) but now passes: remove it from the list", c.Name, reason)
			}
			continue
		}
		if got != c.Allowed {
			failed++
			t.Errorf("%s: agent %q url %q: allowed = %v, want %v\n%s", c.Name, c.Agent, c.URL, got, c.Allowed, c.RobotsTxt)
		}
	}
	t.Logf("google mode: %d of %d cases pass (%d google_specific), %d listed differences", run-failed-differ, run, specific, differ)
}

// v1Differences lists the cases v1 mode answers differently from
// v1_first_match_allowed on purpose, with the reason. A case listed here
// that starts passing fails the test, so the list cannot go stale.
var v1Differences = func() map[string]string {
	const blank = "the seed ends a record at a blank line, so the group has no rule"
	const bom = "a partial byte order mark is skipped in every mode, as Google's parser skips it (robotstxt/decode.go)"
	m := map[string]string{
		"ID_LineSyntax_Groups#10":                 blank,
		"spec/correctness/groups#t01.e10":         blank,
		"Derived_BOM_Partial1":                    bom,
		"Derived_BOM_Partial2":                    bom,
		"spec/correctness/BOM-characters#t02.e01": bom,
		"spec/correctness/BOM-characters#t03.e01": bom,
	}
	for _, e := range []string{"LF", "CRLF", "CR", "NoFinalNewline", "Mixed"} {
		m["Derived_LineEndings_"+e+"_bar"] = blank
	}
	for i := 1; i <= 5; i++ {
		m["spec/correctness/different-line-endings#t0"+strconv.Itoa(i)+".e01"] = blank
	}
	return m
}()

func TestConformanceV1Mode(t *testing.T) {
	cases := loadConformanceCases(t)
	var run, failed, differ int
	for _, c := range cases {
		if c.V1Allowed == nil {
			continue
		}
		run++
		got := Parse(c.body(t), Options{Mode: V1}).Allowed(c.Agent, c.URL)
		if reason, ok := v1Differences[c.Name]; ok {
			differ++
			if got == *c.V1Allowed {
				t.Errorf("%s is listed as a deliberate difference (%s) but now passes: remove it from the list", c.Name, reason)
			}
			continue
		}
		if got != *c.V1Allowed {
			failed++
			t.Errorf("%s: agent %q url %q: allowed = %v, want %v\n%s", c.Name, c.Agent, c.URL, got, *c.V1Allowed, c.RobotsTxt)
		}
	}
	if run == 0 {
		t.Fatal("no case carries v1_first_match_allowed")
	}
	t.Logf("v1 mode: %d of %d cases pass, %d listed differences", run-failed-differ, run, differ)
}
