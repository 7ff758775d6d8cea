package httpresp

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter/internal/hostile"
)

// Any input: ReadSaved ends (a response or an error); the body it
// gives reads to its end without panicking, within the input's size; a
// byte at a time it reads the same head, body and warnings; its warnings
// are bounded; and the body decodes (Decode) without panicking.
func FuzzReadHTTPResponse(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"))
	f.Add([]byte("HTTP/1.1 301 Moved\r\nLocation: /\r\n\r\nHTTP/2 200\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<p>x"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\n<p>x"))
	f.Add([]byte("HTTP/3 204\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nP3P CP=\"x\"\r\nX-A\x00: b\r\r\nX-B : c\r\n d\r\n\r\n<p>x"))
	f.Add([]byte(" X-A: b\n: c\nX-Robots-Tag: noindex\n\t, nofollow\n\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n<p>past the length"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<p>xHTTP/1.1 200 OK\r\n\r\n<p>y"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\nHTTP/2 200\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nContent-Length: 3\r\n\r\n<p>decoded"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 3\r\n\r\n<p>decoded"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n(\xb5/\xfd"))
	f.Fuzz(func(t *testing.T, in []byte) {
		read := func(r io.Reader) (*http.Response, []byte, []string, error) {
			var warnings []string
			resp, err := ReadSaved(r, "the input", func(msg string) { warnings = append(warnings, msg) })
			if err != nil {
				return nil, nil, warnings, err
			}
			body, err := io.ReadAll(resp.Body)
			return resp, body, warnings, err
		}
		resp, body, warnings, err := read(bytes.NewReader(in))
		resp1, body1, warnings1, err1 := read(iotest.OneByteReader(bytes.NewReader(in)))
		if (err == nil) != (err1 == nil) || !bytes.Equal(body, body1) || !slices.Equal(warnings, warnings1) ||
			resp != nil && (resp.StatusCode != resp1.StatusCode || fmt.Sprint(resp.Header) != fmt.Sprint(resp1.Header)) {
			t.Fatalf("whole and a byte at a time differ: %v %q %q / %v %q %q", err, body, warnings, err1, body1, warnings1)
		}
		if max := (MaxHeadLineWarnings+1)*MaxResponses + 2; len(warnings) > max {
			t.Fatalf("%d warnings, more than %d", len(warnings), max)
		}
		if resp == nil {
			return
		}
		if len(body) > len(in) && err == nil {
			t.Fatalf("a body of %d bytes from %d", len(body), len(in))
		}
		if decoded, err := Decode(bytes.NewReader(body), resp.Header.Values("Content-Encoding")); err == nil {
			io.Copy(io.Discard, io.LimitReader(decoded, 1<<20))
		}
	})
}

// The head is read in one pass, its memory bounded: on every hostile
// shape, 4 times the head costs about 4 times the work (bytes allocated,
// which a quadratic join or copy would show; counted, not timed).
func TestHTTPHeadReadingIsLinear(t *testing.T) {
	cost := func(head string) uint64 {
		in := "HTTP/1.1 200 OK\r\n" + head + "\r\n<p>x"
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		resp, err := ReadSaved(strings.NewReader(in), "the input", func(string) {})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%d bytes: %v", len(head), err)
		}
		if body, _ := io.ReadAll(resp.Body); string(body) != "<p>x" {
			t.Fatalf("%d bytes: body %q", len(head), body)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	for name, shape := range hostile.HTTPHeads {
		small, large := cost(shape(128<<10)), cost(shape(512<<10))
		t.Logf("%s: %d bytes allocated for 128 KiB, %d for 512 KiB", name, small, large)
		if large > small*6 {
			t.Errorf("%s: %d bytes allocated for 128 KiB, %d for 512 KiB (4 times the head): not linear", name, small, large)
		}
	}
}
