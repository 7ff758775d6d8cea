package aipref

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// linear reports whether run costs about 8 times as much on input of size
// 8n as on n: the fastest of seven runs of each, taken in turn so that a
// busy machine slows both alike. A linear run costs 8 times as much, a
// quadratic one 64: the bound, 24, tells them apart with room for noise.
func linear(t *testing.T, name string, n int, run func(n int) func()) {
	t.Helper()
	if raceDetector {
		// Its own cost grows with the work (a statement of 1,250 old
		// labels took 3.4 µs a member, one of 20,000 14 µs): its times
		// say nothing of the parsers'. go test without -race checks.
		t.Skip("timing under the race detector says nothing of linearity; go test without -race checks it")
	}
	small, large := run(n), run(8*n)
	// Collections are no part of the cost of a run: they come when they
	// come, and one in a timed run makes it look slower than it is.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	bestSmall, bestLarge := time.Duration(1<<62), time.Duration(1<<62)
	for range 7 {
		runtime.GC()
		start := time.Now()
		small()
		bestSmall = min(bestSmall, time.Since(start))
		start = time.Now()
		large()
		bestLarge = min(bestLarge, time.Since(start))
	}
	if bestLarge > 24*bestSmall+2*time.Millisecond {
		t.Errorf("%s: %v for n, %v for 8n: not linear", name, bestSmall, bestLarge)
	}
}

// Every parser is linear on every shape a hostile value can take.
func TestParsersAreLinear(t *testing.T) {
	shapes := map[string]func(n int) string{
		"known labels, bad values": func(n int) string { return strings.Repeat("train-ai=no, ", n) + "search=y" },
		"unknown labels":           func(n int) string { return strings.Repeat("xx=y, ", n) + "search=y" },
		"parameters":               func(n int) string { return "train-ai=n" + strings.Repeat(";a=1", n) },
		"inner list":               func(n int) string { return "a=(" + strings.Repeat("1 ", n) + ")" },
		"long token":               func(n int) string { return "train-ai=" + strings.Repeat("y", 8*n) },
		"display string":           func(n int) string { return `a=%"` + strings.Repeat("%c3%a9", n) + `"` },
		"legacy labels":            func(n int) string { return strings.Repeat("all=n, train-genai=y, ", n) + "search=y" },
	}
	for name, shape := range shapes {
		linear(t, name, 10000, func(n int) func() {
			s := shape(n)
			return func() { ParseUsage(s); ParseContentSignal(s) }
		})
	}
	linear(t, "tdmrep.json rules", 300, func(n int) func() {
		file := "[" + strings.Repeat(`{"location": "/a*b*c*d$", "tdm-reservation": 1},`+"\n", n) + `{"location": "/", "tdm-reservation": 0}]`
		path := "/" + strings.Repeat("abc", 1000)
		return func() {
			f, _, _ := ParseTDMRep(strings.NewReader(file))
			f.Match(path)
		}
	})
}
