package crawl_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/wet"
)

// warcFile is a WARC file of two responses: a page and a page under
// noindex.
func warcFile() string {
	record := func(uri, page string) string {
		block := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
		return fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nWARC-Date: 2026-11-01T00:00:00Z\r\n"+
			"WARC-Record-ID: <urn:uuid:%s>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
			uri, strings.Repeat(uri[len(uri)-1:], 8), len(block), block)
	}
	return record("https://example.com/1", `<p>Open <a href="/2">next</a><p class="robots-noindex">hidden`) +
		record("https://example.com/2", `<meta name="robots" content="noindex"><p>Secret <a href="/3">on</a>`)
}

// Every page of a WARC file, its text and followed links from one pass,
// on every core, in the file's order.
func ExampleRun() {
	in := input.NewReader("crawl.warc", strings.NewReader(warcFile()), input.WARC, robofilter.Options{})
	sum, err := crawl.Run(in, crawl.Options{Text: true, Links: true}, func(r *crawl.Result) error {
		fmt.Printf("%s noindex=%v text=%q\n", r.Document.URI, r.Result.Directives.NoIndex, r.Text)
		for _, l := range r.Links {
			fmt.Printf("  %s followed=%v\n", l.URL, l.Followed)
		}
		return nil
	})
	fmt.Println(sum.Documents, "documents,", sum.NoIndex, "under noindex, error", err)
	// Output:
	// https://example.com/1 noindex=false text="Open next\n"
	//   https://example.com/2 followed=true
	// https://example.com/2 noindex=true text=""
	//   https://example.com/3 followed=true
	// 2 documents, 1 under noindex, error <nil>
}

// The same run written as a WET file: the page under noindex is left out
// and counted in the closing record.
func ExampleWETWriter() {
	in := input.NewReader("crawl.warc", strings.NewReader(warcFile()), input.WARC, robofilter.Options{})
	var file bytes.Buffer
	w := crawl.NewWETWriter(&file, wet.Options{})
	_, err := crawl.Run(in, crawl.Options{Text: true}, w.Write)
	if err == nil {
		err = w.Close()
	}
	for _, line := range strings.Split(file.String(), "\r\n") {
		if strings.HasPrefix(line, "WARC-Type: ") || strings.HasPrefix(line, "pages-") || strings.HasPrefix(line, "Open") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	fmt.Println(err)
	// Output:
	// WARC-Type: warcinfo
	// WARC-Type: conversion
	// Open next
	// WARC-Type: metadata
	// pages-written: 1
	// pages-under-noindex: 1
	// <nil>
}
