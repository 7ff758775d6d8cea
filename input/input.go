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
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

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
	// RecordID and Date are the record's WARC-Record-ID and WARC-Date
	// (WARC), as written: what a derived record (WET) refers to.
	RecordID, Date string
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
	// body). With sources opened on other goroutines (Source.Open), it is
	// called on theirs.
	DocumentWarning func(doc *Document, w robofilter.Warning)

	name string
	kind Kind
	opts robofilter.Options
	r    io.Reader
	wr   *warc.Reader
	n    int  // records read
	done bool // Plain and HTTP: the one source was handed over
}

// NewReader reads the documents of the input r, named name, with opts.
func NewReader(name string, r io.Reader, kind Kind, opts robofilter.Options) *Reader {
	return &Reader{name: name, kind: kind, opts: opts, r: r}
}

// Next returns the next document, or io.EOF after the last: NextSource,
// then Open, in turn.
func (r *Reader) Next() (*Document, error) {
	for {
		src, err := r.NextSource()
		if err != nil {
			return nil, err
		}
		if doc, ok := src.Open(); ok {
			return doc, nil
		}
	}
}

// A Source is what may be a document, as its container holds it: the
// input itself, or a WARC record that may hold a page. Reading it out of
// the container (NextSource) is sequential; making it a Document (Open)
// can be put off and run on another goroutine once its bytes are read
// (Detach), which is how package pipeline spreads a WARC file's records
// over workers.
type Source struct {
	// Name names the document: the input's name, or NAME#N for the N-th
	// record of a WARC file.
	Name string
	// Size is the length of its bytes when the container says it (a WARC
	// record's Content-Length), else -1.
	Size int64

	r           *Reader
	body        io.Reader
	http        bool   // the bytes are an HTTP response
	inRecord    bool   // they are a WARC record's block
	uri         string // the record's WARC-Target-URI
	recordID    string // its WARC-Record-ID
	date        string // its WARC-Date
	truncated   string // the record's WARC-Truncated
	contentType string // a resource record's Content-Type
	buf         *[]byte
}

// NextSource returns the next source, or io.EOF after the last. Its bytes
// are read from the container until the next call to NextSource, unless
// Detach read them.
func (r *Reader) NextSource() (*Source, error) {
	if r.kind != WARC {
		if r.done {
			return nil, io.EOF
		}
		r.done = true
		return &Source{Name: r.name, Size: -1, r: r, body: r.r, http: r.kind == HTTP}, nil
	}
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
		size := int64(-1)
		if n, err := strconv.ParseInt(strings.TrimSpace(rec.Header.Get("Content-Length")), 10, 64); err == nil {
			size = n
		}
		src := &Source{Name: name, Size: size, r: r, body: rec.Block, http: isHTTP, inRecord: true, uri: rec.TargetURI(),
			recordID: strings.TrimSpace(rec.Header.Get("WARC-Record-ID")), date: strings.TrimSpace(rec.Header.Get("WARC-Date"))}
		if isHTTP {
			src.truncated = rec.Header.Get("WARC-Truncated")
		} else {
			src.contentType = rec.Header.Get("Content-Type")
		}
		return src, nil
	}
}

// Detach reads the source's bytes out of the container, so that Open and
// the reading of the document's body may run after later calls to
// NextSource, on another goroutine. It reports false when they are more
// than max bytes: then what it read stays in front of the rest, and the
// source must be opened and read in turn, before the next NextSource. A
// read error (a WARC file cut short) comes after the bytes read before
// it, as it would in turn. Release gives the memory back once the
// document has been read.
func (s *Source) Detach(max int64) bool {
	if s.buf != nil {
		return true
	}
	if s.Size > max {
		return false
	}
	bp := bufPool.Get().(*[]byte)
	b := (*bp)[:0]
	var err error
	for int64(len(b)) <= max {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // room to read into, grown as append grows
		}
		var n int
		n, err = s.body.Read(b[len(b):min(cap(b), int(max)+1)])
		b = b[:len(b)+n]
		if err != nil {
			break
		}
	}
	if err == nil {
		// More than max: what was read goes first, then the rest, in
		// turn (the buffer goes with the body, not back to the pool).
		s.body = io.MultiReader(bytes.NewReader(b), s.body)
		return false
	}
	*bp = b
	s.buf = bp
	s.body = bytes.NewReader(b)
	if err != io.EOF {
		s.body = io.MultiReader(s.body, failing{err})
	}
	return true
}

// Release gives back the memory Detach took; the document's body may not
// be read after it.
func (s *Source) Release() {
	if s.buf != nil && cap(*s.buf) <= maxPooledBuf {
		bufPool.Put(s.buf)
	}
	s.buf = nil
}

// maxPooledBuf bounds the buffers kept for the next sources: a rare large
// record's is let go.
const maxPooledBuf = 4 << 20

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// failing is a reader that gives its error.
type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }

// Base is the base the document will have: its record's WARC-Target-URI
// when that parses, else the Reader's Options.Base. Known before Open, so
// that what depends on a document's site can be decided in input order.
func (s *Source) Base() string {
	if s.uri != "" {
		if _, err := weburl.ParseBase(s.uri); err == nil {
			return s.uri
		}
	}
	return s.r.opts.Base
}

// Open makes the source a document: it reads an HTTP response's head and
// undoes its body's framing and codings. It reports false when the source
// is no document after all (a WARC response record of an image, a script,
// a style sheet: no document to warn of).
func (s *Source) Open() (*Document, bool) {
	opts := s.r.opts
	opts.Base = s.Base()
	doc := &Document{Name: s.Name, URI: s.uri, RecordID: s.recordID, Date: s.date, Options: opts, Body: s.body}
	switch {
	case s.http:
		end := "the input"
		if s.inRecord {
			end = "the WARC record"
		}
		if !s.r.readResponse(doc, s.body, end, s) {
			return nil, false
		}
	case s.inRecord:
		// A resource record's block is the document itself, its media
		// type the record's Content-Type; with no coding to undo,
		// FromResponse has no error to give.
		resp := &http.Response{Header: http.Header{"Content-Type": {s.contentType}}, Body: io.NopCloser(s.body)}
		doc.Body, doc.Options, _ = robofilter.FromResponse(resp, opts)
	}
	return doc, true
}

// readResponse reads the HTTP response in body (bounded by end, for
// messages) into doc: its body, options and status, or its Err. In a WARC
// record, a response that is no page is no document: it reports false,
// and the warnings about its head are not given.
func (r *Reader) readResponse(doc *Document, body io.Reader, end string, s *Source) bool {
	held := true
	resp, err := httpresp.ReadSaved(body, end, func(msg string) {
		w := robofilter.Warning{Message: msg}
		doc.Warnings = append(doc.Warnings, w)
		if r.DocumentWarning != nil && !held {
			r.DocumentWarning(doc, w)
		}
	})
	if err == nil && s.inRecord && !isPage(resp.Header.Get("Content-Type")) {
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
	doc.Truncated = s.truncated
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
