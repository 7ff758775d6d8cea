package aipref

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// Any value: no panic; a value that parses gives members where it says,
// and ParseDictionary keeps the last member of each key.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{`train-ai=y, search=n`, `a=(1 2);x, b="s", c=:YQ==:, d=%"%c3%a9", e=@12, f=?1, g=-1.5`, `a=1,`, "", " ", "TRAIN-AI=n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var ms []Member
		err := EachMember(s, func(m Member) { ms = append(ms, m) })
		if err != nil {
			se, ok := err.(*SyntaxError)
			if !ok || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("%q: error %v", s, err)
			}
			return
		}
		last := -1
		for _, m := range ms {
			if m.Offset <= last || !strings.HasPrefix(s[m.Offset:], m.Key) || m.Key == "" {
				t.Fatalf("%q: member %+v out of place", s, m)
			}
			if m.Kind == "token" && !strings.Contains(s[m.Offset:], m.Token) {
				t.Fatalf("%q: token %q is not in the value", s, m.Token)
			}
			last = m.Offset
		}
		d, err := ParseDictionary(s)
		if err != nil {
			t.Fatalf("%q: ParseDictionary fails where EachMember did not: %v", s, err)
		}
		want := map[string]Member{}
		for _, m := range ms {
			want[m.Key] = m
		}
		if len(d) != len(want) {
			t.Fatalf("%q: %d members, %d keys", s, len(d), len(want))
		}
		for _, m := range d {
			if want[m.Key] != m {
				t.Fatalf("%q: %s is %+v, the last given %+v", s, m.Key, m, want[m.Key])
			}
		}
		if len(ms) > 0 {
			// A trailing comma always fails (RFC 9651 section 4.2.2).
			if _, err := ParseDictionary(s + ","); err == nil {
				t.Fatalf("%q with a trailing comma parsed", s)
			}
		}
	})
}

// Any statement: no panic, warnings within the value, and a statement of
// known labels with the values y and n, once each, states exactly them
// and warns of nothing.
func FuzzParseUsage(f *testing.F) {
	for _, s := range []string{`train-ai=y, search=n`, `train-ai=y, train-ai, search=n, search="n"`, `all=n, search=y`, `train-genai=n`, `x=1, ai-use=n`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (Prefs, []Warning){ParseUsage, ParseContentSignal} {
			p, warns := parse(s)
			for _, w := range warns {
				if w.Offset < 0 || w.Offset > len(s) || w.Message == "" {
					t.Fatalf("%q: warning %+v", s, w)
				}
			}
			if _, err := ParseDictionary(s); err != nil && !p.IsZero() {
				t.Fatalf("%q does not parse and states %v", s, p)
			}
		}
		ms, err := ParseDictionary(s)
		if err != nil || len(ms) == 0 {
			return
		}
		var want Prefs
		clean := true
		seen := map[string]bool{}
		_ = EachMember(s, func(m Member) {
			c, ok := labelCategory(m.Key)
			if !ok || seen[m.Key] || m.Kind != "token" || m.Token != "y" && m.Token != "n" {
				clean = false
				return
			}
			seen[m.Key] = true
			want[c] = map[string]Value{"y": Allowed, "n": Disallowed}[m.Token]
		})
		if !clean {
			return
		}
		if p, warns := ParseUsage(s); p != want || len(warns) > 0 {
			t.Fatalf("%q: got %v %v, want %v and no warning", s, p, warns, want)
		}
	})
}

// tdmRegexp is a location pattern as a regular expression: the oracle of
// the greedy matcher.
func tdmRegexp(loc string) *regexp.Regexp {
	loc = normalizeTDMPath(loc)
	anchored := strings.HasSuffix(loc, "$")
	if anchored {
		loc = loc[:len(loc)-1]
	}
	parts := strings.Split(loc, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	re := "^" + strings.Join(parts, "(?s:.*)")
	if anchored {
		re += `\z`
	}
	return regexp.MustCompile(re)
}

// The location matcher agrees with a regular expression on every pattern
// and path.
func FuzzTDMPattern(f *testing.F) {
	for _, s := range [][2]string{{"/directory-b/images/*.jpg", "/directory-b/images/a.jpg"}, {"/a*b$", "/aXbYb"}, {"/*", "/"}, {"/a$", "/a"}, {"*.pdf$", "/x.pdf"}, {"/%7Ea", "/~a"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, loc, path string) {
		if !utf8.ValidString(loc) || !utf8.ValidString(path) {
			t.Skip("the regexp oracle reads UTF-8 only")
		}
		p := compileTDMPattern(loc)
		norm := normalizeTDMPath(path)
		got := p.match([]byte(norm))
		if want := tdmRegexp(loc).MatchString(norm); got != want {
			t.Fatalf("location %q path %q: match %v, the regexp says %v", loc, path, got, want)
		}
	})
}

// Any file: no panic, warnings placed in the file, rules in file order,
// and matching any URL answers.
func FuzzParseTDMRep(f *testing.F) {
	f.Add(`[{"location": "/", "tdm-reservation": 1}]`, "/a")
	f.Add("[\n {\"location\": \"/directory-a/\", \"tdm-reservation\": 1},\n {\"location\": \"/directory-b/images/*.jpg\", \"tdm-reservation\": 0}\n]", "/directory-b/images/x.jpg")
	f.Add(`[{"location": 1}, 2, {"location": "/x", "tdm-reservation": "1"}`, "/x")
	f.Fuzz(func(t *testing.T, file, url string) {
		tf, warns, err := ParseTDMRep(strings.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count([]byte(file), []byte("\n")) + 1
		for _, w := range warns {
			if w.Line < 0 || w.Line > lines || w.Message == "" {
				t.Fatalf("%q: warning %+v", file, w)
			}
		}
		prev := 0
		for _, r := range tf.Rules {
			if r.Line < prev || r.Line < 1 || r.Reservation != 0 && r.Reservation != 1 {
				t.Fatalf("%q: rule %+v", file, r)
			}
			prev = r.Line
		}
		if r, ok := tf.Match(url); ok {
			for i := range tf.Rules {
				if &tf.Rules[i] == r {
					break
				}
				if tf.Rules[i].pat.match([]byte(normalizeTDMPath(urlPath(url)))) {
					t.Fatalf("%q: rule %d matched before the one returned", url, i)
				}
			}
		}
	})
}
