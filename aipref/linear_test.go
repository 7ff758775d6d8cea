package aipref

import (
	"strings"
	"testing"
	"time"
)

// Every parser is linear on every shape a hostile value can take: four
// times the value costs about four times the time (the fastest of five
// runs, with room for a noisy machine), and about nothing more to keep.
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
	cost := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			ParseUsage(s)
			ParseContentSignal(s)
			best = min(best, time.Since(start))
		}
		return best
	}
	for name, shape := range shapes {
		small, large := cost(shape(20000)), cost(shape(80000))
		if large > 10*small+time.Millisecond {
			t.Errorf("%s: %v for n, %v for 4n: not linear", name, small, large)
		}
	}
	tdmFile := func(n int) string {
		return "[" + strings.Repeat(`{"location": "/a*b*c*d$", "tdm-reservation": 1},`, n) + `{"location": "/", "tdm-reservation": 0}]`
	}
	tdmCost := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			f, _, _ := ParseTDMRep(strings.NewReader(s))
			f.Match("/" + strings.Repeat("abc", 1000))
			best = min(best, time.Since(start))
		}
		return best
	}
	if small, large := tdmCost(tdmFile(500)), tdmCost(tdmFile(2000)); large > 10*small+time.Millisecond {
		t.Errorf("tdmrep.json: %v for n rules, %v for 4n: not linear", small, large)
	}
}
