package xmlstream

import (
	"regexp"
	"strings"
	"testing"
)

func TestParseRobotsPI(t *testing.T) {
	cases := []struct {
		name, pi string
		isRobots bool
		want     RobotsPI
		err      string // a part of the message; "" for a legal PI
	}{
		{"legal yes yes", `<?robots index="yes" follow="yes"?>`, true, RobotsPI{true, true}, ""},
		{"legal no yes", `<?robots index="no" follow="yes"?>`, true, RobotsPI{false, true}, ""},
		{"legal yes no", `<?robots index="yes" follow="no"?>`, true, RobotsPI{true, false}, ""},
		{"legal no no", `<?robots index="no" follow="no"?>`, true, RobotsPI{false, false}, ""},
		{"legal any S", "<?robots\r\n\tindex=\"no\"\n\n follow=\"yes\"\t?>", true, RobotsPI{false, true}, ""},
		{"not robots: other target", `<?xml-stylesheet href="a"?>`, false, RobotsPI{}, ""},
		{"not robots: longer target", `<?robotsx index="no" follow="no"?>`, false, RobotsPI{}, ""},
		{"not robots: not a PI", `robots index="no"`, false, RobotsPI{}, ""},
		{"upper-case target", `<?Robots index="no" follow="no"?>`, true, RobotsPI{}, "lower case"},
		{"no attributes", `<?robots?>`, true, RobotsPI{}, "no index and follow"},
		{"only space", `<?robots ?>`, true, RobotsPI{}, "expected the index attribute"},
		{"single quotes", `<?robots index='no' follow="no"?>`, true, RobotsPI{}, "single quotes"},
		{"single quotes on follow", `<?robots index="no" follow='no'?>`, true, RobotsPI{}, "single quotes"},
		{"unquoted", `<?robots index=no follow="no"?>`, true, RobotsPI{}, "not in double quotes"},
		{"swapped", `<?robots follow="no" index="no"?>`, true, RobotsPI{}, "index must be first"},
		{"missing follow", `<?robots index="no"?>`, true, RobotsPI{}, "no follow attribute"},
		{"missing follow, trailing space", `<?robots index="no" ?>`, true, RobotsPI{}, "no follow attribute"},
		{"missing index", `<?robots follow="no"?>`, true, RobotsPI{}, "no index attribute"},
		{"maybe", `<?robots index="maybe" follow="no"?>`, true, RobotsPI{}, "must be yes or no"},
		{"empty value", `<?robots index="" follow="no"?>`, true, RobotsPI{}, "must be yes or no"},
		{"upper-case value", `<?robots index="Yes" follow="no"?>`, true, RobotsPI{}, "in lower case"},
		{"upper-case attribute", `<?robots INDEX="no" follow="no"?>`, true, RobotsPI{}, "in lower case"},
		{"extra attribute", `<?robots index="no" follow="no" noarchive="yes"?>`, true, RobotsPI{}, `extra attribute "noarchive"`},
		{"extra text", `<?robots index="no" follow="no" !?>`, true, RobotsPI{}, "unexpected"},
		{"space before =", `<?robots index ="no" follow="no"?>`, true, RobotsPI{}, "around ="},
		{"space after =", `<?robots index= "no" follow="no"?>`, true, RobotsPI{}, "around ="},
		{"no space between", `<?robots index="no"follow="no"?>`, true, RobotsPI{}, "white space is required"},
		{"index twice", `<?robots index="no" index="yes"?>`, true, RobotsPI{}, "twice"},
		{"unknown attribute", `<?robots noindex="yes" follow="no"?>`, true, RobotsPI{}, "unknown attribute"},
		{"no value", `<?robots index follow="no"?>`, true, RobotsPI{}, "has no value"},
		{"unclosed quote", `<?robots index="no follow="no"?>`, true, RobotsPI{}, "must be yes or no"},
		{"value runs to the end", `<?robots index="no?>`, true, RobotsPI{}, "no closing quote"},
		{"non-breaking space is not S", "<?robots\u00a0index=\"no\" follow=\"no\"?>", true, RobotsPI{}, "white space is required"},
		{"not robots: target with a letter after", "<?robotsé index=\"no\" follow=\"no\"?>", false, RobotsPI{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, isRobots, err := ParseRobotsPI([]byte(tc.pi))
			if isRobots != tc.isRobots {
				t.Fatalf("isRobots %v, want %v", isRobots, tc.isRobots)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one saying %q", err, tc.err)
			case tc.err == "" && v != tc.want:
				t.Fatalf("got %v, want %v", v, tc.want)
			}
			if pe, ok := err.(*PIError); ok && (pe.Offset < 0 || pe.Offset > len(tc.pi)) {
				t.Errorf("offset %d outside the PI", pe.Offset)
			}
		})
	}
}

// piGrammar is the draft's grammar as a regular expression: the oracle the
// fuzz target checks the hand-written parser against.
var piGrammar = regexp.MustCompile(`^<\?robots[ \t\r\n]+index="(yes|no)"[ \t\r\n]+follow="(yes|no)"[ \t\r\n]*\?>$`)

func FuzzRobotsPI(f *testing.F) {
	for _, s := range []string{
		`<?robots index="yes" follow="yes"?>`, `<?robots index="no" follow="no" ?>`,
		`<?robots follow="no" index="no"?>`, `<?robots index='no' follow='no'?>`, `<?ROBOTS?>`,
		`<?robots index="no"?>`, `<?robots index = "no" follow="no"?>`, "<?robots\tindex=\"no\"\nfollow=\"yes\"\r?>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, pi []byte) {
		v, isRobots, err := ParseRobotsPI(pi)
		m := piGrammar.FindSubmatch(pi)
		if (m != nil) != (isRobots && err == nil) {
			t.Fatalf("%q: grammar says legal=%v, parser says robots=%v err=%v", pi, m != nil, isRobots, err)
		}
		if m != nil && (v.Index != (string(m[1]) == "yes") || v.Follow != (string(m[2]) == "yes")) {
			t.Fatalf("%q: parsed %v", pi, v)
		}
		if pe, ok := err.(*PIError); ok && (pe.Offset < 0 || pe.Offset > len(pi) || pe.Msg == "") {
			t.Fatalf("%q: bad error %+v", pi, pe)
		}
	})
}
