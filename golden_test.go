package robofilter

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
)

var update = flag.Bool("update", false, "rewrite the expected outputs of the golden files")

// A golden file holds an input and the expected outputs, in sections:
//
//	options: --agent "Foo Bot" --x-robots-tag noindex
//	-- input --
//	…the document…
//	-- text --
//	-- archive --
//	-- archive-text --
//	-- links --
//	-- warnings --
//	-- directives --
//
// The options are the CLI's document flags.
type golden struct {
	options  string
	input    []byte
	sections map[string]string
}

var goldenSections = []string{"text", "archive", "archive-text", "links", "warnings", "directives"}

func readGolden(t *testing.T, path string) golden {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	g := golden{options: strings.TrimSpace(strings.TrimPrefix(string(first), "options:")), sections: map[string]string{}}
	rest = bytes.TrimPrefix(rest, []byte("-- input --\n"))
	parts := bytes.Split(rest, []byte("\n-- "))
	g.input = parts[0]
	if len(parts) == 1 {
		// A new case: the input runs to the end of the file.
		return g
	}
	for i, p := range parts[1:] {
		name, body, _ := bytes.Cut(p, []byte(" --\n"))
		if i == len(parts)-2 {
			body = bytes.TrimSuffix(body, []byte("\n"))
		}
		g.sections[string(name)] = string(body)
	}
	return g
}

func (g golden) write(path string, got map[string]string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "options: %s\n-- input --\n", g.options)
	b.Write(g.input)
	for _, s := range goldenSections {
		fmt.Fprintf(&b, "\n-- %s --\n%s", s, got[s])
	}
	b.WriteByte('\n')
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// splitArgs splits an options line like a shell would (double quotes only).
func splitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	inQuote, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQuote, have = !inQuote, true
		case r == ' ' && !inQuote:
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		args = append(args, cur.String())
	}
	return args
}

func goldenOptions(t *testing.T, line string) Options {
	var o Options
	args := splitArgs(line)
	for i := 0; i < len(args); i++ {
		val := func() string {
			i++
			if i >= len(args) {
				t.Fatalf("option %s needs a value", args[i-1])
			}
			return args[i]
		}
		switch args[i] {
		case "--agent":
			o.Agent = val()
		case "--base":
			o.Base = val()
		case "--x-robots-tag":
			o.XRobotsTag = append(o.XRobotsTag, val())
		case "--require-profile":
			o.RequireProfile = true
		case "--ellipsis":
			o.Ellipsis = val()
		case "--charset":
			o.Charset = val()
		case "--dialects":
			d, err := filter.ParseDialects(val())
			if err != nil {
				t.Fatal(err)
			}
			o.Dialects = d
		case "--xml":
			o.Format = XML
		case "--purpose":
			o.Purpose = val()
		case "--content-usage":
			o.ContentUsage = append(o.ContentUsage, val())
		case "--tdm-reservation":
			o.TDMReservation = append(o.TDMReservation, val())
		case "--tdm-policy":
			o.TDMPolicy = append(o.TDMPolicy, val())
		default:
			t.Fatalf("unknown golden option %q", args[i])
		}
	}
	return o
}

// render runs every output over r and renders them as golden sections.
func render(t testing.TB, r io.Reader, o Options) map[string]string {
	doc, err := Filter(r, o)
	out := map[string]string{"text": doc.Text, "archive": string(doc.Archive), "archive-text": doc.ArchiveText}
	var links, warns strings.Builder
	for _, l := range doc.Links {
		fmt.Fprintf(&links, "%s followed=%v", l.URL, l.Followed)
		if l.Reason != "" {
			fmt.Fprintf(&links, " reason=%q", l.Reason)
		}
		if l.Text != "" {
			fmt.Fprintf(&links, " text=%q", l.Text)
		}
		fmt.Fprintf(&links, " at %d:%d\n", l.Line, l.Col)
	}
	if err != nil {
		fmt.Fprintf(&warns, "error: %v\n", err)
	}
	d := filter.Directives{}
	if doc.Result != nil {
		for _, w := range doc.Result.Warnings {
			fmt.Fprintf(&warns, "%d:%d: %s\n", w.Line, w.Col, w.Message)
		}
		d = doc.Result.Directives
	}
	out["links"], out["warnings"] = links.String(), warns.String()
	d.Sources = nil
	j, _ := json.Marshal(d)
	out["directives"] = string(j) + "\n"
	return out
}

// chunkings are the readers every golden case is replayed through.
func chunkings(input []byte) map[string]io.Reader {
	m := map[string]io.Reader{
		"one byte": iotest.OneByteReader(bytes.NewReader(input)),
		"half":     iotest.HalfReader(bytes.NewReader(input)),
		"data err": iotest.DataErrReader(bytes.NewReader(input)),
	}
	max := len(input) + 1
	if max > 1000 {
		max = 1000
	}
	for n := 1; n <= max; n++ {
		m[fmt.Sprintf("chunks of %d", n)] = chunked.Reader(bytes.NewReader(input), n)
	}
	return m
}

func TestGoldenCasesAtEveryChunking(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			g := readGolden(t, f)
			o := goldenOptions(t, g.options)
			got := render(t, bytes.NewReader(g.input), o)
			if *update {
				if err := g.write(f, got); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, s := range goldenSections {
				want, ok := g.sections[s]
				if !ok {
					t.Fatalf("section %q missing; run go test -update", s)
				}
				if got[s] != want {
					t.Errorf("%s:\n--- got\n%s\n--- want\n%s", s, got[s], want)
				}
			}
			for how, r := range chunkings(g.input) {
				again := render(t, r, o)
				for _, s := range goldenSections {
					if again[s] != got[s] {
						t.Fatalf("read %s, %s differs:\n%s\n--- whole\n%s", how, s, again[s], got[s])
					}
				}
			}
		})
	}
}
