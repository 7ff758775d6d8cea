package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runRobotsCLI runs the app in-process and returns stdout, stderr and the
// exit status.
func runRobotsCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(append([]string{"robofilter"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), status
}

// writeRobotsFile puts body in a robots.txt of a fresh temporary folder.
func writeRobotsFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const shopRobots = `User-agent: *
Disallow: /private/
Allow: /private/press/
Frobnicate: yes
`

func TestAllowedPrintsOneLinePerURLAndExitsThreeOnDisallowed(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	out, _, status := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot",
		"https://example.com/", "https://example.com/private/x", "/private/press/a")
	want := "allowed\thttps://example.com/\ndisallowed\thttps://example.com/private/x\nallowed\t/private/press/a\n"
	if out != want || status != exitDisallowed {
		t.Errorf("status %d, output:\n%s\nwant status 3 and:\n%s", status, out, want)
	}
	if _, _, status := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot", "/a", "/b"); status != exitOK {
		t.Errorf("every URL allowed: status %d, want 0", status)
	}
}

func TestAllowedReadsURLsFromStdin(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	out, _, status := runRobotsCLI(t, "/a\r\n\n  /private/b  \n/c", "allowed", "--robots", robots, "--agent", "FooBot")
	want := "allowed\t/a\ndisallowed\t/private/b\nallowed\t/c\n"
	if out != want || status != exitDisallowed {
		t.Errorf("status %d, output:\n%s\nwant:\n%s", status, out, want)
	}
}

func TestAllowedExplainGivesTheRuleAndLine(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	out, _, _ := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot", "--explain",
		"/private/x", "/private/press/a", "/public", "/robots.txt")
	want := "disallowed\t/private/x\tline 2: Disallow: /private/ (longest match)\n" +
		"allowed\t/private/press/a\tline 3: Allow: /private/press/ (longest match)\n" +
		"allowed\t/public\tno rule matched\n" +
		"allowed\t/robots.txt\t/robots.txt is always allowed\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestAllowedJSONLines(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	out, _, status := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot", "--format", "jsonl", "--explain", "/private/x", "/a")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || status != exitDisallowed {
		t.Fatalf("status %d, output:\n%s", status, out)
	}
	var first, second jsonVerdict
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	if first.URL != "/private/x" || first.Allowed || first.Line != 2 || first.Rule != "Disallow: /private/" || first.Reason != "longest match" {
		t.Errorf("first line: %+v", first)
	}
	if second.URL != "/a" || !second.Allowed || second.Reason != "no rule matched" || second.Line != 0 {
		t.Errorf("second line: %+v", second)
	}
	out, _, _ = runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot", "--format", "jsonl", "/a")
	// Every record has its type and file, as the document commands' have.
	if want := `{"type":"verdict","file":"` + robots + `","url":"/a","allowed":true}`; strings.TrimSpace(out) != want {
		t.Errorf("without --explain: %s", out)
	}
}

func TestAllowedFetchStatus(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: *\nDisallow: /x\n")
	cases := []struct {
		name   string
		args   []string
		status int
		out    string
	}{
		{"404 needs no file and allows", []string{"--status", "404"}, exitOK, "allowed\t/x\n"},
		{"403 allows under RFC 9309", []string{"--status", "403"}, exitOK, "allowed\t/x\n"},
		{"403 disallows in v1", []string{"--status", "403", "--mode", "v1"}, exitDisallowed, "disallowed\t/x\n"},
		{"401 disallows in v1", []string{"--status", "401", "--mode", "v1"}, exitDisallowed, "disallowed\t/x\n"},
		{"503 disallows", []string{"--status", "503"}, exitDisallowed, "disallowed\t/x\n"},
		{"unreachable disallows", []string{"--status", "unreachable"}, exitDisallowed, "disallowed\t/x\n"},
		{"5xx ignores the file", []string{"--status", "500", "--robots", "/no/such/file"}, exitDisallowed, "disallowed\t/x\n"},
		{"2xx reads the file", []string{"--status", "200", "--robots", robots}, exitDisallowed, "disallowed\t/x\n"},
		{"2xx needs the file", []string{"--status", "204"}, exitUsage, ""},
		{"a status that is not one", []string{"--status", "99"}, exitUsage, ""},
		{"a word that is not a status", []string{"--status", "gone"}, exitUsage, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"allowed", "--agent", "FooBot"}, c.args...), "/x")
			out, errOut, status := runRobotsCLI(t, "", args...)
			if status != c.status || out != c.out {
				t.Errorf("status %d, output %q, stderr %q; want %d, %q", status, out, errOut, c.status, c.out)
			}
		})
	}
}

func TestAllowedModes(t *testing.T) {
	marys := writeRobotsFile(t, "User-Agent: Suzy-Spider\nDisallow: /dynamic\nAllow: /private/suzy-stuff\nDisallow: /private\n\nUser-Agent: *\nDisallow: /dynamic\nDisallow: /private\n")
	typos := writeRobotsFile(t, "User-agent: FooBot\nDissallow: /typo\n")
	cases := []struct {
		name   string
		args   []string
		status int
	}{
		{"v1 matches the record by substring", []string{"--mode", "v1", "--robots", marys, "--agent", "SuzySpider", "/private/suzy-stuff/taxes.txt"}, exitOK},
		{"v1 takes the first match", []string{"--mode", "v1", "--robots", marys, "--agent", "NosyBot", "/private/suzy-stuff/taxes.txt"}, exitDisallowed},
		{"rfc9309 ignores a misspelt key", []string{"--robots", typos, "--agent", "FooBot", "/typo"}, exitOK},
		{"google reads a misspelt key", []string{"--google", "--robots", typos, "--agent", "FooBot", "/typo"}, exitDisallowed},
		{"google as a mode name", []string{"--mode", "google", "--robots", typos, "--agent", "FooBot", "/typo"}, exitDisallowed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, errOut, status := runRobotsCLI(t, "", append([]string{"allowed"}, c.args...)...); status != c.status {
				t.Errorf("status %d, want %d; stderr %s", status, c.status, errOut)
			}
		})
	}
}

func TestAllowedUsageAndIOErrors(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	cases := []struct {
		name   string
		stdin  string
		args   []string
		status int
		stderr string
	}{
		{"no agent", "", []string{"--robots", robots, "/a"}, exitUsage, "allowed needs --agent NAME (see robofilter allowed --help)"},
		{"no robots file", "", []string{"--agent", "x", "/a"}, exitUsage, "allowed needs --robots FILE (or --status CODE) (see"},
		{"neither", "", []string{"/a"}, exitUsage, "allowed needs --robots FILE (or --status CODE) and --agent NAME"},
		{"status 200 without the file", "", []string{"--agent", "x", "--status", "200", "/a"}, exitUsage, "--robots FILE is needed"},
		{"unknown mode", "", []string{"--robots", robots, "--agent", "x", "--mode", "v3", "/a"}, exitUsage, "unknown robots.txt mode"},
		{"unknown format", "", []string{"--robots", robots, "--agent", "x", "--format", "xml", "/a"}, exitUsage, "unknown format"},
		{"google with v1", "", []string{"--robots", robots, "--agent", "x", "--mode", "v1", "--google", "/a"}, exitUsage, "--google applies to rfc9309"},
		{"robots and URLs both from stdin", "", []string{"--robots", "-", "--agent", "x"}, exitUsage, "cannot both come from stdin"},
		{"unreadable robots file", "", []string{"--robots", filepath.Join(t.TempDir(), "missing.txt"), "--agent", "x", "/a"}, exitFailure, "missing.txt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, status := runRobotsCLI(t, c.stdin, append([]string{"allowed"}, c.args...)...)
			if status != c.status || !strings.Contains(errOut, c.stderr) {
				t.Errorf("status %d, stderr %q; want %d and %q", status, errOut, c.status, c.stderr)
			}
			// A usage error is one line on stderr, not the help on stdout.
			if out != "" || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stdout %q, stderr %q", out, errOut)
			}
		})
	}
}

func TestAllowedRobotsFromStdinWithURLArguments(t *testing.T) {
	out, _, status := runRobotsCLI(t, shopRobots, "allowed", "--robots", "-", "--agent", "x", "/private/a")
	if out != "disallowed\t/private/a\n" || status != exitDisallowed {
		t.Errorf("status %d, output %q", status, out)
	}
}

func TestAllowedWarnsAboutUnusableLines(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	_, errOut, _ := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "x", "/a")
	want := "robofilter: " + robots + `:4:1: warning: unknown field "Frobnicate": ignored` + "\n"
	if errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if _, errOut, _ := runRobotsCLI(t, "", "allowed", "--quiet", "--robots", robots, "--agent", "x", "/a"); errOut != "" {
		t.Errorf("--quiet: stderr %q", errOut)
	}
}

func TestAllowedFlagsAfterURLs(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	out, _, status := runRobotsCLI(t, "", "allowed", "/private/a", "--robots", robots, "--agent", "x", "--explain")
	if !strings.HasPrefix(out, "disallowed\t/private/a\tline 2:") || status != exitDisallowed {
		t.Errorf("status %d, output %q", status, out)
	}
}

func TestAllowedHelpHasExamples(t *testing.T) {
	out, _, status := runRobotsCLI(t, "", "allowed", "--help")
	if status != exitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "robofilter allowed --robots robots.txt --agent FooBot") {
		t.Errorf("status %d, help:\n%s", status, out)
	}
}

// A path without its leading "/" (as the seed's Table 9-3 prints one) is
// read as a path, with a word on stderr; the library would take its first
// segment for a host.
func TestAllowedReadsARelativePathFromTheRoot(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: *\nDisallow: /~fred/hi.html\n")
	out, errOut, status := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot", "--mode", "v1", "%7Efred/hi.html")
	if out != "disallowed\t%7Efred/hi.html\n" || status != exitDisallowed || !strings.Contains(errOut, `read as a path`) {
		t.Errorf("status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

// --mode v1: an empty Disallow means everything may be retrieved, for the
// robot whose record it is (the * record does not apply to it); beside a
// non-empty Disallow it forbids nothing and allows nothing that line forbids.
func TestAllowedV1EmptyDisallow(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow:\nDisallow: /private\n")
	out, _, status := runRobotsCLI(t, "", "allowed", "--mode", "v1", "--explain", "--robots", robots, "--agent", "FooBot", "/private/x", "/")
	if want := "allowed\t/private/x\tno rule matched\nallowed\t/\tno rule matched\n"; status != exitOK || out != want {
		t.Errorf("FooBot: status %d, stdout %q, want %q", status, out, want)
	}
	out, _, status = runRobotsCLI(t, "", "allowed", "--mode", "v1", "--explain", "--robots", robots, "--agent", "BarBot", "/private/x", "/public")
	if want := "disallowed\t/private/x\tline 6: Disallow: /private (first match)\nallowed\t/public\tno rule matched\n"; status != exitDisallowed || out != want {
		t.Errorf("BarBot: status %d, stdout %q, want %q", status, out, want)
	}
}

func TestAllowedNotModifiedReadsTheFileGiven(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: *\nDisallow: /private/\n")
	if out, _, _ := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot", "--status", "304", "/private/a"); out != "disallowed\t/private/a\n" {
		t.Errorf("304 with the cached file: %q", out)
	}
	// Without the copy nothing can be answered: allowing all is wrong.
	if out, errOut, status := runRobotsCLI(t, "", "allowed", "--agent", "FooBot", "--status", "304", "/private/a"); out != "" || status != exitUsage ||
		errOut != "robofilter: allowed: --status 304 (Not Modified) needs --robots FILE, the copy still in force\n" {
		t.Errorf("304 without a file: status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

func TestAllowedRelativePathWithAURLInItsQuery(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: *\nDisallow: /private\n")
	out, _, _ := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "a", "private/page?next=https://a.example/")
	if out != "disallowed\tprivate/page?next=https://a.example/\n" {
		t.Errorf("got %q", out)
	}
	if _, errOut, _ := runRobotsCLI(t, "", "allowed", "-q", "--robots", robots, "--agent", "a", "private/page"); errOut != "" {
		t.Errorf("-q: stderr %q", errOut)
	}
}

// A robot name that is no product token is compared whole, and the file's
// User-agent lines are read up to their product token: the robot has no
// group of its own, which a warning says.
func TestAllowedWarnsOfAnAgentThatIsNoProductToken(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: bot3\nDisallow: /\n")
	out, errOut, status := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "bot3", "/x")
	if out != "allowed\t/x\n" || status != 0 {
		t.Errorf("status %d, output %q", status, out)
	}
	if !strings.Contains(errOut, `--agent "bot3" is not a product token`) {
		t.Errorf("stderr %q", errOut)
	}
	if _, errOut, _ := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "FooBot/2.1", "/x"); strings.Contains(errOut, "--agent") {
		t.Errorf("a version after the token is no fault: %q", errOut)
	}
}

// An overlong line in the URL list is skipped with an error naming it; the
// other URLs are still answered, and the status says one failed.
func TestAllowedSkipsAnOverlongURLLine(t *testing.T) {
	robots := writeRobotsFile(t, shopRobots)
	in := "/private/a\n" + strings.Repeat("a", maxURLLine+1) + "\n/b\n"
	out, errOut, status := runRobotsCLI(t, in, "allowed", "--robots", robots, "--agent", "x")
	if out != "disallowed\t/private/a\nallowed\t/b\n" || status != exitFailure {
		t.Errorf("status %d, output %q", status, out)
	}
	if !strings.Contains(errOut, "-:2:1: error: a URL longer than") {
		t.Errorf("stderr %q", errOut)
	}
}

// Every warning of allowed has SPEC 6's FILE:LINE:COL form: about the
// flags and URL arguments, the robots.txt file's at 0:0; about a URL read
// from stdin, its line of "-". A byte order mark before the first URL is
// no part of it.
func TestAllowedWarningsHaveTheirPosition(t *testing.T) {
	robots := writeRobotsFile(t, "User-agent: *\nDisallow: /a\n")
	_, errOut, _ := runRobotsCLI(t, "", "allowed", "--robots", robots, "--agent", "bot3", "x/y")
	for _, want := range []string{
		"robofilter: " + robots + `:0:0: warning: --agent "bot3" is not a product token`,
		"robofilter: " + robots + `:0:0: warning: "x/y" is neither`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	out, errOut, _ := runRobotsCLI(t, "\uFEFF/a\nb/c\n", "allowed", "--robots", robots, "--agent", "x")
	if out != "disallowed\t/a\nallowed\tb/c\n" {
		t.Errorf("output %q", out)
	}
	if want := `robofilter: -:2:1: warning: "b/c" is neither`; !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", errOut, want)
	}
}

// A file of bad lines shows at most filter.MaxWarnings warnings, then a
// note of how many more there were.
func TestRobotsWarningsAreBounded(t *testing.T) {
	robots := writeRobotsFile(t, strings.Repeat("no colon here\n", 1500))
	_, errOut, _ := runRobotsCLI(t, "", "robots", robots)
	if n := strings.Count(errOut, ": warning: "); n != 1000 {
		t.Errorf("%d warnings shown, want 1000", n)
	}
	if !strings.Contains(errOut, "note: 500 more warnings not shown") {
		t.Errorf("no note of the rest: %q", errOut[max(0, len(errOut)-200):])
	}
}
