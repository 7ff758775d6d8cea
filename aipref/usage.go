package aipref

import (
	"fmt"
	"strings"
)

// Warning is something in a statement a user should hear of: a value
// that does not parse, an unknown label, a label of an older draft.
// Offset is the byte of the value it is about (0 for the whole value).
type Warning struct {
	Offset  int
	Message string
}

// maxLabelWarnings bounds the unknown labels a statement's warnings name
// one by one; the rest are counted in one more.
const maxLabelWarnings = 10

// clip shortens a value quoted in a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n-- // cut between characters
	}
	return s[:n] + "…"
}

// legacy are labels of drafts before draft-ietf-aipref-vocab-08, read
// for what they meant (docs/aipref.md): same is the -08 category the
// label names outright, parents those it stands over (a category the
// statement does not name takes its parent's preference, as those drafts
// said).
var legacy = map[string]struct {
	same    int // a Category, or -1
	parents [NumCategories]bool
	why     string
}{
	"train-genai": {same: int(TrainAI), why: "the label of generative AI training in the drafts before draft-ietf-aipref-vocab-04, which -08's train-ai now is: read as train-ai"},
	"all":         {same: -1, parents: [NumCategories]bool{true, true, true}, why: "Automated Processing in the drafts before draft-ietf-aipref-vocab-04, over every category: read as the preference of each category the statement does not name"},
	"bots":        {same: -1, parents: [NumCategories]bool{true, true, true}, why: "Automated Processing in draft-ietf-aipref-vocab-04, over every category: read as the preference of each category the statement does not name"},
	"ai-output":   {same: -1, parents: [NumCategories]bool{AIUse: true, Search: true}, why: "AI Output in draft-ietf-aipref-vocab-04, over ai-use and search: read as their preference where the statement does not name them"},
}

// ParseUsage reads a statement of preference in the vocabulary's
// exemplary format (draft-ietf-aipref-vocab-08 section 6), as a
// Content-Usage header field or robots.txt rule carries it: a Structured
// Fields Dictionary whose keys are category labels and whose values are
// the Tokens y and n. As section 6.5 says, a value that is not the Token y
// or n leaves the category unknown, unknown labels are ignored, the last
// member of a key counts, and a value that does not parse states nothing;
// each of these comes with a warning, so that nothing is dropped
// silently. Labels of earlier drafts (train-genai, all, bots, ai-output)
// are read for what they meant, with a warning (docs/aipref.md).
func ParseUsage(value string) (Prefs, []Warning) {
	var warns []Warning
	if strings.Trim(value, " \t") == "" {
		return Prefs{}, []Warning{{0, "an empty statement of preference: it states nothing"}}
	}
	var (
		explicit, same [NumCategories]Value
		seen           = map[string]int{} // known and legacy labels, and how often
		bad            = map[string]Warning{}
		parent         = map[string]Value{}
		unknown        int
	)
	read := func(m Member, yes, no string) (Value, bool) {
		switch {
		case m.Kind == "token" && m.Token == yes:
			return Allowed, true
		case m.Kind == "token" && m.Token == no:
			return Disallowed, true
		}
		return Unknown, false
	}
	err := EachMember(value, func(m Member) {
		c, known := labelCategory(m.Key)
		l, old := legacy[m.Key]
		if !known && !old {
			if unknown++; unknown <= maxLabelWarnings {
				warns = append(warns, Warning{m.Offset, unknownLabel(m.Key, "train-ai, ai-use and search")})
			}
			return
		}
		seen[m.Key]++
		v, ok := read(m, "y", "n")
		delete(bad, m.Key) // only the last member of a key counts
		if !ok {
			bad[m.Key] = Warning{m.Offset, badValue(m, "y or n")}
		}
		switch {
		case known:
			explicit[c] = v
		case l.same >= 0:
			same[l.same] = v // the last one counts, as for any key
		default:
			parent[m.Key] = v
		}
	})
	if err != nil {
		return Prefs{}, []Warning{{errOffset(err), fmt.Sprintf("%q does not parse as a Structured Fields Dictionary (RFC 9651 section 4.2.2): %v; it states nothing (draft-ietf-aipref-vocab-08 section 6.5.1)", clip(value, 200), err)}}
	}
	for _, w := range bad {
		warns = append(warns, w)
	}
	for key, n := range seen {
		if n > 1 {
			warns = append(warns, Warning{0, fmt.Sprintf("label %s appears %d times: only the last counts (RFC 9651 section 4.2.2)", key, n)})
		}
		if l, old := legacy[key]; old {
			warns = append(warns, Warning{0, fmt.Sprintf("label %s is %s", key, l.why)})
		}
	}
	sortWarnings(warns)
	if unknown > maxLabelWarnings {
		warns = append(warns, Warning{0, fmt.Sprintf("and %d more unknown labels ignored", unknown-maxLabelWarnings)})
	}
	var p Prefs
	for c := range p {
		p[c] = combine(explicit[c], same[c])
		if p[c] != Unknown {
			continue
		}
		// The nearest parent that says something: ai-output stands
		// under all and bots.
		if l := legacy["ai-output"]; l.parents[c] {
			p[c] = parent["ai-output"]
		}
		if p[c] == Unknown {
			p[c] = combine(parent["all"], parent["bots"])
		}
	}
	return p, warns
}

// labelCategory is the category of a draft-ietf-aipref-vocab-08 label.
func labelCategory(label string) (Category, bool) {
	for c, l := range categoryLabels {
		if l == label {
			return Category(c), true
		}
	}
	return 0, false
}

func unknownLabel(key, known string) string {
	hint := ""
	switch key {
	case "ai-train", "ai-input":
		hint = " (a Content-Signal label; Content-Usage says train-ai and ai-use)"
	case "tdm", "ai", "genai", "train", "ai-training":
		hint = " (no draft defines it)"
	}
	return fmt.Sprintf("unknown label %q ignored%s: the labels are %s", clip(key, 80), hint, known)
}

func badValue(m Member, want string) string {
	if m.Kind == "token" {
		return fmt.Sprintf("%s=%s: the value is the token %s, not %s: the preference is unknown", m.Key, clip(m.Token, 40), clip(m.Token, 40), want)
	}
	if m.Kind == "boolean" {
		return fmt.Sprintf("%s has no value (it is the Boolean true), not %s: the preference is unknown", m.Key, want)
	}
	return fmt.Sprintf("%s: the value is a %s, not the token %s: the preference is unknown", m.Key, m.Kind, want)
}

func errOffset(err error) int {
	if e, ok := err.(*SyntaxError); ok {
		return e.Offset
	}
	return 0
}

// sortWarnings puts warnings in the order of their offsets (the map's
// order is not one).
func sortWarnings(w []Warning) {
	for i := 1; i < len(w); i++ {
		for j := i; j > 0 && (w[j].Offset < w[j-1].Offset || w[j].Offset == w[j-1].Offset && w[j].Message < w[j-1].Message); j-- {
			w[j], w[j-1] = w[j-1], w[j]
		}
	}
}

// contentSignalLabels map Content Signals onto the vocabulary
// (docs/aipref.md): search is search, ai-input (retrieval-augmented
// generation, grounding) is ai-use, ai-train (training or fine-tuning AI
// models) covers train-ai.
var contentSignalLabels = map[string]Category{"search": Search, "ai-input": AIUse, "ai-train": TrainAI}

// ParseContentSignal reads a Content-Signal value (Cloudflare's Content
// Signals Policy; the categories of draft-romm-aipref-contentsignals-00):
// "search=yes, ai-train=no", comma-separated members with the values yes
// and no. It is read as a Structured Fields Dictionary, as the vocabulary's
// format is, with the same rules: a value that does not parse states
// nothing, unknown labels and other values are ignored, with a warning.
func ParseContentSignal(value string) (Prefs, []Warning) {
	var warns []Warning
	if strings.Trim(value, " \t") == "" {
		return Prefs{}, []Warning{{0, "an empty Content-Signal: it states nothing"}}
	}
	var p Prefs
	seen := map[string]int{}
	bad := map[string]Warning{}
	unknown := 0
	err := EachMember(value, func(m Member) {
		c, ok := contentSignalLabels[m.Key]
		if !ok {
			if unknown++; unknown <= maxLabelWarnings {
				msg := unknownLabel(m.Key, "search, ai-input and ai-train")
				if _, vocab := labelCategory(m.Key); vocab && m.Key != "search" {
					msg = fmt.Sprintf("unknown label %q ignored: a Content-Usage label; Content-Signal's are search, ai-input and ai-train", m.Key)
				}
				warns = append(warns, Warning{m.Offset, msg})
			}
			return
		}
		seen[m.Key]++
		delete(bad, m.Key) // only the last member of a key counts
		switch {
		case m.Kind == "token" && m.Token == "yes":
			p[c] = Allowed
		case m.Kind == "token" && m.Token == "no":
			p[c] = Disallowed
		default:
			p[c] = Unknown
			bad[m.Key] = Warning{m.Offset, badValue(m, "yes or no")}
		}
	})
	if err != nil {
		return Prefs{}, []Warning{{errOffset(err), fmt.Sprintf("Content-Signal %q does not parse as comma-separated name=yes|no members (a Structured Fields Dictionary, RFC 9651): %v; it states nothing", clip(value, 200), err)}}
	}
	for _, w := range bad {
		warns = append(warns, w)
	}
	for key, n := range seen {
		if n > 1 {
			warns = append(warns, Warning{0, fmt.Sprintf("label %s appears %d times: only the last counts", key, n)})
		}
	}
	sortWarnings(warns)
	if unknown > maxLabelWarnings {
		warns = append(warns, Warning{0, fmt.Sprintf("and %d more unknown labels ignored", unknown-maxLabelWarnings)})
	}
	return p, warns
}

// ParseTDMReservation reads a tdm-reservation value (TDMRep section
// "tdm-reservation"): 1 reserves TDM rights, which is read as train-ai
// and ai-use disallowed; 0 says they are not reserved: allowed. Search is
// left unknown (docs/aipref.md says why). Any other value is a protocol
// error, which the report says to treat as unset: set is false, with a
// warning.
func ParseTDMReservation(value string) (p Prefs, set bool, warn string) {
	switch strings.TrimSpace(value) {
	case "1":
		p[TrainAI], p[AIUse] = Disallowed, Disallowed
		return p, true, ""
	case "0":
		p[TrainAI], p[AIUse] = Allowed, Allowed
		return p, true, ""
	}
	return Prefs{}, false, fmt.Sprintf("tdm-reservation %q is neither 1 nor 0: a protocol error, read as unset (TDMRep)", clip(value, 80))
}

// NoAI is what the noai robots directive says in the vocabulary's terms:
// no AI training, no AI use (docs/aipref.md). noimageai speaks of the
// page's images only and says nothing of its text.
func NoAI() Prefs {
	var p Prefs
	p[TrainAI], p[AIUse] = Disallowed, Disallowed
	return p
}
