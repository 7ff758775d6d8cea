package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/robofilter/robofilter/input/httpresp"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/hostile"
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
	compress := writeFile(t, dir, "compress.http", "HTTP/1.1 200 OK\r\nContent-Encoding: compress\r\n\r\n\x1f\x9d\x90")
	out, errOut, code := runCLI(t, "", "text", "--http", "--format", "jsonl", bad, compress, good)
	if code != 1 {
		t.Errorf("status %d, want 1", code)
	}
	for _, want := range []string{
		"robofilter: " + bad + ": error: reading the HTTP response's status line and headers: malformed HTTP",
		"robofilter: " + compress + `: error: content coding "compress": robofilter decodes gzip, deflate, br and zstd only`,
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
		"one-byte lines":   strings.Repeat("x\n", 600000),
		"NUL lines":        strings.Repeat("\x00\n", 600000),
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
	in = "HTTP/1.1 200 OK\r\nContent-Encoding: " + strings.Repeat("deflate,", 6) + "\r\n\r\n\x00\x01"
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

// readings are the ways a test's input may arrive: whole, a byte at a
// time, in halves, and in chunks of a few sizes.
var readings = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"one byte", iotest.OneByteReader},
	{"half", iotest.HalfReader},
	{"7 bytes", func(r io.Reader) io.Reader { return chunked.Reader(r, 7) }},
	{"100 bytes", func(r io.Reader) io.Reader { return chunked.Reader(r, 100) }},
	{"1000 bytes", func(r io.Reader) io.Reader { return chunked.Reader(r, 1000) }},
}

// runCLIEvery runs the app on stdin read in every way of readings, and
// fails the test unless every reading gives what the whole one gives,
// which it returns.
func runCLIEvery(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var wantOut, wantErr string
	var wantCode int
	for i, rd := range readings {
		var out, errb bytes.Buffer
		code := run(append([]string{"robofilter"}, args...), rd.wrap(strings.NewReader(stdin)), &out, &errb)
		if i == 0 {
			wantOut, wantErr, wantCode = out.String(), errb.String(), code
			continue
		}
		if out.String() != wantOut || errb.String() != wantErr || code != wantCode {
			t.Errorf("read %s: status %d, stdout %q, stderr %q; read whole: %d, %q, %q", rd.name, code, out.String(), errb.String(), wantCode, wantOut, wantErr)
		}
	}
	return wantOut, wantErr, wantCode
}

// documentRecordOf is the last line of JSON Lines output: the document
// record.
func documentRecordOf(t *testing.T, out string) documentRecord {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var d documentRecord
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &d); err != nil || d.Type != "document" {
		t.Fatalf("no document record last (%v): %s", err, out)
	}
	return d
}

// warningMessages lists a record's warnings' messages.
func warningMessages(d documentRecord) []string {
	var msgs []string
	for _, w := range d.Warnings {
		msgs = append(msgs, w.Message)
	}
	return msgs
}

// A body that goes on past its Content-Length is still the body: the
// input (a file, a WARC record) bounds the response, as warcio and pywb
// read a record; a warning says by how much.
func TestHTTPBodyLongerThanItsContentLengthIsReadToTheEnd(t *testing.T) {
	const body = "<p>first words <a href=/later>later</a> and the last words</p>"
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 14\r\n\r\n" + body
	past := fmt.Sprintf("the HTTP body is %d bytes longer than its Content-Length (14)", len(body)-14)
	out, errOut, code := runCLIEvery(t, resp, "text", "--http")
	if want := "first words later and the last words\n"; code != 0 || out != want {
		t.Errorf("--http: status %d, text %q, want 0, %q", code, out, want)
	}
	if want := "robofilter: -:0:0: warning: " + past + ": read to the end of the input\n"; errOut != want {
		t.Errorf("--http: stderr %q, want %q", errOut, want)
	}
	out, _, code = runCLIEvery(t, resp, "links", "--http", "--format", "jsonl", "--base", "https://a.example/")
	d := documentRecordOf(t, out)
	if code != 0 || !strings.Contains(out, `"url":"https://a.example/later"`) || len(d.Warnings) != 1 || !strings.HasPrefix(d.Warnings[0].Message, past) || d.Error != "" {
		t.Errorf("--http jsonl: status %d, want the link and the warning in the record:\n%s", code, out)
	}

	// In a WARC file, the record bounds it; the next record is read.
	warc := warcRecord("response", "https://a.example/", "application/http; msgtype=response", resp) +
		warcRecord("resource", "https://b.example/", "text/html", "<p>next")
	out, errOut, code = runCLIEvery(t, warc, "text", "--warc", "-I")
	if want := "first words later and the last words\n\nnext\n"; code != 0 || out != want {
		t.Errorf("--warc: status %d, text %q, want 0, %q", code, out, want)
	}
	if want := "robofilter: -#1:0:0: warning: " + past + ": read to the end of the WARC record\n"; errOut != want {
		t.Errorf("--warc: stderr %q, want %q", errOut, want)
	}
}

// A WARC record that is no page (an image, a script) is no document: its
// head's malformed lines are not warned of.
func TestWARCRecordThatIsNoPageHasNoHeadWarnings(t *testing.T) {
	in := warcRecord("response", "https://a.example/i.png", "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nP3P CP=\"x\"\r\nContent-Type: image/png\r\nContent-Length: 2\r\n\r\n\x89PNG") +
		warcRecord("response", "https://a.example/", "application/http; msgtype=response",
			"HTTP/1.1 200 OK\r\nP3P CP=\"y\"\r\nContent-Type: text/html\r\n\r\n<p>page")
	out, errOut, code := runCLIEvery(t, in, "text", "--warc", "-I")
	want := "robofilter: -#2:0:0: warning: line 2 of the HTTP head has no colon: skipped: \"P3P CP=\\\"y\\\"\"\n"
	if code != 0 || out != "page\n" || errOut != want {
		t.Errorf("status %d, text %q, stderr %q; want 0, \"page\\n\", %q", code, out, errOut, want)
	}
}

// What curl saves: a response to HEAD (curl -I) has no body whatever its
// Content-Length; several URLs' responses follow one another.
func TestHTTPResponsesOfHEADAndOfSeveralURLs(t *testing.T) {
	tests := []struct{ name, in, text, stderr string }{
		{"curl -I: a head alone", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n", "",
			"warning: the response has no body though its Content-Length is 5000 (a response to HEAD, as curl -I saves it): an empty document\n"},
		{"curl -I of two URLs: the last counts", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nHTTP/2 200\r\ncontent-length: 20\r\n\r\n", "",
			"warning: the response has no body though its Content-Length is 20 (a response to HEAD, as curl -I saves it): an empty document\n"},
		{"curl -si of two URLs: the first, the second not read",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 12\r\n\r\n<p>first</p>HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>second", "first\n",
			"warning: another HTTP response follows this one's body (Content-Length: 12): not read (a response per input)\n"},
		{"a body that starts as a status line would, but is none", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<p>aHTTP/1.1 20x", "aHTTP/1.1 20x\n",
			"warning: the HTTP body is 12 bytes longer than its Content-Length (4): read to the end of the input\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLIEvery(t, tc.in, "text", "--http")
			if code != 0 || out != tc.text || errOut != "robofilter: -:0:0: "+tc.stderr {
				t.Errorf("status %d, text %q, stderr %q; want 0, %q, %q", code, out, errOut, tc.text, tc.stderr)
			}
		})
	}
}

// A header line that does not read as one costs that line, with a
// warning naming it, not the document: as browsers and warcio read it.
func TestMalformedHTTPHeaderLinesAreSkipped(t *testing.T) {
	const doc = "<p>caf\xe9 <a href=/x>x</a>"
	tests := []struct {
		name, head string
		warnings   []string
		nofollow   bool
	}{
		{"no colon", "P3P CP=\"x\"\r\nX-Robots-Tag: nofollow\r\n",
			[]string{`line 2 of the HTTP head has no colon: skipped: "P3P CP=\"x\""`}, true},
		{"a NUL byte", "X-Robots-Tag: noarchive\x00\r\nX-Robots-Tag: nofollow\r\n",
			[]string{`line 2 of the HTTP head has a NUL byte: skipped: "X-Robots-Tag: noarchive\x00"`}, true},
		{"lines ending CR CR LF", "X-Robots-Tag: nofollow\r\r\n", nil, true},
		{"lines ending LF", "X-Robots-Tag: nofollow\n", nil, true},
		{"obs-fold continues the header", "X-Robots-Tag: noarchive,\r\n\t nofollow\r\n", nil, true},
		{"obs-fold first: continues nothing", " X-Robots-Tag: nofollow\r\nX-Robots-Tag: noarchive\r\n",
			[]string{`line 2 of the HTTP head starts with whitespace but continues no header: skipped: " X-Robots-Tag: nofollow"`}, false},
		{"obs-fold after a skipped line is skipped with it", "Bad line\r\n X-Robots-Tag: nofollow\r\n",
			[]string{`line 2 of the HTTP head has no colon: skipped: "Bad line"`}, false},
		{"whitespace before the colon", "X-Robots-Tag : nofollow\r\n",
			[]string{`line 2 of the HTTP head has whitespace before its colon: its name read as "X-Robots-Tag"`}, true},
		{"no name", ": nofollow\r\n", []string{`line 2 of the HTTP head has no name before its colon: skipped: ": nofollow"`}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := "HTTP/1.1 200 OK\r\n" + tc.head + "Content-Type: text/html; charset=windows-1252\r\n\r\n" + doc
			out, errOut, code := runCLIEvery(t, in, "links", "--http", "--all", "--format", "jsonl", "--base", "https://e.example/")
			d := documentRecordOf(t, out)
			if code != 0 || d.Error != "" || d.Charset != "windows-1252" || d.Directives.NoFollow != tc.nofollow || !strings.Contains(out, `"href":"/x"`) {
				t.Errorf("status %d, want 0, the page read with its charset, nofollow=%v:\n%s", code, tc.nofollow, out)
			}
			if got := warningMessages(d); !slices.Equal(got, tc.warnings) {
				t.Errorf("warnings %q, want %q", got, tc.warnings)
			}
			for _, w := range tc.warnings {
				if !strings.Contains(errOut, "robofilter: -:0:0: warning: "+w+"\n") {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}

// A head of many malformed lines warns of the first few and counts the
// rest.
func TestMalformedHTTPHeaderLineWarningsAreBounded(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\n" + strings.Repeat("no colon here\r\n", 500) + "X-Robots-Tag: noindex\r\n\r\n<p>x"
	// links: text would add that the document says noindex.
	out, errOut, code := runCLIEvery(t, in, "links", "--http", "--format", "jsonl")
	d := documentRecordOf(t, out)
	msgs := warningMessages(d)
	if code != 0 || !d.Directives.NoIndex || len(msgs) != httpresp.MaxHeadLineWarnings+1 || msgs[httpresp.MaxHeadLineWarnings] != "490 more malformed lines in the HTTP head" {
		t.Errorf("status %d, noindex %v, warnings %q", code, d.Directives.NoIndex, msgs)
	}
	if n := strings.Count(errOut, "warning:"); n != httpresp.MaxHeadLineWarnings+1 {
		t.Errorf("%d warnings on stderr, want %d: %q", n, httpresp.MaxHeadLineWarnings+1, errOut)
	}
}

func compressedAs(t testing.TB, coding, s string) string {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&b)
	case "deflate": // zlib-wrapped, as RFC 9110 says
		w = zlib.NewWriter(&b)
	case "raw deflate":
		w, _ = flate.NewWriter(&b, flate.BestCompression)
	case "br":
		w = brotli.NewWriter(&b)
	case "zstd":
		var err error
		// Blocks of at most 32 KiB: a cut leaves whole ones to decode.
		if w, err = zstd.NewWriter(&b, zstd.WithWindowSize(1<<15)); err != nil {
			t.Fatal(err)
		}
	}
	io.WriteString(w, s)
	w.Close()
	return b.String()
}

// testPage is a page long enough that its coded bytes hold several
// blocks, with a link at its end.
func testPage() string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>t</title></head><body>\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "<p>paragraph %d of the page, word%d</p>\n", i, i*7919%10007)
	}
	b.WriteString("<a href=/end>end</a></body></html>\n")
	return b.String()
}

// curl --compressed -si saves the body decoded and keeps the headers, its
// Content-Length the coded one: the body is read as it is, with a note;
// a body coded as its header says is decoded, br and zstd too.
func TestHTTPBodiesCodedOrSavedDecoded(t *testing.T) {
	page := testPage()
	wantText, _, _ := runCLI(t, page, "text")
	for _, coding := range []string{"gzip", "deflate", "raw deflate", "br", "zstd"} {
		header := strings.Fields(coding)[len(strings.Fields(coding))-1]
		coded := compressedAs(t, coding, page)
		t.Run(coding+" saved decoded", func(t *testing.T) {
			in := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: %s\r\nContent-Length: %d\r\n\r\n%s", header, len(coded), page)
			out, errOut, code := runCLIEvery(t, in, "text", "--http")
			want := "robofilter: -:0:0: warning: the body is not " + header + "-coded as its Content-Encoding says, but a document as it is (saved decoded, as curl --compressed saves it): read as it is\n"
			if code != 0 || out != wantText || errOut != want {
				t.Errorf("status %d, %d bytes of text (want %d), stderr %q, want %q", code, len(out), len(wantText), errOut, want)
			}
		})
		t.Run(coding+" coded", func(t *testing.T) {
			for _, framing := range []string{fmt.Sprintf("Content-Length: %d\r\n", len(coded)), ""} {
				in := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: " + header + "\r\n" + framing + "\r\n" + coded
				out, errOut, code := runCLIEvery(t, in, "text", "--http")
				if code != 0 || out != wantText || errOut != "" {
					t.Errorf("%q: status %d, %d bytes of text (want %d), stderr %q", framing, code, len(out), len(wantText), errOut)
				}
			}
		})
		// Cut short: the text decoded before the cut is written, and the
		// error names the coding and what was decoded.
		t.Run(coding+" cut short", func(t *testing.T) {
			in := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: " + header + "\r\n\r\n" + coded[:len(coded)/2]
			out, errOut, code := runCLIEvery(t, in, "text", "--http")
			re := regexp.MustCompile(`^robofilter: -:\d+:\d+: error: reading: the ` + header + `-coded body is cut short after (\d+) decoded bytes: unexpected EOF\n$`)
			m := re.FindStringSubmatch(errOut)
			if code != 1 || m == nil {
				t.Fatalf("status %d, stderr %q, want 1 and the coding cut short", code, errOut)
			}
			decoded, _ := strconv.Atoi(m[1])
			if decoded < len(page)/4 || decoded >= len(page) || len(out) < len(wantText)/8 || !strings.HasPrefix(wantText, out[:len(out)-20]) {
				t.Errorf("%d bytes decoded of %d, %d bytes of text written: want the text before the cut", decoded, len(page), len(out))
			}
		})
	}
}

// cpuTime is the CPU time this process has used: unlike the wall clock,
// what other processes on a shared machine do leaves it be.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skipf("no CPU time: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Through the whole command too (the X-Robots-Tag values reach the
// core): 4 times the head, about 4 times the CPU time (the best of a few
// runs), not 16.
func TestHTTPHeadShapesThroughTheCommandAreLinear(t *testing.T) {
	best := func(in string, runs int) time.Duration {
		d := time.Duration(1 << 62)
		for range runs {
			runtime.GC()
			start := cpuTime(t)
			var out, errb bytes.Buffer
			if code := run([]string{"robofilter", "text", "--http"}, strings.NewReader(in), &out, &errb); code != 0 {
				t.Fatalf("status %d: %.200s", code, errb.String())
			}
			d = min(d, cpuTime(t)-start)
		}
		return d
	}
	for name, shape := range hostile.HTTPHeads {
		small := best("HTTP/1.1 200 OK\r\n"+shape(128<<10)+"\r\n<p>x", 3)
		large := best("HTTP/1.1 200 OK\r\n"+shape(512<<10)+"\r\n<p>x", 3)
		if large > small*8 {
			// The process's CPU time counts other tests' goroutines and
			// the collector's too: a spike is measured again, longer.
			small = best("HTTP/1.1 200 OK\r\n"+shape(128<<10)+"\r\n<p>x", 10)
			large = best("HTTP/1.1 200 OK\r\n"+shape(512<<10)+"\r\n<p>x", 10)
		}
		t.Logf("%s: %v for 128 KiB, %v for 512 KiB", name, small, large)
		if large > small*8 && large > 20*time.Millisecond {
			t.Errorf("%s: %v for 128 KiB, %v for 512 KiB (4 times the head): not linear", name, small, large)
		}
	}
}

// A WARC record that holds less than its response (WARC-Truncated) is a
// document of what it holds: a coded body too, cut short with the record.
func TestTruncatedWARCRecordOfACodedBody(t *testing.T) {
	page := testPage()
	wantText, _, _ := runCLI(t, page, "text")
	coded := compressedAs(t, "gzip", page)
	block := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", len(coded), coded[:len(coded)/2])
	in := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://t.example/\r\nContent-Type: application/http; msgtype=response\r\nWARC-Truncated: length\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	out, errOut, code := runCLIEvery(t, in, "text", "--warc", "-I")
	if code != 0 || len(out) < len(wantText)/4 || !strings.HasPrefix(wantText, out[:len(out)-20]) || strings.Contains(errOut, "error") {
		t.Errorf("status %d, %d bytes of text of %d, stderr %q", code, len(out), len(wantText), errOut)
	}
}

// A chunked body (curl --raw, a WARC record) may be saved decoded too.
func TestChunkedBodySavedDecoded(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n<p>one\r\n5\r\n two\n\r\n0\r\n\r\n"
	out, errOut, code := runCLIEvery(t, in, "text", "--http")
	if code != 0 || out != "one two\n" || !strings.Contains(errOut, "the body is not br-coded as its Content-Encoding says") {
		t.Errorf("status %d, text %q, stderr %q", code, out, errOut)
	}
}

// A head cut short, or no input at all, says so.
func TestHTTPHeadCutShortSaysSo(t *testing.T) {
	for in, want := range map[string]string{
		"":                              "the input is empty",
		"HTTP/1.1 200 OK\r\nX-A: b":     "the input ends before the empty line that ends them: unexpected EOF",
		"HTTP/1.1 200 OK\r\nX-A: b\r\n": "the input ends before the empty line that ends them: unexpected EOF",
		"HTTP/1.1 200":                  "the input ends before the empty line that ends them: unexpected EOF",
	} {
		_, errOut, code := runCLIEvery(t, in, "text", "--http")
		if code != 1 || errOut != "robofilter: -: error: reading the HTTP response's status line and headers: "+want+"\n" {
			t.Errorf("%q: status %d, stderr %q, want %q", in, code, errOut, want)
		}
	}
}
