package crawl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/internal/warcgen"
	"github.com/robofilter/robofilter/wet"
)

// page is a WARC response record of an HTML page.
func page(uri, html string) string {
	block := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + html
	return fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%x>\r\nWARC-Date: 2026-11-01T00:00:00Z\r\n"+
		"WARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		len(uri), uri, len(block), block)
}

var small = page("https://a.example/", `<title>A</title><p>one <a href=x>x</a>`) +
	page("https://b.example/", `<meta name=robots content="noindex,nofollow"><p>two <a href=y>y</a>`) +
	page("https://c.example/", `<p class=robots-noarchive>three <span class=robots-noindex>not</span> words`) +
	"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: file:///d.xml\r\nContent-Type: application/xml\r\nContent-Length: 15\r\n\r\n<r>not well</r\r\n\r\n"

// run gives every Result of the input as its JSON object, and the
// Summary without its time.
func run(t *testing.T, in []byte, opts crawl.Options) (string, crawl.Summary) {
	t.Helper()
	var out bytes.Buffer
	sum, err := crawl.Run(input.NewReader("f", bytes.NewReader(in), input.WARC, robofilter.Options{}), opts, func(r *crawl.Result) error {
		b, err := json.Marshal(r)
		out.Write(b)
		out.WriteByte('\n')
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sum.Seconds = 0
	return out.String(), sum
}

// The results and the summary are the same whatever the workers, the
// bound on what is read ahead included: byte for byte, in input order.
func TestSameResultsWhateverTheWorkers(t *testing.T) {
	var gen bytes.Buffer
	if _, err := warcgen.Write(&gen, warcgen.Options{Bytes: 1 << 20, Gzip: true, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{[]byte(small), gen.Bytes()} {
		outputs := crawl.Options{Text: true, Links: true, Regions: true}
		outputs.Workers = 1
		want, wantSum := run(t, in, outputs)
		for _, workers := range []int{2, 8} {
			for _, limit := range []int64{100, 64 << 10} {
				opts := outputs
				opts.Workers, opts.MaxDetached = workers, limit
				got, sum := run(t, in, opts)
				if got != want || sum != wantSum {
					t.Fatalf("%d workers, up to %d bytes read ahead: results differ from one worker's\n%.300s\nwant\n%.300s\n%+v / %+v", workers, limit, got, want, sum, wantSum)
				}
			}
		}
	}
}

func TestResultsAndSummary(t *testing.T) {
	out, sum := run(t, []byte(small), crawl.Options{Workers: 2, Text: true, Links: true})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d results:\n%s", len(lines), out)
	}
	var first crawl.Object
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.File != "f#1" || first.URI != "https://a.example/" || first.Text == nil || *first.Text != "A\none x\n" ||
		len(first.Links) != 1 || first.Links[0].URL != "https://a.example/x" || first.RecordID == "" || first.Date != "2026-11-01T00:00:00Z" {
		t.Errorf("first result %+v", first)
	}
	if !strings.Contains(lines[1], `"noindex":true`) || !strings.Contains(lines[3], `not well-formed XML`) {
		t.Errorf("results:\n%s", out)
	}
	want := crawl.Summary{Documents: 4, Failed: 1, NoIndex: 1, NoFollow: 1, Bytes: sum.Bytes}
	if sum != want || sum.Bytes < 100 {
		t.Errorf("summary %+v, want %+v", sum, want)
	}
}

// The WET file of a crawl holds a conversion record for each page with
// text, in order, and counts the others; warcio reads it (wet's tests).
func TestWETOfACrawl(t *testing.T) {
	var out bytes.Buffer
	w := crawl.NewWETWriter(&out, wet.Options{Filename: "f.warc.wet"})
	_, err := crawl.Run(input.NewReader("f", strings.NewReader(small), input.WARC, robofilter.Options{}), crawl.Options{Workers: 2, Text: true}, w.Write)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"WARC-Type: warcinfo\r\nWARC-Date: 2026-11-01T00:00:00Z\r\n",
		"WARC-Target-URI: https://a.example/\r\n", "\r\n\r\nA\none x\n\r\n\r\n",
		"WARC-Target-URI: https://c.example/\r\n", "\r\n\r\nthree\n\nwords\n\r\n\r\n",
		"WARC-Target-URI: file:///d.xml\r\n", "WARC-Truncated: unspecified\r\n", "pages-cut-short-by-an-error: 1\r\n",
		"pages-written: 3\r\npages-under-noindex: 1\r\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "b.example") {
		t.Errorf("the noindex page is in the WET file:\n%s", got)
	}
}

// With a purpose, the WET file leaves out exactly the pages whose AI usage
// preferences say no to it, and counts them.
func TestWETLeavesOutWhatThePurposeExcludes(t *testing.T) {
	in := page("https://a.example/", `<p>open page`) +
		page("https://b.example/", `<meta name=robots content=noai><p>noai page`) +
		page("https://c.example/", `<meta name="tdm-reservation" content="1"><p>reserved page`) +
		page("https://d.example/", `<meta name=robots content=noimageai><p>images only`)
	for _, tc := range []struct {
		purpose  string
		written  []string
		excluded int
	}{
		{"", []string{"open page", "noai page", "reserved page", "images only"}, 0},
		{"train-ai", []string{"open page", "images only"}, 2},
		{"search", []string{"open page", "noai page", "reserved page", "images only"}, 0},
	} {
		var out bytes.Buffer
		w := crawl.NewWETWriter(&out, wet.Options{})
		_, err := crawl.Run(input.NewReader("f", strings.NewReader(in), input.WARC, robofilter.Options{Purpose: tc.purpose}), crawl.Options{Workers: 2, Text: true}, w.Write)
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if n := strings.Count(got, "WARC-Type: conversion"); n != len(tc.written) {
			t.Errorf("purpose %q: %d pages written, want %d", tc.purpose, n, len(tc.written))
		}
		for _, p := range tc.written {
			if !strings.Contains(got, p) {
				t.Errorf("purpose %q: %q missing", tc.purpose, p)
			}
		}
		if c := fmt.Sprintf("pages-whose-preferences-exclude-the-purpose: %d\r\n", tc.excluded); tc.excluded > 0 && !strings.Contains(got, c) {
			t.Errorf("purpose %q: no %q in\n%s", tc.purpose, c, got)
		}
	}
}
