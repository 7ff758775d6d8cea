// Package warc reads WARC files (ISO 28500, WARC/1.0 and 1.1), the format
// crawlers archive what they fetched in, record by record, as a stream:
// one record's block at a time, never the file.
//
// A Reader's Next returns the next record; its Block reads that record's
// content and is valid until the next call to Next, which skips what was
// not read. A file compressed with gzip, as WARC files usually are (one
// gzip member per record), is decompressed as it is read, a member at a
// time, so that a record's offset is its member's, as CDX indexes give it.
//
// A record that cannot be read costs that record, not the file: bytes that
// are no record (a wrong Content-Length's leftovers, garbage, zero padding,
// a corrupt gzip member) are skipped to the next line that starts a record
// ("WARC/1.", or a draft's "WARC/0.") or the next gzip member, and a header
// line that cannot be read is skipped; each is told to Reader.Warn with its
// position.
//
// ARC files, the format before WARC, are read too: each ARC record is
// given as the WARC record it would be (arc.go says how). So are
// zstd-compressed WARC files (.warc.zst, with the dictionary the IIPC's
// convention puts first: zstd.go), as one stream of decompressed bytes.
package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
)

// MaxHeaderBytes bounds a record's header block, which is held whole; a
// longer one is skipped, as a record that cannot be read.
const MaxHeaderBytes = 1 << 20

// maxLineWarnings bounds the warnings about one record's header lines (the
// rest are counted in one more).
const maxLineWarnings = 8

// bufSize is the size of the Reader's buffers (the file's bytes, the
// decompressed bytes).
const bufSize = 16 << 10

// Position is a place in a WARC file.
type Position struct {
	// Offset counts the file's bytes before the place or, when the place
	// is in a gzip member (Compressed), before that member: the offset a
	// CDX index gives a record.
	Offset int64
	// Compressed tells that the place is in a gzip member; InMember then
	// counts the member's decompressed bytes before it (0 for a record
	// that starts its member, as when each record has one of its own).
	Compressed bool
	InMember   int64
	// Zstd tells that the file is compressed with Zstandard (a .warc.zst
	// file): Offset then counts its decompressed bytes.
	Zstd bool
}

// String says where the place is and what its numbers count: "byte 4764
// of the file", "the gzip member at byte 1130 of the file", "decompressed
// byte 52 of the gzip member at byte 1130 of the file".
func (p Position) String() string {
	switch {
	case p.Zstd:
		return fmt.Sprintf("decompressed byte %d of the zstd-compressed file", p.Offset)
	case !p.Compressed:
		return fmt.Sprintf("byte %d of the file", p.Offset)
	case p.InMember == 0:
		return fmt.Sprintf("the gzip member at byte %d of the file", p.Offset)
	}
	return fmt.Sprintf("decompressed byte %d of the gzip member at byte %d of the file", p.InMember, p.Offset)
}

// Record is one WARC record: its named fields and its block.
type Record struct {
	Header textproto.MIMEHeader // the named fields, by canonical name (WARC-Type, WARC-Target-URI …)
	// Block reads the record's content: Content-Length bytes. Valid until
	// the next call to Next. A block cut short (by the file's end, or a
	// gzip member's) gives an error that wraps io.ErrUnexpectedEOF.
	Block    io.Reader
	Position // where the record starts
}

// Type is the record's WARC-Type (response, request, resource, warcinfo …).
func (r *Record) Type() string { return r.Header.Get("WARC-Type") }

// TargetURI is the URI of what the record holds (WARC-Target-URI), without
// the angle brackets WARC 1.0's examples put around it.
func (r *Record) TargetURI() string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(r.Header.Get("WARC-Target-URI")), "<"), ">")
}

// IsHTTPResponse reports whether a record's block is an HTTP response (a
// response record of a web crawl: Content-Type application/http). A
// response record without a Content-Type is one when its block starts
// with an HTTP status line ("HTTP/"), as warcio reads it; call it before
// reading the block, which it looks at.
func (r *Record) IsHTTPResponse() bool {
	if r.Type() != "response" {
		return false
	}
	ct := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Type")))
	if ct == "" {
		b, ok := r.Block.(*blockReader)
		return ok && bytes.HasPrefix(b.peek(5), []byte("HTTP/"))
	}
	return strings.HasPrefix(ct, "application/http") && !strings.Contains(ct, "msgtype=request")
}

// Warning is something a Reader skipped, or read otherwise than the
// standard says, and read on.
type Warning struct {
	Position // where what it is about starts: the record, or the bytes skipped
	// Skipped is how many bytes were skipped from Position on, counted as
	// Position counts them (the file's bytes, or the member's decompressed
	// bytes); 0 when no bytes were (a header line skipped says so in
	// Message).
	Skipped int64
	Message string
}

// String is the warning with its position: "at byte 4764 of the file: …".
func (w Warning) String() string { return "at " + w.Position.String() + ": " + w.Message }

// Reader reads a WARC file's records in order.
type Reader struct {
	// Warn, when set, is given each warning as it is found: in Next, or,
	// for a gzip member whose CRC-32 does not match, in the Block's Read
	// that reaches the member's end.
	Warn func(Warning)

	file   *countingReader
	raw    *bufio.Reader // the file
	mem    *members      // the gzip members, decompressed
	dec    *bufio.Reader // over mem
	in     *bufio.Reader // where the Reader is: raw (a file or record not compressed) or dec
	block  *blockReader  // the current record's
	record Position      // where the current record starts
	after  bool          // the Reader is right after a record's block
	err    error
	line   []byte // a header line longer than the buffer, put together
	// work counts the bytes the Reader has looked at (read, decompressed,
	// scanned, peeked): tests bound it by the input's size.
	work int64
	// arc: the file is an ARC file (arc.go).
	arc bool
	// zstd: the file is zstd-compressed, and file counts its decompressed
	// bytes (zstd.go).
	zstd bool
}

// countingReader counts the file's bytes read, and keeps a read error.
type countingReader struct {
	r   io.Reader
	n   int64
	err error // other than io.EOF
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// NewReader reads the WARC file r, gzip-compressed or not (told by its
// bytes, member by member), or zstd-compressed. Its error is one reading
// the file's first bytes, or, for a zstd-compressed file, its dictionary
// frame's (without the dictionary no frame can be read).
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{file: &countingReader{r: r}}
	rd.raw = bufio.NewReaderSize(rd.file, bufSize)
	if zr, ok, err := zstdFile(rd.raw); err != nil {
		return nil, err
	} else if ok {
		// The Reader reads the decompressed stream as its file: its
		// offsets count those bytes.
		rd.zstd = true
		rd.file = &countingReader{r: zr}
		rd.raw = bufio.NewReaderSize(rd.file, bufSize)
	}
	rd.mem = &members{rd: rd, stop: io.EOF}
	rd.dec = bufio.NewReaderSize(rd.mem, bufSize)
	rd.in = rd.raw
	if _, err := rd.raw.Peek(1); err != nil && err != io.EOF {
		return nil, err
	}
	return rd, nil
}

// filePos is the offset in the file of the next byte raw gives.
func (rd *Reader) filePos() int64 { return rd.file.n - int64(rd.raw.Buffered()) }

// offset is where the Reader is in what it reads (rd.in): the file's
// bytes, or the members' decompressed bytes.
func (rd *Reader) offset() int64 {
	if rd.in == rd.raw {
		return rd.filePos()
	}
	return rd.mem.out - int64(rd.dec.Buffered())
}

// positionAt is the Position of an offset in rd.in.
func (rd *Reader) positionAt(off int64) Position {
	if rd.in == rd.raw {
		return Position{Offset: off, Zstd: rd.zstd}
	}
	return rd.mem.position(off)
}

func (rd *Reader) warn(p Position, msg string) { rd.warnSkipped(p, 0, msg) }

func (rd *Reader) warnSkipped(p Position, n int64, msg string) {
	if rd.Warn != nil {
		rd.Warn(Warning{Position: p, Skipped: n, Message: msg})
	}
}

// Next returns the next record, or io.EOF after the last. What it cannot
// read as a record it skips, and tells Warn. Its other errors end the
// file, and it keeps returning them: the file's end cutting a record short
// (after what could be read of it was), or reading the file failing. Their
// message gives the record's position.
func (rd *Reader) Next() (*Record, error) {
	if rd.err != nil {
		return nil, rd.err
	}
	if b := rd.block; b != nil {
		rd.block = nil
		_, err := io.Copy(io.Discard, b)
		b.done = true
		if err != nil {
			if rd.stopEndsFile(b.cause) {
				return nil, rd.fail(rd.record, err)
			}
			rd.warn(rd.record, err.Error())
		}
		rd.after = true
	}
	for {
		in := rd.in
		rd.skipLineEnds(in)
		b, err := in.Peek(10)
		rd.work += int64(len(b))
		switch {
		case len(b) == 0 && in == rd.dec:
			// Decompression stopped: the file's bytes go on from there.
			if rd.stopEndsFile(err) && err != io.EOF {
				rd.err = err // it says where
				return nil, err
			}
			var me *memberError
			if errors.As(err, &me) {
				rd.warn(Position{Offset: me.member, Compressed: true}, me.Error()+"; read on from the next gzip member or record")
			}
			rd.in, rd.after = rd.raw, false
		case len(b) == 0:
			if err == io.EOF {
				rd.err = io.EOF
			} else {
				rd.err = fmt.Errorf("at %v: %w", rd.positionAt(rd.offset()), err)
			}
			return nil, rd.err
		case in == rd.raw && isGzipStart(b):
			rd.mem.open()
			rd.in = rd.dec
		case isRecordStart(b):
			rd.after = false
			if rec, err := rd.readRecord(in); rec != nil || err != nil {
				return rec, err
			}
		case rd.arc || isARCStart(b):
			rd.arc, rd.after = true, false
			if rec, err := rd.readARCRecord(in); rec != nil || err != nil {
				return rec, err
			}
		default:
			rd.skip(in)
			rd.after = false
		}
	}
}

func (rd *Reader) fail(p Position, err error) error {
	rd.err = fmt.Errorf("WARC record at %v: %w", p, err)
	return rd.err
}

// skipLineEnds skips the CRs and LFs that end a record (two CRLFs; some
// writers put more, or fewer).
func (rd *Reader) skipLineEnds(in *bufio.Reader) {
	for {
		b, _ := in.Peek(1)
		if len(b) == 0 || b[0] != '\r' && b[0] != '\n' {
			return
		}
		in.Discard(1)
		rd.work++
	}
}

// skip skips bytes that are no record up to the next place where one may
// start: "WARC/1." (isRecordStart) after a line's end or a NUL (zero
// padding), or, in a gzip file, a gzip member's
// start (or the end of what can be read there). The byte it starts at
// starts no record: it skips at least that one. It tells Warn what it
// skipped.
func (rd *Reader) skip(in *bufio.Reader) {
	at := rd.positionAt(rd.offset())
	var n int64
	var head []byte // the first bytes skipped, quoted in the warning
	zeros := true
	consume := func(k int) {
		b, _ := in.Peek(k)
		if len(head) < 32 {
			head = append(head, b[:min(len(b), 32-len(head))]...)
		}
		for _, c := range b {
			if c != 0 {
				zeros = false
				break
			}
		}
		in.Discard(k)
		n += int64(k)
		rd.work += int64(k)
	}
scan:
	for {
		if _, err := in.Peek(1); err != nil {
			break // the end of what can be read here
		}
		buf, _ := in.Peek(in.Buffered())
		lim := len(buf)
		if in == rd.dec {
			off := rd.offset()
			if n > 0 && rd.mem.startAfter(off-1) == off {
				break // a member starts here
			}
			if s := rd.mem.startAfter(off); s >= 0 && s-off < int64(lim) {
				lim = int(s - off)
			}
		}
		i := 0
		for i < lim && !endsLine(buf[i]) && (buf[i] != 0x1F || in != rd.raw) {
			i++
		}
		rd.work += int64(i)
		if i == lim {
			consume(lim)
			continue
		}
		consume(i)
		if endsLine(buf[i]) {
			look, _ := in.Peek(8)
			rd.work += int64(len(look))
			found := len(look) == 8 && isRecordStart(look[1:])
			consume(1)
			if found || rd.arc && rd.arcHeaderAhead(in) {
				break scan
			}
			continue
		}
		look, _ := in.Peek(10)
		rd.work += int64(len(look))
		if isGzipStart(look) {
			break
		}
		consume(1)
	}
	what := "bytes"
	if in == rd.dec {
		what = "decompressed bytes"
	}
	record := "WARC record"
	if rd.arc {
		record = "ARC record"
	}
	msg := fmt.Sprintf("skipped %d %s that are no %s, starting %q", n, what, record, head)
	switch {
	case zeros:
		msg = fmt.Sprintf("skipped %d %s, all zero (padding)", n, what)
	case rd.after:
		msg += fmt.Sprintf(", after the block of the record at %v (its Content-Length may be wrong)", rd.record)
	}
	rd.warnSkipped(at, n, msg)
}

// isRecordStart reports whether b starts as a record does: "WARC/",
// a digit, "." (WARC/1.0, 1.1, and the drafts' 0.17, 0.18).
func isRecordStart(b []byte) bool {
	return len(b) >= 7 && string(b[:5]) == "WARC/" && '0' <= b[5] && b[5] <= '9' && b[6] == '.'
}

// endsLine reports whether a record may start after c: a line's end, or
// the NUL of zero padding.
func endsLine(c byte) bool { return c == '\n' || c == '\r' || c == 0 }

// readLine reads a line (to its LF, included; or to the end of what can
// be read there, with the error) of at most *budget bytes, which it takes
// from *budget; a longer line is cut there, tooLong. The line is valid
// until the next read.
func (rd *Reader) readLine(in *bufio.Reader, budget *int) (line []byte, tooLong bool, err error) {
	rd.line = rd.line[:0]
	for {
		b, err := in.ReadSlice('\n')
		rd.work += int64(len(b))
		if len(b) > *budget {
			*budget = 0
			return nil, true, nil
		}
		*budget -= len(b)
		if err != bufio.ErrBufferFull {
			if len(rd.line) > 0 {
				b = append(rd.line, b...)
				rd.line = b
			}
			return b, false, err
		}
		rd.line = append(rd.line, b...)
	}
}

// readRecord reads the record that starts at in's next byte (isRecordStart). A
// record that cannot be read is told Warn, and gives neither a record nor
// an error: Next reads on from where it stopped.
func (rd *Reader) readRecord(in *bufio.Reader) (*Record, error) {
	start := rd.positionAt(rd.offset())
	budget := MaxHeaderBytes
	if _, tooLong, err := rd.readLine(in, &budget); tooLong || err != nil {
		return nil, rd.headerFailed(start, tooLong, err)
	}
	header := textproto.MIMEHeader{}
	lineNo, lastKey, strayCR, skipped := 1, "", false, 0
	skipLine := func(line []byte, why string) {
		if skipped++; skipped <= maxLineWarnings {
			rd.warn(start, fmt.Sprintf("skipped header line %d, %.100q: %s", lineNo, line, why))
		}
	}
	// folded is the last field's value while continuation lines add to
	// it (nil: none did), set once its field ends: made anew for each
	// line, a value of many short lines cost their square.
	var folded []byte
	endFolded := func() {
		if folded != nil {
			v := header[lastKey]
			v[len(v)-1], folded = string(folded), nil
		}
	}
	for {
		lineStart := rd.offset()
		line, tooLong, err := rd.readLine(in, &budget)
		lineNo++
		if tooLong || err != nil {
			return nil, rd.headerFailed(start, tooLong, err)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if trimmed := bytes.TrimRight(line, "\r"); len(trimmed) < len(line) {
			strayCR, line = true, trimmed
		}
		switch colon := bytes.IndexByte(line, ':'); {
		case len(line) == 0:
			endFolded()
			if skipped > maxLineWarnings {
				rd.warn(start, fmt.Sprintf("skipped %d more header lines", skipped-maxLineWarnings))
			}
			if strayCR {
				rd.warn(start, "the record's header lines end in CR CR LF: the extra CR is read as white space")
			}
			return rd.startBlock(start, header)
		case isRecordStart(line):
			// A record's header cut short by the next record: the
			// next is read, from this line.
			next := rd.positionAt(lineStart)
			folded = nil
			rd.warn(start, fmt.Sprintf("the record's header has no end (blank line) before the next record, at %v: skipped", next))
			start, header, lineNo, lastKey, strayCR, skipped = next, textproto.MIMEHeader{}, 1, "", false, 0
			budget = MaxHeaderBytes - len(line)
		case bytes.IndexByte(line, 0) >= 0:
			skipLine(line, "it holds a NUL byte")
		case line[0] == ' ' || line[0] == '\t':
			if lastKey == "" {
				skipLine(line, "a continuation line with no field before it")
				continue
			}
			if folded == nil {
				v := header[lastKey]
				folded = []byte(v[len(v)-1])
			}
			// The value and the line, trimmed, joined by a space.
			if part := bytes.TrimSpace(line); len(part) > 0 {
				if len(folded) > 0 {
					folded = append(folded, ' ')
				}
				folded = append(folded, part...)
			}
		case colon < 0:
			skipLine(line, "no colon")
		case len(bytes.TrimSpace(line[:colon])) == 0:
			skipLine(line, "no field name before the colon")
		default:
			endFolded()
			lastKey = textproto.CanonicalMIMEHeaderKey(string(bytes.TrimSpace(line[:colon])))
			header[lastKey] = append(header[lastKey], string(bytes.TrimSpace(line[colon+1:])))
		}
	}
}

// headerFailed says why a record's header could not be read: too long
// (skipped), cut short by what can be read there (skipped, or, cut by the
// file's end, the error that ends it).
func (rd *Reader) headerFailed(start Position, tooLong bool, err error) error {
	switch {
	case tooLong:
		rd.warn(start, fmt.Sprintf("the record's header is longer than %d bytes: skipped", MaxHeaderBytes))
		return nil
	case err == io.EOF:
		return rd.fail(start, fmt.Errorf("the record's header is cut short by the file's end: %w", io.ErrUnexpectedEOF))
	case rd.stopEndsFile(err):
		return rd.fail(start, fmt.Errorf("the record's header is cut short: %w", err))
	}
	rd.warn(start, fmt.Sprintf("the record's header is cut short (%v): skipped", err))
	return nil
}

// startBlock makes the record whose header was read, or says why it
// cannot be read.
func (rd *Reader) startBlock(start Position, header textproto.MIMEHeader) (*Record, error) {
	lengths := header["Content-Length"]
	if len(lengths) == 0 {
		rd.warn(start, "the record has no Content-Length: skipped (where it ends is unknown)")
		return nil, nil
	}
	length, err := strconv.ParseInt(strings.TrimSpace(lengths[0]), 10, 64)
	if err != nil || length < 0 {
		rd.warn(start, fmt.Sprintf("the record's Content-Length %q is not a length: skipped", lengths[0]))
		return nil, nil
	}
	rd.record = start
	rd.block = &blockReader{rd: rd, in: rd.in, length: length, left: length}
	return &Record{Header: header, Block: rd.block, Position: start}, nil
}

// blockReader reads a record's block: length bytes of in.
type blockReader struct {
	rd           *Reader
	in           *bufio.Reader
	length, left int64
	err          error // what cut the block short, said
	cause        error // what in gave
	done         bool  // Next has gone past the record
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.left <= 0 || b.done {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.in.Read(p)
	b.left -= int64(n)
	b.rd.work += int64(n)
	if err != nil && b.left > 0 {
		b.cause = err
		if b.rd.file.err != nil {
			b.err = err
			return n, err
		}
		why := "the file ends"
		if err != io.EOF {
			why = err.Error()
		}
		b.err = fmt.Errorf("the record's block is cut short after %d of its %d bytes (%s): %w", b.length-b.left, b.length, why, io.ErrUnexpectedEOF)
		return n, b.err
	}
	return n, nil
}

// peek is the block's first bytes, up to n, before it is read.
func (b *blockReader) peek(n int) []byte {
	if b.done || b.left < b.length {
		return nil
	}
	p, _ := b.in.Peek(int(min(int64(n), b.left)))
	return p
}
