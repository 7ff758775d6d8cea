package robotstxt

import (
	"strings"
	"testing"
)

// A site that serves its home page at /robots.txt: one warning, not one
// per line, and RFC 9309's answer for a file with no group (allowed).
func TestHTMLPageAsRobotsTxt(t *testing.T) {
	page := "\n<!DOCTYPE html>\n<html><head><title>Home</title></head><body>\n" +
		strings.Repeat("<p>Disallow: all of this</p>\n<div>no colon here</div>\n", 1500) + "</body></html>\n"
	for _, mode := range []Mode{RFC9309, Google, V1} {
		r := Parse([]byte(page), Options{Mode: mode})
		ws := r.Warnings()
		if len(ws) != 1 || ws[0].Line != 1 || !strings.Contains(ws[0].Message, "looks like an HTML page") ||
			!strings.Contains(ws[0].Message, "3003 unusable lines") || !strings.Contains(ws[0].Message, "every URL is allowed") {
			t.Fatalf("%v: %d warnings, first %+v", mode, len(ws), ws[0])
		}
		if d := r.ForAgent("FooBot").Decide("https://example.com/private"); !d.Allowed {
			t.Errorf("%v: %+v", mode, d)
		}
	}
	// Groups that markup holds still count, as RFC 9309 reads lines: the
	// warning says so.
	r := Parse([]byte("<html><pre>\nUser-agent: *\nDisallow: /\n</pre></html>\n"), Options{})
	if ws := r.Warnings(); len(ws) != 1 || !strings.Contains(ws[0].Message, "it still has 1 group(s), which apply") {
		t.Errorf("warnings %+v", ws)
	}
	if r.ForAgent("FooBot").Decide("/x").Allowed {
		t.Error("the group markup held was not applied")
	}
	// A file that only contains markup further down is robots.txt.
	r = Parse([]byte("User-agent: *\n<p>\nDisallow: /x\n"), Options{})
	if ws := r.Warnings(); len(ws) != 1 || !strings.Contains(ws[0].Message, "no colon") {
		t.Errorf("warnings %+v", ws)
	}
}
