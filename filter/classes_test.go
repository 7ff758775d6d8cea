package filter

import (
	"fmt"
	"strings"
	"testing"
)

func TestResolveClassesOverrides(t *testing.T) {
	robot1 := func(n int) (is, named bool) { return n == 1, n <= 2 }
	tests := []struct {
		name, class string
		want        Override
		warnings    int
	}{
		{"no robots class", "nav main", Override{}, 0},
		{"generic noindex", "robots-noindex", Override{Off: NoIndex}, 0},
		{"classes add up", "robots-noindex robots-nofollow", Override{Off: NoIndex | NoFollow}, 0},
		{"case-insensitive", "Robots-NoArchive", Override{Off: NoArchive}, 0},
		{"no wins a conflict", "robots-follow robots-nofollow", Override{Off: NoFollow}, 1},
		{"agent-specific beats generic", "robots-noindex robot1-index", Override{On: NoIndex}, 0},
		{"other robot ignored", "robots-noindex robot2-index", Override{Off: NoIndex}, 0},
		{"yahoo nocontent", "robots-nocontent", Override{Off: NoIndex}, 0},
		{"typo warned", "robots-noindx", Override{}, 1},
		{"robot number out of range warned", "robots-noindex robot18446744073709551617-index", Override{Off: NoIndex}, 1},
		{"substring is not a token", "myrobots-noindex robots-noindexed", Override{}, 1},
		{"anchortext pair", "robots-noanchortext", Override{Off: NoAnchorText}, 0},
		{"only ASCII case folds: long s", "robots-noindex robots-ſnippet robotſ-index", Override{Off: NoIndex}, 1},
		{"only ASCII case folds: Kelvin sign", "robots-noanchortext robots-anchorteKxt", Override{Off: NoAnchorText}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := resolveClasses([]byte(tc.class), AllDialects, robot1, true, false)
			if v.override != tc.want || len(v.warnings) != tc.warnings || len(v.unnamed) != 0 {
				t.Errorf("got %+v (warnings %q), want %+v with %d warnings", v.override, v.warnings, tc.want, tc.warnings)
			}
		})
	}
}

func TestOverrideApplyInnermostDecides(t *testing.T) {
	outer := Override{Off: NoIndex | NoFollow}.Apply(0)
	inner := Override{On: NoIndex}.Apply(outer)
	if inner != NoFollow {
		t.Errorf("robots-index inside robots-noindex robots-nofollow: %v, want nofollow only", inner)
	}
}

func TestUnnamedRobotsClassIsNoted(t *testing.T) {
	named := func(n int) (is, named bool) { return false, n == 1 }
	v := resolveClasses([]byte("robots-noindex robot3-index robot1-index"), AllDialects, named, true, false)
	if v.override != (Override{Off: NoIndex}) || len(v.warnings) != 0 || len(v.unnamed) != 1 || v.unnamed[0] != 3 {
		t.Errorf("got %+v", v)
	}
}

// One class attribute can hold a million robots- tokens: the warnings
// about them are bounded per element (the first maxClassWarnings, then
// one that counts the rest), each names its token clipped, and the robot
// numbers of unnamed per-robot classes are noted once each, no more than
// the core warns about. The classes that mean something still count.
func TestClassWarningsAreBoundedPerElement(t *testing.T) {
	var class strings.Builder
	class.WriteString("robots-noindex ")
	const n = 100_000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&class, "robots-foo%d \u201drobots-nofollow\u201d robot%d-index robot7-index ", i, i)
	}
	class.WriteString("robots-" + strings.Repeat("x", 1<<20))
	unnamed := func(n int) (is, named bool) { return false, false }
	v := resolveClasses([]byte(class.String()), AllDialects, unnamed, true, false)
	if v.override != (Override{Off: NoIndex | NoFollow}) {
		t.Errorf("override %+v, want noindex and nofollow", v.override)
	}
	if len(v.warnings) != maxClassWarnings+1 {
		t.Fatalf("%d warnings, want %d and one that counts the rest", len(v.warnings), maxClassWarnings)
	}
	if want := fmt.Sprintf("%d more warnings", 2*n+1-maxClassWarnings); !strings.HasPrefix(v.warnings[maxClassWarnings], want) {
		t.Errorf("last warning %q, want it to start %q", v.warnings[maxClassWarnings], want)
	}
	if !strings.Contains(v.warnings[0], `"robots-foo0"`) || !strings.Contains(v.warnings[1], `read as "robots-nofollow"`) {
		t.Errorf("first warnings %q", v.warnings[:2])
	}
	if len(v.unnamed) != maxWarnedRobots || v.unnamed[0] != 0 || v.unnamed[1] != 7 || v.unnamed[2] != 1 {
		t.Errorf("%d unnamed robots noted (first %v), want %d, each once", len(v.unnamed), v.unnamed[:min(3, len(v.unnamed))], maxWarnedRobots)
	}
	long := resolveClasses([]byte("robots-"+strings.Repeat("x", 1<<20)), AllDialects, nil, true, false)
	if len(long.warnings) != 1 || len(long.warnings[0]) > 200 {
		t.Errorf("a 1 MiB unknown class gives warnings of %d bytes", len(long.warnings[0]))
	}
}

// Class warnings nobody will read (the Result full, and the Warning output
// given only what it keeps) are counted without being made: a run with a
// Warning output and one without keep the same warnings and count the
// same dropped ones.
func TestUnreadClassWarningsAreCountedAlike(t *testing.T) {
	classes := [][]byte{
		[]byte("robots-nosuch"),
		[]byte("robots-a robots-b robots-c robots-d robots-e robots-f robots-g robots-h robots-i robots-j robots-k robots-l"),
		[]byte("robots-index robots-noindex robots-x"),
		[]byte("robot1-index robot1-noindex robot1-what"),
		[]byte("\u201drobots-noindex\u201d"),
		[]byte("plain"),
	}
	run := func(listen bool) (int, *Result) {
		seen := 0
		var out Outputs
		if listen {
			out.Warning = func(Warning) { seen++ }
		}
		c, err := NewCore(Options{Agent: "robot"}, out)
		if err != nil {
			t.Fatal(err)
		}
		c.Meta([]byte("RobotExclusion.RobotName1"), []byte("robot"), StartPos, true)
		var root Scope
		for i := 0; i < 2*MaxWarnings; i++ {
			var s Scope
			c.Start(&s, &root, &Element{Tag: "p", Class: classes[i%len(classes)]})
			c.End(&s, Block)
		}
		res, err := c.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return seen, res
	}
	seen, listened := run(true)
	_, unread := run(false)
	if len(listened.Warnings) != MaxWarnings || len(unread.Warnings) != MaxWarnings {
		t.Fatalf("kept %d and %d warnings, want %d", len(listened.Warnings), len(unread.Warnings), MaxWarnings)
	}
	if seen != MaxWarnings || unread.WarningsDropped != listened.WarningsDropped || listened.WarningsDropped == 0 {
		t.Errorf("dropped %d unread, %d listened to (%d seen)", unread.WarningsDropped, listened.WarningsDropped, seen)
	}
	for i := range unread.Warnings {
		if unread.Warnings[i] != listened.Warnings[i] {
			t.Fatalf("warning %d: %q, listened to: %q", i, unread.Warnings[i].Message, listened.Warnings[i].Message)
		}
	}
}
