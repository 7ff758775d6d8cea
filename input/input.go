// Package input reads documents out of what holds them: a file that is a
// document, a saved HTTP response (curl -si), a WARC file of a crawl. A
// Reader hands over one Document at a time, its body ready for
// robofilter.Process and its options completed with what the container
// says of it (its URL, its X-Robots-Tag, its Content-Type). The CLI and
// any pipeline share it, so a crawl's WARC files read the same wherever
// they are processed.
//
// The call grammar: NewReader, then Next until io.EOF, reading each
// document's Body before the next call to Next (which skips what was not
// read). A document that cannot be read has its Err set and no Body; the
// reading goes on with the next one. An error from Next other than io.EOF
// ends the input (a WARC file cut short, a read error).
package input

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input/httpresp"
	"github.com/robofilter/robofilter/input/warc"
	"github.com/robofilter/robofilter/weburl"
)

// Kind says how an input holds its documents.
type Kind int

const (
	// Plain: the input is one document.
	Plain Kind = iota
	// HTTP: the input is one HTTP response as a tool saved it (curl -si):
	// its head applies to its body, the document.
	HTTP
	// WARC: the input is a WARC file; every response record holding an
	// HTTP response of a page, and every resource record of a page, is a
	// document. Other records (request, warcinfo, metadata, revisit …,
	// and responses of images, scripts, style sheets) are skipped.
	WARC
)

// Document is one document of an input.
type Document struct {
	// Name names the document in messages and records: the input's name,
	// or NAME#N for the N-th record of a WARC file (from 1).
	Name string
	// Body is the document's bytes: an HTTP response's body unframed and
	// decoded from its content codings. Valid until the next call to Next.
	// nil when Err is set.
	Body io.Reader
	// Options are the reader's, with what the container says of the
	// document: a WARC record's WARC-Target-URI as Base (when it parses),
	// an HTTP response's X-Robots-Tag values, Content-Type and format
	// (robofilter.FromResponse).
	Options robofilter.Options
	// URI is the record's WARC-Target-URI (WARC), as written.
	URI string
	// HTTPStatus is the status of its HTTP response (0: none, or its head
	// could not be read).
	HTTPStatus int
	// Truncated is the record's WARC-Truncated reason: the record holds
	// less than the response (a crawler's length or time limit), and the
	// document is what it holds. Set once the response's head was read.
	Truncated string
	// Warnings are what reading its HTTP response said that the user
	// would not assume (a header line skipped, a body longer than its
	// Content-Length), at no place in the document (line 0, column 0), in
	// the order found; those about the body come as it is read.
	Warnings []robofilter.Warning
	// Err says why the document could not be read (its HTTP head, its
	// content coding). The caller reports it; Next goes on.
	Err error
}

// Reader reads the documents of one input in order.
type Reader struct {
	// WARCWarning, when set, is given what a WARC file's reader skips or
	// repairs (bytes that are no record, a malformed header line), with
	// its position.
	WARCWarning func(warc.Warning)
	// Skipped, when set, is told of a record skipped that a user should
	// hear of: a response record without a Content-Type whose block is no
	// HTTP response. name is the record's document name.
	Skipped func(name, why string)
	// DocumentWarning, when set, is given each of a document's Warnings as
	// it is found (after Next returned the document, for those about its
	// body).
	DocumentWarning func(doc *Document, w robofilter.Warning)

	name string
	kind Kind
	opts robofilter.Options
	r    io.Reader
	wr   *warc.Reader
	n    int  // documents or records handed over
	done bool // Plain and HTTP: the one document was handed over
	doc  *Document
}

// NewReader reads the documents of the input r, named name, with opts.
func NewReader(name string, r io.Reader, kind Kind, opts robofilter.Options) *Reader {
	return &Reader{name: name, kind: kind, opts: opts, r: r}
}

// Next returns the next document, or io.EOF after the last.
func (r *Reader) Next() (*Document, error) {
	switch r.kind {
	case WARC:
		return r.nextRecord()
	default:
		if r.done {
			return nil, io.EOF
		}
		r.done = true
		doc := &Document{Name: r.name, Body: r.r, Options: r.opts}
		if r.kind == HTTP {
			r.readResponse(doc, r.r, "the input", nil)
		}
		return doc, nil
	}
}

// nextRecord returns the document of the next WARC record that holds a
// page.
func (r *Reader) nextRecord() (*Document, error) {
	if r.wr == nil {
		wr, err := warc.NewReader(r.r)
		if err != nil {
			return nil, err
		}
		wr.Warn = r.WARCWarning
		r.wr = wr
	}
	for {
		rec, err := r.wr.Next()
		if err != nil {
			return nil, err
		}
		r.n++
		name := r.name + "#" + strconv.Itoa(r.n)
		isHTTP := rec.IsHTTPResponse()
		if !isHTTP && rec.Type() == "response" && strings.TrimSpace(rec.Header.Get("Content-Type")) == "" {
			if r.Skipped != nil {
				r.Skipped(name, "a response record without a Content-Type whose block does not start with an HTTP status line")
			}
			continue
		}
		if !isHTTP && (rec.Type() != "resource" || !isPage(rec.Header.Get("Content-Type"))) {
			continue // a resource that is no page (an image, a crawler's log) is no document either
		}
		opts := r.opts
		uri := rec.TargetURI()
		if _, err := weburl.ParseBase(uri); uri != "" && err == nil {
			opts.Base = uri
		}
		doc := &Document{Name: name, URI: uri, Options: opts}
		if !isHTTP {
			// A resource record's block is the document itself, its
			// media type the record's Content-Type; with no coding to
			// undo, FromResponse has no error to give.
			resp := &http.Response{Header: http.Header{"Content-Type": {rec.Header.Get("Content-Type")}}, Body: io.NopCloser(rec.Block)}
			doc.Body, doc.Options, _ = robofilter.FromResponse(resp, opts)
			return doc, nil
		}
		if !r.readResponse(doc, rec.Block, "the WARC record", rec) {
			continue // an image, a script, a style sheet …: no document to warn of
		}
		return doc, nil
	}
}

// readResponse reads the HTTP response in body (bounded by end, for
// messages) into doc: its body, options and status, or its Err. In a WARC
// record (rec), a response that is no page is no document: it reports
// false, and the warnings about its head are not given.
func (r *Reader) readResponse(doc *Document, body io.Reader, end string, rec *warc.Record) bool {
	held := true
	resp, err := httpresp.ReadSaved(body, end, func(msg string) {
		w := robofilter.Warning{Message: msg}
		doc.Warnings = append(doc.Warnings, w)
		if r.DocumentWarning != nil && !held {
			r.DocumentWarning(doc, w)
		}
	})
	if err == nil && rec != nil && !isPage(resp.Header.Get("Content-Type")) {
		return false
	}
	held = false
	if r.DocumentWarning != nil {
		for _, w := range doc.Warnings {
			r.DocumentWarning(doc, w)
		}
	}
	if err != nil {
		doc.Err = err
		return true
	}
	if rec != nil {
		doc.Truncated = rec.Header.Get("WARC-Truncated")
	}
	if doc.Truncated != "" {
		// The record holds less than the response: what it holds is the
		// document, not an error.
		resp.Body = io.NopCloser(cutShortIsEnd{resp.Body})
	}
	decoded, opts, err := robofilter.FromResponse(resp, doc.Options)
	if err != nil {
		doc.Err = err
		return true
	}
	if doc.Truncated != "" {
		decoded = cutShortIsEnd{decoded} // a coding cut short with the record
	}
	doc.Body, doc.Options, doc.HTTPStatus = decoded, opts, resp.StatusCode
	return true
}

// cutShortIsEnd reads a body a WARC record holds only in part
// (WARC-Truncated): its end before the length or the chunks the response
// announced is its end.
type cutShortIsEnd struct{ r io.Reader }

func (c cutShortIsEnd) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}

// isPage reports whether a document of that Content-Type is a page
// (HTML, XML) or may be one (no type: sniffed).
func isPage(contentType string) bool {
	return strings.TrimSpace(contentType) == "" || robofilter.MediaTypeFormat(contentType) != robofilter.Auto
}
