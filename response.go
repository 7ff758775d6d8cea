package robofilter

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// FromResponse prepares a document served over HTTP for Process: it
// returns the body to read, decoded from the response's Content-Encoding
// (gzip, x-gzip, deflate and identity, in the order they were applied),
// and opts with what the response's head says of the document:
//   - every X-Robots-Tag header line appended to opts.XRobotsTag (a server
//     may send several; each may hold several directives);
//   - its Content-Type as opts.ContentType, for the charset it names (a
//     byte order mark outranks it, and opts.Charset outranks both);
//   - where opts.Format is Auto, the format its media type names: HTML for
//     text/html, XML for text/xml, application/xml and the +xml types
//     (XHTML, Atom, RSS, SVG …); other types are left to Sniff.
//
// An encoding robofilter cannot decode (br, compress, …) is an error: its
// bytes are no document; so are more than maxContentCodings codings (curl
// refuses them too: each layer costs a decoder's memory). An empty body
// is an empty document whatever its coding, as browsers show it. The
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
	var codings []string
	for _, h := range headers {
		for _, c := range strings.Split(h, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
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
		var err error
		switch codings[i] {
		case "gzip", "x-gzip":
			body, err = gzip.NewReader(body)
		case "deflate":
			body, err = inflate(body)
		default:
			return nil, fmt.Errorf("content coding %q: robofilter decodes gzip and deflate only", codings[i])
		}
		if err != nil {
			return nil, fmt.Errorf("content coding %s: %w", codings[i], err)
		}
	}
	return body, nil
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
