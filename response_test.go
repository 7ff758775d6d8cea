package robofilter

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/robofilter/robofilter/input/httpresp"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/phrase"
)

// response reads an HTTP response written out as sent.
func response(t testing.TB, raw string) *http.Response {
	t.Helper()
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func compressed(t testing.TB, coding, s string) string {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&b)
	case "zlib":
		w = zlib.NewWriter(&b)
	case "flate":
		w, _ = flate.NewWriter(&b, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&b)
	case "zstd":
		var err error
		// Blocks of at most 32 KiB: a cut leaves whole ones to decode.
		if w, err = zstd.NewWriter(&b, zstd.WithWindowSize(1<<15)); err != nil {
			t.Fatal(err)
		}
	}
	io.WriteString(w, s)
	w.Close()
	return b.String()
}

func TestFromResponseTakesWhatTheHeadSaysOfTheDocument(t *testing.T) {
	const doc = "<p>café</p>"
	tests := []struct {
		name, head, body string
		given            Options
		wantTags         []string
		wantFormat       Format
		wantContentType  string
	}{
		{name: "every X-Robots-Tag line, after the caller's",
			head: "X-Robots-Tag: noindex\r\nX-Robots-Tag: googlebot: nofollow, noarchive\r\n", body: doc,
			given: Options{XRobotsTag: []string{"nosnippet"}}, wantTags: []string{"nosnippet", "noindex", "googlebot: nofollow, noarchive"}},
		{name: "text/html is HTML, its charset kept",
			head: "Content-Type: text/html; charset=ISO-8859-1\r\n", body: doc,
			wantFormat: HTML, wantContentType: "text/html; charset=ISO-8859-1"},
		{name: "an +xml type is XML", head: "Content-Type: application/atom+xml\r\n", body: doc,
			wantFormat: XML, wantContentType: "application/atom+xml"},
		{name: "text/xml is XML", head: "Content-Type: text/xml;charset=utf-8\r\n", body: doc,
			wantFormat: XML, wantContentType: "text/xml;charset=utf-8"},
		{name: "a format given is kept", head: "Content-Type: application/xml\r\n", body: doc,
			given: Options{Format: HTML}, wantFormat: HTML, wantContentType: "application/xml"},
		{name: "other types are sniffed", head: "Content-Type: text/plain\r\n", body: doc,
			wantFormat: Auto, wantContentType: "text/plain"},
		{name: "a broken parameter list still names the type", head: "Content-Type: text/html; charset\r\n", body: doc,
			wantFormat: HTML, wantContentType: "text/html; charset"},
		{name: "gzip", head: "Content-Encoding: gzip\r\n", body: compressed(t, "gzip", doc)},
		{name: "x-gzip", head: "Content-Encoding: X-GZIP\r\n", body: compressed(t, "gzip", doc)},
		{name: "deflate, zlib-wrapped as specified", head: "Content-Encoding: deflate\r\n", body: compressed(t, "zlib", doc)},
		{name: "deflate, bare as some servers send it", head: "Content-Encoding: deflate\r\n", body: compressed(t, "flate", doc)},
		{name: "br", head: "Content-Encoding: br\r\n", body: compressed(t, "br", doc)},
		{name: "zstd", head: "Content-Encoding: zstd\r\n", body: compressed(t, "zstd", doc)},
		{name: "codings undone last first", head: "Content-Encoding: deflate, identity\r\nContent-Encoding: gzip\r\n",
			body: compressed(t, "gzip", compressed(t, "zlib", doc))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			given := tc.given
			callers := slices.Clone(given.XRobotsTag)
			resp := response(t, "HTTP/1.1 200 OK\r\n"+tc.head+fmt.Sprintf("Content-Length: %d\r\n\r\n", len(tc.body))+tc.body)
			body, opts, err := FromResponse(resp, given)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(body)
			if err != nil || string(got) != doc {
				t.Errorf("body %q (%v), want %q", got, err, doc)
			}
			if !slices.Equal(opts.XRobotsTag, tc.wantTags) && (len(tc.wantTags) > 0 || len(opts.XRobotsTag) > 0) {
				t.Errorf("X-Robots-Tag %q, want %q", opts.XRobotsTag, tc.wantTags)
			}
			if !slices.Equal(given.XRobotsTag, callers) {
				t.Errorf("the caller's X-Robots-Tag values changed to %q", given.XRobotsTag)
			}
			if opts.Format != tc.wantFormat || opts.ContentType != tc.wantContentType {
				t.Errorf("format %v, Content-Type %q; want %v, %q", opts.Format, opts.ContentType, tc.wantFormat, tc.wantContentType)
			}
		})
	}
}

func TestFromResponseRefusesCodingsItCannotUndo(t *testing.T) {
	for _, head := range []string{"Content-Encoding: compress\r\n", "Content-Encoding: gzip, compress\r\n", "Content-Encoding: gzip\r\n"} {
		resp := response(t, "HTTP/1.1 200 OK\r\n"+head+"Content-Length: 9\r\n\r\nnot gzip!")
		if _, _, err := FromResponse(resp, Options{}); err == nil {
			t.Errorf("%q: no error", head)
		}
	}
}

func TestUnknownContentTypeCharsetIsWarnedAboutAndIgnored(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"<p>caf\xe9</p>", "café\n"}, // HTML: read as without it (windows-1252 by the prescan's guess)
		{`<?xml version="1.0"?><p>caf` + "\xc3\xa9</p>", "café\n"},
	} {
		d, err := Filter(strings.NewReader(tc.doc), Options{ContentType: "text/html; charset=no-such-label"})
		if err != nil {
			t.Fatalf("%q: %v", tc.doc, err)
		}
		if d.Text != tc.want {
			t.Errorf("%q: text %q, want %q", tc.doc, d.Text, tc.want)
		}
		if len(d.Result.Warnings) != 1 || !strings.Contains(d.Result.Warnings[0].Message, `charset "no-such-label" is not known`) || d.Result.Warnings[0].Line != 0 {
			t.Errorf("%q: warnings %v, want one at 0:0 about the label", tc.doc, d.Result.Warnings)
		}
	}
}

// longPage is a page whose coded bytes hold several blocks.
func longPage() string {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "<p>paragraph %d, word%d</p>\n", i, i*7919%10007)
	}
	return b.String()
}

// bodyReadings are the ways a body may arrive: whole, a byte at a time,
// in halves, in chunks of a few sizes.
var bodyReadings = map[string]func(io.Reader) io.Reader{
	"whole":    func(r io.Reader) io.Reader { return r },
	"one byte": iotest.OneByteReader,
	"half":     iotest.HalfReader,
	"7":        func(r io.Reader) io.Reader { return chunked.Reader(r, 7) },
	"1000":     func(r io.Reader) io.Reader { return chunked.Reader(r, 1000) },
}

// A coded body cut short or corrupt fails with a *httpresp.CodingError that names
// the coding and what was decoded, after the text decoded before it.
func TestCodedBodyThatCannotBeDecodedSaysWhere(t *testing.T) {
	page := longPage()
	whole, err := Filter(strings.NewReader(page), Options{Format: HTML})
	if err != nil {
		t.Fatal(err)
	}
	for _, coding := range []string{"gzip", "zlib", "flate", "br", "zstd"} {
		header := map[string]string{"zlib": "deflate", "flate": "deflate"}[coding]
		if header == "" {
			header = coding
		}
		coded := compressed(t, coding, page)
		corrupt := []byte(coded)
		corrupt[len(corrupt)/2] ^= 0x55
		cases := []struct {
			name, body string
			short      bool
		}{{"cut short", coded[:len(coded)/2], true}, {"corrupt", string(corrupt), false}}
		if coding == "flate" {
			cases = cases[:1] // bare deflate has no check: a changed byte decodes to other text
		}
		for _, tc := range cases {
			var wantDecoded int64 = -1
			for reading, wrap := range bodyReadings {
				resp := &http.Response{Header: http.Header{"Content-Encoding": {header}, "Content-Type": {"text/html"}},
					Body: io.NopCloser(wrap(strings.NewReader(tc.body)))}
				var text strings.Builder
				_, err := ProcessResponse(resp, Options{}, Outputs{Text: phrase.NewWriter(&text)})
				var ce *httpresp.CodingError
				if !errors.As(err, &ce) {
					t.Errorf("%s %s, read %s: error %v, want a *httpresp.CodingError", coding, tc.name, reading, err)
					continue
				}
				if ce.Coding != header || ce.Short != tc.short || tc.short && (!errors.Is(err, io.ErrUnexpectedEOF) || ce.Decoded >= int64(len(page))) {
					t.Errorf("%s %s, read %s: %+v", coding, tc.name, reading, ce)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("the %s-coded body is ", header)) || !strings.Contains(err.Error(), fmt.Sprintf(" after %d decoded bytes: ", ce.Decoded)) {
					t.Errorf("%s %s: message %q", coding, tc.name, err)
				}
				// Cut short, all that the bytes hold is decoded, however
				// they arrive (a decoder that finds corrupt bytes may drop
				// what it decoded but had not handed over).
				if !tc.short {
					continue
				}
				if wantDecoded < 0 {
					wantDecoded = ce.Decoded
				} else if ce.Decoded != wantDecoded {
					t.Errorf("%s %s, read %s: %d bytes decoded, another reading %d", coding, tc.name, reading, ce.Decoded, wantDecoded)
				}
				// The text decoded before the error is written (the last
				// phrase may be cut mid-word).
				if got := text.String(); tc.short && (len(got) < len(whole.Text)/8 || !strings.HasPrefix(whole.Text, got[:len(got)-20])) {
					t.Errorf("%s %s, read %s: %d bytes of text before the error, want the text decoded", coding, tc.name, reading, len(got))
				}
			}
		}
	}
}

// br and zstd bodies decode at every chunking, to the end.
func TestBrotliAndZstdBodiesDecodeAtEveryChunking(t *testing.T) {
	page := longPage()
	for _, coding := range []string{"br", "zstd", "gzip", "zlib"} {
		header := map[string]string{"zlib": "deflate"}[coding]
		if header == "" {
			header = coding
		}
		coded := compressed(t, coding, page)
		for reading, wrap := range bodyReadings {
			resp := &http.Response{Header: http.Header{"Content-Encoding": {header}}, Body: io.NopCloser(wrap(strings.NewReader(coded)))}
			body, _, err := FromResponse(resp, Options{})
			if err != nil {
				t.Fatalf("%s, read %s: %v", coding, reading, err)
			}
			got, err := io.ReadAll(body)
			if err != nil || string(got) != page {
				t.Errorf("%s, read %s: %d bytes of %d (%v)", coding, reading, len(got), len(page), err)
			}
		}
	}
}

// zstd's window is bounded as RFC 9659 bounds it: 8 MB.
func TestZstdWindowIsBounded(t *testing.T) {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithWindowSize(32<<20), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("<p>x</p>"), 5<<20))
	w.Close()
	resp := &http.Response{Header: http.Header{"Content-Encoding": {"zstd"}}, Body: io.NopCloser(&b)}
	body, _, err := FromResponse(resp, Options{})
	if err == nil {
		_, err = io.Copy(io.Discard, body)
	}
	var ce *httpresp.CodingError
	if !errors.As(err, &ce) || ce.Coding != "zstd" {
		t.Errorf("a 32 MiB window: error %v, want a zstd *httpresp.CodingError", err)
	}
}
