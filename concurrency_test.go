package robofilter

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
)

// Runs share nothing: documents processed at once in many goroutines give
// what each gives alone (and, under -race, no data race). The documents
// use custom elements and names beyond the caches' sizes, which each run
// keeps in tables of its own.
func TestConcurrentRunsShareNothing(t *testing.T) {
	var docs []string
	for i := range 8 {
		var b strings.Builder
		b.WriteString("<!DOCTYPE html><title>doc</title><body>")
		for j := range 200 {
			fmt.Fprintf(&b, `<x-el-%d-%d class="robots-noindex">hidden %d</x-el-%d-%d><my-tag-%d><a href="/p/%d/%d">link %d</a></my-tag-%d>`, i, j, j, i, j, j%70, i, j, j, j%70)
		}
		docs = append(docs, b.String())
		docs = append(docs, fmt.Sprintf(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><ns%d:e xmlns:ns%d="urn:x">t%d &amp; u</ns%d:e><link href="/f/%d"/></feed>`, i, i, i, i, i))
	}
	run := func(doc string) string {
		var text, archive bytes.Buffer
		var links []string
		out := Outputs{Text: phrase.NewWriter(&text), Archive: &archive, Link: func(l filter.Link) error {
			links = append(links, l.URL)
			return nil
		}}
		if _, err := Process(strings.NewReader(doc), Options{Base: "http://example.com/"}, out); err != nil {
			return "error: " + err.Error()
		}
		return text.String() + "\n--\n" + archive.String() + "\n--\n" + strings.Join(links, "\n")
	}
	// The concurrent runs come first, so that they meet every name first.
	got := make([][]string, 4)
	var wg sync.WaitGroup
	for round := range got {
		got[round] = make([]string, len(docs))
		for i, d := range docs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[round][i] = run(d)
			}()
		}
	}
	wg.Wait()
	for i, d := range docs {
		want := run(d)
		for round := range got {
			if got[round][i] != want {
				t.Errorf("round %d, document %d: a concurrent run differs from a lone one", round, i)
			}
		}
	}
}
