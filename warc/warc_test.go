package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/chunked"
)

// record writes one WARC record.
func record(typ, uri, contentType, block string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: <urn:uuid:%d>\r\n", typ, len(block))
	if uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", uri)
	}
	if contentType != "" {
		fmt.Fprintf(&b, "Content-Type: %s\r\n", contentType)
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	return b.String()
}

// gzipMembers compresses each record as a gzip member of its own, as WARC
// writers do.
func gzipMembers(records ...string) string {
	var b bytes.Buffer
	for _, r := range records {
		w := gzip.NewWriter(&b)
		io.WriteString(w, r)
		w.Close()
	}
	return b.String()
}

type read struct {
	typ, uri, block string
	offset          int64
}

func readAll(t *testing.T, r io.Reader) ([]read, error) {
	t.Helper()
	wr, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	var got []read
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		rd := read{typ: rec.Type(), uri: rec.TargetURI(), offset: rec.Offset}
		if rec.Type() != "request" { // a block not read is skipped by Next
			b, err := io.ReadAll(rec.Block)
			if err != nil {
				return got, err
			}
			rd.block = string(b)
		}
		got = append(got, rd)
	}
}

func TestReaderReadsRecordsInOrder(t *testing.T) {
	info := record("warcinfo", "", "application/warc-fields", "software: test\r\n")
	req := record("request", "http://example.com/", "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n")
	resp := record("response", "<http://example.com/>", "application/http; msgtype=response", "HTTP/1.1 200 OK\r\n\r\n<p>hi")
	empty := record("resource", "http://example.com/e", "text/html", "")
	want := []read{
		{typ: "warcinfo", block: "software: test\r\n"},
		{typ: "request", uri: "http://example.com/", offset: int64(len(info))},
		{typ: "response", uri: "http://example.com/", block: "HTTP/1.1 200 OK\r\n\r\n<p>hi", offset: int64(len(info + req))},
		{typ: "resource", uri: "http://example.com/e", offset: int64(len(info + req + resp))},
	}
	plain := info + req + resp + empty
	for name, in := range map[string]string{
		"plain":                        plain,
		"gzip, a member per record":    gzipMembers(info, req, resp, empty),
		"extra blank lines in between": strings.ReplaceAll(plain, "\r\n\r\nWARC/", "\r\n\r\n\r\n\nWARC/"),
	} {
		for _, size := range []int{1, 2, 7, 100, len(in)} {
			got, err := readAll(t, chunked.Reader(strings.NewReader(in), size))
			if err != nil {
				t.Fatalf("%s, reads of %d: %v", name, size, err)
			}
			if name == "extra blank lines in between" {
				for i := range got {
					got[i].offset = want[i].offset // shifted by the blank lines
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, reads of %d:\n got %v\nwant %v", name, size, got, want)
			}
		}
	}
}

func TestReaderStopsAtARecordItCannotRead(t *testing.T) {
	good := record("resource", "http://example.com/", "text/html", "<p>x")
	tests := []struct{ name, in, wantErr string }{
		{"not WARC", good + "HTTP/1.1 200 OK\r\n\r\n", fmt.Sprintf(`WARC record at byte %d: not a WARC record: it starts "HTTP/1.1 200 OK"`, len(good))},
		{"no length", good + "WARC/1.0\r\nWARC-Type: resource\r\n\r\nx", "Content-Length"},
		{"block cut short", good + strings.TrimSuffix(record("resource", "u", "", "0123456789"), "89\r\n\r\n"), "unexpected EOF"},
		{"header cut short", good + "WARC/1.0\r\nWARC-Type: res", "cut short"},
		{"header too long", good + "WARC/1.0\r\nX: " + strings.Repeat("a", MaxHeaderBytes+8<<10) + "\r\n\r\n", "longer than 1 MiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one with %q", err, tc.wantErr)
			}
			if len(got) == 0 || got[0].block != "<p>x" {
				t.Errorf("records before the error: %v", got)
			}
			// Next keeps failing (the block of a record cut short is only
			// found short when it is read, or skipped).
			wr, _ := NewReader(strings.NewReader(tc.in))
			var err1 error
			for err1 == nil {
				_, err1 = wr.Next()
			}
			if _, err2 := wr.Next(); err1 == io.EOF || err2 != err1 {
				t.Errorf("the error is not kept: %v, then %v", err1, err2)
			}
		})
	}
}

func TestIsHTTPResponse(t *testing.T) {
	for _, tc := range []struct {
		typ, ct string
		want    bool
	}{
		{"response", "application/http; msgtype=response", true},
		{"response", "application/http", true},
		{"response", "Application/HTTP;msgtype=response", true},
		{"request", "application/http; msgtype=request", false},
		{"response", "text/dns", false},
		{"resource", "text/html", false},
	} {
		rec := Record{Header: map[string][]string{"Warc-Type": {tc.typ}, "Content-Type": {tc.ct}}}
		if got := rec.IsHTTPResponse(); got != tc.want {
			t.Errorf("%s, %s: %v, want %v", tc.typ, tc.ct, got, tc.want)
		}
	}
}

// Any input: Next ends (EOF or an error it then keeps), no panic, and the
// blocks of an uncompressed file are parts of it, in order.
func FuzzReader(f *testing.F) {
	f.Add([]byte(record("response", "http://e/", "application/http", "HTTP/1.1 200 OK\r\n\r\nx") + record("resource", "u", "text/html", "<p>")))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n\r\nWARC/1.0\r\nContent-Length: -1\r\n\r\n"))
	f.Add([]byte(gzipMembers(record("warcinfo", "", "", "a"), "WARC/1.1\r\nContent-Length: 9\r\n\r\nshort")))
	f.Add([]byte("WARC/1.1\r\nX\r\n\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		wr, err := NewReader(bytes.NewReader(in))
		if err != nil {
			return
		}
		compressed := len(in) >= 2 && in[0] == 0x1F && in[1] == 0x8B
		at := 0
		for n := 0; ; n++ {
			if n > len(in) {
				t.Fatalf("more records than bytes")
			}
			rec, err := wr.Next()
			if err != nil {
				if _, again := wr.Next(); again != err {
					t.Fatalf("error %v, then %v", err, again)
				}
				return
			}
			block, err := io.ReadAll(rec.Block)
			if compressed {
				continue
			}
			if rec.Offset < int64(at) {
				t.Fatalf("record at %d, before the end of the last block (%d)", rec.Offset, at)
			}
			if k := bytes.Index(in[rec.Offset:], block); k < 0 {
				t.Fatalf("block %q is not in the input after its record's start", block)
			} else {
				at = int(rec.Offset) + k + len(block)
			}
			if err != nil {
				return
			}
		}
	})
}
