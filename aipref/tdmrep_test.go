package aipref

import (
	"strings"
	"testing"
)

// The examples of the TDMRep final report's section "TDM File on the
// Origin Server", as it prints them.
func TestTDMRepFileExamples(t *testing.T) {
	optOutAll := `
          [
            {
            "location": "/",
            "tdm-reservation": 1
            }
          ]`
	threeGroups := `
          [
            {
            "location": "/directory-a/",
            "tdm-reservation": 1
            },
            {
            "location": "/directory-b/html/",
            "tdm-reservation": 1,
            "tdm-policy":"https://provider.com/policies/policy.json"
            },
            {
            "location": "/directory-b/images/*.jpg",
            "tdm-reservation": 0
            }
          ]`
	for _, tc := range []struct {
		file, url string
		res       int // -1: no rule matches (unset)
		policy    string
		line      int
	}{
		{optOutAll, "https://provider.com/any/file.pdf", 1, "", 3},
		{optOutAll, "/", 1, "", 3},
		{threeGroups, "https://provider.com/directory-a/paper.pdf", 1, "", 3},
		{threeGroups, "https://provider.com/directory-b/html/page.html", 1, "https://provider.com/policies/policy.json", 7},
		{threeGroups, "https://provider.com/directory-b/images/cat.jpg", 0, "", 12},
		{threeGroups, "https://provider.com/directory-b/images/cat.png", -1, "", 0},
		{threeGroups, "https://provider.com/index.html", -1, "", 0},
		{threeGroups, "https://provider.com/directory-a", -1, "", 0},    // a prefix of the path, not the path
		{threeGroups, "https://provider.com/%64irectory-a/x", 1, "", 3}, // %64 is "d", unreserved: decoded
	} {
		f, warns, err := ParseTDMRep(strings.NewReader(tc.file))
		if err != nil || len(warns) > 0 {
			t.Fatalf("%v %v", err, warns)
		}
		r, ok := f.Match(tc.url)
		switch {
		case tc.res < 0 && ok:
			t.Errorf("%s: matched %+v, want no rule", tc.url, r)
		case tc.res >= 0 && (!ok || r.Reservation != tc.res || r.Policy != tc.policy || r.Line != tc.line):
			t.Errorf("%s: got %+v %v, want reservation %d policy %q at line %d", tc.url, r, ok, tc.res, tc.policy, tc.line)
		}
	}
}

// "The most specific match is the first in sequence": the first rule
// that matches decides, whatever comes after it.
func TestTDMRepFirstMatchDecides(t *testing.T) {
	f, _, _ := ParseTDMRep(strings.NewReader(`[{"location": "/public/*", "tdm-reservation": 0}, {"location": "/", "tdm-reservation": 1}]`))
	if r, _ := f.Match("/public/a"); r.Reservation != 0 {
		t.Errorf("/public/a: %+v", r)
	}
	if r, _ := f.Match("/private/a"); r.Reservation != 1 {
		t.Errorf("/private/a: %+v", r)
	}
	g, _, _ := ParseTDMRep(strings.NewReader(`[{"location": "/", "tdm-reservation": 1}, {"location": "/public/*", "tdm-reservation": 0}]`))
	if r, _ := g.Match("/public/a"); r.Reservation != 1 {
		t.Errorf("reversed, /public/a: %+v", r)
	}
	st := (&TDMRule{Location: "/", Reservation: 1, Line: 2}).Statement()
	if st.Prefs != prefs(n, n, u) || st.Level != LevelSite || st.String() != `tdmrep.json line 2 "location /, tdm-reservation: 1"` {
		t.Errorf("statement %+v %q", st, st)
	}
}

// One bad rule costs that rule; each warning says where.
func TestTDMRepFileWarnings(t *testing.T) {
	file := `[
  {"location": "/a", "tdm-reservation": 1},
  {"location": "/b", "tdm-reservation": "1"},
  {"tdm-reservation": 1},
  "not a rule",
  {"location": "/c", "tdm-reservation": 2},
  {"location": "https://example.com/", "tdm-reservation": 1},
  {"location": "/d", "tdm-reservation": 0, "tdm-policy": 5},
  {"location": "/e", "tdm-reservation": 0}
]`
	f, warns, err := ParseTDMRep(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, r := range f.Rules {
		locs = append(locs, r.Location)
	}
	if strings.Join(locs, " ") != "/a https://example.com/ /e" {
		t.Errorf("rules %v", locs)
	}
	want := []struct {
		line int
		word string
	}{{3, "not the integer"}, {4, "location"}, {5, "not a JSON object"}, {6, "not the integer"}, {7, "can match no path"}, {8, "tdm-policy"}}
	if len(warns) != len(want) {
		t.Fatalf("warnings %+v", warns)
	}
	for i, w := range want {
		if warns[i].Line != w.line || warns[i].Col != 3 || !strings.Contains(warns[i].Message, w.word) {
			t.Errorf("warning %d: %+v, want line %d:3 with %q", i, warns[i], w.line, w.word)
		}
	}
	for _, bad := range []string{`{"location": "/", "tdm-reservation": 1}`, ``, `[{"location": "/", "tdm-reservation": 1}`, `[{"location": "/", "tdm-reservation": 1}, {`} {
		f, warns, _ := ParseTDMRep(strings.NewReader(bad))
		if len(warns) == 0 {
			t.Errorf("%q: no warning (%d rules)", bad, len(f.Rules))
		}
	}
	// A byte order mark is no part of the JSON.
	if f, warns, _ := ParseTDMRep(strings.NewReader("\uFEFF[{\"location\": \"/\", \"tdm-reservation\": 1}]")); len(f.Rules) != 1 || len(warns) > 0 {
		t.Errorf("with a BOM: %+v %v", f.Rules, warns)
	}
}
