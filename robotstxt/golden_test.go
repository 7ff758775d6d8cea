package robotstxt

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// dumpRobots writes everything Parse found, in a stable text form.
func dumpRobots(r *Robots) string {
	var b strings.Builder
	fmt.Fprintf(&b, "encoding %s, %d bytes, %d lines\n", r.Encoding(), r.Size(), r.Lines())
	place := func(p Place) string { return fmt.Sprintf("line %d, first %d agents", p.Line, p.Agents) }
	for _, g := range r.Groups() {
		fmt.Fprintf(&b, "group line %d version %q proposal %v skipped %v\n", g.Line, g.RobotVersion, g.Proposal, g.Skipped)
		for _, a := range g.Agents {
			fmt.Fprintf(&b, "  agent line %d %q token %q\n", a.Line, a.Name, a.Token)
		}
		for _, rule := range g.Rules {
			fmt.Fprintf(&b, "  rule line %d %s\n", rule.Line, rule)
		}
		for _, cd := range g.CrawlDelays {
			fmt.Fprintf(&b, "  crawl-delay %v (%s)\n", cd.Delay, place(cd.Place))
		}
		for _, rr := range g.RequestRates {
			fmt.Fprintf(&b, "  request-rate %s every %v (%s)\n", rr, rr.Interval(), place(rr.Place))
		}
		for _, vt := range g.VisitTimes {
			fmt.Fprintf(&b, "  visit-time %s (%s)\n", vt.TimeWindow, place(vt.Place))
		}
		for _, c := range g.Comments {
			fmt.Fprintf(&b, "  comment %q (%s)\n", c.Text, place(c.Place))
		}
	}
	for _, s := range r.Sitemaps() {
		fmt.Fprintf(&b, "sitemap line %d %s\n", s.Line, s.URL)
	}
	for _, h := range r.Hosts() {
		fmt.Fprintf(&b, "host line %d %s\n", h.Line, h.Name)
	}
	for _, cp := range r.CleanParams() {
		fmt.Fprintf(&b, "clean-param line %d %q %q\n", cp.Line, cp.Params, cp.Path)
	}
	for _, w := range r.Warnings() {
		fmt.Fprintf(&b, "warning %s\n", w)
	}
	return b.String()
}

// TestGoldenParse parses each testdata/golden/*.txt in every mode and
// compares the dump with NAME.golden (go test -update rewrites them).
func TestGoldenParse(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txt"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".txt")
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			for _, mode := range []Mode{RFC9309, Google, V1} {
				fmt.Fprintf(&got, "== %s\n%s", mode, dumpRobots(Parse(body, Options{Mode: mode})))
			}
			golden := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs from %s (go test -update rewrites it after review):\n%s", in, golden, got.String())
			}
		})
	}
}
