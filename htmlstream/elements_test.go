package htmlstream

import (
	"testing"

	a "golang.org/x/net/html/atom"
)

func TestAtomTableAgreesWithItsMap(t *testing.T) {
	m := atomFlagsMap()
	for x, f := range m {
		if got := atomFlags.get(x); got != f {
			t.Errorf("%s: %b, want %b", x, got, f)
		}
	}
	for _, name := range []string{"span", "custom-element", "svg", "feComponentTransfer", "x"} {
		x := a.Lookup([]byte(name))
		if got := atomFlags.get(x); got != m[x] {
			t.Errorf("%s: %b, want %b", name, got, m[x])
		}
	}
}

// Every tracked element has its own slot in the atom table, within
// openCount, and no other element has one.
func TestScopeTrackSlots(t *testing.T) {
	var b builder
	seen := map[int]bool{}
	for i, x := range scopeTracked {
		k := scopeTrackIndex(x)
		if k != i+1 || seen[k] || k >= len(b.openCount) {
			t.Errorf("%v: slot %d", x, k)
		}
		seen[k] = true
	}
	for _, x := range []a.Atom{a.Span, a.Img, a.Svg, a.Script, a.Title, 0} {
		if k := scopeTrackIndex(x); k != 0 {
			t.Errorf("%v: slot %d, want none", x, k)
		}
	}
}
