package httpresp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/textproto"
	"strconv"
	"strings"
)

// MaxHead bounds a response's status line and headers, as net/http's
// server bounds a request's (DefaultMaxHeaderBytes): the head is held in
// memory whole.
const MaxHead = 1 << 20

// MaxResponses bounds the responses read before the one that counts
// (interim ones, redirects: curl's --max-redirs is 50 too).
const MaxResponses = 50

// MaxHeadLineWarnings bounds the warnings about one head's malformed
// lines; one more counts the rest.
const MaxHeadLineWarnings = 10

var errHTTPHeadTooLong = errors.New("the status line and headers are longer than 1 MiB")

// savedResponse reads an HTTP response as a tool saved it.
type savedResponse struct {
	br *bufio.Reader
	// end names what bounds the response, for messages: "the input",
	// "the WARC record".
	end string
	// warn is given what a user should know of the response's reading
	// (a header line skipped, a body longer than its Content-Length);
	// nil: nobody is told.
	warn func(string)
}

func (s *savedResponse) warnf(format string, args ...any) {
	if s.warn != nil {
		s.warn(fmt.Sprintf(format, args...))
	}
}

// ReadSaved reads an HTTP response as a tool saved it (curl -si,
// curl -siL, a WARC response record): the status line (HTTP/1.x, or
// HTTP/2 and HTTP/3 as curl writes them), the headers and the body. The
// input bounds the response (end names it in messages: "the input", "the
// WARC record"); warn (nil: none) is told what the reading did that the
// user would not assume.
//
// A response whose head another one follows at once had no body written:
// an interim response (1xx), a redirect curl -L followed, a proxy's
// "Connection established", a response to HEAD (curl -I); the last
// response counts. A header line that does not read as one is skipped,
// with a warning, as browsers and warcio skip it. The body's framing is
// undone as the saved bytes allow (savedBody).
func ReadSaved(r io.Reader, end string, warn func(string)) (*http.Response, error) {
	s := &savedResponse{br: bufio.NewReader(r), end: end, warn: warn}
	for n := 1; ; n++ {
		resp, err := s.readHead()
		if err == io.ErrUnexpectedEOF {
			err = fmt.Errorf("the input ends before the empty line that ends them: %w", err)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the HTTP response's status line and headers: %w", err)
		}
		if next, _ := s.br.Peek(len("HTTP/")); string(next) == "HTTP/" && bodyNotWritten(resp) || s.statusLineAhead() {
			if n == MaxResponses {
				return nil, fmt.Errorf("more than %d HTTP responses before the last (interim ones and redirects)", MaxResponses)
			}
			continue
		}
		resp.Body = io.NopCloser(s.savedBody(resp))
		return resp, nil
	}
}

// bodyNotWritten reports whether a response that another one follows at
// once is one whose body a tool leaves out when it goes on to the next:
// interim, redirect, a proxy's tunnel. Another response that another's
// status line follows had no body either (a HEAD request's, curl -I):
// statusLineAhead tells.
func bodyNotWritten(resp *http.Response) bool {
	return resp.StatusCode < 200 || resp.StatusCode >= 300 && resp.StatusCode < 400 ||
		resp.StatusCode == 200 && strings.EqualFold(resp.Status, "200 Connection established")
}

// statusLineAhead reports whether the next bytes are an HTTP status
// line's start (HTTP/1.1 200, HTTP/2 404): another response.
func (s *savedResponse) statusLineAhead() bool {
	next, _ := s.br.Peek(len("HTTP/1.1 200 "))
	proto, code, ok := bytes.Cut(next, []byte(" "))
	if _, _, protoOK := httpVersion(string(proto)); !ok || !protoOK || len(code) < 3 {
		return false
	}
	for _, c := range code[:3] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(code) == 3 || code[3] == ' ' || code[3] == '\r' || code[3] == '\n'
}

// headLines reads a head's lines, at most MaxHead bytes in all.
type headLines struct {
	br   *bufio.Reader
	left int    // bytes of the head still allowed
	line []byte // the line read, reused
	n    int    // the line's number in the head, from 1
}

// next returns the next line without its LF and the CRs before it (lines
// may end in LF, CR LF, CR CR LF); valid until the next call. At the end
// of the input it returns what the line holds and io.ErrUnexpectedEOF.
func (h *headLines) next() ([]byte, error) {
	h.line = h.line[:0]
	h.n++
	for {
		frag, err := h.br.ReadSlice('\n')
		if len(frag) > h.left {
			return nil, errHTTPHeadTooLong
		}
		h.left -= len(frag)
		h.line = append(h.line, frag...)
		switch {
		case err == nil:
			return bytes.TrimRight(h.line[:len(h.line)-1], "\r"), nil
		case err == bufio.ErrBufferFull:
			continue // a line longer than the buffer: go on
		case err == io.EOF:
			// A head ends with an empty line: this one is cut short.
			return bytes.TrimRight(h.line, "\r"), io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// readHead reads a status line and headers. A header line that does not
// read as one is skipped with a warning (at most MaxHeadLineWarnings,
// then a count): a line with no colon or no name before it, or with a NUL
// byte (RFC 9110 section 5.5 forbids it; browsers refuse it); a line that
// starts with a space or a tab continues the header before it (obs-fold,
// RFC 9112 section 5.2: unfolded with a space, as user agents must);
// whitespace before the colon is dropped from the name, with a warning
// (robots directives in X-Robots-Tag are better honoured than lost).
func (s *savedResponse) readHead() (*http.Response, error) {
	h := headLines{br: s.br, left: MaxHead}
	line, err := h.next()
	if err == io.ErrUnexpectedEOF && h.left == MaxHead {
		return nil, errors.New("the input is empty")
	}
	if err != nil && (err != io.ErrUnexpectedEOF || len(line) == 0) {
		return nil, err
	}
	statusLine := string(line)
	proto, status, ok := strings.Cut(statusLine, " ")
	major, minor, protoOK := httpVersion(proto)
	code, codeErr := strconv.Atoi(strings.SplitN(status, " ", 2)[0])
	if !ok || !protoOK || codeErr != nil || code < 100 || code > 999 {
		return nil, fmt.Errorf("malformed HTTP status line %q", clipLine(line))
	}
	if err != nil {
		return nil, err
	}
	header := http.Header{}
	var name string   // the header being read ("": none, or one skipped)
	var value []byte  // its value so far (continuation lines add to it)
	skipping := false // the line before was skipped: so are its continuations
	warned, more := 0, 0
	skip := func(why string, line []byte) {
		name, skipping = "", true
		if warned == MaxHeadLineWarnings {
			more++
			return
		}
		warned++
		s.warnf("line %d of the HTTP head %s: skipped: %q", h.n, why, clipLine(line))
	}
	keep := func() {
		if name != "" {
			header[name] = append(header[name], string(bytes.Trim(value, " \t")))
		}
		name = ""
	}
	for {
		line, err := h.next()
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			switch {
			case bytes.IndexByte(line, 0) >= 0:
				skip("continues a header with a NUL byte", line)
			case name != "":
				value = append(append(value, ' '), bytes.Trim(line, " \t")...)
			case !skipping:
				skip("starts with whitespace but continues no header", line)
			}
			continue
		}
		keep()
		skipping = false
		colon := bytes.IndexByte(line, ':')
		switch {
		case bytes.IndexByte(line, 0) >= 0:
			skip("has a NUL byte", line)
			continue
		case colon < 0:
			skip("has no colon", line)
			continue
		}
		rawName := line[:colon]
		trimmed := bytes.TrimRight(rawName, " \t")
		if len(trimmed) == 0 {
			skip("has no name before its colon", line)
			continue
		}
		name = textproto.CanonicalMIMEHeaderKey(string(trimmed))
		if len(trimmed) < len(rawName) {
			if warned < MaxHeadLineWarnings {
				warned++
				s.warnf("line %d of the HTTP head has whitespace before its colon: its name read as %q", h.n, name)
			} else {
				more++
			}
		}
		value = append(value[:0], line[colon+1:]...)
	}
	keep()
	if more > 0 {
		s.warnf("%d more malformed lines in the HTTP head", more)
	}
	return &http.Response{Status: strings.TrimSpace(status), StatusCode: code, Proto: proto,
		ProtoMajor: major, ProtoMinor: minor, Header: header, ContentLength: -1}, nil
}

// clipLine is a head's line as a warning quotes it: at most 60 bytes.
func clipLine(line []byte) []byte {
	if len(line) > 60 {
		return append(line[:60:60], "…"...)
	}
	return line
}

// httpVersion reads HTTP/1.1, HTTP/1.0, and HTTP/2 or HTTP/3 as curl
// writes them (no minor number).
func httpVersion(proto string) (major, minor int, ok bool) {
	switch proto {
	case "HTTP/2", "HTTP/3":
		return int(proto[5] - '0'), 0, true
	}
	return http.ParseHTTPVersion(proto)
}

// savedBody is the body of the response that counts, its framing undone
// as the saved bytes allow: chunked where they are chunks (curl writes
// the body de-chunked but keeps the header, unless --raw); to the end
// where the body is not coded as its Content-Encoding says (curl
// --compressed writes it decoded and keeps the headers: the coding is
// dropped, with a note); else its Content-Length bytes, and the rest of
// the input with a warning where more follows (what is past the length
// is still the body: the input bounds it, as warcio and pywb read a WARC
// record), unless another response's status line follows (then the rest
// is not read, with a warning); else to the end of the input. An empty
// body is an empty document whatever its Content-Length (a response to
// HEAD, curl -I), with a note where that is not 0.
func (s *savedResponse) savedBody(resp *http.Response) io.Reader {
	if resp.StatusCode == 204 || resp.StatusCode == 304 || resp.StatusCode < 200 {
		return strings.NewReader("")
	}
	length, lengthErr := strconv.ParseInt(strings.TrimSpace(resp.Header.Get("Content-Length")), 10, 64)
	hasLength := lengthErr == nil && length >= 0 && len(resp.Header.Values("Content-Length")) == 1
	if _, err := s.br.Peek(1); err == io.EOF {
		if hasLength && length > 0 {
			s.warnf("the response has no body though its Content-Length is %d (a response to HEAD, as curl -I saves it): an empty document", length)
		}
		return strings.NewReader("")
	}
	if s.looksChunked(resp) {
		body := bufio.NewReader(&chunkedBody{r: httputil.NewChunkedReader(s.br)})
		s.dropCodingIfDecoded(resp, body)
		return body
	}
	if s.dropCodingIfDecoded(resp, s.br) {
		return s.br
	}
	if hasLength {
		resp.ContentLength = length
		return &lengthBody{s: s, length: length}
	}
	return s.br
}

// looksChunked reports whether the response says chunked and its body
// starts with a chunk's size line.
func (s *savedResponse) looksChunked(resp *http.Response) bool {
	te := strings.ToLower(strings.Join(resp.Header.Values("Transfer-Encoding"), ","))
	if !strings.Contains(te, "chunked") {
		return false
	}
	head, _ := s.br.Peek(32)
	i := 0
	for i < len(head) && strings.IndexByte("0123456789abcdefABCDEF", head[i]) >= 0 {
		i++
	}
	return i > 0 && i < len(head) && (head[i] == '\r' || head[i] == '\n' || head[i] == ';' || head[i] == ' ' || head[i] == '\t')
}

// decodedProbe is how much of a body dropCodingIfDecoded reads to judge
// its coding (bufio's default buffer: Peek gives at most that), and
// decodedProbeOut how much it decodes of it at most.
const (
	decodedProbe    = 4096
	decodedProbeOut = 64 << 10
)

// dropCodingIfDecoded drops the response's Content-Encoding, with a note,
// when its body is not coded as the header says, but is a document as it
// is: curl --compressed saves the body decoded and keeps the headers, and
// some crawlers' WARC records do too. It reports whether it did. gzip and
// zstd start with magic bytes; deflate and br have none: their body is
// decoded already when its first bytes do not decode and look like text.
func (s *savedResponse) dropCodingIfDecoded(resp *http.Response, body *bufio.Reader) bool {
	codings := Codings(resp.Header.Values("Content-Encoding"))
	if len(codings) == 0 {
		return false
	}
	outer := codings[len(codings)-1] // the last applied: what the body starts with
	head, err := body.Peek(decodedProbe)
	whole := err != nil // the body ends within the probe (or cannot be read: then it errs later)
	if len(head) == 0 || !looksLikeText(head) || codedAs(outer, head, whole) {
		return false
	}
	resp.Header.Del("Content-Encoding")
	s.warnf("the body is not %s-coded as its Content-Encoding says, but a document as it is (saved decoded, as curl --compressed saves it): read as it is", outer)
	return true
}

// codedAs reports whether the first bytes of a body (head: all of it if
// whole) are coded as coding says, or may be: a coding robofilter does
// not know, or a coding's start that decodes without error.
func codedAs(coding string, head []byte, whole bool) bool {
	switch coding {
	case "gzip", "x-gzip":
		return len(head) >= 2 && head[0] == 0x1F && head[1] == 0x8B
	case "zstd":
		// A frame, or a skippable frame (RFC 8878 section 3.1.2).
		return len(head) >= 4 && (bytes.Equal(head[:4], []byte{0x28, 0xB5, 0x2F, 0xFD}) ||
			head[0]&0xF0 == 0x50 && bytes.Equal(head[1:4], []byte{0x2A, 0x4D, 0x18}))
	case "deflate", "br":
		dec, err := NewDecoder(coding, bytes.NewReader(head))
		if err == nil {
			_, err = io.Copy(io.Discard, io.LimitReader(dec, decodedProbeOut))
		}
		// Running out of the probe's bytes is no sign when the body goes on.
		return err == nil || !whole && errors.Is(err, io.ErrUnexpectedEOF)
	}
	return true
}

// looksLikeText reports whether a body's first bytes read as a document's
// text: a byte order mark, or no control characters but whitespace and
// ESC (ISO-2022-JP's). Compressed bytes hold them: about one in nine.
func looksLikeText(b []byte) bool {
	if bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) || bytes.HasPrefix(b, []byte{0xFF, 0xFE}) {
		return true
	}
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' && c != 0x1B {
			return false
		}
	}
	return true
}

// chunkedBody names its errors for the user.
type chunkedBody struct{ r io.Reader }

func (c *chunkedBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("the HTTP body's chunked framing: %w", err)
	}
	return n, err
}

// lengthBody reads a body its Content-Length frames: the length's bytes,
// then the rest of the input, which bounds the response, with a warning
// saying how much more there was; unless another response's status line
// follows: that is not read, with a warning. Fewer bytes than the length
// are an error after them.
type lengthBody struct {
	s      *savedResponse
	length int64
	read   int64
	past   bool // reading past the length
}

func (l *lengthBody) Read(p []byte) (int, error) {
	if l.read == l.length && !l.past {
		if _, err := l.s.br.Peek(1); err == io.EOF {
			return 0, io.EOF
		}
		if l.s.statusLineAhead() {
			l.s.warnf("another HTTP response follows this one's body (Content-Length: %d): not read (a response per input)", l.length)
			l.past = true
			l.read = -1 // past, and no count to report
			return 0, io.EOF
		}
		l.past = true
	}
	if l.read < 0 {
		return 0, io.EOF
	}
	if !l.past && int64(len(p)) > l.length-l.read {
		p = p[:l.length-l.read]
	}
	n, err := l.s.br.Read(p)
	l.read += int64(n)
	switch {
	case err == io.EOF && !l.past:
		err = fmt.Errorf("the HTTP body is shorter than its Content-Length (%d bytes of %d): %w", l.read, l.length, io.ErrUnexpectedEOF)
	case err == io.EOF && l.read > l.length:
		l.s.warnf("the HTTP body is %d bytes longer than its Content-Length (%d): read to the end of %s", l.read-l.length, l.length, l.s.end)
		l.read = -1
	}
	return n, err
}
