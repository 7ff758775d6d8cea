package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/robofilter/robofilter/internal/exact"
)

// maxHTTPHead bounds a response's status line and headers, as net/http's
// server bounds a request's (DefaultMaxHeaderBytes): the head is held in
// memory whole.
const maxHTTPHead = 1 << 20

// maxHTTPResponses bounds the responses read before the one that counts
// (interim ones, redirects: curl's --max-redirs is 50 too).
const maxHTTPResponses = 50

var errHTTPHeadTooLong = errors.New("the status line and headers are longer than 1 MiB")

// headLimit fails reads past maxHTTPHead bytes while a head is read (on);
// the bytes buffered past the head count too, at most a buffer's worth.
type headLimit struct {
	r    io.Reader
	left int
	on   bool
}

func (h *headLimit) Read(p []byte) (int, error) {
	if !h.on {
		return h.r.Read(p)
	}
	if h.left <= 0 {
		return 0, errHTTPHeadTooLong
	}
	n, err := h.r.Read(p[:min(len(p), h.left)])
	h.left -= n
	return n, err
}

// readHTTPResponse reads an HTTP response as a tool saved it (curl -si,
// curl -siL, a WARC response record): the status line (HTTP/1.x, or
// HTTP/2 and HTTP/3 as curl writes them), the headers and the body.
//
// A response whose head another one follows at once had no body written:
// an interim response (1xx), a redirect curl -L followed, a proxy's
// "Connection established"; the last response counts. The body's framing
// is undone as the saved bytes allow: chunked where they are chunks (curl
// writes the body de-chunked but keeps the header, unless --raw), a
// Content-Length where the body is as the header says (curl --compressed
// writes it decoded: then it runs to the end and its coding is dropped),
// else to the end of the input.
func readHTTPResponse(r io.Reader) (*http.Response, error) {
	limit := &headLimit{r: r}
	br := bufio.NewReader(limit)
	for n := 1; ; n++ {
		limit.on, limit.left = true, maxHTTPHead
		resp, err := readHTTPHead(br)
		limit.on = false
		if err != nil && limit.left <= 0 {
			err = errHTTPHeadTooLong // textproto may have met a line cut short first
		}
		if err != nil {
			return nil, fmt.Errorf("reading the HTTP response's status line and headers: %w", err)
		}
		if next, _ := br.Peek(len("HTTP/")); string(next) == "HTTP/" && bodyNotWritten(resp) {
			if n == maxHTTPResponses {
				return nil, fmt.Errorf("more than %d HTTP responses before the last (interim ones and redirects)", maxHTTPResponses)
			}
			continue
		}
		resp.Body = io.NopCloser(savedBody(br, resp))
		return resp, nil
	}
}

// bodyNotWritten reports whether a response that another one follows at
// once is one whose body a tool leaves out when it goes on to the next:
// interim, redirect, a proxy's tunnel.
func bodyNotWritten(resp *http.Response) bool {
	return resp.StatusCode < 200 || resp.StatusCode >= 300 && resp.StatusCode < 400 ||
		resp.StatusCode == 200 && strings.EqualFold(resp.Status, "200 Connection established")
}

// readHTTPHead reads a status line and headers.
func readHTTPHead(br *bufio.Reader) (*http.Response, error) {
	tp := textproto.NewReader(br)
	line, err := tp.ReadLine()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	proto, status, ok := strings.Cut(line, " ")
	major, minor, protoOK := httpVersion(proto)
	code, codeErr := strconv.Atoi(strings.SplitN(status, " ", 2)[0])
	if !ok || !protoOK || codeErr != nil || code < 100 || code > 999 {
		return nil, fmt.Errorf("malformed HTTP status line %.60q", line)
	}
	header, err := tp.ReadMIMEHeader()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return &http.Response{Status: strings.TrimSpace(status), StatusCode: code, Proto: proto,
		ProtoMajor: major, ProtoMinor: minor, Header: http.Header(header), ContentLength: -1}, nil
}

// httpVersion reads HTTP/1.1, HTTP/1.0, and HTTP/2 or HTTP/3 as curl
// writes them (no minor number).
func httpVersion(proto string) (major, minor int, ok bool) {
	switch proto {
	case "HTTP/2", "HTTP/3":
		return int(proto[5] - '0'), 0, true
	}
	return http.ParseHTTPVersion(proto)
}

// savedBody is the body of the response that counts, its framing undone
// as the saved bytes allow (readHTTPResponse).
func savedBody(br *bufio.Reader, resp *http.Response) io.Reader {
	if resp.StatusCode == 204 || resp.StatusCode == 304 || resp.StatusCode < 200 {
		return strings.NewReader("")
	}
	if looksChunked(br, resp) {
		return &chunkedBody{r: httputil.NewChunkedReader(br)}
	}
	coding := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	if coding == "gzip" || coding == "x-gzip" {
		if magic, _ := br.Peek(2); len(magic) > 0 && (len(magic) < 2 || magic[0] != 0x1F || magic[1] != 0x8B) {
			resp.Header.Del("Content-Encoding") // decoded already (curl --compressed)
			return br
		}
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(resp.Header.Get("Content-Length")), 10, 64); err == nil && n >= 0 && len(resp.Header.Values("Content-Length")) == 1 {
		resp.ContentLength = n
		return lengthBody{exact.Reader(br, n)}
	}
	return br
}

// looksChunked reports whether the response says chunked and its body
// starts with a chunk's size line.
func looksChunked(br *bufio.Reader, resp *http.Response) bool {
	te := strings.ToLower(strings.Join(resp.Header.Values("Transfer-Encoding"), ","))
	if !strings.Contains(te, "chunked") {
		return false
	}
	head, _ := br.Peek(32)
	i := 0
	for i < len(head) && strings.IndexByte("0123456789abcdefABCDEF", head[i]) >= 0 {
		i++
	}
	return i > 0 && i < len(head) && (head[i] == '\r' || head[i] == '\n' || head[i] == ';' || head[i] == ' ' || head[i] == '\t')
}

// chunkedBody names its errors for the user.
type chunkedBody struct{ r io.Reader }

func (c *chunkedBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("the HTTP body's chunked framing: %w", err)
	}
	return n, err
}

// lengthBody reads Content-Length bytes (an exact.Reader), saying so when
// there are fewer.
type lengthBody struct{ r io.Reader }

func (l lengthBody) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if err == io.ErrUnexpectedEOF {
		err = fmt.Errorf("the HTTP body is shorter than its Content-Length: %w", err)
	}
	return n, err
}
