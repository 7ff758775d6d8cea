package robotstxt

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
)

// keyLine finds the lines a file means as User-agent, Allow or Disallow
// lines, independently of the parser: each must come out as an agent or a
// rule, or carry a warning saying why not.
var keyLine = regexp.MustCompile(`(?i)^[ \t]*(user-agent|allow|disallow)[ \t]*:`)

// TestCorpusFilesParseToTheEnd parses every real file of
// ../shared/corpus/robotstxt in every mode: no line may be lost silently
// and nothing may stop the file early.
func TestCorpusFilesParseToTheEnd(t *testing.T) {
	files := shared.Glob(t, "corpus/robotstxt/*.txt")
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text, _, _ := decodeBody(body, DefaultMaxBytes)
		lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		for _, mode := range []Mode{RFC9309, Google, V1} {
			r := Parse(body, Options{Mode: mode})
			name := filepath.Base(file) + " " + mode.String()
			if r.Lines() != len(lines) {
				t.Errorf("%s: read %d lines, the file has %d", name, r.Lines(), len(lines))
			}
			accounted := map[int]bool{}
			for _, g := range r.Groups() {
				for _, a := range g.Agents {
					accounted[a.Line] = true
				}
				for _, rule := range g.Rules {
					accounted[rule.Line] = true
				}
			}
			for _, w := range r.Warnings() {
				accounted[w.Line] = true
				if strings.Contains(w.Message, "the rest is ignored") && strings.HasPrefix(w.Message, "file") {
					t.Errorf("%s: %s", name, w)
				}
			}
			for i, line := range lines {
				if keyLine.MatchString(line) && !accounted[i+1] {
					t.Errorf("%s: line %d %q was neither used nor reported", name, i+1, line)
				}
			}
		}
	}
}

// TestCorpusUTF16FilesReadLikeUTF8 checks the corpus's UTF-16 files parse
// to the same groups as the UTF-8 file they were made from.
func TestCorpusUTF16FilesReadLikeUTF8(t *testing.T) {
	dir := shared.Path(t, "corpus", "robotstxt")
	read := func(name string) *Robots {
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Skipf("corpus file missing: %v", err)
		}
		return Parse(body, Options{})
	}
	want := dumpGroups(read("robots-with-utf8-bom.txt"))
	for _, name := range []string{"robots-with-utf16le-bom.txt", "robots-with-utf16be-bom.txt"} {
		if got := dumpGroups(read(name)); got != want {
			t.Errorf("%s:\n%s\nwant (from the UTF-8 file):\n%s", name, got, want)
		}
	}
}

func dumpGroups(r *Robots) string {
	var b strings.Builder
	for _, g := range r.Groups() {
		for _, a := range g.Agents {
			b.WriteString(a.Name + "\n")
		}
		for _, rule := range g.Rules {
			b.WriteString(rule.String() + "\n")
		}
	}
	for _, s := range r.SitemapURLs() {
		b.WriteString("sitemap " + s + "\n")
	}
	return b.String()
}
