package httpresp

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// maxContentCodings bounds the content codings undone, as curl bounds
// them (CVE-2022-32206).
const maxContentCodings = 5

// Decode undoes the content codings listed (header lines, each a
// comma-separated list, applied in order): the last applied comes off
// first.
func Decode(body io.Reader, headers []string) (io.Reader, error) {
	codings := Codings(headers)
	if len(codings) == 0 {
		return body, nil
	}
	if len(codings) > maxContentCodings {
		return nil, fmt.Errorf("%d content codings: robofilter undoes at most %d", len(codings), maxContentCodings)
	}
	br := bufio.NewReader(body)
	if _, err := br.Peek(1); err == io.EOF {
		return br, nil // empty: no coding's header to read
	}
	body = br
	for i := len(codings) - 1; i >= 0; i-- {
		decoded, err := NewDecoder(codings[i], body)
		if err != nil {
			return nil, err
		}
		body = decoded
	}
	return body, nil
}

// Codings lists the content codings that Content-Encoding header
// lines name, in the order they were applied, lower-case, identity left
// out.
func Codings(headers []string) []string {
	var codings []string
	for _, h := range headers {
		for _, c := range strings.Split(h, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	return codings
}

// NewDecoder reads body decoded from one content coding (gzip,
// x-gzip, deflate, br or zstd, as Codings names them). Its read
// errors are *CodingError. An unknown coding is an error.
func NewDecoder(coding string, body io.Reader) (io.Reader, error) {
	var decoded io.Reader
	var err error
	switch coding {
	case "gzip", "x-gzip":
		decoded, err = gzip.NewReader(body)
	case "deflate":
		decoded, err = inflate(body)
	case "br":
		decoded = brotli.NewReader(body)
	case "zstd":
		decoded, err = zstd.NewReader(body,
			// Synchronous: no goroutine left running for the caller to stop.
			zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			// RFC 9659: a zstd content coding's window is at most 8 MB,
			// and browsers refuse larger ones.
			zstd.WithDecoderMaxWindow(maxZstdWindow))
	default:
		return nil, fmt.Errorf("content coding %q: robofilter decodes gzip, deflate, br and zstd only", coding)
	}
	if err != nil {
		return nil, codingError(coding, 0, err)
	}
	return &contentDecoder{coding: coding, r: decoded}, nil
}

// maxZstdWindow is RFC 9659's bound on a zstd content coding's window.
const maxZstdWindow = 8 << 20

// CodingError is a content coding's body that cannot be decoded to its
// end: cut short or corrupt.
type CodingError struct {
	Coding  string // gzip, deflate, br, zstd
	Decoded int64  // bytes decoded before the error
	Short   bool   // the coded bytes ended before the coding did
	Err     error
}

func (e *CodingError) Error() string {
	if e.Short {
		return fmt.Sprintf("the %s-coded body is cut short after %d decoded bytes: %v", e.Coding, e.Decoded, e.Err)
	}
	return fmt.Sprintf("the %s-coded body is corrupt after %d decoded bytes: %v", e.Coding, e.Decoded, e.Err)
}

func (e *CodingError) Unwrap() error { return e.Err }

// codingError makes a decoder's error a *CodingError; one from a coding
// beneath (decoded first) is kept as it is.
func codingError(coding string, decoded int64, err error) error {
	var inner *CodingError
	if errors.As(err, &inner) {
		return err
	}
	return &CodingError{Coding: coding, Decoded: decoded, Short: errors.Is(err, io.ErrUnexpectedEOF), Err: err}
}

// contentDecoder counts what it decodes, for its errors.
type contentDecoder struct {
	coding string
	r      io.Reader
	n      int64
}

func (d *contentDecoder) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.n += int64(n)
	if err != nil && err != io.EOF {
		err = codingError(d.coding, d.n, err)
	}
	return n, err
}

// inflate reads HTTP's deflate coding: zlib-wrapped, as RFC 9110 says, or
// the bare deflate stream some servers send instead (browsers take both).
func inflate(body io.Reader) (io.Reader, error) {
	br, ok := body.(*bufio.Reader) // Decode's, for the outermost coding
	if !ok {
		br = bufio.NewReader(body)
	}
	head, err := br.Peek(2)
	if err != nil && len(head) < 2 {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if head[0]&0x0F == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}
