package filter

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robofilter/robofilter/internal/ascii"
	"github.com/robofilter/robofilter/internal/quote"
)

// Dialects is the set of in-page exclusion dialects honoured (SPEC section 4).
type Dialects uint8

const (
	DialectProfile   Dialects = 1 << iota // Robot Exclusion Profile classes (always on in practice)
	DialectNoContent                      // Yahoo class="robots-nocontent"
	DialectYandex                         // <noindex>, <!--noindex-->
	DialectGoogleOff                      // <!--googleoff: …--> / <!--googleon: …-->
	DialectNoSnippet                      // data-nosnippet attribute
	DialectRel                            // rel="nofollow|ugc|sponsored"

	// AllDialects is every dialect (what 0 means in Options).
	AllDialects = DialectProfile | DialectNoContent | DialectYandex | DialectGoogleOff | DialectNoSnippet | DialectRel
)

var dialectNames = []struct {
	name string
	d    Dialects
}{
	{"profile", DialectProfile}, {"nocontent", DialectNoContent}, {"yandex", DialectYandex},
	{"googleoff", DialectGoogleOff}, {"nosnippet", DialectNoSnippet}, {"rel", DialectRel},
}

// ParseDialects reads a comma-separated list of dialect names ("all" for all).
func ParseDialects(list string) (Dialects, error) {
	var d Dialects
	for _, name := range strings.Split(list, ",") {
		name = ascii.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if name == "all" {
			d |= AllDialects
			continue
		}
		found := false
		for _, n := range dialectNames {
			if n.name == name {
				d |= n.d
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown dialect %q (known: all, %s)", name, DialectNames())
		}
	}
	return d, nil
}

// DialectNames lists the dialect names ParseDialects accepts.
func DialectNames() string {
	var names []string
	for _, n := range dialectNames {
		names = append(names, n.name)
	}
	return strings.Join(names, ", ")
}

func (d Dialects) String() string {
	var names []string
	for _, n := range dialectNames {
		if d&n.d != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ",")
}

// classRule is what one class attribute says, before the agent is known to
// match: the generic override, and the per-robot ones by robot number.
type classVerdict struct {
	override Override
	dialect  string // which dialect decided (for reports): "profile", "nocontent", "robotN"
	warnings []string
	// quiet: nobody will read the warnings, so they are counted in made
	// and not formatted (a page can have a million such elements).
	quiet bool
	made  int // the warnings made (or, quiet, counted)
	// unlisted counts the warnings about tokens past maxClassWarnings.
	unlisted int
	// unnamed are the robot numbers of per-robot classes no META has
	// named: each once, and no more than the core warns about.
	unnamed []int
}

// maxClassWarnings bounds the warnings about one element's class tokens
// (unknown robots- classes, typographic quotes): one class attribute can
// hold a million tokens. Past it they are counted, and one more warning
// says how many.
const maxClassWarnings = 10

// warnToken reports whether a warning about one more class token is
// listed; past maxClassWarnings it is counted instead, and not made (a
// million tokens would make a million messages to drop).
func (v *classVerdict) warnToken() bool {
	if v.made >= maxClassWarnings {
		v.unlisted++
		return false
	}
	return v.warn()
}

// warn counts a warning and reports whether to make it (not when quiet).
func (v *classVerdict) warn() bool {
	v.made++
	return !v.quiet
}

// profileSuffix maps a class suffix to the override it means.
func profileSuffix(s []byte) (Override, bool) {
	for _, n := range switchNames {
		switch {
		case ascii.EqualFold(s, n.off):
			return Override{Off: n.bit}, true
		case ascii.EqualFold(s, n.on):
			return Override{On: n.bit}, true
		}
	}
	return Override{}, false
}

func asciiSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && ascii.EqualFold(b[:len(prefix)], prefix)
}

// mentionsRobot is the fast path: almost no class attribute says "robot".
func mentionsRobot(class []byte) bool {
	for i := 0; i+5 <= len(class); i++ {
		c := class[i] | 0x20
		if c == 'r' && class[i+1]|0x20 == 'o' && class[i+2]|0x20 == 'b' && class[i+3]|0x20 == 'o' && class[i+4]|0x20 == 't' {
			return true
		}
	}
	return false
}

// TypographicQuotes are the quotes that pasted examples (the profile's own
// wiki page among them) put around attribute values and tokens (“ ” ‘ ’
// „): HTML reads them as part of the value; a careful reader strips them.
const TypographicQuotes = "\u201c\u201d\u2018\u2019\u201e"

// resolveClasses reads a class attribute. agentIsRobot says whether robot
// number n (RobotExclusion.RobotNameN) is the agent, and whether it is named.
// profileOK is false under --require-profile when the head did not name the
// profile: the profile's classes are then meaningless (Yahoo's
// robots-nocontent is not the profile's and still counts).
func resolveClasses(class []byte, dialects Dialects, agentIsRobot func(n int) (is, named bool), profileOK, quiet bool) classVerdict {
	v := classVerdict{quiet: quiet}
	if !mentionsRobot(class) {
		return v
	}
	var generic, specific Override
	var genericConflict, specificConflict Switch
	haveSpecific := false
	for rest := class; len(rest) > 0; {
		// Fields by hand: bytes.Fields would allocate for every element.
		for len(rest) > 0 && asciiSpace(rest[0]) {
			rest = rest[1:]
		}
		end := 0
		for end < len(rest) && !asciiSpace(rest[end]) {
			end++
		}
		f := rest[:end]
		rest = rest[end:]
		if len(f) < 5 || !mentionsRobot(f) {
			continue
		}
		tok := f
		// The quotes are not ASCII: a token with ASCII at both ends has
		// none to trim (bytes.Trim would decode it rune by rune).
		if f[0] >= utf8.RuneSelf || f[len(f)-1] >= utf8.RuneSelf {
			if trimmed := bytes.Trim(f, TypographicQuotes); len(trimmed) != len(f) {
				tok = trimmed
				if v.warnToken() {
					v.warnings = append(v.warnings, fmt.Sprintf("class token %q has typographic quotes around it; read as %q", quote.Clip(f, 80), quote.Clip(tok, 80)))
				}
			}
		}
		switch {
		case hasPrefixFold(tok, "robots-"):
			suffix := tok[len("robots-"):]
			if ascii.EqualFold(suffix, "nocontent") {
				if dialects&DialectNoContent != 0 {
					var c Switch
					generic, c = generic.merge(Override{Off: NoIndex})
					genericConflict |= c
					if v.dialect == "" {
						v.dialect = "nocontent"
					}
				}
				continue
			}
			o, ok := profileSuffix(suffix)
			if !ok {
				if v.warnToken() {
					v.warnings = append(v.warnings, fmt.Sprintf("unknown Robot Exclusion Profile class %q ignored (a typo here leaks content)", quote.Clip(tok, 80)))
				}
				continue
			}
			if dialects&DialectProfile == 0 || !profileOK {
				continue
			}
			var c Switch
			generic, c = generic.merge(o)
			genericConflict |= c
			v.dialect = "profile"
		case hasPrefixFold(tok, "robot") && len(tok) > 5 && tok[5] >= '0' && tok[5] <= '9':
			dash := bytes.IndexByte(tok, '-')
			if dash < 0 {
				continue
			}
			n, err := strconv.Atoi(string(tok[5:dash]))
			if err != nil {
				if errors.Is(err, strconv.ErrRange) && v.warnToken() {
					v.warnings = append(v.warnings, fmt.Sprintf("per-robot class %q: no robot has so large a number; ignored", quote.Clip(tok, 80)))
				}
				continue
			}
			o, ok := profileSuffix(tok[dash+1:])
			if !ok {
				if v.warnToken() {
					v.warnings = append(v.warnings, fmt.Sprintf("unknown per-robot class %q ignored", quote.Clip(tok, 80)))
				}
				continue
			}
			if dialects&DialectProfile == 0 || !profileOK || agentIsRobot == nil {
				continue
			}
			if is, named := agentIsRobot(n); !is {
				if !named && len(v.unnamed) < maxWarnedRobots && !slices.Contains(v.unnamed, n) {
					v.unnamed = append(v.unnamed, n)
				}
				continue
			}
			var c Switch
			specific, c = specific.merge(o)
			specificConflict |= c
			haveSpecific = true
			v.dialect = "robot" + strconv.Itoa(n)
		}
	}
	if v.unlisted > 0 && v.warn() {
		v.warnings = append(v.warnings, fmt.Sprintf("%d more warnings about this element's robots class tokens (unknown classes, typographic quotes), not listed", v.unlisted))
	}
	if genericConflict != 0 && v.warn() {
		v.warnings = append(v.warnings, fmt.Sprintf("conflicting classes on one element (%s and its opposite); the \"no\" wins", genericConflict))
	}
	if specificConflict != 0 && v.warn() {
		v.warnings = append(v.warnings, fmt.Sprintf("conflicting per-robot classes on one element (%s and its opposite); the \"no\" wins", specificConflict))
	}
	v.override = generic
	if haveSpecific {
		v.override = specific.over(generic)
	}
	return v
}

// ClassSwitches gives the switches a chain of elements turns off by their
// class and data-nosnippet attributes, outermost first (the innermost
// decides each switch, SPEC 1.2). For callers that see an element's
// ancestors at once, such as feed records processed one by one.
func ClassSwitches(dialects Dialects, classes [][]byte, noSnippet []bool) Switch {
	if dialects == 0 {
		dialects = AllDialects
	}
	var off Switch
	for i, class := range classes {
		ov := resolveClasses(class, dialects, nil, true, true).override
		if i < len(noSnippet) && noSnippet[i] && dialects&DialectNoSnippet != 0 && ov.On&NoArchive == 0 {
			ov.Off |= NoArchive
		}
		off = ov.Apply(off)
	}
	return off
}
