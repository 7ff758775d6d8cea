package aipref

import (
	"strings"
	"testing"
)

func prefs(train, use, search Value) Prefs { return Prefs{TrainAI: train, AIUse: use, Search: search} }

const (
	u = Unknown
	y = Allowed
	n = Disallowed
)

// Every example of draft-ietf-aipref-vocab-08, in the form it shows:
// statements in the exemplary format (sections 6, 6.5.1, 6.5.2).
func TestVocab08Examples(t *testing.T) {
	for _, tc := range []struct {
		section, in string
		want        Prefs
		warn        string // a word every warning list must have, "" for none
	}{
		// Section 6: allow model training, disallow search, others unknown.
		{"6", "train-ai=y, search=n", prefs(y, u, n), ""},
		// Section 6.5.1: the last value of a key applies, and neither a
		// Boolean nor a String is a Token: all unknown.
		{"6.5.1", `train-ai=y, train-ai, search=n, search="n"`, prefs(u, u, u), "appears 2 times"},
		// Section 6.5.1: upper case keys fail the parse: unknown.
		{"6.5.1", "TRAIN-AI=n", prefs(u, u, u), "does not parse"},
		// Section 6.5.2: only the selected value's parameters apply: an
		// allow, without parameters.
		{"6.5.2", "train-ai;allow=n, train-ai=y", prefs(y, u, u), "appears 2 times"},
		// Section 6.5.2: parameters on an unknown preference. As printed,
		// the final ";" has no key, which fails the parse (RFC 9651
		// section 4.2.3.2): unknown either way.
		{"6.5.2", `train-ai;has;parameters="?";`, prefs(u, u, u), "does not parse"},
		{"6.5.2", `train-ai;has;parameters="?"`, prefs(u, u, u), "Boolean true"},
		// The -08 category this draft added.
		{"6.1", "ai-use=n", prefs(u, n, u), ""},
		// draft-ietf-aipref-attach-05 section 1.2's header and rule value.
		{"attach 1.2", "train-ai=n", prefs(n, u, u), ""},
		// Section 6.4: unknown labels and parameters are ignored.
		{"6.4", "train-ai=n;x=1, foo=y, search=y", prefs(n, u, y), `unknown label "foo"`},
		// Section 6.5: values that are not the Tokens y and n are unknown.
		{"6.5", "train-ai=no, search=?1, ai-use=1", prefs(u, u, u), "the token no"},
	} {
		got, warns := ParseUsage(tc.in)
		if got != tc.want {
			t.Errorf("§%s %q: got %v, want %v", tc.section, tc.in, got, tc.want)
		}
		text := warningText(warns)
		if tc.warn == "" && len(warns) > 0 || !strings.Contains(text, tc.warn) {
			t.Errorf("§%s %q: warnings %q, want one with %q", tc.section, tc.in, text, tc.warn)
		}
	}
}

func warningText(ws []Warning) string {
	var parts []string
	for _, w := range ws {
		parts = append(parts, w.Message)
	}
	return strings.Join(parts, " | ")
}

// The examples of the earlier drafts, read with their labels for what
// they meant, each with a warning that names the draft.
func TestEarlierDraftsLabels(t *testing.T) {
	for _, tc := range []struct {
		draft, in string
		want      Prefs
	}{
		// Before -04 (all ⊃ train-ai ⊃ train-genai, all ⊃ search): allow AI
		// training, disallow generative AI training, which is what -08's
		// train-ai now names.
		{"-01..-03", "train-ai=y, train-genai=n", prefs(n, u, u)},
		// A category without a preference takes its parent's.
		{"-01..-03", "all=n, search=y", prefs(n, n, y)},
		{"-01..-03", "all=y, train-genai=n", prefs(n, y, y)},
		// -04: bots (Automated Processing) ⊃ train-ai, ai-output ⊃ search.
		{"-04", "bots=y, train-ai=n", prefs(n, y, y)},
		{"-04", "ai-output=n", prefs(u, n, n)},
		{"-04", "bots=y, ai-output=n, search=y", prefs(y, n, y)},
		// -04 section 6.5's example expresses no preferences.
		{"-04", `train-ai=y, train-ai="n", search=n, search, bots=n, bots=()`, prefs(u, u, u)},
		// An older label never turns an explicit "n" of -08's into "y".
		{"safety", "train-ai=n, train-genai=y", prefs(n, u, u)},
		{"safety", "search=n, ai-output=y, all=y", prefs(y, y, n)},
	} {
		got, warns := ParseUsage(tc.in)
		if got != tc.want {
			t.Errorf("%s %q: got %v, want %v", tc.draft, tc.in, got, tc.want)
		}
		if !strings.Contains(warningText(warns), "draft-ietf-aipref-vocab") {
			t.Errorf("%s %q: no warning names the draft: %q", tc.draft, tc.in, warningText(warns))
		}
	}
}

// A value that states nothing, or states it wrongly, says so.
func TestUsageWarnings(t *testing.T) {
	for in, want := range map[string]string{
		"":                       "empty",
		"  ":                     "empty",
		"train-ai=n,":            "trailing comma",
		"ai-train=n":             "Content-Signal label",
		"train-ai=n; search=y":   "", // a parameter, silently ignored (section 6.4)
		"train-ai=N":             "the token N",
		`train-ai="n"`:           "a string",
		"train-ai=n, train-ai=y": "appears 2 times",
	} {
		_, warns := ParseUsage(in)
		text := warningText(warns)
		if want == "" && text != "" || !strings.Contains(text, want) {
			t.Errorf("%q: warnings %q, want %q", in, text, want)
		}
	}
	// Many unknown labels: the first ten named, the rest counted.
	var b strings.Builder
	for i := range 25 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("x" + string(rune('a'+i)))
	}
	_, warns := ParseUsage(b.String())
	if len(warns) != 11 || !strings.Contains(warns[10].Message, "15 more") {
		t.Errorf("25 unknown labels: %d warnings, last %q", len(warns), warns[len(warns)-1].Message)
	}
}

// Cloudflare's Content Signals, in the forms its managed robots.txt and
// the Content Signals Policy write them.
func TestContentSignalExamples(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Prefs
		warn string
	}{
		{"search=yes, ai-train=no", prefs(n, u, y), ""},
		{"ai-train=no, search=yes, ai-input=yes", prefs(n, y, y), ""},
		{"search=yes,ai-input=no", prefs(u, n, y), ""},
		{"ai-train=n", prefs(u, u, u), "the token n, not yes or no"},
		{"train-ai=no", prefs(u, u, u), "a Content-Usage label"},
		{"Search=yes", prefs(u, u, u), "does not parse"},
		{"search = yes", prefs(u, u, u), "does not parse"},
		{"search=yes, ai-train=no, search=no", prefs(n, u, n), "appears 2 times"},
	} {
		got, warns := ParseContentSignal(tc.in)
		if got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.in, got, tc.want)
		}
		text := warningText(warns)
		if tc.warn == "" && text != "" || !strings.Contains(text, tc.warn) {
			t.Errorf("%q: warnings %q, want %q", tc.in, text, tc.warn)
		}
	}
}

// TDMRep's values (section "tdm-reservation"): 1 reserves, 0 does not,
// anything else is unset.
func TestTDMReservationValues(t *testing.T) {
	for in, want := range map[string]struct {
		p   Prefs
		set bool
	}{
		"1": {prefs(n, n, u), true}, " 1 ": {prefs(n, n, u), true}, "0": {prefs(y, y, u), true},
		"2": {Prefs{}, false}, "yes": {Prefs{}, false}, "": {Prefs{}, false}, "01": {Prefs{}, false},
	} {
		p, set, warn := ParseTDMReservation(in)
		if p != want.p || set != want.set || set == (warn != "") {
			t.Errorf("%q: got %v %v %q, want %v %v", in, p, set, warn, want.p, want.set)
		}
	}
}

func TestPurposes(t *testing.T) {
	no := func(c Category) Prefs { var p Prefs; p[c] = Disallowed; return p }
	for _, tc := range []struct {
		label  string
		prefs  Prefs
		allows bool
		note   bool
	}{
		{"train-ai", no(TrainAI), false, false},
		{"train-ai", no(AIUse), true, false},
		{"train-ai", no(Search), true, false},
		{"search", no(TrainAI), true, false},
		{"search", no(Search), false, false},
		{"ai-use", no(AIUse), false, false},
		{"all", no(Search), false, false},
		{"all", prefs(y, y, u), true, false},
		{"train-genai", no(TrainAI), false, true},
		{"ai-output", no(AIUse), false, true},
		{"train-ai", Prefs{}, true, false}, // unknown allows
	} {
		p, note, err := ParsePurpose(tc.label)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := p.Decide(tc.prefs); ok != tc.allows || (note != "") != tc.note {
			t.Errorf("%s over %v: allowed %v note %q", tc.label, tc.prefs, ok, note)
		}
	}
	for _, bad := range []string{"Train-AI", "tdm", "ai-train", "train"} {
		if _, _, err := ParsePurpose(bad); err == nil {
			t.Errorf("purpose %q accepted", bad)
		}
	}
}
