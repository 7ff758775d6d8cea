package robotstxt

import (
	"strings"
	"testing"
	"time"
)

func TestNormalisation(t *testing.T) {
	cases := []struct {
		norm     normalizer
		in, want string
		path     string // what a URL path normalises to, when not want
	}{
		{normRFC, "/foo/bar/%62%61%7A", "/foo/bar/baz", ""},
		{normRFC, "/foo/bar/ツ", "/foo/bar/%E3%83%84", ""},
		{normRFC, "/a%3cb", "/a%3Cb", ""},
		{normRFC, "/a%2fb", "/a%2Fb", ""},
		{normRFC, "/%7euser", "/~user", ""},
		{normRFC, "/100%", "/100%25", ""},
		{normRFC, "/%zz", "/%25zz", ""},
		{normRFC, "/a b\t", "/a%20b%09", ""},
		{normRFC, `/"<>\^{|}` + "`", "/%22%3C%3E%5C%5E%7B%7C%7D%60", ""},
		{normRFC, "/*.php?a=1&b=2;c=[3]@:!'()+,", "/*.php?a=1&b=2;c=[3]@:!'()+,", "/%2A.php?a=1&b=2;c=[3]@:!'()+,"},
		// A pattern's "*" is its wildcard and a final "$" its end; a "$"
		// elsewhere is literal. A URL's "*" and "$" are literal: %2A, %24.
		{normRFC, "/a$b$", "/a%24b$", "/a%24b%24"},
		{normRFC, "/%2A", "/%2A", ""},
		{normRFC, "/%2a%24", "/%2A%24", ""},
		{normGoogle, "/a%3cb/ツ", "/a%3Cb/%E3%83%84", ""},
		{normGoogle, "/%62 %zz", "/%62 %zz", ""},
		{normV1, "/%7efred/hi.html", "/~fred/hi.html", ""},
		{normV1, "/~fred%2fhi.html", "/~fred%2Fhi.html", ""},
		{normV1, "/a%20b%", "/a b%25", ""},
		// "%" stays encoded, so the text "%2F" is not an encoded slash.
		{normV1, "/a%252Fb", "/a%252Fb", ""},
		{normV1, "/a%252fb%25", "/a%252fb%25", ""},
	}
	for _, c := range cases {
		if got := c.norm.pattern(c.in); got != c.want {
			t.Errorf("normalizer %d: %q → %q, want %q", c.norm, c.in, got, c.want)
		}
		want := c.want
		if c.path != "" {
			want = c.path
		}
		if got := string(c.norm.appendPath(nil, c.in)); c.norm != normGoogle && got != want {
			t.Errorf("normalizer %d path: %q → %q, want %q", c.norm, c.in, got, want)
		}
	}
}

func TestWildcardPattern(t *testing.T) {
	cases := []struct {
		pattern, path string
		match         bool
	}{
		{"/", "/anything", true},
		{"/fish", "/fish.html", true},
		{"/fish", "/Fish.asp", false},
		{"/fish*", "/fishheads/yummy.html", true},
		{"/*.php", "/folder/filename.php?parameters", true},
		{"/*.php", "/filename.PHP", false},
		{"/*.php$", "/filename.php", true},
		{"/*.php$", "/filename.php?parameters", false},
		{"/*.php$", "/filename.php/", false},
		{"/fish*.php", "/fishheads/catfish.php?parameters", true},
		{"/fish*.php", "/Fish.PHP", false},
		{"*.gif$", "/a/b.gif", true},
		{"/a*b*c", "/axxbyyc", true},
		{"/a*b*c", "/axxcyyb", false},
		{"/a*b*b$", "/ab", false},
		{"/a*b*b$", "/abb", true},
		{"/a*b*b$", "/abxb", true},
		{"/a**b", "/ab", true},
		{"/a*$", "/a", true},
		{"$", "/", false},
		{"*", "", true},
	}
	for _, c := range cases {
		p := wildcardPattern([]byte(c.pattern))
		if got := p.match([]byte(c.path)); got != c.match {
			t.Errorf("%q ~ %q = %v, want %v", c.pattern, c.path, got, c.match)
		}
		if ref := referenceMatch(c.pattern, c.path); ref != c.match {
			t.Errorf("reference: %q ~ %q = %v, want %v", c.pattern, c.path, ref, c.match)
		}
	}
}

// referenceMatch is the textbook dynamic-programming matcher for RFC 9309
// patterns ("*" anywhere, "$" at the end), quadratic and obviously right,
// for checking the linear one.
func referenceMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	// can[j]: pattern[:i] matches path[:j]
	can := make([]bool, len(path)+1)
	can[0] = true
	for i := 0; i < len(pattern); i++ {
		next := make([]bool, len(path)+1)
		if pattern[i] == '*' {
			seen := false
			for j := range can {
				seen = seen || can[j]
				next[j] = seen
			}
		} else {
			for j := 0; j < len(path); j++ {
				next[j+1] = can[j] && path[j] == pattern[i]
			}
		}
		can = next
	}
	if anchored {
		return can[len(path)]
	}
	for _, ok := range can {
		if ok {
			return true
		}
	}
	return false
}

// TestPathologicalPatternIsLinear matches patterns that make backtracking
// matchers explode against long paths: it must take milliseconds.
func TestPathologicalPatternIsLinear(t *testing.T) {
	long := "/" + strings.Repeat("a", 100_000)
	patterns := []string{
		"/*a*a*a*a*a*a*a*a*b",
		"/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b$",
		"/" + strings.Repeat("*a", 500) + "b",
		"/*" + strings.Repeat("a", 1000) + "b",
	}
	var robots strings.Builder
	robots.WriteString("User-agent: *\n")
	for _, p := range patterns {
		robots.WriteString("Disallow: " + p + "\n")
	}
	rules := Parse([]byte(robots.String()), Options{}).ForAgent("FooBot")
	start := time.Now()
	for range 20 {
		if !rules.Allowed(long) {
			t.Fatal("no pattern should match: the path has no b")
		}
	}
	// A termination guard, not a timing: linear matching takes
	// milliseconds, and backtracking over 500 wildcards would take longer
	// than the universe has existed, so a minute tells them apart on any
	// machine, however loaded.
	if elapsed := time.Since(start); elapsed > time.Minute {
		t.Errorf("20 matches of a 100 KB path took %v", elapsed)
	}
}
