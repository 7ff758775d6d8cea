// Package bench compares robofilter's robots.txt matcher with
// github.com/temoto/robotstxt and github.com/jimsmart/grobotstxt (a port of
// Google's C++ matcher). It is a module of its own so that these libraries
// stay out of robofilter's go.mod.
//
//	cd bench/robotstxt && go test -run XXX -bench . -benchtime 2s -count 3
package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/jimsmart/grobotstxt"
	temoto "github.com/temoto/robotstxt"

	"github.com/robofilter/robofilter/robotstxt"
)

const agent = "FooBot"

var words = strings.Fields("news blog shop cart account login search tag archive media static img css js api v1 v2 user profile settings help docs page item product category print feed comments reviews admin private tmp cache download share")

// genPath writes a path of 1 to 5 segments, sometimes with a file name or a query.
func genPath(rng *rand.Rand, b *strings.Builder) {
	for range 1 + rng.IntN(5) {
		b.WriteByte('/')
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(3) == 0 {
			fmt.Fprintf(b, "%d", rng.IntN(1000))
		}
	}
	switch rng.IntN(6) {
	case 0:
		b.WriteString(".html")
	case 1:
		b.WriteString(".php")
	case 2:
		fmt.Fprintf(b, "?id=%d&sort=%s", rng.IntN(100000), words[rng.IntN(len(words))])
	}
}

// genRobots writes a file whose FooBot group has n rules (about 80% plain
// prefixes, 15% with "*", 5% ending in "$"), with comments and a few other
// groups around it, as real large files have.
func genRobots(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var b strings.Builder
	b.WriteString("# generated robots.txt\nUser-agent: *\nDisallow: /private/\nAllow: /private/press/\nCrawl-delay: 5\n\n")
	b.WriteString("User-agent: BarBot\nUser-agent: BazBot\nDisallow: /\n\n")
	b.WriteString("User-agent: " + agent + "\n")
	for i := range n {
		if i%50 == 0 {
			fmt.Fprintf(&b, "# section %d\n", i/50)
		}
		if rng.IntN(4) == 0 {
			b.WriteString("Allow: ")
		} else {
			b.WriteString("Disallow: ")
		}
		switch k := rng.IntN(20); {
		case k < 3:
			genPath(rng, &b)
			b.WriteString("*")
			b.WriteString(words[rng.IntN(len(words))])
		case k == 3:
			b.WriteString("/*.")
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString("$")
		default:
			genPath(rng, &b)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nSitemap: https://example.com/sitemap.xml\n")
	return b.String()
}

// genPaths makes n request paths (path and query).
func genPaths(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	paths := make([]string, n)
	var b strings.Builder
	for i := range paths {
		b.Reset()
		genPath(rng, &b)
		paths[i] = b.String()
	}
	return paths
}

var (
	inputsOnce sync.Once
	bigFile    string   // about 500 KiB
	ruleFile   string   // 1,000 rules
	paths      []string // 1,000,000 paths
	avgPathLen int64
)

func inputs() {
	inputsOnce.Do(func() {
		for n := 10000; ; n += 500 {
			if bigFile = genRobots(n, 1); len(bigFile) >= 500<<10 {
				break
			}
		}
		ruleFile = genRobots(1000, 2)
		paths = genPaths(1_000_000, 3)
		total := 0
		for _, p := range paths {
			total += len(p)
		}
		avgPathLen = int64(total / len(paths))
	})
}

// collectingHandler keeps what grobotstxt's parser reports, as a consumer
// of its Parse would.
type collectingHandler struct {
	agents, allows, disallows, sitemaps []string
}

func (h *collectingHandler) HandleRobotsStart()                     {}
func (h *collectingHandler) HandleRobotsEnd()                       {}
func (h *collectingHandler) HandleUserAgent(_ int, v string)        { h.agents = append(h.agents, v) }
func (h *collectingHandler) HandleAllow(_ int, v string)            { h.allows = append(h.allows, v) }
func (h *collectingHandler) HandleDisallow(_ int, v string)         { h.disallows = append(h.disallows, v) }
func (h *collectingHandler) HandleSitemap(_ int, v string)          { h.sitemaps = append(h.sitemaps, v) }
func (h *collectingHandler) HandleUnknownAction(_ int, _, _ string) {}

func BenchmarkParse500KiB(b *testing.B) {
	inputs()
	body := []byte(bigFile)
	b.Run("robofilter", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for range b.N {
			robotstxt.Parse(body, robotstxt.Options{})
		}
	})
	// Parse, then compile the robot's rules (done lazily on first match).
	b.Run("robofilter+compile", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for range b.N {
			robotstxt.Parse(body, robotstxt.Options{}).ForAgent(agent).Allowed("/")
		}
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for range b.N {
			if _, err := temoto.FromBytes(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("grobotstxt", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for range b.N {
			grobotstxt.Parse(bigFile, &collectingHandler{})
		}
	})
}

// BenchmarkMatch1000Rules matches the 1,000,000 generated paths, one per
// operation, against the 1,000-rule file, parsed once where the library
// allows it (grobotstxt parses the file on every call by design).
func BenchmarkMatch1000Rules(b *testing.B) {
	inputs()
	b.Run("robofilter", func(b *testing.B) {
		rules := robotstxt.Parse([]byte(ruleFile), robotstxt.Options{}).ForAgent(agent)
		b.SetBytes(avgPathLen)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			rules.Allowed(paths[i%len(paths)])
		}
	})
	b.Run("robofilter-google", func(b *testing.B) {
		rules := robotstxt.Parse([]byte(ruleFile), robotstxt.Options{Mode: robotstxt.Google}).ForAgent(agent)
		b.SetBytes(avgPathLen)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			rules.Allowed(paths[i%len(paths)])
		}
	})
	b.Run("temoto", func(b *testing.B) {
		data, err := temoto.FromString(ruleFile)
		if err != nil {
			b.Fatal(err)
		}
		group := data.FindGroup(agent)
		b.SetBytes(avgPathLen)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			group.Test(paths[i%len(paths)])
		}
	})
	b.Run("grobotstxt", func(b *testing.B) {
		b.SetBytes(avgPathLen)
		b.ReportAllocs()
		for i := range b.N {
			grobotstxt.AgentAllowed(ruleFile, agent, paths[i%len(paths)])
		}
	})
}

// TestLibrariesAgree checks the benchmark compares like with like: on the
// generated inputs robofilter in Google mode must give grobotstxt's answers
// (both follow Google's matcher), and temoto's agreement is reported.
func TestLibrariesAgree(t *testing.T) {
	inputs()
	ours := robotstxt.Parse([]byte(ruleFile), robotstxt.Options{Mode: robotstxt.Google}).ForAgent(agent)
	data, err := temoto.FromString(ruleFile)
	if err != nil {
		t.Fatal(err)
	}
	group := data.FindGroup(agent)
	const n = 5000
	var disallowed, temotoAgrees int
	for _, p := range paths[:n] {
		got := ours.Allowed(p)
		if want := grobotstxt.AgentAllowed(ruleFile, agent, p); got != want {
			t.Errorf("%s: robofilter %v, grobotstxt %v", p, got, want)
		}
		if !got {
			disallowed++
		}
		if group.Test(p) == got {
			temotoAgrees++
		}
	}
	t.Logf("%d paths: %d disallowed; temoto agrees on %d", n, disallowed, temotoAgrees)
}
