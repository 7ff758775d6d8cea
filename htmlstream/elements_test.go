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
