package robofilter

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
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
	for _, head := range []string{"Content-Encoding: br\r\n", "Content-Encoding: gzip, compress\r\n", "Content-Encoding: gzip\r\n"} {
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
