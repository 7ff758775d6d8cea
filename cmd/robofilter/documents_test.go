package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// runCLI runs the app in-process and returns stdout, stderr and the status.
func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"robofilter"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

const page = `<html><head><title>T</title></head><body>
<p>word1 <b class="robots-noindex">secret</b> word2</p>
<p class="robots-nofollow"><a href="/nf">nf</a></p>
<a href="a.html">a</a> <img class="robots-noarchive" src="x.png">
<p class="robots-noidnex">typo</p>
</body></html>
`

func TestTextFromStdin(t *testing.T) {
	out, errOut, code := runCLI(t, page, "text")
	if code != 0 {
		t.Fatalf("status %d, stderr %s", code, errOut)
	}
	if want := "T\nword1\n\nword2\nnf\na\ntypo\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if !strings.Contains(errOut, "robofilter: -:5:1: warning: <p>: unknown Robot Exclusion Profile class") {
		t.Errorf("warning not in the SPEC's form: %q", errOut)
	}
}

func TestQuietSuppressesWarnings(t *testing.T) {
	_, errOut, code := runCLI(t, page, "text", "-q")
	if code != 0 || errOut != "" {
		t.Errorf("status %d, stderr %q", code, errOut)
	}
}

func TestLinksResolvesAgainstBaseAndHonoursFlagsAfterTheFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "page.html")
	if err := os.WriteFile(f, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "links", f, "--base", "https://example.com/dir/page.html")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if want := "https://example.com/dir/a.html\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	out, _, _ = runCLI(t, page, "links", "--all", "-")
	if want := "/nf\tnot followed: nofollow region\na.html\n"; out != want {
		t.Errorf("--all: got %q, want %q", out, want)
	}
}

// A flag that takes a value, written last with none, is the usage error
// it is before the file names (it took the "--" put before the names).
func TestFlagWithoutItsValueAfterTheFileIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "page.html")
	if err := os.WriteFile(f, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"text", f, "--x-robots-tag"},
		{"links", f, "--base"},
		{"text", f, "--agent"},
		{"links", f, "--format"},
		{"archive", f, "--charset"},
		{"archive", "-", "--ellipsis"},
	} {
		out, errOut, code := runCLI(t, page, args...)
		// The flag as the user wrote it, and where to read more.
		want := fmt.Sprintf("robofilter: %s needs a value (see robofilter %s --help)\n", args[2], args[0])
		if code != 2 || out != "" || errOut != want {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want status 2, a usage error", args, code, out, errOut)
		}
	}
}

func TestArchiveElidesAndKeepsEverythingElse(t *testing.T) {
	out, _, code := runCLI(t, page, "archive")
	if code != 0 {
		t.Fatal(code)
	}
	if want := strings.Replace(page, `<img class="robots-noarchive" src="x.png">`, "…", 1); out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	out, _, _ = runCLI(t, page, "archive", "--ellipsis", "[…]")
	if !strings.Contains(out, "a</a> [...]") && !strings.Contains(out, "a</a> […]") {
		t.Errorf("--ellipsis not used: %q", out)
	}
}

func TestJSONLinesRecords(t *testing.T) {
	out, _, code := runCLI(t, page, "links", "--all", "--format", "jsonl")
	if code != 0 {
		t.Fatal(code)
	}
	var types []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		types = append(types, rec["type"].(string))
		if rec["type"] == "link" && rec["url"] == "/nf" && rec["reason"] != "nofollow region" {
			t.Errorf("no reason on a not-followed link: %v", rec)
		}
		if rec["type"] == "document" && rec["warnings"] == nil {
			t.Errorf("document record without warnings: %v", rec)
		}
	}
	if strings.Join(types, ",") != "link,link,document" {
		t.Errorf("record types %v", types)
	}
}

func TestUnreadableFileIsReportedAndOthersStillProcessed(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.html")
	os.WriteFile(good, []byte("<p>fine</p>"), 0o644)
	out, errOut, code := runCLI(t, "", "text", filepath.Join(dir, "missing.html"), good)
	if code != 1 {
		t.Errorf("status %d, want 1", code)
	}
	if out != good+":fine\n" || !strings.Contains(errOut, "missing.html") {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}

// An unreadable file, missing or a directory, is reported in the one form
// of error lines, "robofilter: FILE: error: why", without the "open FILE:"
// the system adds; the other files are still processed and the status is
// 1 (SPEC 6). An error with a position keeps its FILE:LINE:COL.
func TestUnreadableFilesHaveTheErrorLineForm(t *testing.T) {
	dir := t.TempDir()
	missing, sub := filepath.Join(dir, "missing.html"), filepath.Join(dir, "sub")
	bad, good, feed := filepath.Join(dir, "bad.xml"), filepath.Join(dir, "good.html"), filepath.Join(dir, "feed.xml")
	os.Mkdir(sub, 0o755)
	os.WriteFile(bad, []byte("<a>x<b></a>"), 0o644)
	os.WriteFile(good, []byte("<p>fine <a href=/x>x</a></p>"), 0o644)
	os.WriteFile(feed, []byte("<rss><channel><item><title>T</title></item></channel></rss>"), 0o644)
	wantErr := "robofilter: " + missing + ": error: no such file or directory\n" +
		"robofilter: " + sub + ": error: is a directory\n"
	for _, c := range []struct {
		args []string
		out  string
	}{
		{[]string{"text", missing, sub, good}, "fine x\n"},
		{[]string{"archive", missing, sub, good}, "<p>fine <a href=/x>x</a></p>"},
		{[]string{"links", "--base", "https://e.example/", missing, sub, good}, good + ":https://e.example/x\n"},
		{[]string{"check", missing, sub, good}, good + " (html, utf-8)\n"},
		{[]string{"text", "--format", "jsonl", missing, sub, good}, `"error":"is a directory"}`},
		{[]string{"text", "--records", "//item", missing, sub, feed}, `"title":"T"`},
	} {
		args := c.args
		out, errOut, code := runCLI(t, "", args...)
		if code != exitFailure || errOut != wantErr || !strings.Contains(out, c.out) {
			t.Errorf("%q: status %d, stdout %q, stderr:\n%s\nwant 1, %q in stdout and stderr:\n%s", c.args, code, out, errOut, c.out, wantErr)
		}
	}
	_, errOut, code := runCLI(t, "", "text", "--xml", missing, bad)
	want := "robofilter: " + missing + ": error: no such file or directory\n" +
		"robofilter: " + bad + ":1:8: error: not well-formed XML: element <b> (opened at 1:5) is closed by </a>\n"
	if code != exitFailure || errOut != want {
		t.Errorf("XML: status %d, stderr:\n%s\nwant:\n%s", code, errOut, want)
	}
}

// In JSON Lines, a file that cannot be opened has its document record
// with the error, as one that fails while it is read does.
func TestUnreadableFileHasItsDocumentRecord(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.html")
	out, _, code := runCLI(t, "", "links", "--format", "jsonl", missing)
	if code != 1 {
		t.Errorf("status %d, want 1", code)
	}
	var rec documentRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	if rec.Type != "document" || rec.File != missing || !strings.Contains(rec.Error, "no such file") {
		t.Errorf("record %+v", rec)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"text", "--format", "yaml"},
		{"text", "--no-such-flag"},
		{"links", "--xml", "--html"},
		{"text", "--dialects", "klingon"},
		{"text", "--base", "http://[::1"},
		{"archive", "--ellipsis", ""},
		{"no-such-command"},
	} {
		_, errOut, code := runCLI(t, "", args...)
		if code != 2 {
			t.Errorf("%v: status %d, want 2 (stderr %q)", args, code, errOut)
		}
	}
}

// With no command, the usage goes to stderr and the status is 2 (SPEC 6:
// a usage error), as for an unknown command or flag; --help, --version and
// `help` print to stdout and exit 0.
func TestNoCommandIsAUsageError(t *testing.T) {
	help, _, _ := runCLI(t, "", "--help")
	out, errOut, code := runCLI(t, "")
	if code != exitUsage || out != "" || !strings.HasPrefix(errOut, help) || !strings.HasSuffix(errOut, "robofilter: no command given (see robofilter --help)\n") {
		t.Errorf("no command: status %d, stdout %q, stderr %q; want 2, the usage on stderr", code, out, errOut)
	}
	for _, args := range [][]string{
		{"--"},
		{"no-such-command"},
		{"no-such-command", "page.html"},
		{"--no-such-flag"},
		{"--no-such-flag", "text"},
		{"help", "no-such-command"},
		{"text", "--no-such-flag"},
		{"links", "-", "--no-such-flag"},
		{"allowed", "--robots", "-", "--agent", "x", "--no-such-flag", "/a"},
		{"robots", "--no-such-flag", "-"},
	} {
		if out, errOut, code := runCLI(t, "", args...); code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and an error", args, code, out, errOut)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, help},
		{[]string{"-h"}, help},
		{[]string{"help", "robots"}, "robofilter robots - report what a robots.txt file says"},
		{[]string{"--version"}, version},
	} {
		if out, errOut, code := runCLI(t, "", c.args...); code != exitOK || !strings.Contains(out, c.want) || errOut != "" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 0 and %q", c.args, code, out, errOut, c.want)
		}
	}
}

func TestLimitExceededIsAClearErrorWithPosition(t *testing.T) {
	deep := strings.Repeat("<div>", 50) + "x"
	_, errOut, code := runCLI(t, deep, "text", "--max-depth", "10")
	if code != 1 || !strings.Contains(errOut, "robofilter: -:1:") || !strings.Contains(errOut, "depth limit") {
		t.Errorf("status %d, stderr %q", code, errOut)
	}
}

func TestHelpHasExamplesAndVersionPrints(t *testing.T) {
	for _, cmd := range []string{"text", "archive", "links", "check"} {
		out, _, code := runCLI(t, "", cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help: status %d, no examples in %q", cmd, code, out)
		}
	}
	out, _, code := runCLI(t, "", "--version")
	if code != 0 || !strings.Contains(out, version) {
		t.Errorf("--version: %d %q", code, out)
	}
}

func TestCheckReportsRegionsLinksAndWarnings(t *testing.T) {
	out, _, code := runCLI(t, page, "check")
	if code != 0 {
		t.Fatal(code)
	}
	for _, want := range []string{
		"document: index, follow, archive",
		`<b> class="robots-noindex"  noindex  (profile`,
		`/nf  nofollow region (class="robots-nofollow" at 3:1)`,
		"unknown Robot Exclusion Profile class",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestXRobotsTagValuesKeepTheirCommas(t *testing.T) {
	// One value with a bot prefix and a list: a comma must not split it.
	out, _, code := runCLI(t, "<p>x</p>", "text", "--agent", "Bingbot", "--x-robots-tag", "googlebot: noarchive, noindex")
	if code != 0 || out != "x\n" {
		t.Errorf("googlebot's rules applied to Bingbot: status %d, %q", code, out)
	}
	out, _, _ = runCLI(t, "<p>x</p>", "text", "--format", "jsonl", "--x-robots-tag", "unavailable_after: Monday, 25-Jun-2010 15:00:00 GMT")
	if !strings.Contains(out, `"unavailable_after":"Monday, 25-Jun-2010 15:00:00 GMT"`) {
		t.Errorf("date cut at its comma: %s", out)
	}
}

func TestUnknownCharsetIsAUsageError(t *testing.T) {
	_, errOut, code := runCLI(t, "<p>x</p>", "text", "--charset", "bogus")
	if code != 2 || !strings.Contains(errOut, "bogus") {
		t.Errorf("status %d, stderr %q", code, errOut)
	}
}

// Every warning line has the SPEC's FILE:LINE:COL form; one about a value
// from outside the document has no place in it, and says 0:0.
func TestWarningsFromOutsideTheDocumentAreAtZero(t *testing.T) {
	_, errOut, _ := runCLI(t, "<p>x</p>", "archive", "--x-robots-tag", "noarchive")
	if !strings.Contains(errOut, "robofilter: -:0:0: warning: x-robots-tag says noarchive") {
		t.Errorf("stderr %q", errOut)
	}
}

// The archive copy comes in pieces cut at buffer sizes, not at characters;
// its JSON Lines records must still be text for a UTF-8 document, and
// their data, joined, the plain archive copy.
func TestArchiveRecordsAreTextForUTF8(t *testing.T) {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><meta charset=utf-8><body><p>")
	for i := 0; b.Len() < 50000; i++ {
		b.WriteString("café naïve 日本語 😀 ") // one to four bytes a character
		if i%97 == 0 {
			b.WriteString(`<img class="robots-noarchive" src=x.png>`)
		}
	}
	b.WriteString("</p></body>\n")
	page := b.String()
	plain, _, code := runCLI(t, page, "archive")
	if code != 0 {
		t.Fatal(code)
	}
	out, _, code := runCLI(t, page, "archive", "--format", "jsonl")
	if code != 0 {
		t.Fatal(code)
	}
	var joined strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	records := 0
	for sc.Scan() {
		var rec archiveChunk
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		if rec.Type != "archive" {
			continue
		}
		records++
		if rec.DataBase64 != nil {
			t.Fatalf("record %d of a UTF-8 document is base64: %q", records, rec.DataBase64)
		}
		joined.WriteString(rec.Data)
	}
	if records < 2 {
		t.Fatalf("%d archive records: the page should take several", records)
	}
	if joined.String() != plain {
		t.Error("the records' data, joined, is not the plain archive copy")
	}
}

func TestCutCharacter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0}, {"abc", 0}, {"caf\xc3", 1}, {"café", 0}, {"\xe6\x97", 2}, {"\xe6", 1},
		{"x\xf0\x9f\x98", 3}, {"x😀", 0}, {"\x80\x80\x80", 0}, {"\xff", 0},
	} {
		if got := cutCharacter([]byte(tc.in)); got != tc.want {
			t.Errorf("cutCharacter(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// check has no text output; a robots PI or META after indexable text is
// warned about there as in text.
func TestCheckWarnsOfLateDirectivesAsTextDoes(t *testing.T) {
	for _, tc := range []struct{ input, flag string }{
		{`<d>alpha beta<?robots index="no" follow="no"?>gamma</d>`, "--xml"},
		{`<p>before</p><meta name=robots content=noindex><p>after`, "-q=false"},
	} {
		_, textErr, _ := runCLI(t, tc.input, "text", tc.flag, "-")
		out, _, code := runCLI(t, tc.input, "check", tc.flag, "-")
		if code != 0 || !strings.Contains(textErr, "after content was written") || !strings.Contains(out, "after content was written") {
			t.Errorf("%s:\ntext's warnings: %s\ncheck: %s", tc.input, textErr, out)
		}
	}
}

// Two documents' words are never in one phrase: after a document's text
// the next one's starts after an empty line (an empty document adds none).
func TestSeveralFilesAreSeparatePhrases(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, body := range []string{"one two", "", "<p>three</p>"} {
		f := filepath.Join(dir, fmt.Sprintf("%d.html", i))
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, cmd := range [][]string{{"text", "--no-filename"}, {"archive", "--text", "-I"}} {
		out, _, code := runCLI(t, "", append(cmd, files...)...)
		if want := "one two\n\nthree\n"; code != 0 || out != want {
			t.Errorf("%v: %q (exit %d), want %q", cmd, out, code, want)
		}
	}
}

// With several files, as grep and rg do, every plain output line starts
// with its file's name (an empty line, a phrase break, with the name
// alone); archive copies come after "==> NAME <==" lines, as head sets
// files apart. -H names one file too, -I none.
func TestSeveralFilesHaveTheirNames(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.html"), filepath.Join(dir, "b.html")
	os.WriteFile(a, []byte(`<p>one <b class="robots-noindex">x</b> two <a href="https://e.example/1">l</a>`), 0o644)
	os.WriteFile(b, []byte(`<p>three <a href="https://e.example/2">m</a>`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"text", a, b}, a + ":one\n" + a + ":\n" + a + ":two l\n" + b + ":three m\n"},
		{[]string{"archive", "--text", a, b}, a + ":one\n" + a + ":\n" + a + ":two l\n" + b + ":three m\n"},
		{[]string{"links", a, b}, a + ":https://e.example/1\n" + b + ":https://e.example/2\n"},
		{[]string{"links", "--all", a, b}, a + ":https://e.example/1\n" + b + ":https://e.example/2\n"},
		{[]string{"archive", a, b}, "==> " + a + " <==\n" + `<p>one <b class="robots-noindex">x</b> two <a href="https://e.example/1">l</a>` +
			"\n\n==> " + b + " <==\n" + `<p>three <a href="https://e.example/2">m</a>`},
		{[]string{"links", "-H", a}, a + ":https://e.example/1\n"},
		{[]string{"links", "--with-filename", "-"}, "-:https://e.example/1\n"},
		{[]string{"links", "--no-filename", a, b}, "https://e.example/1\nhttps://e.example/2\n"},
		{[]string{"links", a}, "https://e.example/1\n"},
		{[]string{"links", "--stdin-name", "https://e.example/page", "-H", "-"}, "https://e.example/page:https://e.example/1\n"},
	} {
		stdin, _ := os.ReadFile(a)
		out, errOut, code := runCLI(t, string(stdin), c.args...)
		if code != 0 || out != c.want {
			t.Errorf("%q: status %d, stdout %q (stderr %q), want %q", c.args, code, out, errOut, c.want)
		}
	}
	if _, errOut, code := runCLI(t, "", "links", "-H", "-I", a); code != exitUsage || !strings.Contains(errOut, "exclude each other") {
		t.Errorf("-H -I: %d %q", code, errOut)
	}
}

func TestCheckWritesWarningsToStderrToo(t *testing.T) {
	input := `<meta name=robots content="max-image-preview:none"><p class=robots-noidx>x`
	out, errOut, code := runCLI(t, input, "check", "-")
	for _, w := range []string{"-:1:52: warning: <p>: unknown Robot Exclusion Profile class", "-:1:1: warning: max-image-preview:none limits"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	if code != 0 || !strings.Contains(out, "warnings: 2") {
		t.Errorf("exit %d, report:\n%s", code, out)
	}
	if _, errOut, _ := runCLI(t, input, "check", "-q", "-"); errOut != "" {
		t.Errorf("-q: stderr %q", errOut)
	}
}

// In records mode, a feed that is not well-formed gives the records before
// the error on stdout, then the error with its line and column (SPEC
// section 6), and status 1.
func TestRecordsErrorHasLineAndColumn(t *testing.T) {
	feed := "<feed>\n<entry><id>1</id><content type=\"html\">one</content></entry>\n" +
		"<entry><id>2</id><content type=\"html\">two</content></entry>\n" +
		"<entry><id>3</id><content type=\"html\">th\x01ree</content></entry>\n</feed>\n"
	for _, cmd := range []string{"text", "archive", "links"} {
		out, errOut, code := runCLI(t, feed, cmd, "--records", "//entry")
		if code != 1 {
			t.Errorf("%s: status %d, want 1", cmd, code)
		}
		if n := strings.Count(out, `"type":"record"`); n != 2 {
			t.Errorf("%s: %d records on stdout, want the 2 before the error: %q", cmd, n, out)
		}
		if want := "robofilter: -:4:41: error: not well-formed XML: illegal character code U+0001\n"; errOut != want {
			t.Errorf("%s: stderr %q, want %q", cmd, errOut, want)
		}
	}
}

// In records mode each file's records end with a document record, as in
// the JSON Lines format without --records (whatever --format says: records
// mode writes JSON Lines): a feed cut short by an error has it too, with
// the error the XML stage's record gives, so that a pipeline reading only
// stdout can tell. It has the feed's directives (X-Robots-Tag, robots PI)
// and no warnings (the records have them).
func TestRecordsEndWithADocumentRecord(t *testing.T) {
	const entries = "<entry><id>1</id><content type=\"html\">one</content></entry>\n" +
		"<entry><id>2</id><content type=\"html\">two</content></entry>\n"
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.xml")
	for _, tc := range []struct {
		name, feed string
		args       []string
		records    int
		code       int
		document   string // the last line: the document record of "-" (or of the missing file after it)
		documents  int    // document records in all (0: 1)
	}{
		{name: "well_formed", feed: "<feed>\n" + entries + "</feed>\n", records: 2,
			document: `{"type":"document","file":"-","format":"xml","charset":"utf-8","directives":{"noindex":false,"nofollow":false,"noarchive":false,"nosnippet":false}}`},
		{name: "cut_short_by_an_error", feed: "<feed>\n" + entries + "<entry><id>3</id><content type=\"html\">th\x01ree</content></entry>\n</feed>\n",
			records: 2, code: 1,
			document: `{"type":"document","file":"-","format":"xml","charset":"utf-8","directives":{"noindex":false,"nofollow":false,"noarchive":false,"nosnippet":false},"error":"4:41: not well-formed XML: illegal character code U+0001"}`},
		{name: "error_before_any_record", feed: "<feed>\n<entry><id>1</entry>\n</feed>\n", code: 1,
			document: `{"type":"document","file":"-","format":"xml","charset":"utf-8","directives":{"noindex":false,"nofollow":false,"noarchive":false,"nosnippet":false},"error":"2:13: not well-formed XML: element \u003cid\u003e closed by \u003c/entry\u003e"}`},
		{name: "directives_of_the_feed", feed: "<?robots index=\"no\" follow=\"yes\"?>\n<feed>\n" + entries + "</feed>\n",
			args: []string{"--x-robots-tag", "noarchive"}, records: 2,
			document: `{"type":"document","file":"-","format":"xml","charset":"utf-8","directives":{"noindex":true,"nofollow":false,"noarchive":true,"nosnippet":false,` +
				`"sources":[{"origin":"x-robots-tag","value":"noarchive"},{"origin":"robots PI","value":"index=\"no\" follow=\"yes\"","line":1,"col":1}]}}`},
		{name: "unreadable_file", feed: "<feed>\n" + entries + "</feed>\n", args: []string{"-", missing}, records: 2, code: 1, documents: 2,
			document: `{"type":"document","file":"` + missing + `","directives":{"noindex":false,"nofollow":false,"noarchive":false,"nosnippet":false},"error":"no such file or directory"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, cmd := range []string{"text", "archive", "links"} {
				out, errOut, code := runCLI(t, tc.feed, append([]string{cmd, "--records", "//entry"}, tc.args...)...)
				if code != tc.code {
					t.Errorf("%s: status %d, want %d (stderr %q)", cmd, code, tc.code, errOut)
				}
				lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				if n := strings.Count(out, `"type":"record"`); n != tc.records || len(lines) < 1 {
					t.Fatalf("%s: %d records, want %d: %q", cmd, n, tc.records, out)
				}
				if got := lines[len(lines)-1]; got != tc.document {
					t.Errorf("%s: last line\n%s\nwant\n%s", cmd, got, tc.document)
				}
				if n := strings.Count(out, `"type":"document"`); n != max(tc.documents, 1) {
					t.Errorf("%s: %d document records: %q", cmd, n, out)
				}
			}
		})
	}

	// The error is the one the XML stage's document record gives.
	feed := "<feed>\n" + entries + "<entry><id>3</id><content type=\"html\">th\x01ree</content></entry>\n</feed>\n"
	out, _, _ := runCLI(t, feed, "text", "--xml", "--format", "jsonl")
	var doc struct{ Error string }
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &doc); err != nil || doc.Error != "4:41: not well-formed XML: illegal character code U+0001" {
		t.Errorf("the XML stage's document record: error %q (%v)", doc.Error, err)
	}
}

// The document record lists the first filter.MaxListed robots META tags
// and says how many more there were; the check report does too.
func TestDocumentRecordCountsTheSourcesNotListed(t *testing.T) {
	page := strings.Repeat(`<meta name=robots content="noindex, x">`, filter.MaxListed+50) + `<meta name=robots content=nofollow><p>t`
	out, _, code := runCLI(t, page, "text", "--format", "jsonl")
	if code != 0 {
		t.Fatal(code)
	}
	var doc struct {
		Directives struct {
			NoIndex        bool              `json:"noindex"`
			NoFollow       bool              `json:"nofollow"`
			Sources        []json.RawMessage `json:"sources"`
			SourcesDropped int               `json:"sources_dropped"`
			Other          []string          `json:"other"`
			OtherDropped   int               `json:"other_dropped"`
		} `json:"directives"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	d := doc.Directives
	if !d.NoIndex || !d.NoFollow || len(d.Sources) != filter.MaxListed || d.SourcesDropped != 51 || len(d.Other) != filter.MaxListed || d.OtherDropped != 50 {
		t.Errorf("noindex %v nofollow %v, %d sources + %d dropped, %d other + %d dropped; want true true, %d + 51, %d + 50",
			d.NoIndex, d.NoFollow, len(d.Sources), d.SourcesDropped, len(d.Other), d.OtherDropped, filter.MaxListed, filter.MaxListed)
	}
	out, _, _ = runCLI(t, page, "check")
	if !strings.Contains(out, "\n    and 51 more sources, not listed\n") || !strings.Contains(out, "x, and 50 more unknown directives\n") {
		t.Errorf("the report does not count what it does not list:\n%s", out)
	}
}

// Standard error shows a document's warnings as its Result keeps them:
// the first filter.MaxWarnings, then one line that counts the rest; every
// document has its own count, and the JSON Lines document record lists
// the same warnings and the count in warnings_dropped.
func TestStderrShowsAtMostMaxWarningsPerDocumentThenCountsTheRest(t *testing.T) {
	const extra = 500
	dir := t.TempDir()
	many := filepath.Join(dir, "many.html")
	if err := os.WriteFile(many, []byte(strings.Repeat(`<p class=robots-foo>x</p>`, filter.MaxWarnings+extra)), 0o644); err != nil {
		t.Fatal(err)
	}
	few := filepath.Join(dir, "few.html")
	if err := os.WriteFile(few, []byte(`<p class=robots-bar>x</p>`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"text", "archive", "links", "check"} {
		out, errOut, code := runCLI(t, "", cmd, "--format", "jsonl", many, few)
		if code != 0 {
			t.Fatalf("%s: status %d", cmd, code)
		}
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		want := filter.MaxWarnings + 2
		if len(lines) != want {
			t.Fatalf("%s: %d lines on stderr, want %d", cmd, len(lines), want)
		}
		last := `<p>: unknown Robot Exclusion Profile class "robots-foo" ignored (a typo here leaks content)`
		if !strings.HasSuffix(lines[filter.MaxWarnings-1], fmt.Sprintf("many.html:1:%d: warning: %s", 1+25*(filter.MaxWarnings-1), last)) {
			t.Errorf("%s: the last warning shown is %q", cmd, lines[filter.MaxWarnings-1])
		}
		if got, want := lines[filter.MaxWarnings], fmt.Sprintf("robofilter: %s: note: %d more warnings not shown (at most %d per document)", many, extra, filter.MaxWarnings); got != want {
			t.Errorf("%s: %q, want %q", cmd, got, want)
		}
		if !strings.Contains(lines[filter.MaxWarnings+1], "few.html:1:1: warning: <p>: unknown Robot Exclusion Profile class \"robots-bar\"") {
			t.Errorf("%s: the next document's warning is %q", cmd, lines[filter.MaxWarnings+1])
		}
		type docRecord struct {
			Type            string            `json:"type"`
			File            string            `json:"file"`
			Warnings        []json.RawMessage `json:"warnings"`
			WarningsDropped int               `json:"warnings_dropped"`
		}
		var doc docRecord
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var r docRecord
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: %v: %s", cmd, err, line)
			}
			if r.Type == "document" && r.File == many {
				doc = r
			}
		}
		if len(doc.Warnings) != filter.MaxWarnings || doc.WarningsDropped != extra {
			t.Errorf("%s: the document record has %d warnings and warnings_dropped %d, want %d and %d", cmd, len(doc.Warnings), doc.WarningsDropped, filter.MaxWarnings, extra)
		}
		if _, errOut, _ := runCLI(t, "", cmd, "-q", many); errOut != "" {
			t.Errorf("%s -q: stderr %q", cmd, errOut[:min(len(errOut), 200)])
		}
	}
}

// check adds a warning of its own after the document's: it counts
// against the same bound, on stderr and in the report.
func TestCheckOwnWarningCountsAgainstTheBound(t *testing.T) {
	input := `<meta name=robots content="max-image-preview:none">` + strings.Repeat(`<p class=robots-foo>x</p>`, filter.MaxWarnings)
	out, errOut, _ := runCLI(t, input, "check")
	if !strings.HasSuffix(errOut, "robofilter: -: note: 1 more warning not shown (at most 1000 per document)\n") {
		t.Errorf("stderr ends %q", errOut[max(0, len(errOut)-200):])
	}
	if !strings.Contains(out, "\n  warnings: 1001\n") || strings.Count(out, "unknown Robot Exclusion Profile class") != filter.MaxWarnings {
		t.Errorf("the report does not count 1001 warnings and list 1000")
	}
}

// A warning quotes values of the input (a class, a META content): its
// message is cut at filter.MaxWarningBytes, whatever the value's length.
func TestWarningMessagesAreCut(t *testing.T) {
	class := "robots-noindex " + strings.Repeat("x", 1<<20)
	_, errOut, _ := runCLI(t, `<body><p>x<body class="`+class+`">`, "text")
	if !strings.Contains(errOut, "a second <body> tag adds class") || len(errOut) > filter.MaxWarningBytes+100 {
		t.Errorf("%d bytes on stderr: %q…", len(errOut), errOut[:min(len(errOut), 200)])
	}
}

// In records mode the warnings go to each record, kept as a document's:
// the first filter.MaxWarnings, and warnings_dropped counts the rest.
func TestRecordCountsTheWarningsNotListed(t *testing.T) {
	html := strings.Repeat(`&lt;p class=robots-foo&gt;x&lt;/p&gt;`, filter.MaxWarnings+7)
	out, _, code := runCLI(t, `<feed><entry><id>1</id><content type="html">`+html+`</content></entry></feed>`, "text", "--records", "//entry")
	var rec struct {
		Warnings        []json.RawMessage `json:"warnings"`
		WarningsDropped int               `json:"warnings_dropped"`
	}
	first, _, _ := strings.Cut(out, "\n") // the document record follows
	if err := json.Unmarshal([]byte(first), &rec); err != nil || code != 0 {
		t.Fatalf("status %d, %v", code, err)
	}
	if len(rec.Warnings) != filter.MaxWarnings || rec.WarningsDropped != 7 {
		t.Errorf("%d warnings, warnings_dropped %d; want %d and 7", len(rec.Warnings), rec.WarningsDropped, filter.MaxWarnings)
	}
}

// failingStdin gives some bytes, then the error os gives for a read that
// failed, with its "read /dev/stdin:".
type failingStdin struct{ data string }

func (f *failingStdin) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, &fs.PathError{Op: "read", Path: "/dev/stdin", Err: syscall.EIO}
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// A read that fails is reported after the input's name, once: without the
// "read /dev/stdin:" of the system's error; a document's, with where it
// stopped.
func TestReadErrorNamesTheInputOnce(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"text"}, "robofilter: -:2:1: error: reading: input/output error\n"},
		{[]string{"robots", "-"}, "robofilter: -: error: input/output error\n"},
		{[]string{"allowed", "--robots", writeRobotsFile(t, "User-agent: *\n"), "--agent", "x"}, "robofilter: -: error: reading URLs: input/output error\n"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"robofilter"}, c.args...), &failingStdin{data: "/fine\n"}, &out, &errb)
		if code != exitFailure || errb.String() != c.want {
			t.Errorf("%q: status %d, stderr %q, want 1 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// The check report keeps at most maxReported regions (those that start
// first) and links not followed, and counts the rest, so that its memory
// does not grow with the document; JSON Lines records go out as they come.
func TestCheckReportBoundsWhatItLists(t *testing.T) {
	const extra = 7
	var b strings.Builder
	// Nested regions end in the reverse order of their starts: the ones
	// listed must still be those that start first.
	b.WriteString(strings.Repeat(`<div class="robots-noindex">`, maxReported+extra))
	b.WriteString(strings.Repeat(`</div>`, maxReported+extra))
	b.WriteString(strings.Repeat(`<a href="/x" rel="nofollow">x</a>`, maxReported+extra))
	page := b.String()
	out, _, code := runCLI(t, page, "check", "--dialects", "profile,rel")
	if code != 0 {
		t.Fatal(code)
	}
	regionLine := regexp.MustCompile(`(?m)^    1:(\d+)-`)
	lines := regionLine.FindAllStringSubmatch(out, -1)
	if len(lines) != maxReported {
		t.Fatalf("%d regions listed, want %d", len(lines), maxReported)
	}
	if lines[0][1] != "1" || lines[len(lines)-1][1] != strconv.Itoa(1+(maxReported-1)*len(`<div class="robots-noindex">`)) {
		t.Errorf("regions listed from column %s to %s, want the first %d to start", lines[0][1], lines[len(lines)-1][1], maxReported)
	}
	for _, want := range []string{
		fmt.Sprintf("  regions: %d\n", maxReported+extra),
		fmt.Sprintf("    and %d more regions, not listed (at most %d are)\n", extra, maxReported),
		fmt.Sprintf("  links not followed: %d\n", maxReported+extra),
		fmt.Sprintf("    and %d more, not listed (at most %d are)\n", extra, maxReported),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no line %q", want)
		}
	}
	out, _, _ = runCLI(t, page, "check", "--dialects", "profile,rel", "--format", "jsonl")
	if n, m := strings.Count(out, `{"type":"region"`), strings.Count(out, `{"type":"link"`); n != maxReported+extra || m != maxReported+extra {
		t.Errorf("JSON Lines: %d region and %d link records, want %d of each", n, m, maxReported+extra)
	}
}

// Regions that start at one place (<noindex class="robots-nofollow"> makes
// two) are listed in the order they were given, on every line alike.
func TestCheckReportListsRegionsOfOnePlaceInOrder(t *testing.T) {
	page := strings.Repeat("<noindex class=\"robots-nofollow\">x</noindex>\n", 5)
	out, _, _ := runCLI(t, page, "check", "-")
	want := ""
	for line := 1; line <= 5; line++ {
		want += fmt.Sprintf("    %d:1-%d:35  <noindex> class=\"robots-nofollow\"  nofollow  (profile, 34 bytes)\n    %d:1-%d:35  <noindex>  noindex  (yandex, 34 bytes)\n", line, line, line, line)
	}
	if !strings.Contains(out, want) {
		t.Errorf("report:\n%s\nwant the regions\n%s", out, want)
	}
}
