package aipref

import (
	"encoding/json"
	"strings"
	"testing"
)

func tdm(level Level, v string) Statement {
	p, _, _ := ParseTDMReservation(v)
	return Statement{Mechanism: TDMRep, Origin: "tdm " + v, Value: v, Level: level, Prefs: p}
}

func usage(origin, v string) Statement {
	p, _ := ParseUsage(v)
	return Statement{Mechanism: ContentUsage, Origin: origin, Value: v, Prefs: p}
}

// TDMRep's processing priority: the header supersedes the file, the META
// supersedes both, whichever way they point.
func TestTDMRepClosestLevelWins(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sts   []Statement
		train Value
	}{
		{"file alone", []Statement{tdm(LevelSite, "1")}, Disallowed},
		{"header 0 over file 1", []Statement{tdm(LevelSite, "1"), tdm(LevelResponse, "0")}, Allowed},
		{"header 1 over file 0", []Statement{tdm(LevelSite, "0"), tdm(LevelResponse, "1")}, Disallowed},
		{"meta 0 over header 1 and file 1", []Statement{tdm(LevelSite, "1"), tdm(LevelResponse, "1"), tdm(LevelDocument, "0")}, Allowed},
		{"meta 1 over header 0", []Statement{tdm(LevelResponse, "0"), tdm(LevelDocument, "1")}, Disallowed},
		{"two metas disagree: no wins", []Statement{tdm(LevelDocument, "0"), tdm(LevelDocument, "1")}, Disallowed},
		{"an unset meta supersedes nothing", []Statement{tdm(LevelSite, "1"), tdm(LevelDocument, "2")}, Disallowed},
	} {
		var s Set
		for _, st := range tc.sts {
			s.Add(st)
		}
		if p, _ := s.Prefs(); p[TrainAI] != tc.train {
			t.Errorf("%s: train-ai %v, want %v", tc.name, p[TrainAI], tc.train)
		}
	}
}

// Between mechanisms, and between statements of equal standing,
// "disallowed" wins (draft-ietf-aipref-vocab-08 section 5.1): a yes of one
// mechanism never undoes a no of another.
func TestMechanismsCombineDisallowedWins(t *testing.T) {
	cs, _ := ParseContentSignal("search=yes, ai-train=yes")
	for _, tc := range []struct {
		name string
		sts  []Statement
		want Prefs
	}{
		{"robots.txt n, header y", []Statement{usage("robots.txt", "train-ai=n"), usage("content-usage header", "train-ai=y")}, prefs(n, u, u)},
		{"robots.txt y, header n", []Statement{usage("robots.txt", "train-ai=y"), usage("content-usage header", "train-ai=n")}, prefs(n, u, u)},
		{"noai and content-usage y", []Statement{{Mechanism: Robots, Origin: "meta robots", Value: "noai", Prefs: NoAI()}, usage("content-usage header", "train-ai=y, ai-use=y, search=y")}, prefs(n, n, y)},
		{"tdmrep meta 0 and content-signal", []Statement{tdm(LevelDocument, "0"), {Mechanism: ContentSignal, Prefs: cs}}, prefs(y, y, y)},
		{"tdmrep meta 0 does not undo content-usage n", []Statement{tdm(LevelDocument, "0"), usage("content-usage header", "ai-use=n")}, prefs(y, n, u)},
		{"tdmrep file 1 superseded by header 0, content-usage n stays", []Statement{tdm(LevelSite, "1"), tdm(LevelResponse, "0"), usage("robots.txt", "train-ai=n")}, prefs(n, y, u)},
	} {
		var s Set
		for _, st := range tc.sts {
			s.Add(st)
		}
		if p, _ := s.Prefs(); p != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, p, tc.want)
		}
	}
}

// The decision names the category and the statement that decided; the
// report marks what was superseded and keeps the policy of a reservation.
func TestDecisionAndReport(t *testing.T) {
	var s Set
	s.Add(tdm(LevelSite, "0"))
	s.AddTDMPolicy(LevelDocument, "https://provider.com/policies/policy.json")
	s.Add(Statement{Mechanism: TDMRep, Origin: "meta tdm-reservation", Value: "1", Line: 4, Col: 5, Level: LevelDocument, Prefs: NoAI()})
	s.Add(usage("content-usage header", "search=y"))
	train, _, _ := ParsePurpose("train-ai")
	d := s.Decide(train)
	if d.Allowed || d.Category != "train-ai" || d.By == nil || d.By.Origin != "meta tdm-reservation" {
		t.Fatalf("decision %+v", d)
	}
	if got := d.String(); got != `train-ai: train-ai disallowed by meta tdm-reservation "1" at 4:5` {
		t.Errorf("decision reads %q", got)
	}
	search, _, _ := ParsePurpose("search")
	if d := s.Decide(search); !d.Allowed || d.String() != "search: allowed" {
		t.Errorf("search: %+v", d)
	}
	r := s.Report(train)
	if !r.Statements[0].Superseded || r.Statements[1].Superseded || r.TDMPolicy == "" || r.Purpose == nil {
		t.Errorf("report %+v", r)
	}
	b, _ := json.Marshal(r)
	for _, want := range []string{`"superseded":true`, `"preferences":{"train-ai":"disallowed","ai-use":"disallowed","search":"allowed"}`, `"tdm_policy":"https://provider.com/policies/policy.json"`, `"purpose":{"purpose":"train-ai","allowed":false,"category":"train-ai"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report JSON %s lacks %s", b, want)
		}
	}
}

// A set of any number of statements lists MaxStatements and counts the
// rest, which still decide.
func TestSetIsBounded(t *testing.T) {
	var s Set
	for range MaxStatements + 50 {
		s.Add(usage("content-usage header", "search=y"))
	}
	s.Add(Statement{Mechanism: Robots, Origin: "meta robots", Value: strings.Repeat("noai ", 10000), Prefs: NoAI()})
	r := s.Report(Purpose{})
	if len(r.Statements) != MaxStatements || r.StatementsDropped != 51 || r.Preferences[TrainAI] != Disallowed {
		t.Errorf("%d listed, %d dropped, %v", len(r.Statements), r.StatementsDropped, r.Preferences)
	}
	if _, by := s.Prefs(); by[TrainAI] == nil || len(by[TrainAI].Value) > MaxValueBytes+len("…") {
		t.Errorf("deciding statement %+v", by[TrainAI])
	}
}
