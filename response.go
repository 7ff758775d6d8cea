package robofilter

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// FromResponse prepares a document served over HTTP for Process: it
// returns the body to read, decoded from the response's Content-Encoding
// (gzip, x-gzip, deflate, br, zstd and identity, in the order they were
// applied),
// and opts with what the response's head says of the document:
//   - every X-Robots-Tag header line appended to opts.XRobotsTag (a server
//     may send several; each may hold several directives);
//   - its Content-Type as opts.ContentType, for the charset it names (a
//     byte order mark outranks it, and opts.Charset outranks both);
//   - where opts.Format is Auto, the format its media type names: HTML for
//     text/html, XML for text/xml, application/xml and the +xml types
//     (XHTML, Atom, RSS, SVG …); other types are left to Sniff.
//
// An encoding robofilter cannot decode (compress, …) is an error: its
// bytes are no document; so are more than maxContentCodings codings (curl
// refuses them too: each layer costs a decoder's memory). An empty body
// is an empty document whatever its coding, as browsers show it. A coded
// body that is cut short or corrupt fails the read with a *CodingError,
// which says where. The
// status is the caller's to judge (a crawler indexes few pages that came
// with a 404); FromResponse reads at most the first bytes of the body (a
// coding's header), and the caller still closes it.
func FromResponse(resp *http.Response, opts Options) (io.Reader, Options, error) {
	if values := resp.Header.Values("X-Robots-Tag"); len(values) > 0 {
		// A copy: opts.XRobotsTag may be the caller's, shared by documents.
		opts.XRobotsTag = append(append([]string(nil), opts.XRobotsTag...), values...)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		opts.ContentType = ct
		if opts.Format == Auto {
			opts.Format = MediaTypeFormat(ct)
		}
	}
	body, err := decodeContent(resp.Body, resp.Header.Values("Content-Encoding"))
	return body, opts, err
}

// ProcessResponse is Process over a document served over HTTP
// (FromResponse). It does not close resp.Body.
func ProcessResponse(resp *http.Response, opts Options, out Outputs) (*Result, error) {
	body, opts, err := FromResponse(resp, opts)
	if err != nil {
		return nil, err
	}
	return Process(body, opts, out)
}

// MediaTypeFormat is the format a Content-Type names: HTML for text/html,
// XML for text/xml, application/xml and the +xml types, Auto for others
// (no page, or one to sniff).
func MediaTypeFormat(ct string) Format {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		// A broken parameter list still leaves a media type before it.
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	switch {
	case mt == "text/html":
		return HTML
	case mt == "text/xml" || mt == "application/xml" || strings.HasSuffix(mt, "+xml"):
		return XML
	}
	return Auto
}

// maxContentCodings bounds the content codings undone, as curl bounds
// them (CVE-2022-32206).
const maxContentCodings = 5

// decodeContent undoes the content codings listed (header lines, each a
// comma-separated list, applied in order): the last applied comes off
// first.
func decodeContent(body io.Reader, headers []string) (io.Reader, error) {
	codings := ContentCodings(headers)
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
		decoded, err := NewContentDecoder(codings[i], body)
		if err != nil {
			return nil, err
		}
		body = decoded
	}
	return body, nil
}

// ContentCodings lists the content codings that Content-Encoding header
// lines name, in the order they were applied, lower-case, identity left
// out.
func ContentCodings(headers []string) []string {
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

// NewContentDecoder reads body decoded from one content coding (gzip,
// x-gzip, deflate, br or zstd, as ContentCodings names them). Its read
// errors are *CodingError. An unknown coding is an error.
func NewContentDecoder(coding string, body io.Reader) (io.Reader, error) {
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
	br, ok := body.(*bufio.Reader) // decodeContent's, for the outermost coding
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
