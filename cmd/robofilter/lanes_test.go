package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robofilter/robofilter/internal/warcgen"
)

// With --output-dir, --jobs 8 and 16 read several files at once (lanes)
// and give what --jobs 1 gives (and --jobs 2, which reads one at a time), byte for byte: every output file (and
// temporary file left), standard output, standard error and the status,
// over generated crawls, the shared corpus's WARC files (names alike
// among them: outputs of the same name), a missing file, a gzip file cut
// short, one corrupt, an input whose output's folder cannot be made, and
// two inputs of one output name; with --resume after some outputs were
// removed; and in a run that ends at an output that cannot be renamed to
// its name (the files after it must leave nothing).
func TestLanesGiveTheSameOutputs(t *testing.T) {
	corpus := sharedWARCs() // looked up from the package's folder
	if raceDetector && len(corpus) > 12 {
		corpus = corpus[:12]
	}
	if len(corpus) == 0 {
		t.Log("no shared corpus: generated crawls and made-up failures only")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	size := int64(300 << 10)
	if raceDetector {
		size = 60 << 10
	}
	var gens []string
	for seed := range 5 {
		var b bytes.Buffer
		if _, err := warcgen.Write(&b, warcgen.Options{Bytes: size, Gzip: true, Seed: int64(seed + 11)}); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("crawl%d.warc.gz", seed)
		if seed == 4 {
			name = "sub/crawl4.warc.gz" // its output in a folder of its own
		}
		os.MkdirAll(filepath.Dir(name), 0o755)
		if seed == 3 {
			writeFile(t, dir, "cut.warc.gz", b.String()[:b.Len()/2])
			corrupt := append([]byte(nil), b.Bytes()[:b.Len()/3]...)
			for i := 1000; i < len(corrupt); i += 997 {
				corrupt[i] ^= 0x5A
			}
			writeFile(t, dir, "corrupt.warc.gz", string(corrupt))
		}
		writeFile(t, dir, name, b.String())
		gens = append(gens, name)
	}
	os.MkdirAll("blocked", 0o755)
	writeFile(t, dir, "blocked/crawl.warc.gz", readFile(t, gens[0]))
	// crawl1.warc has crawl1.warc.gz's output name.
	writeFile(t, dir, "crawl1.warc", readFile(t, gens[1]))
	inputs := []string{gens[0], gens[1], "crawl1.warc", "missing.warc.gz", "cut.warc.gz", gens[2], "blocked/crawl.warc.gz",
		"corrupt.warc.gz", gens[3], gens[4]}
	inputs = append(inputs, corpus...)
	out := filepath.Join(dir, "out")
	// fresh makes the output folder anew: with a file where the
	// "blocked" input's folder would be, and whatever prepare adds.
	fresh := func(prepare func()) {
		os.RemoveAll(out)
		os.MkdirAll(out, 0o755)
		writeFile(t, out, "blocked", "a file, not a folder")
		if prepare != nil {
			prepare()
		}
	}
	type outcome struct {
		files          map[string]string
		stdout, stderr string
		status         int
	}
	runAt := func(jobs string, prepare func(), args []string) outcome {
		fresh(prepare)
		a := append([]string{args[0], "--jobs", jobs, "--output-dir", out}, args[1:]...)
		stdout, stderr, code := runCLI(t, "", append(a, inputs...)...)
		files := readTree(t, out)
		return outcome{files, stdout, stderr, code}
	}
	// compare runs --jobs 1, 8 and 16; --jobs 1 must leave at least
	// minFiles files in the output folder.
	compare := func(what string, minFiles int, prepare func(), args ...string) {
		t.Helper()
		want := runAt("1", prepare, args)
		if len(want.files) < minFiles || want.status != 1 {
			t.Fatalf("%s: status %d, %d files in the output folder: %q", what, want.status, len(want.files), want.stderr)
		}
		// --jobs 2 reads one file at a time, as without --output-dir.
		for _, jobs := range []string{"2", "8", "16"} {
			got := runAt(jobs, prepare, args)
			if got.status != want.status || got.stdout != want.stdout || got.stderr != want.stderr {
				k := firstDifference(got.stderr, want.stderr)
				t.Fatalf("%s --jobs %s: status %d, want %d; stdout %q; stderr from its first difference:\n%.1200s\nwant\n%.1200s",
					what, jobs, got.status, want.status, got.stdout, got.stderr[max(k-200, 0):], want.stderr[max(k-200, 0):])
			}
			if diff := treeDifference(got.files, want.files); diff != "" {
				t.Fatalf("%s --jobs %s: the output folder differs from --jobs 1's: %s", what, jobs, diff)
			}
		}
	}
	commands := [][]string{{"text", "--warc"}, {"extract", "--warc", "--outputs", "text,links"}, {"text", "--warc", "--format", "wet", "--gzip"}}
	if raceDetector {
		commands = commands[:1]
	}
	for _, cmd := range commands {
		compare(strings.Join(cmd, " "), 7, nil, cmd...)
	}
	// --resume: the outputs of some inputs were made by a run before
	// (not crawl1.warc.gz's: crawl1.warc, of its output's name, is passed
	// over once crawl1.warc.gz's output is made).
	cmd := []string{"text", "--warc", "--format", "jsonl"}
	fresh(nil)
	runCLI(t, "", append([]string{"text", "--warc", "--format", "jsonl", "--jobs", "1", "--output-dir", out}, inputs...)...)
	before := readTree(t, out)
	compare("--resume", 7, func() {
		for name, content := range before {
			if !strings.Contains(name, "crawl0") && !strings.Contains(name, "crawl1") && !strings.Contains(name, "crawl3") {
				os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755)
				writeFile(t, out, name, content)
			}
		}
	}, append(cmd, "--resume")...)
	// --robots is one site's: the first document with a URL, in input
	// order, names the site (lanes do not apply).
	robots := writeFile(t, dir, "robots.txt", "User-agent: *\nDisallow: /\n")
	compare("--robots", 7, nil, "links", "--warc", "--robots", robots)
	// An output that cannot be renamed to its name (a folder has it): the
	// run ends there, and the files after it leave nothing.
	compare("an output not renamed", 3, func() {
		os.MkdirAll(filepath.Join(out, "cut.warc.text.txt"), 0o755)
	}, "text", "--warc")
}

// With --output-dir and --jobs 8, two files are read at once: reading the
// first waits until the second is being read (a lane of its own); with
// one reading goroutine it would wait for ever (here, until it gives up
// and says so).
func TestLanesReadFilesAtOnce(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for seed := range 3 {
		var b bytes.Buffer
		if _, err := warcgen.Write(&b, warcgen.Options{Bytes: 50 << 10, Gzip: true, Seed: int64(seed + 1)}); err != nil {
			t.Fatal(err)
		}
		names = append(names, writeFile(t, dir, fmt.Sprintf("c%d.warc.gz", seed), b.String()))
	}
	secondRead := make(chan struct{})
	var once sync.Once
	testInputReader = func(name string, r io.Reader) io.Reader {
		switch name {
		case names[0]:
			return &waitingReader{r: r, wait: secondRead}
		case names[1]:
			return &signallingReader{r: r, signal: func() { once.Do(func() { close(secondRead) }) }}
		}
		return r
	}
	defer func() { testInputReader = nil }()
	out := filepath.Join(dir, "out")
	_, errOut, code := runCLI(t, "", append([]string{"text", "--warc", "-q", "--jobs", "8", "--output-dir", out}, names...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if files := readTree(t, out); len(files) != 3 {
		t.Errorf("outputs %d", len(files))
	}
}

// waitingReader reads nothing until wait is closed, or gives up.
type waitingReader struct {
	r    io.Reader
	wait chan struct{}
}

func (w *waitingReader) Read(p []byte) (int, error) {
	select {
	case <-w.wait:
		return w.r.Read(p)
	case <-time.After(20 * time.Second):
		return 0, errors.New("the second file was not read while the first waited (for 20 s)")
	}
}

// signallingReader calls signal when it is first read.
type signallingReader struct {
	r      io.Reader
	signal func()
}

func (s *signallingReader) Read(p []byte) (int, error) {
	s.signal()
	return s.r.Read(p)
}

// A file's standard error is held in order, in memory up to heldInMemory
// bytes and in a temporary file after.
func TestHeldStderr(t *testing.T) {
	var want bytes.Buffer
	h := &heldStderr{}
	for i := 0; want.Len() < 3*heldInMemory; i++ {
		line := fmt.Sprintf("robofilter: f#%d:1:%d: warning: %s\n", i, i%997, strings.Repeat("w", i%300))
		want.WriteString(line)
		if n, err := h.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("write: %d, %v", n, err)
		}
	}
	if h.file == nil || h.head.Len() > heldInMemory {
		t.Errorf("%d bytes in memory, a temporary file: %v", h.head.Len(), h.file != nil)
	}
	var got bytes.Buffer
	h.writeTo(&got)
	if got.String() != want.String() {
		t.Errorf("%d bytes given back of %d, first difference at %d", got.Len(), want.Len(), firstDifference(got.String(), want.String()))
	}
	h.close()
}

func readFile(t *testing.T, name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readTree reads every file under dir (hidden ones too), by path under it.
func readTree(t *testing.T, dir string) map[string]string {
	files := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files[rel] = readFile(t, p)
		}
		return nil
	})
	return files
}

// treeDifference says how two trees differ, "" when they do not.
func treeDifference(got, want map[string]string) string {
	var diffs []string
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			diffs = append(diffs, name+" missing")
		case g != w:
			diffs = append(diffs, fmt.Sprintf("%s: %d bytes, want %d, first difference at %d", name, len(g), len(w), firstDifference(g, w)))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			diffs = append(diffs, name+" not wanted")
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

// The progress line counts from every lane at once (under -race: safely),
// and is cleared before each message, which comes in input order.
func TestLanesProgress(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for seed := range 4 {
		var b bytes.Buffer
		if _, err := warcgen.Write(&b, warcgen.Options{Bytes: 200 << 10, Gzip: true, Seed: int64(seed + 21)}); err != nil {
			t.Fatal(err)
		}
		names = append(names, writeFile(t, dir, fmt.Sprintf("c%d.warc.gz", seed), b.String()))
	}
	names = append(names, filepath.Join(dir, "missing.warc.gz"))
	var out, errb bytes.Buffer
	terminal := func(w io.Writer) bool { return w == io.Writer(&errb) }
	args := append([]string{"robofilter", "text", "--warc", "--jobs", "8", "--output-dir", filepath.Join(dir, "out")}, names...)
	code := runWith(args, strings.NewReader(""), &out, &errb, terminal)
	_, want, wantCode := runCLI(t, "", append([]string{"text", "--warc", "--jobs", "1", "--output-dir", filepath.Join(dir, "out1")}, names...)...)
	// Without the progress line (drawn when it is time), the messages are
	// --jobs 1's.
	var lines []string
	for _, line := range strings.Split(errb.String(), "\n") {
		if i := strings.LastIndexByte(line, '\r'); i >= 0 {
			line = line[i+1:]
		}
		lines = append(lines, line)
	}
	if got := strings.Join(lines, "\n"); code != wantCode || got != want || !strings.Contains(errb.String(), "0 documents") {
		t.Errorf("status %d, want %d; stderr %q, want %q", code, wantCode, errb.String(), want)
	}
}
