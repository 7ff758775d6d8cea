package weburl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"html"
	"math/rand"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robofilter/robofilter/internal/shared"
)

// whatwgScript reads [href, base] pairs, one JSON array a line, and
// writes for each the URL the reference implementation of the URL
// standard (the whatwg-url package) resolves it to, or null for none.
const whatwgScript = `
const {URL} = require("whatwg-url");
const lines = require("fs").readFileSync(0, "utf8").split("\n");
const out = [];
for (const line of lines) {
	if (line === "") continue;
	const [href, base] = JSON.parse(line);
	let r = null;
	try { r = new URL(href, base).href; } catch (e) {}
	out.push(JSON.stringify(r));
}
process.stdout.write(out.join("\n") + "\n");
`

// whatwgResolve resolves each pair with whatwg-url under node, or skips
// the test when either is missing (NODE_PATH may point at the
// node_modules that has it: npm install whatwg-url).
func whatwgResolve(t *testing.T, pairs [][2]string) []*string {
	t.Helper()
	// Read first, so that go test's cache tells a run with NODE_PATH from
	// one without.
	nodePath := os.Getenv("NODE_PATH")
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skipping: no node")
	}
	if err := exec.Command("node", "-e", `require("whatwg-url")`).Run(); err != nil {
		t.Skipf("skipping: node has no whatwg-url (npm install whatwg-url; NODE_PATH=…/node_modules; it is %q)", nodePath)
	}
	var in bytes.Buffer
	for _, p := range pairs {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
		in.WriteByte('\n')
	}
	cmd := exec.Command("node", "-e", whatwgScript)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	var res []*string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r *string
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
	}
	if len(res) != len(pairs) {
		t.Fatalf("node gave %d results for %d pairs", len(res), len(pairs))
	}
	return res
}

var linkAttr = regexp.MustCompile(`(?i)\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// differentialHrefs are the corpus pages' hrefs and srcs (entity-decoded)
// and generated ones made of the pieces where readings of URLs differ.
func differentialHrefs(t *testing.T) (corpus, generated []string) {
	files := shared.Files("corpus/html/*.html")
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkAttr.FindAllSubmatch(b, -1) {
			if h := html.UnescapeString(string(m[1]) + string(m[2])); !seen[h] {
				seen[h] = true
				corpus = append(corpus, h)
			}
		}
	}
	prefixes := []string{"", "", "", "/", "/", `\`, "//", `\\`, "///", "http:", "https:", "HTTP:", "http:/", `http:\\`,
		"http://", "https://", "http:///", "https:/", "HtTpS://", "./", "../", "../../", "?", "#"}
	hosts := []string{"h.example", "H.Example", "u:p@h.example", "@h.example", ":@h.example", "u:@h.example", "u@h.example",
		"a|b:c^d@h.example", "%41:%42@h.example", "h.example:80", "h.example:443", "h.example:0443", "h.example:8080",
		"h.example:", "h.example:99999", "[::1]", "[::FFFF:1.2.3.4]:8080", "0x7f.1", "1.2.3.4.5", "127.1", "bücher.example",
		"xn--bcher-kva.example", "h%41st.example", "a b", "ex%2Eample", "h.example.", "a^b", "a|b", "1.2.3.0x100",
		"ß.example", "EXAMPLE.ＣＯＭ", "a\u200db.example", "xn--", "xn--a.example", "0x100000000", "4294967295", "4294967296",
		"1.2.3", "0.0.0.0x", "09.1", "[1::]", "[::1.2.3.4]", "[0:0:0:0:0:0:0:1]", "[1:2:3:4:5:6:7:8:9]", "[::1", "[::1]x",
		"h.example:08", "h.example:65535", "h.example:65536", "%zz", "a%00b", "a%20b", "Ⅷ.example", "example。com", "١.example",
		"a..b", ".", "..", "h{x}", "h`", "h\"", "a%2Fb", "[fe80::1%25eth0]", "u:p:q@h", "a@b@h", "u@", "@", ":80", "h:8a",
		"xn--bcher-kva.EXAMPLE", "\u00ad", "a\u00adb.example", "h.example\u3002", "%E2%80%8B.example", "0x7F.0.0.1.",
		"1.2.3.4..", "😀.example", "%F0%9F%98%80.example", "a.%2e", "0300.0250.0.1"}
	segments := []string{"a", "b.html", ".", "..", "%2e", "%2E%2e", ".%2e", "%2e.", "", "", "a|b", "a^b", "100%", "%zz", "%",
		"%41", "%2F", "%2f..", "é", "a b", "{x}", "`", `"`, "<>", "~", "a:b", "a;b=c", "a@b", "'", "\x7f", "\x01", "a\tb",
		"[x]", "!$&()*+,", "a\\b", "...", ". ", "%2e%2e%2f", "\u00ad", "\ufeff", "😀", "%F0%9F%98%80", "a%2e", "%2E."}
	queries := []string{"", "", "", "?", "?q=1", "?q=a b", "?q=|^`{}'\"<>", "?%zz%", "?é", "?a?b", "?\x7f", `?a\b`, "?%2e"}
	fragments := []string{"", "", "", "#", "#f", "#a#b", "#|^`{} \"<>", "#%zz%", "#é", "#?", "#\x01", "#\ufffd"}
	rng := rand.New(rand.NewSource(11))
	pick := func(s []string) string { return s[rng.Intn(len(s))] }
	for range 30000 {
		var b strings.Builder
		p := pick(prefixes)
		b.WriteString(p)
		if strings.HasSuffix(p, "//") || strings.HasSuffix(p, `\\`) || rng.Intn(8) == 0 {
			b.WriteString(pick(hosts))
			if rng.Intn(4) > 0 {
				b.WriteString(pick([]string{"/", `\`}))
			}
		}
		for i, n := 0, rng.Intn(5); i < n; i++ {
			if i > 0 {
				b.WriteString(pick([]string{"/", "/", "/", `\`}))
			}
			b.WriteString(pick(segments))
		}
		b.WriteString(pick(queries))
		b.WriteString(pick(fragments))
		h := b.String()
		if rng.Intn(20) == 0 {
			h = pick([]string{" ", "\t", "\x01", "\n"}) + h + pick([]string{" ", "\t", "\x1f", ""})
		}
		generated = append(generated, h)
	}
	return corpus, generated
}

var differentialBases = []string{
	"http://a.example/p/q.html", "https://Example.COM:8443/d/", "http://h.example/a/b", "http://h.example",
	"http://h.example/a|b/c^d/e%zz/f.html?x=1#y", "http://u:p@h.example/x/", "https://h.example/?q=1#f",
	"http://h.example/a//b/", "http://h.example/%2e/x/%7C/y", "http://[::1]:8080/a/b?x#y", "https://h.example/a/b/c/d/e",
}

// The links output resolves http(s) references as the reference
// implementation of the URL standard does, on the corpus's links and on
// generated ones, against a few bases, but for one known difference: a
// userinfo's escapes of bytes the standard leaves raw are decoded ("%41"
// is "A": the same user name). It runs only where node and the whatwg-url
// package are found (and not with -short), and lists the references where
// the two differ:
//
//	npm install whatwg-url   # in some directory d
//	NODE_PATH=d/node_modules go test -run TestWebURLsAgreeWithWHATWGURL -v ./filter
func TestWebURLsAgreeWithWHATWGURL(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the differential with whatwg-url in short mode")
	}
	corpus, generated := differentialHrefs(t)
	type pair struct {
		href, base string
		generated  bool
	}
	var pairs []pair
	var in [][2]string
	for _, b := range differentialBases {
		for k, h := range append(corpus, generated...) {
			if utf8.ValidString(h) { // what node would read: no invalid UTF-8
				pairs = append(pairs, pair{h, b, k >= len(corpus)})
				in = append(in, [2]string{h, b})
			}
		}
	}
	want := whatwgResolve(t, in)
	var stats [2]struct{ compared, agree, userinfo int } // the corpus's, the generated
	reported := 0
	for i, p := range pairs {
		w := want[i]
		if w != nil && !strings.HasPrefix(*w, "http://") && !strings.HasPrefix(*w, "https://") {
			continue // another scheme: read by RFC 3986, as net/url reads it
		}
		if k := SchemeEnd(p.href); w == nil && k >= 0 && !specialScheme(p.href[:k]) {
			continue
		}
		st := &stats[0]
		if p.generated {
			st = &stats[1]
		}
		st.compared++
		got, why := "", "the base is no URL"
		if base, err := ParseBase(p.base); err == nil {
			got, why = ResolveHref(base, p.href)
		}
		switch {
		case w == nil && why != "", w != nil && why == "" && got == *w:
			st.agree++
			continue
		case w != nil && why == "" && sameButUserinfoEscapes(got, *w):
			st.userinfo++
			continue
		}
		wantS, gotS := "no URL", got
		if w != nil {
			wantS = *w
		}
		if why != "" {
			gotS = "no URL (" + why + ")"
		}
		if reported++; reported <= 50 {
			t.Errorf("%q against %s: robofilter %s, whatwg-url %s", p.href, p.base, gotS, wantS)
		}
	}
	for k, what := range []string{"the corpus's", "generated"} {
		st := stats[k]
		t.Logf("%s hrefs against %d bases: %d resolutions compared, %d agree, %d differ in a userinfo's escapes alone, %d otherwise",
			what, len(differentialBases), st.compared, st.agree, st.userinfo, st.compared-st.agree-st.userinfo)
	}
}

// sameButUserinfoEscapes: a and b, two http(s) URLs, differ only in the
// spelling of their userinfo, which decodes to the same bytes.
func sameButUserinfoEscapes(a, b string) bool {
	split := func(s string) (scheme, userinfo, rest string, ok bool) {
		i := strings.Index(s, "://")
		if i < 0 {
			return "", "", "", false
		}
		auth := s[i+3:]
		auth = auth[:pathStart(auth)]
		at := strings.LastIndexByte(auth, '@')
		if at < 0 {
			return "", "", "", false
		}
		return s[:i], auth[:at], s[i+3+at+1:], true
	}
	sa, ua, ra, oka := split(a)
	sb, ub, rb, okb := split(b)
	return oka && okb && sa == sb && ra == rb && ua != ub && percentDecode(ua) == percentDecode(ub)
}
