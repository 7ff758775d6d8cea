package aipref

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/robofilter/robofilter/internal/ascii"
)

// TDMRepFile is a parsed /.well-known/tdmrep.json (TDMRep, section "TDM
// File on the Origin Server"): rules, each a location pattern with the
// tdm-reservation and tdm-policy that apply to the paths it matches.
type TDMRepFile struct {
	// Rules are the usable rules in file order; a rule that is not
	// usable (no location, a reservation that is neither 0 nor 1) is left
	// out, with a warning.
	Rules []TDMRule
}

// TDMRule is one rule of a tdmrep.json file.
type TDMRule struct {
	Location    string
	Reservation int    // 1: TDM rights reserved, 0: not reserved
	Policy      string // the tdm-policy URL, "" when absent
	Line, Col   int    // where the rule's object starts in the file
	pat         tdmPattern
}

// FileWarning is something in a tdmrep.json file a user should hear of,
// with where it is.
type FileWarning struct {
	Line, Col int
	Message   string
}

// MaxTDMRepBytes bounds what ParseTDMRep reads of a file: a file of rules
// for a site is a few kilobytes; more than this is left unread, with a
// warning.
const MaxTDMRepBytes = 512 << 10

// ParseTDMRep reads a tdmrep.json file. It never fails on the file's
// content: what cannot be used is left out with a warning (a rule that
// is not an object, a missing location, a tdm-reservation that is not
// the integer 0 or 1, which the report calls a protocol error, read as
// unset); a file that is no JSON array at all gives no rules and a
// warning. The error is for reading r.
func ParseTDMRep(r io.Reader) (*TDMRepFile, []FileWarning, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxTDMRepBytes+1))
	if err != nil {
		return nil, nil, err
	}
	f := &TDMRepFile{}
	var warns []FileWarning
	if len(data) > MaxTDMRepBytes {
		data = data[:MaxTDMRepBytes]
		warns = append(warns, FileWarning{Message: fmt.Sprintf("file longer than %d bytes: the rest is not read", MaxTDMRepBytes)})
	}
	// Line and column of an offset, counted on from the last one asked
	// for (offsets only grow): the file is scanned once in all.
	line, lineStart, counted := 1, 0, 0
	at := func(off int64) (int, int) {
		o := min(int(off), len(data))
		for ; counted < o; counted++ {
			if data[counted] == '\n' {
				line, lineStart = line+1, counted+1
			}
		}
		return line, o - lineStart + 1
	}
	warn := func(off int64, format string, args ...any) {
		l, c := at(off)
		warns = append(warns, FileWarning{l, c, fmt.Sprintf(format, args...)})
	}
	body := bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	skip := int64(len(data) - len(body))
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '[' {
		warn(skip, "not a JSON array of rules (TDMRep: the file is an array, even of one rule): no rules read")
		return f, warns, nil
	}
	for dec.More() {
		off := skip + dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			warn(off, "not JSON from here on (%v): the rules after this point are not read", jsonErr(err))
			return f, warns, nil
		}
		// InputOffset was before the separator: find the value's start.
		trimmed := bytes.TrimLeft(body[off-skip:], " \t\r\n,")
		off += int64(len(body[off-skip:]) - len(trimmed))
		rule, msg := parseTDMRule(raw)
		if msg != "" {
			warn(off, "%s: rule ignored", msg)
			continue
		}
		rule.Line, rule.Col = at(off)
		if !strings.HasPrefix(rule.Location, "/") && !strings.HasPrefix(rule.Location, "*") {
			// A URL written whole ("https://example.com/") is the
			// commonest: the report's locations are path patterns.
			warn(off, "location %q does not start with / or *: it is a path pattern, and this one can match no path", clip(rule.Location, 80))
		}
		f.Rules = append(f.Rules, rule)
	}
	if _, err := dec.Token(); err != nil {
		warn(skip+dec.InputOffset(), "the array is not closed (%v)", jsonErr(err))
	}
	return f, warns, nil
}

func jsonErr(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error()
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return "the file ends"
	}
	return err.Error()
}

// parseTDMRule reads one rule object; msg says why it cannot be used.
func parseTDMRule(raw json.RawMessage) (TDMRule, string) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return TDMRule{}, "a rule that is not a JSON object"
	}
	var r TDMRule
	loc, ok := obj["location"]
	if !ok || json.Unmarshal(loc, &r.Location) != nil {
		return TDMRule{}, "a rule without a location string (location is mandatory)"
	}
	res, ok := obj["tdm-reservation"]
	if !ok {
		return TDMRule{}, fmt.Sprintf("rule for %q has no tdm-reservation (it is mandatory)", clip(r.Location, 80))
	}
	switch string(bytes.TrimSpace(res)) {
	case "1":
		r.Reservation = 1
	case "0":
		r.Reservation = 0
	default:
		return TDMRule{}, fmt.Sprintf("rule for %q: tdm-reservation %s is not the integer 0 or 1 (a protocol error: unset)", clip(r.Location, 80), clip(string(res), 40))
	}
	if pol, ok := obj["tdm-policy"]; ok {
		if json.Unmarshal(pol, &r.Policy) != nil {
			return TDMRule{}, fmt.Sprintf("rule for %q: tdm-policy is not a string", clip(r.Location, 80))
		}
	}
	r.pat = compileTDMPattern(r.Location)
	return r, ""
}

// Match returns the rule that applies to a URL (absolute, or a path):
// the first in file order whose location matches its path, as TDMRep
// says ("the most specific match is the first in sequence"); ok is false
// when none does, and tdm-reservation is then unset.
func (f *TDMRepFile) Match(url string) (rule *TDMRule, ok bool) {
	if f == nil {
		return nil, false
	}
	path := []byte(normalizeTDMPath(urlPath(url)))
	for i := range f.Rules {
		if f.Rules[i].pat.match(path) {
			return &f.Rules[i], true
		}
	}
	return nil, false
}

// Statement is the rule as a statement of preference.
func (r *TDMRule) Statement() Statement {
	p, _, _ := ParseTDMReservation(fmt.Sprint(r.Reservation))
	return Statement{Mechanism: TDMRep, Origin: "tdmrep.json", Value: fmt.Sprintf("tdm-reservation: %d", r.Reservation),
		Path: r.Location, Line: r.Line, Level: LevelSite, Prefs: p, Policy: r.Policy}
}

// urlPath is the path and query of an absolute URL ("//host/p" too), or
// url itself when it is a path; "/" when the URL has none. A fragment
// never counts.
func urlPath(url string) string {
	if i := strings.IndexByte(url, '#'); i >= 0 {
		url = url[:i]
	}
	rest := ""
	switch {
	case strings.HasPrefix(url, "//"):
		rest = url[2:]
	default:
		i := strings.Index(url, "://")
		if i <= 0 || strings.ContainsAny(url[:i], "/?") {
			if !strings.HasPrefix(url, "/") {
				return "/" + url
			}
			return url
		}
		rest = url[i+3:]
	}
	if j := strings.IndexAny(rest, "/?"); j >= 0 {
		if rest[j] == '?' {
			return "/" + rest[j:]
		}
		return rest[j:]
	}
	return "/"
}

// normalizeTDMPath decodes the escapes of unreserved characters, as the
// report asks before comparing ("it MUST be unencoded prior to comparison,
// unless it is a reserved character ... or outside the unreserved
// range"), and upper-cases the hex digits of the others, so that an
// escape matches itself whatever its case.
func normalizeTDMPath(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && ascii.IsHexDigit(s[i+1]) && ascii.IsHexDigit(s[i+2]) {
			v := ascii.Unhex(s[i+1])<<4 | ascii.Unhex(s[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteString(strings.ToUpper(s[i : i+3]))
			}
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isUnreserved(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// tdmPattern is a location pattern: "*" matches any run of bytes, a final
// "$" anchors the end (robots.txt's syntax, which the report borrows);
// otherwise a pattern matches every path it starts.
type tdmPattern struct {
	segs     []string // the parts between the stars; segs[0] must start the path
	anchored bool
}

func compileTDMPattern(loc string) tdmPattern {
	loc = normalizeTDMPath(loc)
	var p tdmPattern
	if strings.HasSuffix(loc, "$") {
		p.anchored, loc = true, loc[:len(loc)-1]
	}
	p.segs = strings.Split(loc, "*")
	if len(p.segs) > 1 && p.segs[len(p.segs)-1] == "" {
		p.anchored = false // after a final "*" the "$" adds nothing
	}
	return p
}

// match is greedy and leftmost, which is exact for "*" (each part found
// at its earliest place leaves the most room for the next), and linear in
// the path: each part is searched once from where the last one ended.
func (p tdmPattern) match(path []byte) bool {
	head := p.segs[0]
	if !bytes.HasPrefix(path, []byte(head)) {
		return false
	}
	t := path[len(head):]
	if len(p.segs) == 1 {
		return !p.anchored || len(t) == 0
	}
	last := len(p.segs) - 1
	for k := 1; k <= last; k++ {
		seg := p.segs[k]
		if k == last && p.anchored {
			return bytes.HasSuffix(t, []byte(seg))
		}
		j := bytes.Index(t, []byte(seg))
		if j < 0 {
			return false
		}
		t = t[j+len(seg):]
	}
	return true
}
