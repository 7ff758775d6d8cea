package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/internal/warcgen"
)

// --jobs 1, the default and --jobs 8 give the same standard output,
// standard error and status, byte for byte: over the shared corpus's WARC
// files (malformed ones among them), a generated crawl, and several pages
// with problems of every kind, in every format of every command.
func TestJobsGiveTheSameOutput(t *testing.T) {
	dir := t.TempDir()
	gen := generatedCrawl(t, dir, 1<<20, 5)
	pages := []string{
		writeFile(t, dir, "a.html", page),
		writeFile(t, dir, "b.html", `<meta name=robots content=noindex><p>hidden <a href=/x>x</a>`),
		writeFile(t, dir, "c.xml", `<?xml version="1.0"?><r>not <b>closed</r>`),
		filepath.Join(dir, "missing.html"),
		writeFile(t, dir, "d.html", `<p>`+strings.Repeat(`<span class="robots-nofoo">x</span>`, 1200)),
		writeFile(t, dir, "e.bin", "\x89PNG\r\n\x1a\n\x00\x00"),
	}
	warcs := append([]string{gen}, sharedWARCs()...)
	cases := [][]string{}
	commands := [][]string{{"text"}, {"links", "--all"}, {"archive"}, {"check"}}
	if raceDetector {
		// Under -race, the commands whose outputs are written in most
		// pieces (the race detector watches the buffers' handing over).
		commands = commands[:1:1]
		commands = append(commands, []string{"archive"})
	}
	for _, cmd := range commands {
		for _, format := range []string{"plain", "jsonl"} {
			args := append(append([]string{}, cmd...), "--format", format)
			cases = append(cases, append(append(args, "--warc"), warcs...))
			cases = append(cases, append(args, pages...))
		}
	}
	cases = append(cases, append([]string{"archive", "--text", "--warc"}, warcs...), append([]string{"text", "-I"}, pages...),
		append([]string{"text", "--format", "wet", "--warc"}, warcs...), append([]string{"text", "--format", "wet", "--gzip", "--warc"}, warcs...),
		append([]string{"extract", "--outputs", "text,links,regions", "--warc"}, warcs...), append([]string{"extract", "--outputs", "links"}, pages...))
	for _, args := range cases {
		want, wantErr, wantCode := runCLI(t, "", append([]string{args[0], "--jobs", "1"}, args[1:]...)...)
		for _, jobs := range []string{"", "8"} {
			a := args
			if jobs != "" {
				a = append([]string{args[0], "--jobs", jobs}, args[1:]...)
			}
			out, errOut, code := runCLI(t, "", a...)
			if out != want || errOut != wantErr || code != wantCode {
				k := firstDifference(errOut, wantErr)
				t.Fatalf("%q with --jobs %q differs from --jobs 1: status %d/%d\nstdout %d/%d bytes, first difference at %d\nstderr from its first difference:\n%.1500s\nwant\n%.1500s",
					strings.Join(args[:3], " "), jobs, code, wantCode, len(out), len(want), firstDifference(out, want), errOut[max(k-300, 0):], wantErr[max(k-300, 0):])
			}
		}
	}
}

func firstDifference(a, b string) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// generatedCrawl writes a Common Crawl-shaped .warc.gz of about size
// bytes of records (internal/warcgen, from seed) in dir.
func generatedCrawl(t *testing.T, dir string, size int64, seed int64) string {
	t.Helper()
	name := filepath.Join(dir, "crawl.warc.gz")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := warcgen.Write(f, warcgen.Options{Bytes: size, Gzip: true, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return name
}

// sharedWARCs are the shared corpus's WARC files (its ARC files and
// README left out); none without the corpus.
func sharedWARCs() []string {
	var warcs []string
	for _, f := range shared.Files("corpus/warc/*/*") {
		if !strings.Contains(f, ".arc") && !strings.HasSuffix(f, "README.md") {
			warcs = append(warcs, f)
		}
	}
	return warcs
}
