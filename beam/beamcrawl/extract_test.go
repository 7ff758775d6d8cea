package beamcrawl

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/internal/warcgen"
)

// The pipeline's JSON Lines for a WARC file are, byte for byte, what the
// root module's CLI writes for it with `robofilter extract --warc` (the
// same flags), the CLI built here from the root module: over the shared
// corpus's WARC and ARC files, generated crawls, and the test crawl (a
// file cut short, a file that is not there). The pipeline uses the
// library as the beam module's go.mod resolves it, the CLI as the root
// module's does: a dependency at another version that changed an output
// shows here.
func TestJSONLinesAreTheCLIsExtract(t *testing.T) {
	cli := buildCLI(t)
	settings := []struct {
		set   Settings
		flags []string
	}{
		{Settings{}, nil},
		{Settings{Agent: "googlebot", Dialects: "profile,rel,nosnippet", Regions: true, Jobs: 3, MaxDepth: 40, Purpose: "train-ai"},
			[]string{"--agent", "googlebot", "--dialects", "profile,rel,nosnippet", "--outputs", "text,links,regions", "--jobs", "3", "--max-depth", "40", "--purpose", "train-ai"}},
	}

	t.Run("generated", func(t *testing.T) {
		in := t.TempDir()
		c := newTestCrawl(t)
		names := []string{"t/a.warc", "t/sub/b.warc.gz", "t/c.warc.gz", "t/missing.warc.gz"}
		for name, b := range c.files {
			writeFile(t, filepath.Join(in, "t", name), b)
		}
		for i, o := range []warcgen.Options{{Bytes: 2 << 20, Gzip: true, Seed: 11}, {Bytes: 1 << 20, Seed: 12}} {
			var b bytes.Buffer
			if _, err := warcgen.Write(&b, o); err != nil {
				t.Fatal(err)
			}
			name := "gen/crawl-" + strconv.Itoa(i) + ".warc"
			if o.Gzip {
				name += ".gz"
			}
			writeFile(t, filepath.Join(in, name), b.Bytes())
			names = append(names, name)
		}
		for _, s := range settings {
			compareWithExtract(t, cli, in, names, s.set, s.flags)
		}
	})

	t.Run("corpus", func(t *testing.T) {
		dir := shared.Path(t, "corpus", "warc")
		var names []string
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
		for _, f := range files {
			if !strings.HasSuffix(f, ".md") {
				rel, _ := filepath.Rel(dir, f)
				names = append(names, filepath.ToSlash(rel))
			}
		}
		if len(names) < 50 {
			t.Fatalf("%d files in %s: the corpus has 53", len(names), dir)
		}
		for _, s := range settings {
			compareWithExtract(t, cli, dir, names, s.set, s.flags)
		}
	})
}

// compareWithExtract runs the pipeline over the files (their names
// relative to in) and compares each file's JSON Lines with extract's. Files
// whose outputs would have the same names (x.warc beside x.warc.gz) go to
// runs of their own.
func compareWithExtract(t *testing.T, cli, in string, names []string, set Settings, flags []string) {
	t.Helper()
	var groups [][]string
	taken := []map[string]bool{}
	for _, name := range names {
		key := OutputsFor("", name).Summary
		i := slices.IndexFunc(taken, func(m map[string]bool) bool { return !m[key] })
		if i < 0 {
			i = len(groups)
			groups, taken = append(groups, nil), append(taken, map[string]bool{})
		}
		groups[i], taken[i][key] = append(groups[i], name), true
	}
	for _, group := range groups {
		out := t.TempDir()
		list := filepath.Join(out, "list.txt")
		writeFile(t, list, []byte(strings.Join(group, "\n")+"\n"))
		if _, err := runPipeline(t, Config{Paths: list, InputBase: in, Output: filepath.Join(out, "out"), Settings: set}); err != nil {
			t.Fatal(err)
		}
		for _, name := range group {
			want := extract(t, cli, in, name, flags)
			got := gunzip(t, OutputsFor(filepath.Join(out, "out"), name).JSONL)
			if !bytes.Equal(got, want) {
				g, w := strings.SplitAfter(string(got), "\n"), strings.SplitAfter(string(want), "\n")
				i := 0
				for i < min(len(g), len(w)) && g[i] == w[i] {
					i++
				}
				at := func(l []string) string {
					if i < len(l) {
						return l[i]
					}
					return "(no line)"
				}
				t.Errorf("%s %v: the pipeline's JSON Lines (%d lines) differ from extract's (%d) at line %d:\n%.1000s\nextract's:\n%.1000s",
					name, flags, len(g)-1, len(w)-1, i+1, at(g), at(w))
			}
			// The WET file's records after the warcinfo record are those
			// of the CLI's text --format wet (whose warcinfo record has
			// its version, and no file name, so other record IDs).
			gotWET, err := os.ReadFile(OutputsFor(filepath.Join(out, "out"), name).WET)
			if err != nil {
				t.Fatal(err)
			}
			// Dated as the file's first document (a file without one has no
			// date to give its records).
			for _, record := range strings.Split(gunzipBytes(t, gotWET), "WARC/1.0\r\n")[1:] {
				if bytes.Contains(got, []byte(`"file":"`+name+`#`)) && !strings.Contains(record, "\r\nWARC-Date: ") {
					t.Errorf("%s %v: a WET record without its WARC-Date:\n%.300s", name, flags, record)
				}
			}
			if g, w := wetRecords(t, gotWET), wetRecords(t, cliWET(t, cli, in, name, flags)); g != w {
				t.Errorf("%s %v: the pipeline's WET records differ from text --format wet's:\n%.1500s\ntext's:\n%.1500s", name, flags, g, w)
			}
		}
	}
}

// extract runs `robofilter extract --warc FLAGS NAME` in the folder in,
// so that its documents are named as the pipeline's are, and returns what
// it writes.
func extract(t *testing.T, cli, in, name string, flags []string) []byte {
	t.Helper()
	cmd := exec.Command(cli, append(append([]string{"extract", "-q", "--warc"}, flags...), name)...)
	cmd.Dir = in
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	// 1: a file or document failed (its record says so); else the command
	// did not run as meant.
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("robofilter extract %s: %v\n%s", name, err, stderr.String())
	}
	return stdout.Bytes()
}

// cliWET runs `robofilter text --warc --format wet --gzip FLAGS NAME` in
// the folder in (extract's --outputs left out) and returns what it writes.
func cliWET(t *testing.T, cli, in, name string, flags []string) []byte {
	t.Helper()
	args := []string{"text", "-q", "--warc", "--format", "wet", "--gzip"}
	for i := 0; i < len(flags); i++ {
		if flags[i] == "--outputs" {
			i++
			continue
		}
		args = append(args, flags[i])
	}
	cmd := exec.Command(cli, append(args, name)...)
	cmd.Dir = in
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if ee, ok := cmd.Run().(*exec.ExitError); ok && ee.ExitCode() != 1 || !ok && stderr.Len() > 0 && stdout.Len() == 0 {
		t.Fatalf("robofilter text --format wet %s: %v\n%s", name, ee, stderr.String())
	}
	return stdout.Bytes()
}

// wetRecords is a gzip WET file's records after the warcinfo record,
// without their record IDs (the closing record's depends on the warcinfo
// record's), references to the warcinfo record, and the closing
// (metadata) record's date: the CLI dates its warcinfo and closing
// records as the first page with text, and gives a file with none no
// WARC-Date at all (a mandatory field); the library dates them as the
// first document.
func wetRecords(t *testing.T, b []byte) string {
	t.Helper()
	s := gunzipBytes(t, b)
	if i := strings.Index(s[min(1, len(s)):], "WARC/1.0\r\n"); i >= 0 {
		s = s[i+1:]
	} else {
		s = ""
	}
	var kept []string
	metadata := false
	for _, line := range strings.SplitAfter(s, "\n") {
		switch {
		case line == "WARC/1.0\r\n":
			metadata = false
		case line == "WARC-Type: metadata\r\n":
			metadata = true
		}
		if !strings.HasPrefix(line, "WARC-Record-ID: ") && !strings.HasPrefix(line, "WARC-Concurrent-To: ") &&
			!(metadata && strings.HasPrefix(line, "WARC-Date: ")) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "")
}

func gunzipBytes(t *testing.T, b []byte) string {
	t.Helper()
	if len(b) == 0 {
		return ""
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	all, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(all)
}

// buildCLI builds the root module's robofilter command.
func buildCLI(t testing.TB) string {
	t.Helper()
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	root, err := exec.Command(gobin, "list", "-m", "-f", "{{.Dir}}", "github.com/robofilter/robofilter").Output()
	if err != nil {
		t.Fatalf("finding the root module: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "robofilter")
	cmd := exec.Command(gobin, "build", "-o", bin, "./cmd/robofilter")
	cmd.Dir = strings.TrimSpace(string(root))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the root module's CLI: %v\n%s", err, b)
	}
	return bin
}

func writeFile(t testing.TB, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
