package wet

import (
	"bytes"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/robofilter/robofilter/internal/warcio"
)

var pages = []Page{
	{TargetURI: "https://a.example/", Date: "2024-05-01T10:00:00Z", RefersTo: "<urn:uuid:11111111-1111-4111-8111-111111111111>",
		Text: []byte("Cats purr\n\nat night.\n")},
	{TargetURI: "https://a.example/caf\u00e9", Date: "2024-05-01T10:00:01Z", RefersTo: "<urn:uuid:22222222-2222-4222-8222-222222222222>",
		Text: []byte("Caf\u00e9 cr\u00e8me\n"), Truncated: "length"},
}

func write(t *testing.T, gzipped bool) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := NewWriter(&b, Options{Gzip: gzipped, Filename: "crawl.warc.wet.gz", Date: "2024-05-01T09:59:00Z",
		Fields: map[string]string{"isPartOf": "test-crawl", "description": "two pages\r\nand an injected line"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	w.Count("noindex", 3)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The WET file as Common Crawl writes one: warcinfo, a conversion record
// per page, and the counts; a function of its input.
func TestWETFile(t *testing.T) {
	got := string(write(t, false))
	want := "WARC/1.0\r\n" +
		"WARC-Type: warcinfo\r\n" +
		"WARC-Date: 2024-05-01T09:59:00Z\r\n" +
		"WARC-Filename: crawl.warc.wet.gz\r\n" +
		"WARC-Record-ID: " + recordID("warcinfo", "crawl.warc.wet.gz", "2024-05-01T09:59:00Z") + "\r\n" +
		"Content-Type: application/warc-fields\r\n" +
		"Content-Length: 120\r\n\r\n" +
		"software: robofilter\r\nformat: WARC File Format 1.0\r\ndescription: two pages  and an injected line\r\nisPartOf: test-crawl\r\n" +
		"\r\n\r\n"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("warcinfo:\n%q\nwant\n%q", got[:min(len(got), len(want))], want)
	}
	for _, line := range []string{
		"WARC-Type: conversion\r\nWARC-Target-URI: https://a.example/\r\nWARC-Date: 2024-05-01T10:00:00Z\r\n",
		"WARC-Refers-To: <urn:uuid:11111111-1111-4111-8111-111111111111>\r\nWARC-Block-Digest: " + BlockDigest(pages[0].Text) + "\r\nContent-Type: text/plain\r\nContent-Length: 21\r\n\r\nCats purr\n\nat night.\n\r\n\r\n",
		"WARC-Truncated: length\r\n",
		"WARC-Type: metadata\r\n",
		"pages-written: 2\r\nnoindex: 3\r\n\r\n\r\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("no %q in\n%s", line, got)
		}
	}
	if again := string(write(t, false)); again != got {
		t.Error("two writes of the same pages differ")
	}
}

// Record IDs are RFC 9562 version 5 UUIDs in robofilter's namespace: the
// value Python's uuid.uuid5 gives for the same name.
func TestRecordIDIsAVersion5UUID(t *testing.T) {
	if got, want := recordID("warcinfo", "crawl.warc.wet.gz", "2024-01-01T00:00:00Z"), "<urn:uuid:ac58bf07-c10b-50e1-bf46-7c73620290f8>"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// The digest is SHA-1 in base 32, as Common Crawl's WET files have it.
func TestBlockDigest(t *testing.T) {
	if got := BlockDigest([]byte("")); got != "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ" {
		t.Errorf("empty block: %s", got)
	}
}

// Compressed, each record is a gzip member of its own: read member by
// member, the members are the uncompressed file's records.
func TestEachRecordIsAGzipMember(t *testing.T) {
	plain, gz := write(t, false), write(t, true)
	in := bytes.NewReader(gz) // an io.ByteReader: each member is read to its end, no further
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	var all bytes.Buffer
	members := 0
	for {
		member, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(member, []byte("WARC/1.0\r\n")) || !bytes.HasSuffix(member, []byte("\r\n\r\n")) {
			t.Errorf("member %d is no record: %.60q", members, member)
		}
		all.Write(member)
		members++
		if err := zr.Reset(in); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false) // Reset turns it back on
	}
	if members != 4 || !bytes.Equal(all.Bytes(), plain) {
		t.Errorf("%d members; joined equal to the uncompressed file: %v", members, bytes.Equal(all.Bytes(), plain))
	}
}

// An independent reader, warcio, reads every record, each digest matches
// its block, and the blocks are the pages' texts.
func TestWarcioReadsTheWETFile(t *testing.T) {
	oracle := warcio.Find(t)
	dir := t.TempDir()
	var files []string
	for _, gz := range []bool{false, true} {
		name := filepath.Join(dir, "crawl.warc.wet")
		if gz {
			name += ".gz"
		}
		if err := os.WriteFile(name, write(t, gz), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	read := oracle.Read(t, 30*time.Second, "all", files...)
	for _, f := range files {
		got := read[f]
		if got.End != "done" || len(got.Records) != 4 {
			t.Fatalf("%s: warcio read %d records, ending %q", f, len(got.Records), got.End)
		}
		for i, rec := range got.Records {
			block, err := base64.StdEncoding.DecodeString(rec.Block)
			if err != nil {
				t.Fatal(err)
			}
			if d := rec.Header("WARC-Block-Digest"); (d != "" || rec.Type == "conversion") && d != BlockDigest(block) {
				t.Errorf("%s record %d: digest %s, block's %s", f, i, d, BlockDigest(block))
			}
			if i == 1 || i == 2 {
				if rec.Type != "conversion" || string(block) != string(pages[i-1].Text) || rec.URI != pages[i-1].TargetURI {
					t.Errorf("%s record %d: %s %s %q", f, i, rec.Type, rec.URI, block)
				}
			}
		}
	}
}

// A page's record made apart (AppendPage) and written as it is
// (WriteEncoded) is the record Write writes.
func TestEncodedPagesAreWrittenPages(t *testing.T) {
	for _, gz := range []bool{false, true} {
		var apart bytes.Buffer
		w, err := NewWriter(&apart, Options{Gzip: gz, Filename: "crawl.warc.wet.gz", Date: "2024-05-01T09:59:00Z",
			Fields: map[string]string{"isPartOf": "test-crawl", "description": "two pages\r\nand an injected line"}})
		if err != nil {
			t.Fatal(err)
		}
		var records []byte
		for _, p := range pages {
			records = AppendPage(records, p, gz)
		}
		if err := w.WriteEncoded(records, len(pages)); err != nil {
			t.Fatal(err)
		}
		w.Count("noindex", 3)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(apart.Bytes(), write(t, gz)) {
			t.Errorf("gzip %v: the records made apart differ from those Write writes", gz)
		}
	}
}

// A file without a date (an input with no dated page) still gives every
// record the mandatory WARC-Date: when the file was made.
func TestUndatedFileIsDatedNow(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "")
	var b bytes.Buffer
	before := time.Now().UTC().Truncate(time.Second)
	w, err := NewWriter(&b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	after := time.Now().UTC()
	records := strings.Split(b.String(), "WARC/1.0\r\n")[1:]
	if len(records) != 2 {
		t.Fatalf("%d records, want warcinfo and metadata:\n%s", len(records), b.String())
	}
	for _, r := range records {
		i := strings.Index(r, "\r\nWARC-Date: ")
		if i < 0 {
			t.Fatalf("a record without WARC-Date:\n%s", r)
		}
		v := r[i+len("\r\nWARC-Date: "):]
		v = v[:strings.Index(v, "\r\n")]
		d, err := time.Parse("2006-01-02T15:04:05Z", v)
		if err != nil || d.Before(before) || d.After(after) {
			t.Errorf("WARC-Date %q (%v): want the time the file was made", v, err)
		}
	}
}

// SOURCE_DATE_EPOCH dates a file without a date, as it dates builds.
func TestUndatedFileAndSourceDateEpoch(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	var b bytes.Buffer
	w, err := NewWriter(&b, Options{})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\r\nWARC-Date: 2023-11-14T22:13:20Z\r\n"); n != 2 {
		t.Errorf("%d records dated by SOURCE_DATE_EPOCH, want 2:\n%s", n, b.String())
	}
}
