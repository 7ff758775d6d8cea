package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func gzipped(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func TestHTTPResponsesAsCurlSavesThem(t *testing.T) {
	const doc = "<p>caf\xe9 <a href=/x>x</a></p>"
	tests := []struct{ name, in, want string }{
		{"length-framed, charset from the header",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\nContent-Length: " + strconv.Itoa(len(doc)) + "\r\n\r\n" + doc, "café x\n"},
		{"chunked",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n" + doc[:5] + "\r\n" + strconv.FormatInt(int64(len(doc)-5), 16) + "\r\n" + doc[5:] + "\r\n0\r\n\r\n", "café x\n"},
		{"gzip, to the end of the input",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\nContent-Encoding: gzip\r\n\r\n" + gzipped(doc), "café x\n"},
		{"HTTP/2 as curl writes it",
			"HTTP/2 200\r\ncontent-type: text/html; charset=windows-1252\r\n\r\n" + doc, "café x\n"},
		{"an interim response first",
			"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\n\r\n" + doc, "café x\n"},
		// curl -L writes the heads of the redirects it follows, not their
		// bodies, whatever their Content-Length or framing says.
		{"redirects followed (curl -L): the last response",
			"HTTP/1.1 301 Moved\r\nLocation: /b\r\nContent-Length: 13\r\n\r\nHTTP/2 302\r\nlocation: /c\r\ntransfer-encoding: chunked\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\n\r\n" + doc, "café x\n"},
		{"a redirect alone is the document", "HTTP/1.1 301 Moved\r\nLocation: /b\r\nContent-Length: 12\r\n\r\n<p>moved</p>", "moved\n"},
		{"through a proxy (curl -si with https_proxy)",
			"HTTP/1.1 200 Connection established\r\n\r\nHTTP/2 200\r\ncontent-type: text/html; charset=windows-1252\r\n\r\n" + doc, "café x\n"},
		// curl -si writes a chunked body de-chunked, the header kept.
		{"chunked header, body de-chunked",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\nTransfer-Encoding: chunked\r\n\r\n" + doc, "café x\n"},
		// curl -si --compressed writes the body decoded, the headers kept.
		{"gzip header, body decoded, its length the compressed one",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\nContent-Encoding: gzip\r\nContent-Length: 12\r\n\r\n" + doc, "café x\n"},
		{"an empty gzip body", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 0\r\n\r\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.in, "text", "--http")
			if code != 0 || out != tc.want {
				t.Errorf("status %d, text %q (stderr %q), want %q", code, out, errOut, tc.want)
			}
		})
	}
}

func TestHTTPResponseHeadersApplyToTheDocument(t *testing.T) {
	in := "HTTP/1.1 404 Not Found\r\nX-Robots-Tag: noindex\r\nX-Robots-Tag: otherbot: nofollow\r\nContent-Type: application/xhtml+xml\r\n\r\n" +
		`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>text</p><a href="/a">a</a></body></html>`
	out, errOut, code := runCLI(t, in, "links", "--http", "--format", "jsonl", "--x-robots-tag", "noarchive")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var doc documentRecord
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != "xml" || doc.HTTPStatus != 404 || !doc.Directives.NoIndex || !doc.Directives.NoArchive || doc.Directives.NoFollow {
		t.Errorf("document record %s: want xml, status 404, noindex and noarchive (the flag's), followed (otherbot's nofollow is not ours)", lines[len(lines)-1])
	}
	if !strings.Contains(out, `"url":"/a"`) {
		t.Errorf("link missing: %s", out)
	}
}

func TestUnreadableHTTPResponseIsReportedAndOthersStillProcessed(t *testing.T) {
	dir := t.TempDir()
	bad, good := writeFile(t, dir, "bad.http", "<p>no head</p>"), writeFile(t, dir, "good.http", "HTTP/1.1 200 OK\r\n\r\n<p>ok</p>")
	br := writeFile(t, dir, "br.http", "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx")
	out, errOut, code := runCLI(t, "", "text", "--http", "--format", "jsonl", bad, br, good)
	if code != 1 {
		t.Errorf("status %d, want 1", code)
	}
	for _, want := range []string{
		"robofilter: " + bad + ": error: reading the HTTP response's status line and headers: malformed HTTP",
		"robofilter: " + br + `: error: content coding "br": robofilter decodes gzip and deflate only`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	if strings.Count(out, `"type":"document"`) != 3 || !strings.Contains(out, `"text":"ok"`) {
		t.Errorf("want a document record per file and the good file's text: %s", out)
	}
}

// writeFile writes a file in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The head is held whole: past 1 MiB it is an error, not memory.
func TestHTTPResponseHeadIsBounded(t *testing.T) {
	for name, head := range map[string]string{
		"one long header":  "X-Big: " + strings.Repeat("a", 2<<20) + "\r\n",
		"many headers":     strings.Repeat("X-Robots-Tag: noindex\r\n", 100000),
		"no end of header": strings.Repeat("X-A: b\r\n", 200000),
	} {
		_, errOut, code := runCLI(t, "HTTP/1.1 200 OK\r\n"+head+"\r\n<p>x", "text", "--http")
		if code != 1 || !strings.Contains(errOut, "longer than 1 MiB") {
			t.Errorf("%s: status %d, stderr %q", name, code, errOut)
		}
	}
	// Just under the bound is read.
	out, errOut, code := runCLI(t, "HTTP/1.1 200 OK\r\nX-Big: "+strings.Repeat("a", 1<<20-100)+"\r\n\r\n<p>x", "text", "--http")
	if code != 0 || out != "x\n" {
		t.Errorf("a head just under 1 MiB: status %d, text %q, stderr %q", code, out, errOut)
	}
}

// robots.txt saved as the HTTP response: its status is the fetch outcome.
func TestAllowedReadsTheRobotsTxtResponse(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, response, want string
		code                 int
	}{
		{"200, gzip, after a redirect", "HTTP/1.1 301 Moved\r\nLocation: /r\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzipped("User-agent: *\nDisallow: /private\n"),
			"allowed\t/a\ndisallowed\t/private/x\n", 3},
		{"404 allows all", "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found", "allowed\t/a\nallowed\t/private/x\n", 0},
		{"503 disallows all", "HTTP/1.1 503 Busy\r\n\r\nUser-agent: *\nAllow: /\n", "disallowed\t/a\ndisallowed\t/private/x\n", 3},
	}
	for _, tc := range tests {
		f := writeFile(t, dir, "robots.http", tc.response)
		out, errOut, code := runCLI(t, "", "allowed", "--http", "--robots", f, "--agent", "FooBot", "/a", "/private/x")
		if code != tc.code || out != tc.want {
			t.Errorf("%s: status %d, %q (stderr %q), want %d, %q", tc.name, code, out, errOut, tc.code, tc.want)
		}
	}
	f := writeFile(t, dir, "304.http", "HTTP/1.1 304 Not Modified\r\n\r\n")
	if _, errOut, code := runCLI(t, "", "allowed", "--http", "--robots", f, "--agent", "FooBot", "/a"); code != 1 || !strings.Contains(errOut, "304 (Not Modified)") {
		t.Errorf("304: status %d, %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "", "allowed", "--http", "--status", "200", "--robots", f, "--agent", "FooBot", "/a"); code != 2 || !strings.Contains(errOut, "not both") {
		t.Errorf("--http with --status: status %d, %q", code, errOut)
	}
}

// Chains of responses are bounded, and cost no memory per response.
func TestHTTPResponseChainsAreBounded(t *testing.T) {
	in := strings.Repeat("HTTP/2 100\r\n\r\n", 49) + "HTTP/2 200\r\n\r\n<p>x"
	if out, errOut, code := runCLI(t, in, "text", "--http"); code != 0 || out != "x\n" {
		t.Errorf("49 interim responses: status %d, %q, %q", code, out, errOut)
	}
	in = strings.Repeat("HTTP/1.1 302 Found\r\nLocation: /\r\n\r\n", 60) + "HTTP/1.1 200 OK\r\n\r\n<p>x"
	if _, errOut, code := runCLI(t, in, "text", "--http"); code != 1 || !strings.Contains(errOut, "more than 50 HTTP responses") {
		t.Errorf("60 redirects: status %d, %q", code, errOut)
	}
	in = "HTTP/1.1 200 OK\r\nContent-Encoding: " + strings.Repeat("deflate,", 6) + "\r\n\r\nxx"
	if _, errOut, code := runCLI(t, in, "text", "--http"); code != 1 || !strings.Contains(errOut, "6 content codings: robofilter undoes at most 5") {
		t.Errorf("6 codings: status %d, %q", code, errOut)
	}
	in = "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n<p>short"
	if out, errOut, code := runCLI(t, in, "text", "--http"); code != 1 || out != "short\n" || !strings.Contains(errOut, "shorter than its Content-Length") {
		t.Errorf("a body cut short: status %d, %q, %q", code, out, errOut)
	}
}

// Before the body, an ellipsis would start the body early in the copy
// (after the head too: html.Parse puts a later META in the head of the
// original, in the body of the copy).
func TestNoEllipsisBeforeTheBody(t *testing.T) {
	for in, want := range map[string]string{
		"<html><head><title>t</title></head><link data-nosnippet rel=x href=y><meta name=robots content=nofollow><body><p>a": "<html><head><title>t</title></head><meta name=robots content=nofollow><body><p>a",
		"<!--googleoff: snippet--><link rel=x href=y><!--googleon: snippet--><meta name=robots content=nofollow><p>a":        "<!--googleoff: snippet--><!--googleon: snippet--><meta name=robots content=nofollow><p>a",
		"<head><template><!--googleoff: snippet--><div>x</div><!--googleon: snippet--></template></head>":                    "<head><template><!--googleoff: snippet-->…<!--googleon: snippet--></template></head>",
		"<head><link data-nosnippet rel=x href=y></head><body><p data-nosnippet>b":                                           "<head></head><body><p data-nosnippet>…",
	} {
		if out, _, code := runCLI(t, in, "archive", "-q"); code != 0 || out != want {
			t.Errorf("%s:\n got %q\nwant %q", in, out, want)
		}
	}
}

// Any input: readHTTPResponse ends (a response or an error), and the body
// it gives reads to its end without panicking, within the input's size.
func FuzzReadHTTPResponse(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"))
	f.Add([]byte("HTTP/1.1 301 Moved\r\nLocation: /\r\n\r\nHTTP/2 200\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<p>x"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\n<p>x"))
	f.Add([]byte("HTTP/3 204\r\n\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		resp, err := readHTTPResponse(bytes.NewReader(in))
		if err != nil {
			return
		}
		body, err := io.ReadAll(resp.Body)
		if len(body) > len(in) && err == nil {
			t.Fatalf("a body of %d bytes from %d", len(body), len(in))
		}
	})
}
