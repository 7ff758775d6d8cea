package beamcrawl

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
)

// Small WARC files shaped as Common Crawl writes them (warcinfo; request,
// response, metadata per page), written here record by record, so that
// the tests know what each holds (internal/warcgen's crawls, in
// extract_test.go, are larger and known only by their bytes).

// warcRecord is one WARC record.
func warcRecord(typ, uri, contentType, block string, id int, fields ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: %s\r\nWARC-Date: 2026-11-01T00:00:%02dZ\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", typ, id%60, id)
	if uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", uri)
	}
	for _, f := range fields {
		b.WriteString(f + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", contentType, len(block), block)
	return b.Bytes()
}

// crawlPage is a fetched page's three records: the request, the response
// (with the HTTP head's extra header lines), the crawler's metadata.
func crawlPage(id int, uri, mediaType, body string, header ...string) [][]byte {
	head := "HTTP/1.1 200 OK\r\nContent-Type: " + mediaType + "\r\n"
	for _, h := range header {
		head += h + "\r\n"
	}
	host := strings.SplitN(strings.TrimPrefix(uri, "https://"), "/", 2)[0]
	return [][]byte{
		warcRecord("request", uri, "application/http; msgtype=request", "GET / HTTP/1.1\r\nHost: "+host+"\r\n\r\n", id),
		warcRecord("response", uri, "application/http; msgtype=response", head+"\r\n"+body, id+1),
		warcRecord("metadata", uri, "application/warc-fields", "fetchTimeMs: 12\r\n", id+2),
	}
}

// warcFile joins records into a file, each record a gzip member of its
// own when gz, as Common Crawl's files are.
func warcFile(gz bool, records ...[]byte) []byte {
	var b bytes.Buffer
	for _, r := range records {
		if !gz {
			b.Write(r)
			continue
		}
		zw := gzip.NewWriter(&b)
		zw.Write(r)
		zw.Close()
	}
	return b.Bytes()
}

func warcinfo(id int) []byte {
	return warcRecord("warcinfo", "", "application/warc-fields", "software: beamcrawl test\r\nformat: WARC File Format 1.0\r\n", id)
}

func concat(parts ...[][]byte) [][]byte {
	var all [][]byte
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}
