package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/warcgen"
)

// The tests run this test binary as the launcher: with
// ROBOFILTER_BEAM_MAIN=1 it is robofilter-beam.
func TestMain(m *testing.M) {
	if os.Getenv("ROBOFILTER_BEAM_MAIN") == "1" {
		main()
		return
	}
	os.Setenv("SOURCE_DATE_EPOCH", "1764374400") // undated WET files compare alike
	os.Exit(m.Run())
}

// launch runs robofilter-beam with args and returns the lines it writes
// (standard output and error) and its exit status.
func launch(t *testing.T, args ...string) (string, int) {
	ours, _, status := launchAll(t, args...)
	return ours, status
}

// launchAll returns its own lines, and all of them with the SDK's.
func launchAll(t *testing.T, args ...string) (ours, all string, status int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	// NO_GCE_CHECK: Google's client libraries do not look for a metadata
	// server: the tests stay offline.
	cmd.Env = append(os.Environ(), "ROBOFILTER_BEAM_MAIN=1", "NO_GCE_CHECK=true")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	// Prism's and the SDK's own log lines (time=… level=…) are not ours.
	var lines []string
	for _, line := range strings.SplitAfter(stderr.String(), "\n") {
		if !strings.HasPrefix(line, "time=") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, ""), stderr.String(), status
}

// The launcher on Prism: what it says of a run (files worked on, skipped,
// those that could not be read to their end) and its exit status; again
// with --resume.
func TestLauncherOnPrism(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	var b bytes.Buffer
	if _, err := warcgen.Write(&b, warcgen.Options{Bytes: 256 << 10, Gzip: true, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(in, "whole.warc.gz"), b.Bytes(), 0o644)
	os.WriteFile(filepath.Join(in, "cut.warc.gz"), b.Bytes()[:b.Len()/2], 0o644)
	list := filepath.Join(in, "list.txt")
	os.WriteFile(list, []byte("whole.warc.gz\ncut.warc.gz\nmissing.warc.gz\n"), 0o644)
	args := []string{"--paths", list, "--input-base", in, "--output", out}

	stderr, status := launch(t, args...)
	for _, want := range []string{
		"robofilter-beam: 3 WARC files\n",
		"robofilter-beam: 3 WARC files worked on, 0 skipped as done before\n",
		"robofilter-beam: 2 WARC files could not be read to their end:\n",
		"\n  cut.warc.gz: ",
		"\n  missing.warc.gz: open " + filepath.Join(in, "missing.warc.gz") + ": no such file or directory\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the run does not say %q:\n%s", want, stderr)
		}
	}
	if status != 1 {
		t.Errorf("exit status %d, want 1 (files could not be read)", status)
	}
	for _, name := range []string{"whole.warc.extract.jsonl.gz", "whole.warc.wet.gz", "whole.warc.summary.json", "summary.jsonl", "summary.parquet"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}

	stderr, status = launch(t, append(args, "--resume")...)
	if !strings.Contains(stderr, "robofilter-beam: 0 WARC files worked on, 3 skipped as done before\n") || status != 1 {
		t.Errorf("resuming (exit status %d):\n%s", status, stderr)
	}

	// Every file read to its end: 0.
	os.WriteFile(list, []byte("whole.warc.gz\n"), 0o644)
	stderr, status = launch(t, "--paths", list, "--input-base", in, "--output", t.TempDir())
	if status != 0 || strings.Contains(stderr, "could not be read") {
		t.Errorf("one whole file: exit status %d:\n%s", status, stderr)
	}
}

// Usage errors are told before any pipeline is built: exit status 2.
func TestLauncherUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--output", "out"}, "give either a paths list (--paths) or a glob"},
		{[]string{"--paths", "list", "--input", "*.warc.gz", "--output", "out"}, "give either a paths list"},
		{[]string{"--paths", "list"}, "give an output prefix (--output)"},
		{[]string{"--paths", "list", "--output", "out", "--retry-failed"}, "--retry-failed goes with --resume"},
		{[]string{"--paths", "list", "--output", "out", "--dialects", "nosuch"}, "dialects:"},
		{[]string{"--paths", "list", "--output", "out", "--purpose", "nosuch"}, "purpose:"},
		{[]string{"--paths", "list", "--output", "out", "x.warc.gz"}, "unexpected arguments"},
		{[]string{"--runner", "dataflow", "--paths", "gs://b/list", "--output", "out"}, "out is a local name"},
	} {
		stderr, status := launch(t, c.args...)
		if status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit status %d, want 2 and %q:\n%s", c.args, status, c.want, stderr)
		}
	}
}

// --runner=dataflow --dry_run translates the pipeline into a Dataflow job
// and prints it, offline (no credentials, no network): the steps are
// there, a WARC file a unit of work after the reshuffle.
func TestDataflowDryRun(t *testing.T) {
	_, all, status := launchAll(t, "--runner=dataflow", "--dry_run", "--project=robofilter-test", "--region=us-central1",
		"--staging_location=gs://robofilter-test/staging", "--temp_location=gs://robofilter-test/tmp",
		"--paths", "gs://robofilter-test/warc.paths.gz", "--input-base", "https://data.commoncrawl.org/", "--output", "gs://robofilter-test/out")
	if status != 0 {
		t.Fatalf("exit status %d:\n%s", status, all)
	}
	// The job is printed in the SDK's log lines.
	for _, want := range []string{"Dry-run: not submitting job!", "robofilter/ListWARCFiles", "robofilter/Reshuffle", "robofilter/ProcessWARCFile", "robofilter/Summary"} {
		if !strings.Contains(all, want) {
			t.Errorf("the dry run's output does not name %q:\n%.2000s", want, all)
		}
	}
}
