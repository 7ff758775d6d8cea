package xmlstream

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
)

// RobotsPI is what a legal robots processing instruction says.
type RobotsPI struct {
	Index  bool // index="yes"
	Follow bool // follow="yes"
}

// Directives returns the robots directives the PI stands for: noindex and
// nofollow for the "no" values; a yes says nothing (it is the default).
func (p RobotsPI) Directives() []string {
	var ds []string
	if !p.Index {
		ds = append(ds, "noindex")
	}
	if !p.Follow {
		ds = append(ds, "nofollow")
	}
	return ds
}

// Apply gives the core what the PI at pos says, as a directive source.
func (p RobotsPI) Apply(c *filter.Core, pos filter.Pos) {
	var ds []filter.Directive
	for _, n := range p.Directives() {
		ds = append(ds, filter.Directive{Name: n})
	}
	c.Apply(filter.DirectiveSource{Origin: "robots PI", Value: p.String(), Line: pos.Line, Col: pos.Col}, ds, pos)
}

func (p RobotsPI) String() string {
	return fmt.Sprintf(`index="%s" follow="%s"`, yesNo(p.Index), yesNo(p.Follow))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// PIError says why a robots PI is not legal, and where in the PI the first
// departure from the grammar is (a byte offset into the PI's text).
type PIError struct {
	Offset int
	Msg    string
}

func (e *PIError) Error() string { return e.Msg }

// ParseRobotsPI reads one processing instruction, given as its whole text
// from "<?" to "?>", against the grammar of the 1999 draft ("A Robots
// Processing Instruction for XML Documents"):
//
//	RobotsPI   ::= '<?robots' S IndexSpec S FollowSpec S? '?>'
//	IndexSpec  ::= 'index="yes"' | 'index="no"'
//	FollowSpec ::= 'follow="yes"' | 'follow="no"'
//	S          ::= (#x20 | #x9 | #xD | #xA)+
//
// isRobots reports whether the PI is meant for robots at all: its target is
// "robots" in any case. For such a PI, err is nil exactly when the PI is one
// of the four legal forms; otherwise it says what is wrong. Nothing is
// tolerated: single quotes, the attributes in the other order, a missing or
// extra attribute, spaces around '=', values other than yes and no, and
// upper case anywhere are all illegal.
func ParseRobotsPI(pi []byte) (v RobotsPI, isRobots bool, err error) {
	if !bytes.HasPrefix(pi, []byte("<?")) {
		return v, false, nil
	}
	i := 2
	t := i
	for i < len(pi) {
		r, n := utf8.DecodeRune(pi[i:])
		if !isNameRune(r) {
			break
		}
		i += n
	}
	target := pi[t:i]
	if !bytes.EqualFold(target, []byte("robots")) {
		return v, false, nil
	}
	if string(target) != "robots" {
		return v, true, &PIError{t, fmt.Sprintf("the target is %q: it must be robots, in lower case", target)}
	}
	p := piParser{b: pi, i: i}
	if p.i+2 == len(pi) && p.rest() == "?>" {
		return v, true, &PIError{p.i, "no index and follow attributes"}
	}
	if err := p.space("after robots"); err != nil {
		return v, true, err
	}
	if v.Index, err = p.attr("index"); err != nil {
		return v, true, err
	}
	if p.atEnd() {
		return v, true, &PIError{p.i, "no follow attribute after index (both are required)"}
	}
	if err := p.space("between index and follow"); err != nil {
		return v, true, err
	}
	if p.atEnd() {
		return v, true, &PIError{p.i, "no follow attribute after index (both are required)"}
	}
	if v.Follow, err = p.attr("follow"); err != nil {
		return v, true, err
	}
	_ = p.space("")
	if !p.atEnd() {
		if n := p.name(); n != "" {
			return v, true, &PIError{p.i - len(n), fmt.Sprintf("an extra attribute %q after follow (only index and follow are allowed)", n)}
		}
		return v, true, &PIError{p.i, fmt.Sprintf("unexpected %q after follow (expected ?>)", clipRunes(p.rest(), 20))}
	}
	return v, true, nil
}

// piParser walks a PI's text after its target.
type piParser struct {
	b []byte
	i int
}

func isS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (p *piParser) rest() string { return string(p.b[p.i:]) }

// atEnd reports whether only "?>" is left.
func (p *piParser) atEnd() bool { return p.i+2 == len(p.b) && p.b[p.i] == '?' && p.b[p.i+1] == '>' }

// space skips white space; where is non-empty where it is required.
func (p *piParser) space(where string) error {
	start := p.i
	for p.i < len(p.b) && isS(p.b[p.i]) {
		p.i++
	}
	if where != "" && p.i == start {
		return &PIError{p.i, "white space is required " + where}
	}
	return nil
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':' || c >= 0x80
}

// isNameRune approximates XML's NameChar: enough to find where a PI target
// ends (at white space, "?>", or a character no name may hold).
func isNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isNameByte(byte(r))
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == 0xB7)
}

func (p *piParser) name() string {
	start := p.i
	for p.i < len(p.b) && isNameByte(p.b[p.i]) {
		p.i++
	}
	return string(p.b[start:p.i])
}

// attr reads want="yes" or want="no", exactly.
func (p *piParser) attr(want string) (bool, error) {
	at := p.i
	n := p.name()
	switch {
	case n == want:
	case n == "":
		return false, &PIError{at, fmt.Sprintf("expected the %s attribute, found %q", want, clipRunes(p.rest(), 12))}
	case want == "index" && n == "follow" && bytes.Contains(p.b[p.i:], []byte("index")):
		return false, &PIError{at, "follow comes before index: index must be first"}
	case want == "index" && n == "follow":
		return false, &PIError{at, "no index attribute (both are required, index first)"}
	case want == "follow" && n == "index":
		return false, &PIError{at, "index is given twice"}
	case len(n) == len(want) && bytes.EqualFold([]byte(n), []byte(want)):
		return false, &PIError{at, fmt.Sprintf("attribute %q must be written %s, in lower case", n, want)}
	default:
		return false, &PIError{at, fmt.Sprintf("unknown attribute %q where %s was expected", n, want)}
	}
	if p.i < len(p.b) && isS(p.b[p.i]) {
		j := p.i
		for j < len(p.b) && isS(p.b[j]) {
			j++
		}
		if j < len(p.b) && p.b[j] == '=' {
			return false, &PIError{p.i, "no white space is allowed around ="}
		}
	}
	if p.i >= len(p.b) || p.b[p.i] != '=' {
		return false, &PIError{p.i, fmt.Sprintf("the %s attribute has no value", want)}
	}
	p.i++
	if p.i < len(p.b) && isS(p.b[p.i]) {
		return false, &PIError{p.i, "no white space is allowed around ="}
	}
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		if p.i < len(p.b) && p.b[p.i] == '\'' {
			return false, &PIError{p.i, fmt.Sprintf("the %s value is in single quotes: double quotes are required", want)}
		}
		return false, &PIError{p.i, fmt.Sprintf("the %s value is not in double quotes", want)}
	}
	p.i++
	vs := p.i
	for p.i < len(p.b) && p.b[p.i] != '"' {
		if p.b[p.i] == '?' && p.i+1 < len(p.b) && p.b[p.i+1] == '>' && p.i+2 == len(p.b) {
			return false, &PIError{vs - 1, fmt.Sprintf("the %s value has no closing quote", want)}
		}
		p.i++
	}
	if p.i >= len(p.b) {
		return false, &PIError{vs - 1, fmt.Sprintf("the %s value has no closing quote", want)}
	}
	val := string(p.b[vs:p.i])
	p.i++
	switch val {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	if bytes.EqualFold([]byte(val), []byte("yes")) || bytes.EqualFold([]byte(val), []byte("no")) {
		return false, &PIError{vs, fmt.Sprintf("%s=%q: the value must be yes or no, in lower case", want, val)}
	}
	return false, &PIError{vs, fmt.Sprintf("%s=%q: the value must be yes or no", want, clipRunes(val, 20))}
}

// clipRunes shortens s to about n bytes for a message, on a rune boundary.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
