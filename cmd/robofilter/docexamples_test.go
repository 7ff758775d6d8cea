package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/apidoc"
)

// docExample is a command shown in the README or docs/ with its output:
// a "$ " line (continued by a trailing backslash) and the lines up to
// the next "$ " line or the block's end.
type docExample struct {
	file string
	line int
	cmd  string
	want []string
}

var fencedBlock = regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")

// docExamples are the README's and docs/'s examples whose command runs
// robofilter, or sets up for one, in their files' order.
func docExamples(t *testing.T, root string) []docExample {
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var all []docExample
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fencedBlock.FindAllSubmatchIndex(src, -1) {
			block := string(src[m[2]:m[3]])
			if !strings.HasPrefix(block, "$ ") {
				continue
			}
			line := bytes.Count(src[:m[2]], []byte("\n")) + 1
			var cur *docExample
			continued := false
			for i, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
				switch {
				case continued:
					cur.cmd += "\n" + l
				case strings.HasPrefix(l, "$ "):
					all = append(all, docExample{file: f, line: line + i, cmd: l[2:]})
					cur = &all[len(all)-1]
				default:
					cur.want = append(cur.want, l)
				}
				continued = strings.HasSuffix(l, "\\")
			}
		}
	}
	return all
}

// The examples in the README and docs/ are what robofilter prints: each
// command is run by bash from the project's folder, with the robofilter
// of this source first on the PATH, and its standard error (the lines
// that start "robofilter: ") and output compared with the example's, in
// order each. "$ echo $?" shows the status of the command before it. An
// example that needs what this machine lacks (the shared documents, jq)
// is skipped, said so.
func TestDocExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := apidoc.Root()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "robofilter"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	_, sharedErr := os.Stat(filepath.Join(root, "..", "shared", "corpus"))
	_, jqErr := exec.LookPath("jq")
	_, pythonErr := exec.LookPath("python3")
	examples := docExamples(t, root)
	ran, skipped := 0, 0
	lastStatus := -1
	for _, ex := range examples {
		where := filepath.Base(ex.file) + ":" + strconv.Itoa(ex.line)
		if ex.cmd == "echo $?" {
			if lastStatus >= 0 && (len(ex.want) != 1 || ex.want[0] != strconv.Itoa(lastStatus)) {
				t.Errorf("%s: status %d, the example shows %q", where, lastStatus, ex.want)
			}
			continue
		}
		lastStatus = -1
		switch {
		case !strings.Contains(ex.cmd, "robofilter") && !strings.Contains(ex.cmd, "> /tmp/"):
			continue // another program's example
		case strings.Contains(ex.cmd, "../shared/") && sharedErr != nil,
			strings.Contains(ex.cmd, "| jq") && jqErr != nil,
			strings.Contains(ex.cmd, "python3") && pythonErr != nil:
			t.Logf("%s: skipped: needs what this machine lacks: %s", where, ex.cmd)
			skipped++
			continue
		}
		cmd := exec.Command("bash", "-c", ex.cmd)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		lastStatus = 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			lastStatus = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		ran++
		var wantOut, wantErr []string
		for _, l := range ex.want {
			if strings.HasPrefix(l, "robofilter: ") {
				wantErr = append(wantErr, l)
			} else {
				wantOut = append(wantOut, l)
			}
		}
		gotOut, gotErr := lines(stdout.String()), lines(stderr.String())
		if strings.Join(gotOut, "\n") != strings.Join(wantOut, "\n") {
			t.Errorf("%s: $ %s\noutput:\n%s\nthe example shows:\n%s", where, ex.cmd, strings.Join(gotOut, "\n"), strings.Join(wantOut, "\n"))
		}
		if strings.Join(gotErr, "\n") != strings.Join(wantErr, "\n") {
			t.Errorf("%s: $ %s\nstandard error:\n%s\nthe example shows:\n%s", where, ex.cmd, strings.Join(gotErr, "\n"), strings.Join(wantErr, "\n"))
		}
	}
	if ran < 30 {
		t.Errorf("%d examples run (%d skipped): the README and docs/ hold more", ran, skipped)
	}
	t.Logf("%d examples run, %d skipped", ran, skipped)
}

// lines are s's lines, without the last one's newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
