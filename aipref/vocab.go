package aipref

import (
	"fmt"
	"strings"
)

// Category is a usage category of the vocabulary
// (draft-ietf-aipref-vocab-08 section 4).
type Category uint8

const (
	// TrainAI is AI Training (section 4.1, label train-ai): using an asset
	// to modify the learned parameters of a generative AI model.
	TrainAI Category = iota
	// AIUse is AI Use (section 4.2, label ai-use): using an asset as input
	// to a generative AI model, where the user did not provide it.
	AIUse
	// Search is Search (section 4.3, label search): using an asset in an
	// application that selects assets and directs users to them.
	Search
)

// NumCategories is how many categories the vocabulary has.
const NumCategories = 3

var categoryLabels = [NumCategories]string{TrainAI: "train-ai", AIUse: "ai-use", Search: "search"}

// String is the category's label (section 6.1).
func (c Category) String() string {
	if int(c) < NumCategories {
		return categoryLabels[c]
	}
	return fmt.Sprintf("Category(%d)", uint8(c))
}

// Value is a preference for one category: allowed, disallowed or unknown
// (section 3).
type Value uint8

const (
	Unknown    Value = iota // no statement says anything of the category
	Allowed                 // "y"
	Disallowed              // "n"
)

var valueNames = [...]string{Unknown: "unknown", Allowed: "allowed", Disallowed: "disallowed"}

func (v Value) String() string {
	if int(v) < len(valueNames) {
		return valueNames[v]
	}
	return fmt.Sprintf("Value(%d)", uint8(v))
}

// MarshalText writes the value's name, for JSON.
func (v Value) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Prefs are preferences for each category, indexed by Category.
type Prefs [NumCategories]Value

// IsZero reports whether the preferences say nothing.
func (p Prefs) IsZero() bool { return p == Prefs{} }

// String writes the preferences that are known in the vocabulary's
// exemplary format ("train-ai=n, search=y"), "" when none is.
func (p Prefs) String() string {
	var parts []string
	for c, v := range p {
		switch v {
		case Allowed:
			parts = append(parts, categoryLabels[c]+"=y")
		case Disallowed:
			parts = append(parts, categoryLabels[c]+"=n")
		}
	}
	return strings.Join(parts, ", ")
}

// MarshalJSON writes the known preferences as an object of labels and
// value names: {"train-ai":"disallowed"}.
func (p Prefs) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for c, v := range p {
		if v == Unknown {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "%q:%q", categoryLabels[c], v.String())
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// combine is the process of section 5.1 for one category: disallowed
// wins, then allowed, else unknown.
func combine(a, b Value) Value {
	switch {
	case a == Disallowed || b == Disallowed:
		return Disallowed
	case a == Allowed || b == Allowed:
		return Allowed
	}
	return Unknown
}

// Combine is section 5.1 over two statements: for each category,
// disallowed wins, then allowed, else unknown.
func (p Prefs) Combine(q Prefs) Prefs {
	for c := range p {
		p[c] = combine(p[c], q[c])
	}
	return p
}

// Purpose is the use a caller has in mind, named by a label of the
// vocabulary: a category, or "all" for every one of them.
type Purpose struct {
	label string
	cats  [NumCategories]bool
}

// ParsePurpose reads a purpose label: train-ai, ai-use or search
// (draft-ietf-aipref-vocab-08), or all (every category: a document is
// withheld when any category is disallowed). The labels of earlier
// drafts are taken too, with a note that says what they are read as:
// train-genai (generative AI training, before -04) is -08's train-ai,
// and ai-output (-04) is ai-use. "" is no purpose (the zero Purpose).
func ParsePurpose(label string) (p Purpose, note string, err error) {
	p.label = label
	switch label {
	case "":
		return Purpose{}, "", nil
	case "all":
		p.cats = [NumCategories]bool{true, true, true}
	case "train-ai":
		p.cats[TrainAI] = true
	case "ai-use":
		p.cats[AIUse] = true
	case "search":
		p.cats[Search] = true
	case "train-genai":
		p.cats[TrainAI] = true
		note = "train-genai is the label of generative AI training in the drafts before draft-ietf-aipref-vocab-04; draft -08's train-ai is that category (the training of generative models): deciding for train-ai"
	case "ai-output":
		p.cats[AIUse] = true
		note = "ai-output is the label of draft-ietf-aipref-vocab-04; draft -08 calls that use ai-use: deciding for ai-use"
	default:
		return Purpose{}, "", fmt.Errorf("unknown purpose %q (want train-ai, ai-use, search or all, the labels of draft-ietf-aipref-vocab-08)", label)
	}
	return p, note, nil
}

// IsZero reports whether p is no purpose.
func (p Purpose) IsZero() bool { return p.label == "" }

// String is the label the purpose was given as.
func (p Purpose) String() string { return p.label }

// Decide says whether preferences allow the purpose: no when any
// category it names is disallowed, which is then returned. An unknown
// preference allows (the vocabulary takes no position on a default,
// section 5; robofilter treats silence as robots.txt treats it: no rule,
// no restriction).
func (p Purpose) Decide(prefs Prefs) (allowed bool, denied Category) {
	for c, on := range p.cats {
		if on && prefs[c] == Disallowed {
			return false, Category(c)
		}
	}
	return true, 0
}
