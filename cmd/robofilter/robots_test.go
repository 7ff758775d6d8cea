package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/robofilter/robofilter/robotstxt"
)

const extensionsRobots = `Sitemap: https://example.com/sitemap.xml
User-agent: mybot
Crawl-delay: 10
User-agent: yourbot
Robot-version: 2.0.0
Request-rate: 10/1m 0200-0600
Visit-time: 0100-0500
Comment: crawl at night
Disallow: /private/
Disallow:
Bogus line

User-agent: *
Allow: /
Host: www.example.com
Clean-param: utm_source&ref /news/
`

func TestRobotsPlainReport(t *testing.T) {
	file := writeRobotsFile(t, extensionsRobots)
	out, errOut, status := runRobotsCLI(t, "", "robots", file)
	want := "file " + file + " (rfc9309, UTF-8, 314 bytes, 16 lines)\n" +
		"group line 2: mybot, yourbot\n" +
		"  line 3: crawl-delay 10s (for mybot)\n" +
		"  line 6: request-rate 10/1m 02:00-06:00 UTC (one request every 6s)\n" +
		"  line 7: visit-time 01:00-05:00 UTC\n" +
		"  line 8: comment crawl at night\n" +
		"  line 9: disallow /private/\n" +
		"  line 10: disallow (empty)\n" +
		"group line 13: *\n" +
		"  line 14: allow /\n" +
		"sitemap line 1: https://example.com/sitemap.xml\n" +
		"host line 15: www.example.com\n" +
		"clean-param line 16: utm_source&ref under /news/\n" +
		"2 warnings about unusable lines\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	wantErr := "robofilter: " + file + ":5:1: warning: Robot-version is not right after the User-agent lines: ignored, the record stays 1.0\n" +
		"robofilter: " + file + `:11:1: warning: no colon: "Bogus line" is not a field` + "\n"
	if errOut != wantErr || status != exitOK {
		t.Errorf("status %d, stderr:\n%s\nwant:\n%s", status, errOut, wantErr)
	}
}

func TestRobotsReportsTheProposalVersion(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: Chives\nRobot-version: 2.0.0\nAllow: */index.html\n\nUser-agent: Lab\nRobot-version: 2.1.0\n")
	out, _, _ := runRobotsCLI(t, "", "robots", "--mode", "v1", file)
	for _, want := range []string{"group line 1: Chives\n  line 2: robot-version 2.0.0 (1996 proposal rules)\n  line 3: allow */index.html\n", "group line 5: Lab (skipped: Robot-version 2.1.0)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRobotsJSONLines(t *testing.T) {
	file := writeRobotsFile(t, extensionsRobots)
	out, _, status := runRobotsCLI(t, "", "robots", "--format", "jsonl", file)
	if status != exitOK {
		t.Fatalf("status %d", status)
	}
	var types []string
	var group map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if rec["file"] != file {
			t.Errorf("record without its file: %s", line)
		}
		types = append(types, rec["type"].(string))
		if rec["type"] == "group" && group == nil {
			group = rec
		}
	}
	if got := strings.Join(types, " "); got != "file group group sitemap host clean-param warning warning" {
		t.Errorf("record types: %s", got)
	}
	delays := group["crawl_delay"].([]any)
	delay := delays[0].(map[string]any)
	if delay["seconds"] != 10.0 || delay["line"] != 3.0 || len(delay["agents"].([]any)) != 1 {
		t.Errorf("crawl_delay: %v", delay)
	}
	rate := group["request_rate"].([]any)[0].(map[string]any)
	if rate["requests"] != 10.0 || rate["seconds"] != 60.0 || rate["window"] != "02:00-06:00 UTC" || len(rate["agents"].([]any)) != 2 {
		t.Errorf("request_rate: %v", rate)
	}
	if rules := group["rules"].([]any); len(rules) != 2 {
		t.Errorf("rules: %v", rules)
	}
}

func TestRobotsReadsUTF16AndStdin(t *testing.T) {
	text := "User-agent: *\r\nDisallow: /login\r\n"
	units := utf16.Encode([]rune("\ufeff" + text))
	var body []byte
	for _, u := range units {
		body = append(body, byte(u), byte(u>>8))
	}
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := runRobotsCLI(t, "", "robots", file)
	if !strings.Contains(out, "UTF-16LE") || !strings.Contains(out, "  line 2: disallow /login\n") {
		t.Errorf("UTF-16 file:\n%s", out)
	}
	out, _, status := runRobotsCLI(t, text, "robots", "-")
	if status != exitOK || !strings.HasPrefix(out, "file - (rfc9309, UTF-8,") {
		t.Errorf("stdin: status %d\n%s", status, out)
	}
}

func TestRobotsUnreadableFileIsReportedAndOthersStillProcessed(t *testing.T) {
	good := writeRobotsFile(t, "User-agent: *\nDisallow: /x\n")
	missing := filepath.Join(t.TempDir(), "missing.txt")
	out, errOut, status := runRobotsCLI(t, "", "robots", missing, good)
	if status != exitFailure || !strings.Contains(errOut, "missing.txt") || !strings.Contains(out, "file "+good) {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", status, out, errOut)
	}
}

// robots and allowed report an unreadable robots.txt as the document
// commands report a file: "robofilter: FILE: error: why", exit 1.
func TestRobotsUnreadableFileHasTheErrorLineForm(t *testing.T) {
	good := writeRobotsFile(t, "User-agent: *\nDisallow: /x\n")
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	out, errOut, status := runRobotsCLI(t, "", "robots", missing, dir, good)
	want := "robofilter: " + missing + ": error: no such file or directory\n" +
		"robofilter: " + dir + ": error: is a directory\n"
	if status != exitFailure || errOut != want || !strings.HasPrefix(out, "file "+good) {
		t.Errorf("robots: status %d, stdout:\n%s\nstderr:\n%s\nwant:\n%s", status, out, errOut, want)
	}
	for _, name := range []string{missing, dir} {
		out, errOut, status := runRobotsCLI(t, "", "allowed", "--robots", name, "--agent", "x", "/a")
		want := "robofilter: " + name + ": error: " + pick(name == dir, "is a directory", "no such file or directory") + "\n"
		if status != exitFailure || errOut != want || out != "" {
			t.Errorf("allowed: status %d, stdout %q, stderr %q, want %q", status, out, errOut, want)
		}
	}
}

func TestRobotsUsageErrors(t *testing.T) {
	cases := [][]string{
		{"robots"},
		{"robots", "--format", "yaml", "x"},
		{"robots", "--mode", "v9", "x"},
		{"robots", "--google", "--mode", "v1", "x"},
	}
	for _, args := range cases {
		if _, errOut, status := runRobotsCLI(t, "", args...); status != exitUsage {
			t.Errorf("%v: status %d, stderr %s", args, status, errOut)
		}
	}
}

func TestRobotsHelpHasExamples(t *testing.T) {
	out, _, status := runRobotsCLI(t, "", "robots", "--help")
	if status != exitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "robofilter robots robots.txt") {
		t.Errorf("status %d, help:\n%s", status, out)
	}
}

// endlessRobots is a robots.txt on stdin that would go on for gigabytes: a
// group, then the same rule again and again. It counts what was read and
// fails past a tripwire, so that a command reading it whole fails the test
// quickly rather than exhausting memory.
type endlessRobots struct {
	read, tripwire int64
}

func (e *endlessRobots) Read(p []byte) (int, error) {
	const head, line = "User-agent: *\n", "Disallow: /private/\n"
	if e.read >= e.tripwire {
		return 0, fmt.Errorf("read %d bytes of an endless robots.txt", e.read)
	}
	n := 0
	for n < len(p) {
		if at := e.read + int64(n); at < int64(len(head)) {
			n += copy(p[n:], head[at:])
		} else {
			n += copy(p[n:], line[(at-int64(len(head)))%int64(len(line)):])
		}
	}
	e.read += int64(n)
	return n, nil
}

// robots and allowed read robots.txt as far as it is parsed (SPEC 7: 500
// KiB at least), not whole: memory does not grow with the file, and a
// warning says the rest was ignored.
func TestRobotsFileIsReadOnlyAsFarAsItIsParsed(t *testing.T) {
	limit := robotstxt.ReadLimit(robotstxt.Options{})
	for _, args := range [][]string{
		{"robots", "-"},
		{"robots", "--mode", "v1", "-"},
		{"allowed", "--robots", "-", "--agent", "FooBot", "/private/x", "/public"},
	} {
		stdin := &endlessRobots{tripwire: 64 << 20}
		var out, errb bytes.Buffer
		status := run(append([]string{"robofilter"}, args...), stdin, &out, &errb)
		wantStatus := exitOK
		if args[0] == "allowed" {
			wantStatus = exitDisallowed
		}
		if status != wantStatus || stdin.read > limit {
			t.Errorf("%q: status %d, read %d bytes (at most %d wanted); stderr:\n%.500s", args, status, stdin.read, limit, errb.String())
			continue
		}
		if !strings.Contains(errb.String(), ": warning: file longer than 524288 bytes: the rest is ignored\n") {
			t.Errorf("%q: no warning that the rest was ignored; stderr:\n%.500s", args, errb.String())
		}
		if args[0] == "allowed" && out.String() != "disallowed\t/private/x\nallowed\t/public\n" {
			t.Errorf("%q: stdout %q", args, out.String())
		}
	}
}
