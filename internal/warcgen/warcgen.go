// Package warcgen makes WARC files shaped like Common Crawl's, for the
// crawl-scale benchmarks and tests: a warcinfo record, then for each page
// a request, a response and a metadata record, each a gzip member of its
// own; most responses are HTML pages, some feeds, some images (which
// robofilter skips), one in 25 pages truncated at 1 MiB as Common Crawl
// truncates them. The same options give the same bytes.
package warcgen

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/robofilter/robofilter/internal/benchpage"
)

// Options say what to make.
type Options struct {
	// Bytes is about how many bytes of records (uncompressed) to write.
	Bytes int64
	// Pages are the HTML pages to serve (real ones, read from the shared
	// corpus); none: pages made by benchpage, of sizes from 2 to 200 KB.
	Pages [][]byte
	// Gzip writes each record as a gzip member of its own.
	Gzip bool
	// Seed chooses the pages, types and URLs.
	Seed int64
}

// Write writes a WARC file to w and reports how many response records it
// holds.
func Write(w io.Writer, opts Options) (responses int, err error) {
	responses, _, err = WriteSize(w, opts)
	return responses, err
}

// WriteSize is Write that also reports the file's size decompressed (its
// records' bytes): what the crawl benchmarks count MB/s by.
func WriteSize(w io.Writer, opts Options) (responses int, decompressed int64, err error) {
	rng := rand.New(rand.NewSource(opts.Seed))
	pages := opts.Pages
	if len(pages) == 0 {
		for _, n := range []int{2000, 8000, 30000, 60000, 120000, 200000} {
			pages = append(pages, benchpage.Generate(n))
		}
	}
	g := &gen{w: w, rng: rng}
	if opts.Gzip {
		g.gz, _ = gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	}
	date := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	g.record(map[string]string{"WARC-Type": "warcinfo", "WARC-Date": date.Format(time.RFC3339), "Content-Type": "application/warc-fields",
		"WARC-Filename": "CC-MAIN-20261101000000-00000.warc.gz"},
		[]byte("isPartOf: CC-MAIN-2026-44\r\npublisher: robofilter's tests\r\nformat: WARC File Format 1.1\r\n"))
	feed := benchpage.AtomFeed(40000, false)
	image := make([]byte, 30000)
	rng.Read(image)
	for n := 0; g.written < opts.Bytes; n++ {
		date = date.Add(time.Duration(rng.Intn(3000)) * time.Millisecond)
		uri := fmt.Sprintf("https://site%d.example/path/%d.html", rng.Intn(5000), n)
		var body []byte
		var ctype string
		truncated := ""
		switch k := rng.Intn(100); {
		case k < 5:
			body, ctype = image, "image/jpeg"
		case k < 10:
			body, ctype = feed, "application/atom+xml"
		default:
			body, ctype = pages[rng.Intn(len(pages))], "text/html; charset=utf-8"
			if n%25 == 12 {
				// Common Crawl truncates a payload at 1 MiB: the record
				// holds less than the Content-Length says.
				body, truncated = bytes.Repeat(body, (1<<20)/len(body)+1)[:1<<20], "length"
			}
		}
		length := len(body)
		if truncated != "" {
			length += 1 << 18
		}
		head := fmt.Sprintf("HTTP/1.1 200 OK\r\nDate: %s\r\nServer: nginx\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
			date.Format(time.RFC1123), ctype, length)
		request := g.id()
		g.record(map[string]string{"WARC-Type": "request", "WARC-Date": date.Format(time.RFC3339), "WARC-Record-ID": request,
			"WARC-Target-URI": uri, "Content-Type": "application/http; msgtype=request"},
			[]byte("GET "+uri[len("https://site0.example"):]+" HTTP/1.1\r\nHost: example\r\nUser-Agent: CCBot/2.0\r\n\r\n"))
		response := g.id()
		fields := map[string]string{"WARC-Type": "response", "WARC-Date": date.Format(time.RFC3339), "WARC-Record-ID": response,
			"WARC-Concurrent-To": request, "WARC-Target-URI": uri, "Content-Type": "application/http; msgtype=response"}
		if truncated != "" {
			fields["WARC-Truncated"] = truncated
		}
		g.record(fields, append([]byte(head), body...))
		responses++
		g.record(map[string]string{"WARC-Type": "metadata", "WARC-Date": date.Format(time.RFC3339), "WARC-Record-ID": g.id(),
			"WARC-Refers-To": response, "WARC-Target-URI": uri, "Content-Type": "application/warc-fields"},
			[]byte(fmt.Sprintf("fetchTimeMs: %d\r\n", rng.Intn(2000))))
	}
	return responses, g.written, g.err
}

type gen struct {
	w       io.Writer
	gz      *gzip.Writer
	rng     *rand.Rand
	written int64
	buf     bytes.Buffer
	err     error
}

// id is a random record ID, from the seeded source.
func (g *gen) id() string {
	var u [16]byte
	g.rng.Read(u[:])
	u[6], u[8] = u[6]&0x0f|0x40, u[8]&0x3f|0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// fieldOrder is the order fields are written in (as Common Crawl's files
// have them).
var fieldOrder = []string{"WARC-Type", "WARC-Date", "WARC-Filename", "WARC-Record-ID", "WARC-Refers-To", "WARC-Concurrent-To",
	"WARC-Target-URI", "WARC-Truncated", "Content-Type"}

func (g *gen) record(fields map[string]string, block []byte) {
	if g.err != nil {
		return
	}
	b := &g.buf
	b.Reset()
	b.WriteString("WARC/1.1\r\n")
	for _, name := range fieldOrder {
		if v, ok := fields[name]; ok {
			fmt.Fprintf(b, "%s: %s\r\n", name, v)
		}
	}
	fmt.Fprintf(b, "Content-Length: %d\r\n\r\n", len(block))
	b.Write(block)
	b.WriteString("\r\n\r\n")
	g.written += int64(b.Len())
	if g.gz == nil {
		_, g.err = g.w.Write(b.Bytes())
		return
	}
	g.gz.Reset(g.w)
	if _, g.err = g.gz.Write(b.Bytes()); g.err == nil {
		g.err = g.gz.Close()
	}
}
