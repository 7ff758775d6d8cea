package weburl

import (
	"net/url"
	"strings"
	"testing"
)

// Links to http(s) resolve as browsers resolve them (the WHATWG URL
// standard), not as RFC 3986 alone would, and come out in its spelling.
func TestWebURLsResolveAsBrowsersDo(t *testing.T) {
	base, _ := url.Parse("http://a.example/p/q.html")
	for _, c := range []struct {
		name, href, want, why string
	}{
		{"backslashes are slashes", `\x\y.html`, "http://a.example/x/y.html", ""},
		{"backslashes climb", `..\x`, "http://a.example/x", ""},
		{"backslash in the query stays", `?q=a\b`, `http://a.example/p/q.html?q=a\b`, ""},
		{"scheme-relative with backslashes", `\\b.example\x`, "http://b.example/x", ""},
		{"three slashes start an authority", "///b.example/x", "http://b.example/x", ""},
		{"slashes after the scheme", "https:////b.example/x", "https://b.example/x", ""},
		{"same scheme without slashes is relative", "http:y.html", "http://a.example/p/y.html", ""},
		{"same scheme, a colon in the path", "http:y:z", "http://a.example/p/y:z", ""},
		{"same scheme from the root", "http:/y", "http://a.example/y", ""},
		{"another scheme without slashes names a host", "https:b.example/x", "https://b.example/x", ""},
		{"host lower-cased, default port dropped", "http://B.Example:80/X", "http://b.example/X", ""},
		{"https default port", "https://b.example:443", "https://b.example/", ""},
		{"port with zeros", "http://b.example:0080/", "http://b.example/", ""},
		{"another port kept", "http://b.example:8080", "http://b.example:8080/", ""},
		{"empty port", "http://b.example:/x", "http://b.example/x", ""},
		{"empty path is /", "http://a.example?q=1", "http://a.example/?q=1", ""},
		{"internationalized host", "http://Bücher.example/x", "http://xn--bcher-kva.example/x", ""},
		{"percent-encoded international host", "http://b%C3%BCcher.example/", "http://xn--bcher-kva.example/", ""},
		{"hex and short IPv4", "http://0x7f.1/", "http://127.0.0.1/", ""},
		{"one-number IPv4", "http://2130706433/", "http://127.0.0.1/", ""},
		{"octal IPv4", "http://0177.0.0.01/", "http://127.0.0.1/", ""},
		{"IPv6 lower-cased", "http://[::FFFF:1]:80/", "http://[::ffff:1]/", ""},
		{"empty userinfo", "http://@b.example/p", "http://b.example/p", ""},
		{"empty password", "http://a:@b.example/p", "http://a@b.example/p", ""},
		{"userinfo kept", "http://a:b@b.example/p", "http://a:b@b.example/p", ""},
		{"IPv6 compressed", "http://[0:0:0::1]/", "http://[::1]/", ""},
		{"IPv6 with an IPv4 part", "http://[::FFFF:1.2.3.4]/", "http://[::ffff:102:304]/", ""},
		{"IPv6, the first longest zero run", "http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/", ""},
		{"IPv6 without zeros to compress", "http://[1:2:3:4:5:6:7:0]/", "http://[1:2:3:4:5:6:7:0]/", ""},
		{"IPv6 leading zeros", "http://[0001:0DB8::0001]/", "http://[1:db8::1]/", ""},
		{"five numbers", "http://1.2.3.4.5/", "", "ends in a number but is no IPv4 address"},
		{"IPv4 part too large", "http://256.1.1.1/", "", "ends in a number but is no IPv4 address"},
		{"port out of range", "http://b.example:99999/", "", `port "99999" is out of range`},
		{"no host", "http:///", "", "no host"},
		{"a caret in a host", "http://a^b.example/", "", "which no host has"},
		{"a caret mapped into a host", "http://a\uFF3Eb.example/", "", "which no host has"},
		{"bad punycode", "http://xn--a.example/", "", "is not a domain name"},
		{"punycode that would not read back", "//0\u2135", "", "is not a domain name"},
		{"invalid UTF-8 host", "//\x80", "", "is not valid UTF-8"},
		{"a host that maps to nothing", "//Xn--", "", "has an empty punycode label"},
		{"a host of ignored characters", "//\u00AD", "", "is empty as a domain name"},
		{"an empty punycode label", "http://a.xn--.b/", "", "has an empty punycode label"},
		{"a hex number too large for an address", "http://0xffffffff1/", "", "ends in a number but is no IPv4 address"},
		{"an apostrophe in the query", "/x?q='a'", "http://a.example/x?q=%27a%27", ""},
		{"escapes kept beside a byte to escape", `/a%2Fb/c"d`, "http://a.example/a%2Fb/c%22d", ""},
		{"an escaped slash climbs nothing", `/a/..%2f"`, "http://a.example/a/..%2f%22", ""},
		{"escaped dot segments", "%2e%2E/x", "http://a.example/x", ""},
		{"an escaped dot segment in an absolute URL", "http://x.org/%2E/p", "http://x.org/p", ""},
		{"an escaped host", "http://h%41st.org/p", "http://hast.org/p", ""},
		{"an escaped dot in a scheme-relative host", `\\ex%2Eample.com`, "http://ex.ample.com/", ""},
		{"an escaped slash in a host", "http://a%2Fb.org/", "", "no URL"},
		{"no host after two slashes", "//?q", "", "no host"},
		{"no host after three slashes", "///", "", "no host"},
		{"non-ASCII in the path", "/é", "http://a.example/%C3%A9", ""},
		{"other schemes untouched", "ftp://B.Example:21/", "ftp://B.Example:21/", ""},
		{"path case kept", "http://a.example/A/B?C#D", "http://a.example/A/B?C#D", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, why := Resolve(base, c.href)
			if c.why != "" {
				if !strings.Contains(why, c.why) {
					t.Errorf("%q: URL %q, reason %q, want a reason containing %q", c.href, got, why, c.why)
				}
				return
			}
			if got != c.want || why != "" {
				t.Errorf("%q: URL %q (reason %q), want %q", c.href, got, why, c.want)
			}
		})
	}
}

// Where net/url reads or writes a URL otherwise than the URL standard
// (RFC 3986's dot segments, its escaping, its refusals), an http(s) link
// comes out as the standard has it: as whatwg-url writes it.
func TestWebURLsFollowTheStandardWhereNetURLDiffers(t *testing.T) {
	for _, c := range []struct {
		name, base, href, want string
	}{
		// Dot segments: empty segments stay, even at the root.
		{"..//y from the root keeps //y", "http://h.example/a/b", "../..//y", "http://h.example//y"},
		{"/..//y keeps //y", "http://h.example/a/b", "/..//y", "http://h.example//y"},
		{"/.//y keeps //y", "http://h.example/a/b", "/.//y", "http://h.example//y"},
		{"an escaped .. at the root", "http://h.example/a/b", "/%2e%2E//y", "http://h.example//y"},
		{"empty segments in the base stay", "http://h.example/a//b/c", "../d", "http://h.example/a//d"},
		{"a final .. leaves a slash", "http://h.example/a/b", "c/..", "http://h.example/a/"},
		{"a final . leaves a slash", "http://h.example/a/b", "c/.", "http://h.example/a/c/"},
		{"dots past the root", "http://h.example/a/b", "../../../c", "http://h.example/c"},
		{"dot segments in an absolute URL", "", "http://h.example/a/./b/../../..//c", "http://h.example//c"},
		// A stray '%' stays, wherever it is.
		{"a stray % in the path", "http://h.example/d/", "100%", "http://h.example/d/100%"},
		{"a % and no hex digits", "http://h.example/d/", "%zz/%4", "http://h.example/d/%zz/%4"},
		{"a stray % beside a byte to escape", "http://h.example/d/", "5% off", "http://h.example/d/5%%20off"},
		{"a stray % in the query", "http://h.example/d/", "100%?q=5%", "http://h.example/d/100%?q=5%"},
		{"a stray % in the fragment", "http://h.example/d/", "#5%", "http://h.example/d/#5%"},
		{"a stray % in a base path", "http://h.example/100%/x", "y", "http://h.example/100%/y"},
		// The path percent-encode set.
		{"| in a path stays", "http://h.example/d/", "a|b", "http://h.example/d/a|b"},
		{"| in a base path stays", "http://h.example/a|b/c", "d", "http://h.example/a|b/d"},
		{"^ in a path is escaped", "http://h.example/d/", "a^b", "http://h.example/d/a%5Eb"},
		{"the set, and what stays", "http://h.example/d/", "\"<>`{}|[]!$'()*+,;=:@~",
			"http://h.example/d/%22%3C%3E%60%7B%7D|[]!$'()*+,;=:@~"},
		{"escapes kept beside |", "http://h.example/d/", "a%2Fb|c%7c", "http://h.example/d/a%2Fb|c%7c"},
		// Fragments.
		{"an empty fragment stays", "http://h.example/d/", "x#", "http://h.example/d/x#"},
		{"a lone # stays", "http://h.example/d/p?q", "#", "http://h.example/d/p?q#"},
		{"# in a fragment stays", "http://h.example/d/", "#a#b", "http://h.example/d/#a#b"},
		{"escapes in a fragment stay", "http://h.example/d/", "#%2F%zz%23", "http://h.example/d/#%2F%zz%23"},
		{"the fragment set, and what stays", "http://h.example/d/", "#\"<>` {}|^[]\\?",
			"http://h.example/d/#%22%3C%3E%60%20{}|^[]\\?"},
		{"the base's fragment is dropped", "http://h.example/d/p#f", "", "http://h.example/d/p"},
		{"the base's fragment is replaced", "http://h.example/d/p#f", "#", "http://h.example/d/p#"},
		// Userinfo and hosts net/url refuses.
		{"userinfo with | and ^", "", "http://a|b:c^d@h.example/", "http://a%7Cb:c%5Ed@h.example/"},
		{"userinfo the standard leaves", "", "http://a!b:c'(d)*@h.example/", "http://a!b:c'(d)*@h.example/"},
		{"userinfo with @ and :", "", "http://a@b:c:d@h.example/", "http://a%40b:c%3Ad@h.example/"},
		{"userinfo with a stray %", "", "http://a%:b%zz@h.example/", "http://a%:b%zz@h.example/"},
		{"a base's userinfo", "http://a|b@h.example/d/", "x", "http://a%7Cb@h.example/d/x"},
		{"braces in a host", "", "http://h{x}.example/", "http://h{x}.example/"},
		{"a backtick in a host", "", "http://h`.example/", "http://h`.example/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var base *url.URL
			if c.base != "" {
				var err error
				if base, err = ParseBase(c.base); err != nil {
					t.Fatal(err)
				}
			}
			if got, why := ResolveHref(base, c.href); got != c.want || why != "" {
				t.Errorf("%q against %q: URL %q (reason %q), want %q", c.href, c.base, got, why, c.want)
			}
		})
	}
}

// Without a base, an http(s) URL with no slashes names its host; a
// relative reference stays as written.
func TestWebURLsWithoutABase(t *testing.T) {
	if got, why := Resolve(nil, "http:// 00000"); !strings.Contains(why, "no URL") {
		t.Errorf("an absolute URL that does not parse, without a base: URL %q, reason %q; want no URL", got, why)
	}
	u, _ := url.Parse("http:e2/")
	if why := Normalize(u); !strings.Contains(why, "no host") {
		t.Errorf("http:e2/ as net/url reads it (opaque): reason %q, want no host", why)
	}
	for href, want := range map[string]string{
		"http://a.example/a/../b": "http://a.example/b",
		`http://a.example\..\y`:   "http://a.example/y",
		"//h.example/a/./b/../c":  "//h.example/a/c",
		"http:foo":                "http://foo/",
		"HTTPS:/Foo.Bar":          "https://foo.bar/",
		`a\b.html`:                "a%5Cb.html", // as net/url writes it: nothing says it is http
		"//B.example/x":           "//B.example/x",
		"mailto:A@B.Test":         "mailto:A@B.Test",
	} {
		if got, why := Resolve(nil, href); got != want || why != "" {
			t.Errorf("%q: URL %q (reason %q), want %q", href, got, why, want)
		}
	}
}

// A link off the fast path (a relative path, an absolute URL to
// normalize) costs a few allocations: the parsed reference, the path it
// resolves to, the URL written out; a path with dot segments one more.
func TestWebResolutionAllocations(t *testing.T) {
	base, err := ParseBase("https://example.com/dir/page.html?x=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		href string
		max  float64
	}{
		{"x.html", 3}, {"sub/page#frag", 3}, {"?page=2", 2}, {"../a/b.html?q=1", 4},
		{"http://other.example/a/b", 3}, {"//cdn.example/x.js", 3},
	} {
		if n := testing.AllocsPerRun(100, func() { Resolve(base, c.href) }); n > c.max {
			t.Errorf("%q: %v allocations, want at most %v", c.href, n, c.max)
		}
	}
}

// endsInNumber is the URL standard's "ends in a number" (split on dots, a
// final empty label dropped), without the allocation of a split: the fast
// path calls it for every link's host.
func TestEndsInNumber(t *testing.T) {
	for h, want := range map[string]bool{
		"example.com": false, "1.2.3.4": true, "a.1": true, "a.1.": true, "a.0x": true, "a.0x1f": true,
		"a.0xg": false, "a.09": true, ".": false, "": false, "1": true, "a..": false, "x1": false, "a.b.": false,
	} {
		if got := endsInNumber(h); got != want {
			t.Errorf("endsInNumber(%q) = %v, want %v", h, got, want)
		}
	}
	var sink bool
	if n := testing.AllocsPerRun(100, func() { sink = endsInNumber("www.example.com") }); n != 0 || sink {
		t.Errorf("%v allocations (or www.example.com ends in a number)", n)
	}
}

// The fast path takes a host with a port as it is written when the URL
// standard writes it so, for an href and for a base (a base's port is
// written so once normalized), and leaves the others to the full
// resolution.
func TestFastPathTakesCanonicalPorts(t *testing.T) {
	base, err := ParseBase("https://example.com:8443/d/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		base *url.URL
		href string
		fast bool
	}{
		{base, "/x.html", true},
		{nil, "http://example.com:8080/x", true},
		{nil, "https://example.com:8080/x", true},
		{nil, "http://example.com:80/x", false},
		{nil, "https://example.com:443/x", false},
		{nil, "http://example.com:0080/x", false},
		{nil, "http://example.com:99999/x", false},
		{nil, "http://example.com:/x", false},
	} {
		got, ok := resolvePlain(c.base, c.href)
		if ok != c.fast {
			t.Errorf("%q: fast path %v, want %v", c.href, ok, c.fast)
		}
		if want, _ := Resolve(c.base, c.href); ok && got != want {
			t.Errorf("%q: fast %q, full %q", c.href, got, want)
		}
	}
}
