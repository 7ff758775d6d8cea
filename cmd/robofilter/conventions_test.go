package main

// Issue 26: no silent wrong answers, and the habits of grep, rg and jq.
// Each test runs the CLI in-process.

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A relative link printed in the plain format (one absolute URL per
// line) is said so once per document, on stderr and in the record.
func TestLinksWithoutABaseSayTheyAreRelative(t *testing.T) {
	in := `<a href="/mac-and-i/">m</a><a href="//m.heise.de/x">h</a><a href="dogs.html">d</a><a href="https://e.example/">e</a>`
	out, errOut, code := runCLI(t, in, "links")
	if code != 0 || out != "/mac-and-i/\n//m.heise.de/x\ndogs.html\nhttps://e.example/\n" {
		t.Errorf("status %d, stdout %q", code, out)
	}
	want := "robofilter: -:0:0: warning: 3 links are relative, as written: the document has no absolute base; give its URL with --base to resolve them\n"
	if errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	out, _, _ = runCLI(t, in, "links", "--format", "jsonl")
	if !strings.Contains(out, `"message":"3 links are relative, as written`) {
		t.Errorf("the document record does not say so: %s", out)
	}
	// With a base, or only absolute links, nothing to say.
	for _, args := range [][]string{{"links", "--base", "https://e.example/a/"}, {"links", "--stdin-name", "https://e.example/a/"}} {
		if out, errOut, _ := runCLI(t, in, args...); errOut != "" || !strings.HasPrefix(out, "https://e.example/mac-and-i/\n") {
			t.Errorf("%q: stdout %q, stderr %q", args, out, errOut)
		}
	}
	if _, errOut, _ := runCLI(t, `<a href="https://e.example/">e</a>`, "links"); errOut != "" {
		t.Errorf("absolute links: stderr %q", errOut)
	}
}

// --base must be a document's absolute URL.
func TestBaseThatIsNoAbsoluteURLIsAUsageError(t *testing.T) {
	for _, c := range []struct{ base, want string }{
		{"example.com/pets/", `robofilter: --base "example.com/pets/" is not an absolute URL (it has no scheme): write it with its scheme, as https://example.com/pets/` + "\n"},
		{"not a url", `robofilter: --base "not a url" is not an absolute URL (it has no scheme)` + "\n"},
		{"/pets/", `robofilter: --base "/pets/" is not an absolute URL (it has no scheme): write it with its scheme, as https://pets/` + "\n"},
		{"mailto:a@b.example", `robofilter: --base "mailto:a@b.example" is not a document's URL (it has no host)` + "\n"},
		{"https://", `robofilter: --base "https://" does not parse (no host)` + "\n"},
	} {
		out, errOut, code := runCLI(t, `<a href="dogs.html">d</a>`, "links", "--base", c.base)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("--base %q: status %d, stdout %q, stderr %q; want 2 and %q", c.base, code, out, errOut, c.want)
		}
	}
	if _, _, code := runCLI(t, "", "links", "--stdin-name", ""); code != exitUsage {
		t.Errorf("empty --stdin-name: status %d", code)
	}
}

// A feed without an XML declaration is read as XML.
func TestFeedWithoutADeclarationIsXML(t *testing.T) {
	for _, feed := range []string{
		`<rss version="2.0"><channel><link>https://e.example/</link><item><link>https://e.example/1</link></item></channel></rss>`,
		"<!-- a comment -->\n<rss version=\"2.0\"><channel><link>https://e.example/</link><item><link>https://e.example/1</link></item></channel></rss>",
	} {
		out, errOut, code := runCLI(t, feed, "links")
		if code != 0 || out != "https://e.example/\nhttps://e.example/1\n" || errOut != "" {
			t.Errorf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
	}
}

// What is no text document gives nothing and a warning; a gzip file, a
// WARC file or an HTTP response given as a document, a hint.
func TestBinaryInputWritesNothing(t *testing.T) {
	elf := "\x7FELF\x02\x01\x01\x00" + strings.Repeat("\x00\x01\x02<p>", 200)
	for _, cmd := range [][]string{{"text"}, {"archive"}, {"links"}} {
		out, errOut, code := runCLI(t, elf, cmd...)
		if code != 0 || out != "" || errOut != "robofilter: -:1:1: warning: not a text document (an ELF executable): nothing written\n" {
			t.Errorf("%v: status %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
	out, errOut, code := runCLI(t, gzipped("<p>x"), "text")
	if code != 0 || out != "" || errOut != "robofilter: -: note: a gzip file: give --warc for a WARC or ARC file (.warc.gz, .arc.gz), --http for a saved HTTP response; gunzip a document first\n"+
		"robofilter: -:1:1: warning: not a text document (gzip-compressed data): nothing written\n" {
		t.Errorf("gzip: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, errOut, _ := runCLI(t, "WARC/1.1\r\nWARC-Type: warcinfo\r\n\r\n", "text"); !strings.Contains(errOut, "note: a WARC file: give --warc") {
		t.Errorf("WARC: stderr %q", errOut)
	}
	if _, errOut, _ := runCLI(t, "filedesc://x.arc 0.0.0.0 20140101000000 text/plain 0\n\n", "text"); !strings.Contains(errOut, "note: an ARC file: give --warc") {
		t.Errorf("ARC: stderr %q", errOut)
	}
	if _, errOut, _ := runCLI(t, "HTTP/1.1 200 OK\r\n\r\n<p>x", "text"); !strings.Contains(errOut, "note: an HTTP response: give --http") {
		t.Errorf("HTTP: stderr %q", errOut)
	}
	if _, errOut, _ := runCLI(t, gzipped("<p>x"), "text", "-q"); errOut != "" {
		t.Errorf("-q: stderr %q", errOut)
	}
	// A page with a stray NUL is still a page.
	if out, _, _ := runCLI(t, "<p>a\x00b", "text"); out != "ab\n" {
		t.Errorf("stray NUL: %q", out)
	}
}

// A robots.txt that is an HTML page: one warning, and every URL allowed.
func TestRobotsTxtThatIsAnHTMLPage(t *testing.T) {
	page := "<!DOCTYPE html>\n<html><head><title>Home</title></head><body>\n" + strings.Repeat("<p>Welcome: home</p>\n", 2000) + "</body></html>\n"
	robots := writeRobotsFile(t, page)
	out, errOut, code := runCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot", "/a", "/private/b")
	want := "robofilter: " + robots + ":1:1: warning: the file looks like an HTML page, not robots.txt (as when a site serves a page at /robots.txt): 2003 unusable lines not listed; no group: every URL is allowed (RFC 9309 section 2.2.1)\n"
	if code != 0 || out != "allowed\t/a\nallowed\t/private/b\n" || errOut != want {
		t.Errorf("status %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// text says when a document gives no text because it says noindex.
func TestTextOfANoindexDocumentSaysSo(t *testing.T) {
	in := `<html><head><meta name="robots" content="noindex, nofollow"></head><body><p>secret</p>`
	out, errOut, code := runCLI(t, in, "text")
	if code != 0 || out != "" || errOut != "robofilter: -:1:13: warning: meta robots \"noindex, nofollow\" says noindex: no text is written\n" {
		t.Errorf("status %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, errOut, _ = runCLI(t, "<p>x", "text", "--x-robots-tag", "none")
	if errOut != "robofilter: -:0:0: warning: x-robots-tag \"none\" says noindex: no text is written\n" {
		t.Errorf("X-Robots-Tag: stderr %q", errOut)
	}
	_, errOut, _ = runCLI(t, "<?xml version=\"1.0\"?>\n<?robots index=\"no\" follow=\"yes\"?><r>x</r>", "text")
	if errOut != "robofilter: -:2:1: warning: robots PI \"index=\\\"no\\\" follow=\\\"yes\\\"\" says noindex: no text is written\n" {
		t.Errorf("robots PI: stderr %q", errOut)
	}
	if _, errOut, _ := runCLI(t, in, "text", "-q"); errOut != "" {
		t.Errorf("-q: stderr %q", errOut)
	}
}

// Feed entries are JSON Lines: --format plain is a usage error, not
// ignored. --entries writes "entry" records; --records, its old name,
// "record" ones, as it did.
func TestEntriesAreJSONLines(t *testing.T) {
	feed := `<rss><channel><item><title>T</title><description>&lt;p&gt;x</description></item></channel></rss>`
	for _, args := range [][]string{{"text", "--records", "//item", "--format", "plain"}, {"links", "--entries", "//item", "--format", "plain"}} {
		out, errOut, code := runCLI(t, feed, args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "writes JSON Lines only") || !strings.Contains(errOut, args[1]+" writes") {
			t.Errorf("%q: status %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	for _, c := range []struct{ flag, typ string }{{"--entries", "entry"}, {"--records", "record"}} {
		out, _, code := runCLI(t, feed, "text", c.flag, "//item")
		if code != 0 || !strings.HasPrefix(out, `{"type":"`+c.typ+`","file":"-","index":1,"title":"T","text":"x\n"}`) {
			t.Errorf("%s: status %d, stdout %q", c.flag, code, out)
		}
	}
	if _, errOut, code := runCLI(t, feed, "text", "--records", "//item", "--entries", "//item"); code != exitUsage || !strings.Contains(errOut, "old name") {
		t.Errorf("both: %d %q", code, errOut)
	}
}

// The help says what goes where, shows each command's own flags, and
// gives no "(default: false)"; -V prints the version.
func TestHelpFollowsConventions(t *testing.T) {
	help := func(args ...string) string {
		out, _, code := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: status %d", args, code)
		}
		return out
	}
	links := help("links", "--help")
	for _, want := range []string{"--base URL ", "--format FORMAT ", "--agent NAME ", "--stdin-name NAME ", "--entries XPATH ", "-q, --quiet ", "-H, --with-filename "} {
		if !strings.Contains(links, want) {
			t.Errorf("links --help lacks %q", want)
		}
	}
	for _, cmd := range []string{"text", "archive", "links", "check", "allowed", "robots"} {
		h := help(cmd, "--help")
		if strings.Contains(h, "default: false") || strings.Contains(h, " value ") || strings.Contains(h, "--records") {
			t.Errorf("%s --help:\n%s", cmd, h)
		}
		if has := strings.Contains(h, "--ellipsis"); has != (cmd == "archive") {
			t.Errorf("%s --help: --ellipsis shown: %v", cmd, has)
		}
	}
	if check := help("check", "--help"); !strings.Contains(check, "plain, jsonl, html (the report and the source marked) or overlay") || strings.Contains(check, "--entries") {
		t.Errorf("check --help:\n%s", check)
	}
	if allowed := help("allowed", "--help"); !strings.Contains(allowed, "--agent NAME ") || !strings.Contains(allowed, "--mode MODE ") {
		t.Errorf("allowed --help:\n%s", allowed)
	}
	for _, flag := range []string{"-V", "--version"} {
		if v := help(flag); v != "robofilter version "+version+"\n" {
			t.Errorf("%s: %q", flag, v)
		}
	}
}

// A usage error is one line on stderr naming the flag as it was written,
// with the nearest flag; nothing on stdout.
func TestUsageErrorsSpellFlagsAsWritten(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"text", "--bogus"}, "robofilter: unknown flag --bogus (see robofilter text --help)\n"},
		{[]string{"text", "-bogus"}, "robofilter: unknown flag -bogus (see robofilter text --help)\n"},
		{[]string{"links", "--bas", "x"}, "robofilter: unknown flag --bas (did you mean --base?) (see robofilter links --help)\n"},
		{[]string{"links", "--fromat=jsonl"}, "robofilter: unknown flag --fromat (did you mean --format?) (see robofilter links --help)\n"},
		{[]string{"text", "--ellipsis", "x"}, "robofilter: unknown flag --ellipsis (see robofilter text --help)\n"},
		{[]string{"check", "--entries", "//x"}, "robofilter: unknown flag --entries (see robofilter check --help)\n"},
		{[]string{"text", "--max-depth", "x"}, "robofilter: --max-depth \"x\": not a whole number (see robofilter text --help)\n"},
		{[]string{"--bogus"}, "robofilter: unknown flag --bogus (see robofilter --help)\n"},
		{[]string{"robots", "--moed", "v1", "x"}, "robofilter: unknown flag --moed (did you mean --mode?) (see robofilter robots --help)\n"},
	} {
		out, errOut, code := runCLI(t, "", c.args...)
		if code != exitUsage || out != "" || errOut != c.want {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2, %q", c.args, code, out, errOut, c.want)
		}
	}
}

// Every JSON Lines record has its type and file, and "line" is a line of
// the input in every record but line records, where "number" is the
// output line's number ("line" is kept there for a transition).
func TestJSONLinesRecordsHaveTypeAndFile(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: *\nDisallow: /x\n")
	outputs := []string{}
	for _, args := range [][]string{
		{"text", "--format", "jsonl", "--stdin-name", "page.html"},
		{"archive", "--format", "jsonl", "--stdin-name", "page.html"},
		{"links", "--all", "--format", "jsonl", "--base", "https://e.example/", "--stdin-name", "page.html"},
		{"check", "--format", "jsonl", "--stdin-name", "page.html"},
		{"allowed", "--robots", robots, "--agent", "x", "--format", "jsonl", "--explain", "/x", "/y"},
		{"robots", "--format", "jsonl", robots},
	} {
		out, _, _ := runCLI(t, page, args...)
		outputs = append(outputs, out)
	}
	for _, out := range outputs {
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			typ, _ := rec["type"].(string)
			file, _ := rec["file"].(string)
			if typ == "" || (file != "page.html" && file != robots) {
				t.Errorf("record without its type or file: %s", line)
			}
			if typ == "line" && rec["number"] != rec["line"] {
				t.Errorf("line record: %s", line)
			}
		}
	}
	if !strings.Contains(outputs[0], `{"type":"line","file":"page.html","phrase":1,"number":1,"line":1,"text":"T"}`) {
		t.Errorf("text: %s", outputs[0])
	}
	if !strings.Contains(outputs[4], `{"type":"verdict","file":"`+robots+`","url":"/x","allowed":false,"reason":"longest match","line":2,"rule":"Disallow: /x"}`) {
		t.Errorf("allowed: %s", outputs[4])
	}
}

// Long runs show progress on stderr when it is a terminal and stdout is
// not, unless --quiet; never on a pipe.
func TestProgressOnATerminal(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 3 {
		f := filepath.Join(dir, "p"+string(rune('0'+i))+".html")
		os.WriteFile(f, []byte(`<p>x <span class="robots-noidnex">y</span>`), 0o644)
		files = append(files, f)
	}
	warcFile := writeFile(t, dir, "crawl.warc", testWARC())
	runTerm := func(stderrTerm, stdoutTerm bool, args ...string) (string, string) {
		var out, errb bytes.Buffer
		terminal := func(w io.Writer) bool {
			return w == io.Writer(&errb) && stderrTerm || w == io.Writer(&out) && stdoutTerm
		}
		code := runWith(append([]string{"robofilter"}, args...), strings.NewReader(""), &out, &errb, terminal)
		if code != 0 {
			t.Fatalf("%q: status %d: %s", args, code, errb.String())
		}
		return out.String(), errb.String()
	}
	many := append([]string{"text"}, files...)
	_, errOut := runTerm(true, false, many...)
	// The bar is drawn (blank at the start), cleared before each warning
	// (a carriage return starts the warning's line), and cleared at the end.
	if !strings.Contains(errOut, "0 documents") || !strings.Contains(errOut, "\rrobofilter: "+files[0]+":1:6: warning:") || !strings.HasSuffix(errOut, "\r") {
		t.Errorf("several files on a terminal: stderr %q", errOut)
	}
	if _, errOut := runTerm(true, false, "links", "--warc", warcFile); !strings.Contains(errOut, "documents") {
		t.Errorf("--warc on a terminal: stderr %q", errOut)
	}
	for _, c := range []struct {
		stderrTerm, stdoutTerm bool
		args                   []string
	}{
		{false, false, many}, // stderr is no terminal
		{true, true, many},   // stdout is the terminal: the output is what is watched
		{true, false, append([]string{"text", "-q"}, files...)}, // --quiet
		{true, false, []string{"text", files[0]}},               // one file
	} {
		_, errOut := runTerm(c.stderrTerm, c.stdoutTerm, c.args...)
		if strings.Contains(errOut, "documents") || strings.Contains(errOut, "\r") {
			t.Errorf("%v %v %q: progress shown: %q", c.stderrTerm, c.stdoutTerm, c.args, errOut)
		}
	}
}

// check lists warnings in document order, though the core finds some
// after others further on (here the region of a googleoff comment left
// open is warned of at the end).
func TestCheckListsWarningsInDocumentOrder(t *testing.T) {
	in := "<p>a<!--googleoff: all-->\n<p>b\n<p class=robots-noidnex>c"
	out, _, code := runCLI(t, in, "check", "-q")
	i, j := strings.Index(out, "    1:5  "), strings.Index(out, "    3:1  ")
	if code != 0 || i < 0 || j < 0 || i > j {
		t.Errorf("status %d, report:\n%s", code, out)
	}
	out, _, _ = runCLI(t, in, "text", "-q", "--format", "jsonl")
	if i, j := strings.Index(out, `"line":1,"col":5`), strings.Index(out, `"line":3,"col":1`); i < 0 || j < 0 || i > j {
		t.Errorf("document record: %s", out)
	}
}

// --stdin-name names the document on standard input in messages and
// records; a URL is its base too.
func TestStdinName(t *testing.T) {
	in := `<a href="dogs.html">d</a><p class="robots-noidnex">x`
	out, errOut, code := runCLI(t, in, "links", "--stdin-name", "https://e.example/pets/", "--format", "jsonl")
	if code != 0 || !strings.Contains(out, `{"type":"link","file":"https://e.example/pets/","url":"https://e.example/pets/dogs.html"`) ||
		!strings.HasPrefix(errOut, "robofilter: https://e.example/pets/:1:26: warning:") {
		t.Errorf("status %d, stdout %s, stderr %q", code, out, errOut)
	}
	// A name that is no URL names it only; --base still wins as the base.
	out, errOut, _ = runCLI(t, in, "links", "--stdin-name", "part-00042", "--base", "https://b.example/")
	if out != "https://b.example/dogs.html\n" || !strings.HasPrefix(errOut, "robofilter: part-00042:1:26: warning:") {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}
