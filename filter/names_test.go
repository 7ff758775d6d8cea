package filter

import (
	"strings"
	"testing"
)

// A run keeps its short names once and never a long one: what it keeps
// does not grow with a document of long distinct names.
func TestNamesKeepsShortNamesOnly(t *testing.T) {
	var n Names
	long := strings.Repeat("a", maxNameLen+1)
	if n.Intern([]byte("p")) != "p" || n.Intern([]byte(long)) != long || n.Intern([]byte(long)) != long {
		t.Fatal("Intern does not return the name")
	}
	if len(n.m) != 1 {
		t.Errorf("%d names kept, want 1 (the long one is not)", len(n.m))
	}
}
