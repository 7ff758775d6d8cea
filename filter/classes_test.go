package filter

import "testing"

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
		{"substring is not a token", "myrobots-noindex robots-noindexed", Override{}, 1},
		{"anchortext pair", "robots-noanchortext", Override{Off: NoAnchorText}, 0},
		{"only ASCII case folds: long s", "robots-noindex robots-ſnippet robotſ-index", Override{Off: NoIndex}, 1},
		{"only ASCII case folds: Kelvin sign", "robots-noanchortext robots-anchorteKxt", Override{Off: NoAnchorText}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := resolveClasses([]byte(tc.class), AllDialects, robot1, true)
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
	v := resolveClasses([]byte("robots-noindex robot3-index robot1-index"), AllDialects, named, true)
	if v.override != (Override{Off: NoIndex}) || len(v.warnings) != 0 || len(v.unnamed) != 1 || v.unnamed[0] != 3 {
		t.Errorf("got %+v", v)
	}
}
