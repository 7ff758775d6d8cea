// Package wet writes WET files, the format Common Crawl publishes a
// crawl's text in: WARC records (WARC/1.0), first a warcinfo record that
// says what the file is, then one conversion record per page whose block
// is the page's text (text/plain, UTF-8), and, last, a metadata record
// that counts what was written and what was left out. Each record is a
// gzip member of its own when the file is compressed, as Common Crawl
// writes them, so that any record can be read on its own from its offset.
//
// The file is a function of its input: record IDs are name-based UUIDs
// (RFC 9562, version 5) of what each record is about, and dates are the
// input's, so the same crawl gives the same bytes however it was run.
//
// A Writer is not safe for concurrent use: give it the pages in order.
package wet

import (
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Options say what the warcinfo record says and how the file is written.
type Options struct {
	// Gzip writes each record as a gzip member of its own (a .warc.wet.gz
	// file).
	Gzip bool
	// Filename is the WET file's name (WARC-Filename).
	Filename string
	// Date is the warcinfo record's WARC-Date, as WARC writes it
	// (2006-01-02T15:04:05Z): when the input was made, for a file that is
	// a function of its input. Empty: the time SOURCE_DATE_EPOCH names
	// (seconds since 1970, the reproducible-builds convention) when it is
	// set, else now, when the record is made (the field is mandatory; an
	// input without a dated page has no better).
	Date string
	// Fields are more of the warcinfo record's fields (software,
	// isPartOf, description …), written in the order of their names after
	// the format's own.
	Fields map[string]string
}

// Page is one page's text, with what identifies the response it came
// from.
type Page struct {
	TargetURI string // the response's WARC-Target-URI
	Date      string // the response's WARC-Date
	RefersTo  string // the response's WARC-Record-ID, with its angle brackets
	Text      []byte // the page's text, UTF-8
	// Truncated says why Text is less than the page's text (WARC-Truncated:
	// "length"), or "".
	Truncated string
}

// Writer writes a WET file.
type Writer struct {
	w      io.Writer
	opts   Options
	gz     *gzip.Writer
	info   string // the warcinfo record's ID
	counts map[string]int64
	order  []string // the counts' names, in the order first counted
	buf    bytes.Buffer
	err    error
}

// NewWriter writes the warcinfo record to w and returns a Writer for the
// pages.
func NewWriter(w io.Writer, opts Options) (*Writer, error) {
	if opts.Date == "" {
		opts.Date = undatedDate()
	}
	wr := &Writer{w: w, opts: opts, counts: map[string]int64{}}
	if opts.Gzip {
		wr.gz, _ = gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	}
	var block strings.Builder
	software := opts.Fields["software"]
	if software == "" {
		software = "robofilter"
	}
	fmt.Fprintf(&block, "software: %s\r\nformat: WARC File Format 1.0\r\n", fieldValue(software))
	names := make([]string, 0, len(opts.Fields))
	for name := range opts.Fields {
		if name != "software" && name != "format" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&block, "%s: %s\r\n", fieldName(name), fieldValue(opts.Fields[name]))
	}
	wr.info = recordID("warcinfo", opts.Filename, opts.Date)
	fields := [][2]string{
		{"WARC-Type", "warcinfo"},
		{"WARC-Date", opts.Date},
		{"WARC-Filename", opts.Filename},
		{"WARC-Record-ID", wr.info},
		{"Content-Type", "application/warc-fields"},
	}
	return wr, wr.record(fields, []byte(block.String()))
}

// Write writes a page's conversion record.
func (w *Writer) Write(p Page) error {
	if err := w.record(conversionFields(p), p.Text); err != nil {
		return err
	}
	w.Count("pages written", 1)
	return nil
}

// conversionFields are a page's conversion record's named fields.
func conversionFields(p Page) [][2]string {
	return [][2]string{
		{"WARC-Type", "conversion"},
		{"WARC-Target-URI", p.TargetURI},
		{"WARC-Date", p.Date},
		{"WARC-Record-ID", recordID("conversion", p.RefersTo, p.TargetURI, p.Date)},
		{"WARC-Refers-To", p.RefersTo},
		{"WARC-Block-Digest", BlockDigest(p.Text)},
		{"WARC-Truncated", p.Truncated},
		{"Content-Type", "text/plain"},
	}
}

// AppendPage appends a page's conversion record to b, a gzip member of its
// own when gzipped: what Writer.Write writes, made apart from the file
// (on another goroutine, say), for Writer.WriteEncoded.
func AppendPage(b []byte, p Page, gzipped bool) []byte {
	var out bytes.Buffer
	out.Write(b)
	w := &Writer{w: &out}
	if gzipped {
		w.gz, _ = gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	}
	w.record(conversionFields(p), p.Text) // a bytes.Buffer does not fail
	return out.Bytes()
}

// WriteEncoded writes pages' conversion records that AppendPage made
// (compressed as the file is), counting them as n pages written.
func (w *Writer) WriteEncoded(records []byte, n int) error {
	if w.err != nil {
		return w.err
	}
	if _, err := w.w.Write(records); err != nil {
		w.err = err
		return err
	}
	w.Count("pages written", int64(n))
	return nil
}

// Count adds n to a count the closing metadata record gives (pages left
// out and why: "noindex", "no text" …).
func (w *Writer) Count(name string, n int64) {
	if _, ok := w.counts[name]; !ok {
		w.order = append(w.order, name)
	}
	w.counts[name] += n
}

// Close writes the metadata record with the counts. It does not close
// the underlying writer.
func (w *Writer) Close() error {
	var block strings.Builder
	for _, name := range w.order {
		fmt.Fprintf(&block, "%s: %d\r\n", fieldName(name), w.counts[name])
	}
	fields := [][2]string{
		{"WARC-Type", "metadata"},
		{"WARC-Date", w.opts.Date},
		{"WARC-Record-ID", recordID("counts", w.info)},
		{"WARC-Concurrent-To", w.info},
		{"Content-Type", "application/warc-fields"},
	}
	return w.record(fields, []byte(block.String()))
}

// record writes one record: its fields (those with no value left out),
// Content-Length, the block and the two CRLFs that end it; a gzip member
// of its own when the file is compressed.
func (w *Writer) record(fields [][2]string, block []byte) error {
	if w.err != nil {
		return w.err
	}
	b := &w.buf
	b.Reset()
	b.WriteString("WARC/1.0\r\n")
	for _, f := range fields {
		if f[1] != "" {
			b.WriteString(f[0])
			b.WriteString(": ")
			b.WriteString(fieldValue(f[1]))
			b.WriteString("\r\n")
		}
	}
	fmt.Fprintf(b, "Content-Length: %d\r\n\r\n", len(block))
	var out io.Writer = w.w
	if w.gz != nil {
		w.gz.Reset(w.w)
		out = w.gz
	}
	if _, err := out.Write(b.Bytes()); err != nil {
		w.err = err
		return err
	}
	if _, err := out.Write(block); err != nil {
		w.err = err
		return err
	}
	if _, err := io.WriteString(out, "\r\n\r\n"); err != nil {
		w.err = err
		return err
	}
	if w.gz != nil {
		if err := w.gz.Close(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

// BlockDigest is a block's WARC-Block-Digest as Common Crawl writes it:
// its SHA-1 in base 32.
func BlockDigest(block []byte) string {
	sum := sha1.Sum(block)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

// recordID is the record ID of what the parts name: a name-based UUID
// (RFC 9562, version 5) in robofilter's namespace.
func recordID(parts ...string) string {
	h := sha1.New()
	h.Write(namespace[:])
	h.Write([]byte(strings.Join(parts, "\x00")))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // the RFC's variant
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// namespace is robofilter's UUID namespace for record IDs: the version 5
// UUID of "https://github.com/robofilter/robofilter/wet" in the URL
// namespace of RFC 9562 (eaa3e203-34cf-576c-a78b-14703c2bd837).
var namespace = [16]byte{0xea, 0xa3, 0xe2, 0x03, 0x34, 0xcf, 0x57, 0x6c, 0xa7, 0x8b, 0x14, 0x70, 0x3c, 0x2b, 0xd8, 0x37}

// fieldValue keeps a field's value on its line: CR and LF, which would
// start another field, become spaces.
func fieldValue(v string) string {
	if strings.ContainsAny(v, "\r\n") {
		v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
	}
	return v
}

// fieldName makes a count's name a field name: letters, digits and '-'.
func fieldName(name string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, name)
}

// undatedDate is the WARC-Date of a file whose input gave no date:
// SOURCE_DATE_EPOCH's when it is set (so that such a file is the same
// from run to run too), else now.
func undatedDate() string {
	t := time.Now()
	if v := os.Getenv("SOURCE_DATE_EPOCH"); v != "" {
		if sec, err := strconv.ParseInt(v, 10, 64); err == nil {
			t = time.Unix(sec, 0)
		}
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}
