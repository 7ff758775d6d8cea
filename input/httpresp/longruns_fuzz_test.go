package httpresp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/hostile"
)

// FuzzSavedLongRuns builds a long run from a short seed (repeated up to
// 64 KiB, past MaxHead's share of a line or not) at one of
// hostile.HTTPRunContexts (the status line, header names and values,
// folded lines, the chunked framing, the body, interim responses), ended
// or not, and reads the response whole and in reads of 1 to 64 bytes: the
// head, body, warnings and errors must be the same, the body no longer
// than the input, and the whole reading's work (CPU time, bytes
// allocated) within hostile.FuzzWorkBound of the input's length. Where
// net/http reads the same bytes as a response with a Content-Length or
// chunks, ReadSaved's body is its body.
func FuzzSavedLongRuns(f *testing.F) {
	for i, s := range []string{"a", " ", "\r\n", "\n", "\r", "x: y\r\n", " a\r\n", ":", "\x00", "0", "f", ";", "HTTP/1.1 100 Continue\r\n\r\n", "é"} {
		f.Add([]byte(s), uint8(i), uint16(30000), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed []byte, place uint8, repeat uint16, chunk uint8) {
		if len(seed) == 0 || len(seed) > 64 {
			return
		}
		ctx := hostile.HTTPRunContexts[int(place)%len(hostile.HTTPRunContexts)]
		in := ctx.Open + hostile.Grow(seed, int(repeat), 64<<10)
		if int(place)/len(hostile.HTTPRunContexts)%2 == 0 {
			in += ctx.End
		}
		var whole savedReading
		if over := hostile.CheckFuzzWork(len(in), func() { whole = readSavedAll(strings.NewReader(in)) }); over != "" {
			t.Fatalf("%s, %d bytes of %q: %s", ctx.Name, len(in), seed, over)
		}
		n := 1 + int(chunk)%64
		if got := readSavedAll(chunked.Reader(strings.NewReader(in), n)); got.String() != whole.String() {
			t.Fatalf("%s, %q repeated, read in reads of %d:\n%.2000s\nwhole:\n%.2000s", ctx.Name, seed, n, got, whole)
		}
		if len(whole.body) > len(in) {
			t.Fatalf("%s: a body of %d bytes from %d", ctx.Name, len(whole.body), len(in))
		}
		// The oracle, where there is one: a response net/http reads to its
		// end, of one status and a framed body (no interim response, no
		// warning), has the body net/http reads.
		if whole.err != nil || whole.bodyErr != nil || len(whole.warnings) > 0 || whole.status < 200 {
			return
		}
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(in)), nil)
		if err != nil || resp.ContentLength < 0 && !slices.Equal(resp.TransferEncoding, []string{"chunked"}) {
			return
		}
		body, err := io.ReadAll(resp.Body)
		if err == nil && !bytes.Equal(body, whole.body) {
			t.Fatalf("%s, %q repeated: body %.200q, net/http's %.200q", ctx.Name, seed, whole.body, body)
		}
	})
}

// savedReading is what ReadSaved read of an input.
type savedReading struct {
	status       int
	header       http.Header
	body         []byte
	warnings     []string
	err, bodyErr error
}

func (r savedReading) String() string {
	return fmt.Sprintf("status %d, header %v, error %v\nbody %q (%v)\nwarnings %q", r.status, r.header, r.err, r.body, r.bodyErr, r.warnings)
}

// readSavedAll reads a saved response and its body.
func readSavedAll(in io.Reader) (r savedReading) {
	resp, err := ReadSaved(in, "the input", func(msg string) { r.warnings = append(r.warnings, msg) })
	if err != nil {
		r.err = err
		return r
	}
	r.status, r.header = resp.StatusCode, resp.Header
	r.body, r.bodyErr = io.ReadAll(resp.Body)
	return r
}
