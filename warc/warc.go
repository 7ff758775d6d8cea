// Package warc reads WARC files (ISO 28500, WARC/1.0 and 1.1), the format
// crawlers archive what they fetched in, record by record, as a stream:
// one record's block at a time, never the file.
//
// A Reader's Next returns the next record; its Block reads that record's
// content and is valid until the next call to Next, which skips what was
// not read. A file compressed with gzip, as WARC files usually are (one
// gzip member per record), is decompressed as it is read.
package warc

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/robofilter/robofilter/internal/exact"
)

// MaxHeaderBytes bounds a record's header block, which is held whole (give
// or take the 4 KiB read ahead of it).
const MaxHeaderBytes = 1 << 20

// Record is one WARC record: its named fields and its block.
type Record struct {
	Header textproto.MIMEHeader // the named fields, by canonical name (WARC-Type, WARC-Target-URI …)
	// Block reads the record's content: Content-Length bytes. Valid until
	// the next call to Next.
	Block io.Reader
	// Offset is where the record starts in the file, decompressed: in a
	// gzipped file, the offset in the stream gunzip gives.
	Offset int64
}

// Type is the record's WARC-Type (response, request, resource, warcinfo …).
func (r *Record) Type() string { return r.Header.Get("WARC-Type") }

// TargetURI is the URI of what the record holds (WARC-Target-URI), without
// the angle brackets WARC 1.0's examples put around it.
func (r *Record) TargetURI() string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(r.Header.Get("WARC-Target-URI")), "<"), ">")
}

// ErrHeaderTooLong is the error of a record whose header block is longer
// than MaxHeaderBytes.
var ErrHeaderTooLong = errors.New("a WARC record's header is longer than 1 MiB")

// Reader reads a WARC file's records in order.
type Reader struct {
	br     *bufio.Reader
	count  *countingReader
	block  *exact.LengthReader // the current record's
	offset int64               // where the current record starts
	err    error
}

// NewReader reads the WARC file r, gzip-compressed or not (told by its
// first bytes).
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1F && magic[1] == 0x8B {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		br = bufio.NewReader(zr)
	}
	c := &countingReader{r: br}
	return &Reader{br: bufio.NewReader(c), count: c}, nil
}

// countingReader counts the bytes read through it (for limits and
// offsets).
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64 // reads fail past it while positive
}

var errLimit = errors.New("limit")

func (c *countingReader) Read(p []byte) (int, error) {
	if c.limit > 0 {
		if c.n >= c.limit {
			return 0, errLimit
		}
		p = p[:min(int64(len(p)), c.limit-c.n)]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Next returns the next record, or io.EOF after the last. A record that is
// not WARC (no WARC/ version line, no or a bad Content-Length) or cut short
// is an error, with its offset (in the decompressed file, as Offset); the
// Reader stops there, as nothing tells where the next record would start.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.block != nil {
		// The rest of the last block, then the two CRLFs that end a record.
		if _, err := io.Copy(io.Discard, r.block); err != nil {
			return nil, r.fail(r.offset, fmt.Errorf("reading the record's block: %w", err))
		}
		if r.block.N > 0 {
			return nil, r.fail(r.offset, fmt.Errorf("the record's block is cut short: %w", io.ErrUnexpectedEOF))
		}
		r.block = nil
	}
	// Blank lines between records are tolerated (some writers add more).
	for {
		b, err := r.br.Peek(1)
		if len(b) == 0 {
			if err == io.EOF {
				r.err = io.EOF
			} else {
				r.err = err
			}
			return nil, r.err
		}
		if b[0] != '\r' && b[0] != '\n' {
			break
		}
		r.br.ReadByte()
	}
	r.offset = r.count.n - int64(r.br.Buffered())
	r.count.limit = r.count.n + MaxHeaderBytes
	header, err := r.readHeader()
	r.count.limit = 0
	if err != nil {
		return nil, r.fail(r.offset, err)
	}
	length, err := strconv.ParseInt(strings.TrimSpace(header.Get("Content-Length")), 10, 64)
	if err != nil || length < 0 {
		return nil, r.fail(r.offset, fmt.Errorf("the record's Content-Length %q is not a length", header.Get("Content-Length")))
	}
	r.block = exact.Reader(r.br, length)
	return &Record{Header: header, Block: r.block, Offset: r.offset}, nil
}

func (r *Reader) fail(offset int64, err error) error {
	r.err = fmt.Errorf("WARC record at byte %d: %w", offset, err)
	return r.err
}

// readHeader reads the version line and the named fields.
func (r *Reader) readHeader() (textproto.MIMEHeader, error) {
	tp := textproto.NewReader(r.br)
	version, err := tp.ReadLine()
	if err != nil {
		return nil, r.headerError(err)
	}
	if !strings.HasPrefix(version, "WARC/") {
		return nil, fmt.Errorf("not a WARC record: it starts %.40q", version)
	}
	header, err := tp.ReadMIMEHeader()
	if err != nil {
		return nil, r.headerError(err)
	}
	return header, nil
}

func (r *Reader) headerError(err error) error {
	switch {
	case r.count.limit > 0 && r.count.n >= r.count.limit, errors.Is(err, errLimit):
		return ErrHeaderTooLong
	case err == io.EOF:
		return fmt.Errorf("the record's header is cut short: %w", io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("the record's header: %w", err)
}

// IsHTTPResponse reports whether a record's block is an HTTP response (a
// response record of a web crawl: Content-Type application/http).
func (r *Record) IsHTTPResponse() bool {
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	return r.Type() == "response" && strings.HasPrefix(strings.TrimSpace(ct), "application/http") &&
		!strings.Contains(ct, "msgtype=request")
}
