package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxRedirectBody bounds the body of a redirect kept while looking
// whether another response follows it (curl -L saves each one).
const maxRedirectBody = 64 << 10

// maxHTTPHead bounds a response's status line and headers, as net/http's
// server bounds a request's (DefaultMaxHeaderBytes): the head is held in
// memory whole.
const maxHTTPHead = 1 << 20

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

// readHTTPResponse reads an HTTP response as sent (curl -si saves one):
// its status line, headers and body, the framing (chunked, a length, or
// to the end) undone. Interim responses (1xx) are skipped, and so is a
// redirect that another response follows, so that what `curl -siL`
// saves gives its last response.
func readHTTPResponse(r io.Reader) (*http.Response, error) {
	limit := &headLimit{r: r}
	br := bufio.NewReader(limit)
	for {
		limit.on, limit.left = true, maxHTTPHead
		br = withHTTPVersionDotted(br)
		resp, err := http.ReadResponse(br, nil)
		limit.on = false
		if err != nil && limit.left <= 0 {
			err = errHTTPHeadTooLong // textproto may have met a line cut short first
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("reading the HTTP response's status line and headers: %w", err)
		}
		switch {
		case resp.StatusCode < 200:
			continue // no body (net/http reads none for 1xx)
		case resp.StatusCode < 300 || resp.StatusCode >= 400:
			return resp, nil
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxRedirectBody+1))
		if err != nil {
			return nil, fmt.Errorf("reading the HTTP response's body: %w", err)
		}
		if len(body) <= maxRedirectBody {
			if next, _ := br.Peek(len("HTTP/")); string(next) == "HTTP/" {
				continue
			}
		}
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), resp.Body))
		return resp, nil
	}
}

// withHTTPVersionDotted has a status line of HTTP/2 or HTTP/3, as curl
// writes them, read as HTTP/2.0 or HTTP/3.0: net/http reads only versions
// with a minor number.
func withHTTPVersionDotted(br *bufio.Reader) *bufio.Reader {
	head, _ := br.Peek(len("HTTP/2 "))
	if s := string(head); s != "HTTP/2 " && s != "HTTP/3 " {
		return br
	}
	br.Discard(len("HTTP/2"))
	return bufio.NewReader(io.MultiReader(strings.NewReader(string(head[:len("HTTP/2")])+".0"), br))
}
