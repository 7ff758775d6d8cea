package warc

import (
	"bufio"
	"bytes"
	"fmt"
	"net/textproto"
	"strconv"
	"strings"
)

// ARC files, the Internet Archive's format before WARC (most archives of
// 1996–2008 are ARC), are read as WARC files: a Reader whose file starts
// with an ARC version block ("filedesc://") reads ARC records and gives
// each as the WARC record it would be, its named fields made from the
// ARC header line (arc2warc, as warcio and the Wayback Machine read them):
//
//   - the version block is a warcinfo record;
//   - a record whose content starts with an HTTP status line is a
//     response record (Content-Type application/http), any other a
//     resource record of the ARC line's content type;
//   - WARC-Target-URI is the URL (which may hold spaces: an ARC line's
//     fields are counted from its end), WARC-Date the archive date
//     (YYYYMMDDhhmmss, written as WARC writes dates), WARC-IP-Address the
//     IP address, Content-Length the archive length.
//
// An ARC header line is "URL IP-address Archive-date Content-type
// Archive-length" (version 1), or, in version 2, "URL IP-address
// Archive-date Content-type Result-code Checksum Location Offset Filename
// Archive-length". A record ends after its length's bytes and an LF.
// What does not read as a header line (no URL, no date) is skipped to the
// next line that does, with a warning, as bytes between WARC records are;
// a header line whose length is no number is a record with an empty block
// and a warning (warcio reads bad.arc so: four records).

// maxARCLine bounds an ARC header line (a URL is seldom more than a few
// KiB; a line past this is no header).
const maxARCLine = 16 << 10

// isARCStart reports whether b (the start of what is read, at least 10
// bytes when there are) starts an ARC file: its version block.
func isARCStart(b []byte) bool { return bytes.HasPrefix(b, []byte("filedesc:")) }

// arcLine is an ARC header line's fields.
type arcLine struct {
	url, ip, date, contentType string
	length                     int64
}

// parseARCLine reads an ARC header line (without its LF), version 1 or 2
// by its number of fields. ok is false when it is none. why, when not
// empty, says that its length does not read (the line is a header all the
// same, its length 0).
func parseARCLine(line []byte) (l arcLine, ok bool, why string) {
	f := strings.Fields(string(line))
	if len(f) < 5 || strings.IndexByte(f[0], ':') < 0 {
		return l, false, ""
	}
	n := 5
	if len(f) >= 10 && isARCDate(f[len(f)-8]) && !isARCDate(f[len(f)-3]) {
		n = 10 // version 2: result code, checksum, location, offset and filename before the length
	}
	date := f[len(f)-n+2]
	if !isARCDate(date) {
		return l, false, ""
	}
	l = arcLine{url: strings.Join(f[:len(f)-n+1], " "), ip: f[len(f)-n+1], date: date, contentType: f[len(f)-n+3]}
	length, err := strconv.ParseInt(f[len(f)-1], 10, 64)
	if err != nil || length < 0 {
		return l, true, fmt.Sprintf("the ARC record's length %q is not a length", f[len(f)-1])
	}
	l.length = length
	return l, true, ""
}

// isARCDate reports whether s is an ARC archive date: 14 digits (or
// more: some writers add fractions; fewer: older ones to the day).
func isARCDate(s string) bool {
	if len(s) < 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// warcDate writes an ARC date (YYYYMMDDhhmmss…) as WARC does.
func warcDate(d string) string {
	d = (d + "00000000000000")[:14]
	return d[0:4] + "-" + d[4:6] + "-" + d[6:8] + "T" + d[8:10] + ":" + d[10:12] + ":" + d[12:14] + "Z"
}

// arcLineAhead reads the line at in's next byte, without reading past it,
// if it is at most maxARCLine bytes; ok false when there is none.
func (rd *Reader) arcLineAhead(in *bufio.Reader) (line []byte, ok bool) {
	for n := 64; ; n *= 2 {
		b, err := in.Peek(min(n, maxARCLine+1))
		rd.work += int64(len(b))
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return bytes.TrimSuffix(b[:i], []byte("\r")), true
		}
		if err != nil || len(b) > maxARCLine || n >= maxARCLine+1 {
			return nil, false
		}
	}
}

// readARCRecord reads the ARC record that starts at in's next byte. A
// line that is no ARC header is skipped (it tells Warn, as skip does):
// neither a record nor an error.
func (rd *Reader) readARCRecord(in *bufio.Reader) (*Record, error) {
	start := rd.positionAt(rd.offset())
	line, ok := rd.arcLineAhead(in)
	var l arcLine
	var why string
	if ok {
		l, ok, why = parseARCLine(line)
	}
	if !ok {
		rd.skip(in)
		return nil, nil
	}
	if why != "" {
		// As warcio does: the record is read with an empty block, and
		// what follows it is skipped to the next header line (skip says
		// how much).
		rd.warn(start, why+": its block is read as empty")
	}
	budget := maxARCLine + 2
	if _, _, err := rd.readLine(in, &budget); err != nil {
		return nil, rd.headerFailed(start, false, err)
	}
	header := textproto.MIMEHeader{
		"Warc-Target-Uri": {l.url},
		"Warc-Date":       {warcDate(l.date)},
		"Warc-Ip-Address": {l.ip},
		"Content-Length":  {strconv.FormatInt(l.length, 10)},
	}
	switch head, _ := in.Peek(int(min(l.length, 5))); {
	case strings.HasPrefix(l.url, "filedesc:"):
		header["Warc-Type"] = []string{"warcinfo"}
		header["Content-Type"] = []string{l.contentType}
	case bytes.Equal(head, []byte("HTTP/")):
		header["Warc-Type"] = []string{"response"}
		header["Content-Type"] = []string{"application/http; msgtype=response"}
	default:
		header["Warc-Type"] = []string{"resource"}
		header["Content-Type"] = []string{l.contentType}
	}
	return rd.startBlock(start, header)
}

// arcHeaderAhead reports whether the line at in's next byte is an ARC
// header line: where skip stops.
func (rd *Reader) arcHeaderAhead(in *bufio.Reader) bool {
	line, ok := rd.arcLineAhead(in)
	if !ok {
		return false
	}
	_, ok, _ = parseARCLine(line)
	return ok
}
