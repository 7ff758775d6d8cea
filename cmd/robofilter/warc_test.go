package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/robofilter/robofilter/internal/warcgen"
)

// warcRecord writes one WARC record.
func warcRecord(typ, uri, contentType, block string) string {
	return fmt.Sprintf("WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		typ, uri, contentType, len(block), block)
}

func testWARC() string {
	const httpResponse = "application/http; msgtype=response"
	return warcRecord("warcinfo", "", "application/warc-fields", "software: test\r\n") +
		warcRecord("request", "https://a.example/dir/", "application/http; msgtype=request", "GET /dir/ HTTP/1.1\r\nHost: a.example\r\n\r\n") +
		warcRecord("response", "https://a.example/dir/", httpResponse,
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\nX-Robots-Tag: noarchive\r\n\r\n<p>caf\xe9 <a href=page>one</a>") +
		warcRecord("metadata", "https://a.example/dir/", "application/warc-fields", "outlinks: x\r\n") +
		warcRecord("response", "https://b.example/", httpResponse,
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"+gzipped("<p>two <a href=/x rel=nofollow>no</a> <a href=/y>yes</a>")) +
		warcRecord("revisit", "https://b.example/", httpResponse, "HTTP/1.1 200 OK\r\n\r\n") +
		warcRecord("resource", "https://c.example/r.html", "text/html", "<p>three <a href=z>z</a>") +
		// Not pages: skipped, whatever markup-like bytes they hold.
		warcRecord("response", "https://c.example/app.js", httpResponse,
			"HTTP/1.1 200 OK\r\nContent-Type: application/javascript\r\n\r\nlet s = '<a href=/from-js>';") +
		warcRecord("response", "https://c.example/i.png", httpResponse,
			"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG<a href=/png>") +
		warcRecord("resource", "metadata://gnu.org/software/wget/warc/wget.log", "text/plain", "<a href=/log>")
}

func TestWARCRecordsAreDocuments(t *testing.T) {
	dir := t.TempDir()
	plain := writeFile(t, dir, "crawl.warc", testWARC())
	gz := writeFile(t, dir, "crawl.warc.gz", gzipped(testWARC()))
	for _, f := range []string{plain, gz} {
		// Each line starts with its record's name (a WARC file holds many
		// documents, as several files are).
		out, errOut, code := runCLI(t, "", "links", "--warc", f)
		if want := f + "#3:https://a.example/dir/page\n" + f + "#5:https://b.example/y\n" + f + "#7:https://c.example/z\n"; code != 0 || out != want {
			t.Errorf("%s: links: status %d, %q (stderr %q), want %q", filepath.Base(f), code, out, errOut, want)
		}
		out, _, code = runCLI(t, "", "text", "--warc", "--no-filename", f)
		if want := "café one\n\ntwo no yes\n\nthree z\n"; code != 0 || out != want {
			t.Errorf("%s: text: status %d, %q, want %q", filepath.Base(f), code, out, want)
		}
	}
	out, _, code := runCLI(t, "", "archive", "--warc", "--format", "jsonl", plain)
	if code != 0 {
		t.Fatalf("archive: status %d", code)
	}
	var docs []documentRecord
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var d documentRecord
		if json.Unmarshal([]byte(line), &d); d.Type == "document" {
			docs = append(docs, d)
		}
	}
	want := []string{plain + "#3 https://a.example/dir/ 200 noarchive=true", plain + "#5 https://b.example/ 200 noarchive=false", plain + "#7 https://c.example/r.html 0 noarchive=false"}
	if len(docs) != len(want) {
		t.Fatalf("document records: %s", out)
	}
	for i, d := range docs {
		if got := fmt.Sprintf("%s %s %d noarchive=%v", d.File, d.URI, d.HTTPStatus, d.Directives.NoArchive); got != want[i] {
			t.Errorf("document %d: %s, want %s", i, got, want[i])
		}
	}
}

func TestWARCRecordThatFailsIsReportedAndTheRestRead(t *testing.T) {
	dir := t.TempDir()
	in := warcRecord("response", "https://a.example/", "application/http", "not http") +
		warcRecord("resource", "https://b.example/", "text/html", "<p>ok") +
		"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 99\r\n\r\ncut"
	f := writeFile(t, dir, "bad.warc", in)
	out, errOut, code := runCLI(t, "", "text", "--warc", "-I", f)
	// The record cut short has its text up to the cut, as any document.
	if code != 1 || out != "ok\n\ncut\n" {
		t.Errorf("status %d, text %q, want 1 and the records' text", code, out)
	}
	for _, want := range []string{
		"robofilter: " + f + "#1: error: reading the HTTP response's status line and headers",
		"robofilter: " + f + "#3:1:4: error: reading: the record's block is cut short after 3 of its 99 bytes (the file ends): unexpected EOF",
		"robofilter: " + f + ": error: WARC record at byte 256 of the file: the record's block is cut short after 3 of its 99 bytes (the file ends): unexpected EOF",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	if _, errOut, code := runCLI(t, "", "text", "--warc", "--http", f); code != 2 || !strings.Contains(errOut, "exclude each other") {
		t.Errorf("--warc with --http: status %d, %q", code, errOut)
	}
}

// A record that holds less than its response (WARC-Truncated: a crawler's
// length limit) is a document of what it holds, with a note.
func TestTruncatedWARCRecordIsWhatItHolds(t *testing.T) {
	block := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<p>kept <a href=/k>k</a>"
	in := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://t.example/\r\nContent-Type: application/http; msgtype=response\r\nWARC-Truncated: length\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	f := writeFile(t, t.TempDir(), "t.warc", in)
	out, errOut, code := runCLI(t, "", "links", "--warc", "--format", "jsonl", f)
	if code != 0 || !strings.Contains(out, `"url":"https://t.example/k"`) || !strings.Contains(out, `"warc_truncated":"length"`) || strings.Contains(out, `"error"`) {
		t.Errorf("status %d:\n%s", code, out)
	}
	if !strings.Contains(errOut, "#1: note: the WARC record is truncated (WARC-Truncated: length)") {
		t.Errorf("stderr %q", errOut)
	}
}

// What the WARC reader skips is a warning with its position, and a
// warc_warning record in JSON Lines; the records around it are documents.
func TestWARCSkippedBytesAreWarnings(t *testing.T) {
	a := warcRecord("resource", "https://a.example/", "text/html", "<p>one")
	b := warcRecord("resource", "https://b.example/", "text/html", "<p>two")
	f := writeFile(t, t.TempDir(), "stray.warc", a+"m\r\n\r\n\r\n"+b)
	out, errOut, code := runCLI(t, "", "text", "--warc", "-I", f)
	want := fmt.Sprintf("robofilter: %s: warning: at byte %d of the file: skipped 7 bytes that are no WARC record, starting \"m\\r\\n\\r\\n\\r\\n\", after the block of the record at byte 0 of the file (its Content-Length may be wrong)\n", f, len(a))
	if code != 0 || out != "one\n\ntwo\n" || errOut != want {
		t.Errorf("status %d, text %q, stderr\n%q\nwant\n%q", code, out, errOut, want)
	}
	out, _, code = runCLI(t, "", "text", "--warc", "--format", "jsonl", f)
	if wantRecord := fmt.Sprintf(`{"type":"warc_warning","file":%q,"offset":%d,"skipped":7,"message":"skipped 7 bytes`, f, len(a)); code != 0 || !strings.Contains(out, wantRecord) {
		t.Errorf("status %d, JSON Lines lack %s:\n%s", code, wantRecord, out)
	}
	// After the last document too.
	end := writeFile(t, t.TempDir(), "end.warc", a+"garbage")
	out, _, _ = runCLI(t, "", "text", "--warc", "--format", "jsonl", end)
	if wantRecord := fmt.Sprintf(`{"type":"warc_warning","file":%q,"offset":%d,"skipped":7,`, end, len(a)); !strings.HasSuffix(strings.TrimSpace(out), "}") || !strings.Contains(out, wantRecord) {
		t.Errorf("JSON Lines lack %s:\n%s", wantRecord, out)
	}
	if _, errOut, _ := runCLI(t, "", "text", "--warc", "--quiet", f); errOut != "" {
		t.Errorf("--quiet: stderr %q", errOut)
	}
	// At most filter.MaxWarnings a file on standard error, then a count.
	many := writeFile(t, t.TempDir(), "many.warc", strings.Repeat(a+"x\r\n", 1005))
	_, errOut, _ = runCLI(t, "", "text", "--warc", many)
	if lines := strings.Count(errOut, "\n"); lines != 1001 || !strings.HasSuffix(errOut, fmt.Sprintf("robofilter: %s: note: 5 more WARC warnings not shown (at most 1000 per file)\n", many)) {
		t.Errorf("%d lines on stderr, ending %q", lines, errOut[max(0, len(errOut)-200):])
	}
}

// A response record without a Content-Type is an HTTP response when its
// block starts with a status line (as warcio reads it); one whose block
// does not is skipped, said once.
func TestWARCResponseWithoutContentType(t *testing.T) {
	noType := func(uri, block string) string {
		return fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", uri, len(block), block)
	}
	f := writeFile(t, t.TempDir(), "notype.warc", noType("https://a.example/", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>http")+
		noType("https://b.example/", "<p>not http")+noType("https://c.example/", "<p>nor this"))
	out, errOut, code := runCLI(t, "", "text", "--warc", "-I", f)
	want := "robofilter: " + f + "#2: note: a response record without a Content-Type whose block does not start with an HTTP status line: skipped (and any more in this file)\n"
	if code != 0 || out != "http\n" || errOut != want {
		t.Errorf("status %d, text %q, stderr %q, want %q", code, out, errOut, want)
	}
}

// A .warc.zst file reads as its .warc.gz does: the same text, links and
// records, in every format; given as a document, it gets a note that
// names --warc.
func TestZstdWARCFile(t *testing.T) {
	var plain bytes.Buffer
	if _, err := warcgen.Write(&plain, warcgen.Options{Bytes: 1 << 20, Seed: 21}); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	if _, err := warcgen.Write(&gz, warcgen.Options{Bytes: 1 << 20, Gzip: true, Seed: 21}); err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	zst := enc.EncodeAll(plain.Bytes(), nil)
	for _, args := range [][]string{{"text", "--warc"}, {"links", "--warc", "--all"}, {"extract", "--warc"}, {"text", "--warc", "--format", "wet"}} {
		want, wantErr, wantCode := runCLI(t, gz.String(), args...)
		got, gotErr, code := runCLI(t, string(zst), args...)
		if got != want || gotErr != wantErr || code != wantCode || len(got) < 1000 {
			t.Errorf("%v: %d bytes, status %d, stderr %.300q; from the .warc.gz %d bytes, status %d, stderr %.300q", args, len(got), code, gotErr, len(want), wantCode, wantErr)
		}
	}
	_, errOut, _ := runCLI(t, string(zst), "text")
	if !strings.Contains(errOut, "note: a zstd file: give --warc") {
		t.Errorf("text without --warc: stderr %q, want the note", errOut)
	}
}
