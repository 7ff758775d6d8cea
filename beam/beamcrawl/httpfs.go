package beamcrawl

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// An http:// and https:// file system for Beam, to read only: Common
// Crawl serves its files at https://data.commoncrawl.org/ to anyone,
// where s3://commoncrawl/ needs AWS credentials. A read that breaks off is
// taken up again where it stopped with a Range request (If-Range, so that
// a file changed meanwhile is not spliced), and a busy server (429, 5xx)
// is asked again, HTTPRetries times with a doubling wait; a file is never
// read short without an error.
func init() {
	filesystem.Register("http", newHTTPFS)
	filesystem.Register("https", newHTTPFS)
}

// HTTPRetries is how many times a request is made again after it failed
// or its body broke off; HTTPBackoff the first wait, doubled each time.
var (
	HTTPRetries = 5
	HTTPBackoff = time.Second
)

type httpFS struct{ client *http.Client }

func newHTTPFS(context.Context) filesystem.Interface {
	return httpFS{client: http.DefaultClient}
}

func (httpFS) Close() error { return nil }

func (httpFS) List(_ context.Context, glob string) ([]string, error) {
	return nil, fmt.Errorf("%s: an HTTP server lists no files: give a paths list (--paths) with --input-base", glob)
}

func (httpFS) OpenWrite(_ context.Context, name string) (io.WriteCloser, error) {
	return nil, fmt.Errorf("%s: the http(s) file system is read-only", name)
}

func (f httpFS) Size(ctx context.Context, name string) (int64, error) {
	resp, err := f.do(ctx, http.MethodHead, name, nil)
	if err != nil {
		return -1, err
	}
	resp.Body.Close()
	return resp.ContentLength, nil
}

func (f httpFS) OpenRead(ctx context.Context, name string) (io.ReadCloser, error) {
	resp, err := f.do(ctx, http.MethodGet, name, nil)
	if err != nil {
		return nil, err
	}
	r := &httpReader{fs: f, ctx: ctx, url: name, body: resp.Body, size: resp.ContentLength}
	if resp.Header.Get("Accept-Ranges") == "bytes" {
		r.validator = resp.Header.Get("ETag")
		if r.validator == "" {
			r.validator = resp.Header.Get("Last-Modified")
		}
		r.ranges = r.validator != ""
	}
	return r, nil
}

// do makes a request, again after a network error or a busy server's
// answer, and returns a response of status 200 or 206.
func (f httpFS) do(ctx context.Context, method, url string, header http.Header) (*http.Response, error) {
	wait := HTTPBackoff
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return nil, err
		}
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := f.client.Do(req)
		if err == nil {
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusPartialContent {
				return resp, nil
			}
			resp.Body.Close()
			err = fmt.Errorf("%s %s: %s", method, url, resp.Status)
			if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
				return nil, err
			}
		}
		if try >= HTTPRetries || ctx.Err() != nil {
			return nil, err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		wait *= 2
	}
}

// httpReader reads a response's body, taking it up again where it broke
// off.
type httpReader struct {
	fs        httpFS
	ctx       context.Context
	url       string
	body      io.ReadCloser
	off, size int64 // bytes read; the file's length (-1: not given)
	ranges    bool  // the server takes Range requests, with a validator
	validator string
	retries   int
}

func (r *httpReader) Read(p []byte) (int, error) {
	for {
		n, err := r.body.Read(p)
		r.off += int64(n)
		if err == nil || (err == io.EOF && (r.size < 0 || r.off == r.size)) {
			return n, err
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if n > 0 {
			// Give what came; the next Read takes the body up again.
			r.body.Close()
			r.body = errReader{err}
			return n, nil
		}
		if rerr := r.resume(err); rerr != nil {
			return 0, rerr
		}
	}
}

// resume asks for the rest of the file after the read error err.
func (r *httpReader) resume(err error) error {
	r.body.Close()
	if !r.ranges || r.retries >= HTTPRetries || r.ctx.Err() != nil {
		return fmt.Errorf("%s: after %d bytes: %w", r.url, r.off, err)
	}
	r.retries++
	h := http.Header{"Range": {"bytes=" + strconv.FormatInt(r.off, 10) + "-"}, "If-Range": {r.validator}}
	resp, rerr := r.fs.do(r.ctx, http.MethodGet, r.url, h)
	if rerr != nil {
		return fmt.Errorf("%s: after %d bytes: %w; asking for the rest: %v", r.url, r.off, err, rerr)
	}
	if resp.StatusCode != http.StatusPartialContent || !strings.HasPrefix(resp.Header.Get("Content-Range"), "bytes "+strconv.FormatInt(r.off, 10)+"-") {
		resp.Body.Close()
		return fmt.Errorf("%s: after %d bytes: %w; the server did not send the rest (%s, Content-Range %q): the file may have changed",
			r.url, r.off, err, resp.Status, resp.Header.Get("Content-Range"))
	}
	r.body = resp.Body
	return nil
}

func (r *httpReader) Close() error { return r.body.Close() }

// errReader is a body that broke off: its error, for resume.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
func (e errReader) Close() error             { return nil }
