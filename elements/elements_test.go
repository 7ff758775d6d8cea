package elements

import (
	"testing"

	"github.com/robofilter/robofilter/filter"
	a "golang.org/x/net/html/atom"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		tag     string
		foreign bool
		layout  filter.Layout
		hidden  bool
	}{
		{"p", false, filter.Block, false},
		{"br", false, filter.Block, false},
		{"td", false, filter.Cell, false},
		{"img", false, filter.Cell, false},
		{"iframe", false, filter.Cell, true}, // a box of its own, its content fallback
		{"script", false, filter.Inline, true},
		{"b", false, filter.Inline, false},
		{"custom-element", false, filter.Inline, false},
		{"svg", true, filter.Cell, false},
		{"script", true, filter.Inline, true},
		{"p", true, filter.Inline, false}, // SVG has no p: inline there
	} {
		layout, hidden := Classify(a.Lookup([]byte(tc.tag)), tc.foreign)
		if layout != tc.layout || hidden != tc.hidden {
			t.Errorf("Classify(%s, foreign %v) = %v, %v; want %v, %v", tc.tag, tc.foreign, layout, hidden, tc.layout, tc.hidden)
		}
	}
	if layout, _ := ClassifyForeign(0, "text"); layout != filter.Cell {
		t.Errorf("SVG text: %v, want a cell", layout)
	}
}

func TestVoidAndHiddenInput(t *testing.T) {
	for _, tag := range []string{"img", "br", "input", "meta", "wbr", "keygen"} {
		if !IsVoid(a.Lookup([]byte(tag))) {
			t.Errorf("%s is void", tag)
		}
	}
	for _, tag := range []string{"p", "a", "script", "template"} {
		if IsVoid(a.Lookup([]byte(tag))) {
			t.Errorf("%s is not void", tag)
		}
	}
	if !HiddenInput([]byte("HiDDen")) || HiddenInput([]byte("hidden ")) || HiddenInput([]byte("text")) {
		t.Error("HiddenInput: type=hidden only, ASCII case-insensitive")
	}
}

// Each lists every element of every category once, and Of agrees with it.
func TestEachAgreesWithOf(t *testing.T) {
	seen := map[a.Atom]Kind{}
	Each(func(x a.Atom, k Kind) {
		if seen[x]&k != 0 {
			t.Errorf("%s listed twice in category %b", x, k)
		}
		seen[x] |= k
	})
	for x, k := range seen {
		if Of(x) != k {
			t.Errorf("Of(%s) = %b, want %b", x, Of(x), k)
		}
	}
	if len(seen) < 80 {
		t.Errorf("only %d elements classified", len(seen))
	}
}
