package beamcrawl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// flakyServer serves one file. Each GET's body breaks off (the connection
// is closed) after cut bytes, counted from where the request starts,
// until breaks is spent; busy answers 503 that many times first.
type flakyServer struct {
	mu          sync.Mutex
	data        []byte
	cut, breaks int
	busy        int
	ranges      bool // takes Range requests
	etag        string
	requests    []string // each request's Range, "" for none
}

func (s *flakyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Header.Get("Range"))
	if s.busy > 0 {
		s.busy--
		http.Error(w, "slow down", http.StatusServiceUnavailable)
		return
	}
	if r.URL.Path != "/crawl/f.warc.gz" {
		http.NotFound(w, r)
		return
	}
	start := 0
	status := http.StatusOK
	if s.ranges {
		w.Header().Set("Accept-Ranges", "bytes")
		w.Header().Set("ETag", s.etag)
		if rg := r.Header.Get("Range"); rg != "" && r.Header.Get("If-Range") == s.etag {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
			if err != nil {
				http.Error(w, "bad range", http.StatusBadRequest)
				return
			}
			start, status = n, http.StatusPartialContent
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", n, len(s.data)-1, len(s.data)))
		}
	}
	body := s.data[start:]
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	if s.breaks > 0 && s.cut < len(body) {
		s.breaks--
		w.Write(body[:s.cut])
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	w.Write(body)
}

func readHTTP(t *testing.T, url string) ([]byte, error) {
	t.Helper()
	ctx := context.Background()
	fs, err := filesystem.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := fs.OpenRead(ctx, url)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func fastRetries(t *testing.T) {
	was := HTTPBackoff
	HTTPBackoff = time.Millisecond
	t.Cleanup(func() { HTTPBackoff = was })
}

// A body that breaks off at any byte is taken up where it stopped, and
// the file read whole.
func TestHTTPReadResumes(t *testing.T) {
	fastRetries(t)
	data := bytes.Repeat([]byte("0123456789abcdefghij"), 50)
	for _, cut := range []int{0, 1, 2, 17, 499, 999} {
		srv := &flakyServer{data: data, cut: cut, breaks: 3, ranges: true, etag: `"v1"`}
		ts := httptest.NewServer(srv)
		got, err := readHTTP(t, ts.URL+"/crawl/f.warc.gz")
		ts.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("broken off at %d bytes: read %d of %d bytes, %v", cut, len(got), len(data), err)
		}
		if len(srv.requests) < 2 || len(srv.requests) > 4 || srv.requests[0] != "" || srv.requests[1] != "bytes="+strconv.Itoa(cut)+"-" {
			t.Errorf("broken off at %d: requests %q", cut, srv.requests)
		}
	}
}

// Without Range requests, or past the retries, a body broken off is an
// error: never a file read short.
func TestHTTPReadShortIsAnError(t *testing.T) {
	fastRetries(t)
	data := bytes.Repeat([]byte("x"), 1000)
	for _, srv := range []*flakyServer{
		{data: data, cut: 300, breaks: 1},
		{data: data, cut: 10, breaks: HTTPRetries + 1, ranges: true, etag: `"v1"`},
	} {
		ts := httptest.NewServer(srv)
		got, err := readHTTP(t, ts.URL+"/crawl/f.warc.gz")
		ts.Close()
		if err == nil {
			t.Errorf("ranges %v: read %d of %d bytes without an error", srv.ranges, len(got), len(data))
		}
	}
}

// A busy server is asked again; a file that is not there is not.
func TestHTTPRetries(t *testing.T) {
	fastRetries(t)
	srv := &flakyServer{data: []byte("data"), busy: 2}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	if got, err := readHTTP(t, ts.URL+"/crawl/f.warc.gz"); err != nil || string(got) != "data" {
		t.Errorf("after two 503: %q, %v", got, err)
	}
	srv.requests = nil
	if _, err := readHTTP(t, ts.URL+"/crawl/absent.warc.gz"); err == nil || !strings.Contains(err.Error(), "404") || len(srv.requests) != 1 {
		t.Errorf("a file not there: %v after %d requests", err, len(srv.requests))
	}
	srv.busy = HTTPRetries + 1
	if _, err := readHTTP(t, ts.URL+"/crawl/f.warc.gz"); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("busy past the retries: %v", err)
	}
}

// A paths list served over HTTP, its body cut short: an error.
func TestHTTPPathsListCut(t *testing.T) {
	fastRetries(t)
	text, want := pathsList(100)
	list := gz(text)
	srv := &flakyServer{data: list, cut: len(list) / 2, breaks: 1}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	got, err := ReadPathsList(context.Background(), ts.URL+"/crawl/f.warc.gz")
	if err == nil {
		t.Errorf("a list cut short: %d of %d paths, no error", len(got), len(want))
	}
	srv.breaks = 0
	if got, err := ReadPathsList(context.Background(), ts.URL+"/crawl/f.warc.gz"); err != nil || len(got) != len(want) {
		t.Errorf("the list whole: %d of %d paths, %v", len(got), len(want), err)
	}
}
