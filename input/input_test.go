package input_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/input/warc"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/pipeline"
)

// warcRecord writes one WARC record with the named fields and block.
func warcRecord(fields, block string) string {
	return fmt.Sprintf("WARC/1.1\r\n%sContent-Length: %d\r\n\r\n%s\r\n\r\n", fields, len(block), block)
}

func httpResponse(head, body string) string {
	return "HTTP/1.1 200 OK\r\n" + head + "\r\n" + body
}

// crawl is a WARC file with every kind of record the reader meets.
var crawl = warcRecord("WARC-Type: warcinfo\r\nContent-Type: application/warc-fields\r\n", "software: test\r\n") +
	warcRecord("WARC-Type: request\r\nWARC-Target-URI: https://a.example/\r\nContent-Type: application/http; msgtype=request\r\n", "GET / HTTP/1.1\r\n\r\n") +
	warcRecord("WARC-Type: response\r\nWARC-Target-URI: <https://a.example/dir/>\r\nContent-Type: application/http; msgtype=response\r\n",
		httpResponse("Content-Type: text/html\r\nX-Robots-Tag: nofollow\r\nP3P CP=\"x\"\r\n", `<p>page a <a href="x.html">x</a>`)) +
	warcRecord("WARC-Type: response\r\nWARC-Target-URI: https://a.example/i.png\r\nContent-Type: application/http; msgtype=response\r\n",
		httpResponse("Content-Type: image/png\r\nBroken line\r\n", "\x89PNG")) +
	warcRecord("WARC-Type: resource\r\nWARC-Target-URI: file:///srv/b.xml\r\nContent-Type: application/xml\r\n", `<doc>b</doc>`) +
	warcRecord("WARC-Type: response\r\nWARC-Target-URI: https://a.example/c\r\n", "no HTTP here") +
	warcRecord("WARC-Type: response\r\nWARC-Target-URI: https://a.example/d\r\nWARC-Truncated: length\r\nContent-Type: application/http\r\n",
		httpResponse("Content-Type: text/html\r\nContent-Length: 100\r\n", "<p>cut"))

// document is what a test keeps of a Document: its fields and its text.
type document struct {
	Name, URI, Base, Truncated, Text, Err string
	Status                                int
	XRobotsTag                            []string
	Warnings                              []string
}

func readAll(t *testing.T, r io.Reader, kind input.Kind) (docs []document, skipped, warcWarnings []string) {
	t.Helper()
	in := input.NewReader("f", r, kind, robofilter.Options{Agent: "FooBot"})
	in.Skipped = func(name, why string) { skipped = append(skipped, name+": "+why) }
	in.WARCWarning = func(w warc.Warning) { warcWarnings = append(warcWarnings, w.Message) }
	for {
		doc, err := in.Next()
		if err == io.EOF {
			return docs, skipped, warcWarnings
		}
		if err != nil {
			t.Fatal(err)
		}
		d := document{Name: doc.Name, URI: doc.URI, Base: doc.Options.Base, Truncated: doc.Truncated, Status: doc.HTTPStatus,
			XRobotsTag: doc.Options.XRobotsTag}
		if doc.Err != nil {
			d.Err = doc.Err.Error()
		} else {
			got, err := robofilter.Filter(doc.Body, doc.Options)
			if err != nil {
				d.Err = err.Error()
			}
			d.Text = got.Text
		}
		for _, w := range doc.Warnings {
			d.Warnings = append(d.Warnings, w.Message)
		}
		docs = append(docs, d)
	}
}

func TestWARCDocuments(t *testing.T) {
	docs, skipped, _ := readAll(t, strings.NewReader(crawl), input.WARC)
	want := []document{
		{Name: "f#3", URI: "https://a.example/dir/", Base: "https://a.example/dir/", Status: 200, Text: "page a x\n",
			XRobotsTag: []string{"nofollow"}, Warnings: []string{`line 4 of the HTTP head has no colon: skipped: "P3P CP=\"x\""`}},
		{Name: "f#5", URI: "file:///srv/b.xml", Base: "file:///srv/b.xml", Text: "b\n"},
		{Name: "f#7", URI: "https://a.example/d", Base: "https://a.example/d", Truncated: "length", Status: 200, Text: "cut\n"},
	}
	if fmt.Sprintf("%+v", docs) != fmt.Sprintf("%+v", want) {
		t.Errorf("documents\n%+v\nwant\n%+v", docs, want)
	}
	if len(skipped) != 1 || !strings.HasPrefix(skipped[0], "f#6: a response record without a Content-Type") {
		t.Errorf("skipped %q", skipped)
	}
}

// The documents and every warning are the same however the input arrives.
func TestDocumentsAtEveryChunking(t *testing.T) {
	inputs := []struct {
		kind input.Kind
		in   string
	}{
		{input.WARC, crawl},
		{input.WARC, crawl + "garbage between records\r\n" + crawl},
		{input.HTTP, httpResponse("X-Robots-Tag: noindex\r\nX-A : b\r\nContent-Length: 4\r\n", "<p>a past its length")},
		{input.Plain, "<p>plain <b>page</b>"},
	}
	for _, tc := range inputs {
		docs, skipped, ww := readAll(t, strings.NewReader(tc.in), tc.kind)
		want := fmt.Sprint(docs, skipped, ww)
		if len(docs) == 0 {
			t.Fatalf("no documents in %.60q", tc.in)
		}
		for _, n := range []int{1, 2, 7, 100, 1000} {
			for _, r := range []io.Reader{chunked.Reader(strings.NewReader(tc.in), n), iotest.HalfReader(strings.NewReader(tc.in))} {
				docs, skipped, ww := readAll(t, r, tc.kind)
				if got := fmt.Sprint(docs, skipped, ww); got != want {
					t.Fatalf("%.60q in reads of %d:\n%s\nwant\n%s", tc.in, n, got, want)
				}
			}
		}
	}
}

// A saved response whose head cannot be read is a document with its Err;
// the reading ends there (the input is the one response).
func TestHTTPDocumentThatCannotBeRead(t *testing.T) {
	docs, _, _ := readAll(t, strings.NewReader("not HTTP at all\r\n\r\n<p>x"), input.HTTP)
	if len(docs) != 1 || !strings.Contains(docs[0].Err, "malformed HTTP status line") {
		t.Errorf("documents %+v", docs)
	}
}

// Warnings about a document's body come as it is read, after Next
// returned it; DocumentWarning hears every one once, in order.
func TestDocumentWarningsAsTheyAreFound(t *testing.T) {
	in := input.NewReader("f", strings.NewReader(httpResponse("Bad line\r\nContent-Length: 3\r\n", "<p>abc")), input.HTTP, robofilter.Options{})
	var heard []string
	in.DocumentWarning = func(_ *input.Document, w robofilter.Warning) { heard = append(heard, w.Message) }
	doc, err := in.Next()
	if err != nil || doc.Err != nil {
		t.Fatal(err, doc.Err)
	}
	if len(heard) != 1 {
		t.Fatalf("before the body: %q", heard)
	}
	if _, err := io.ReadAll(doc.Body); err != nil {
		t.Fatal(err)
	}
	if len(heard) != 2 || !strings.Contains(heard[1], "longer than its Content-Length") || len(doc.Warnings) != 2 {
		t.Errorf("heard %q, document's warnings %+v", heard, doc.Warnings)
	}
	if _, err := in.Next(); err != io.EOF {
		t.Errorf("after the one response: %v", err)
	}
}

// A WARC file cut short ends with an error after the documents before,
// the record cut short among them (its document is what the file holds).
func TestWARCCutShort(t *testing.T) {
	cut := crawl[:len(crawl)-40]
	in := input.NewReader("f", strings.NewReader(cut), input.WARC, robofilter.Options{})
	n := 0
	for {
		doc, err := in.Next()
		if err != nil {
			if err == io.EOF || n != 3 {
				t.Errorf("after %d documents: %v", n, err)
			}
			return
		}
		if doc.Err == nil {
			io.Copy(io.Discard, doc.Body)
		}
		n++
	}
}

// The documents of a WARC file, each processed as it comes.
func ExampleReader() {
	in := input.NewReader("crawl.warc", strings.NewReader(crawl), input.WARC, robofilter.Options{})
	for {
		doc, err := in.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println("the file:", err)
			break
		}
		if doc.Err != nil {
			fmt.Println(doc.Name, "cannot be read:", doc.Err)
			continue
		}
		var text bytes.Buffer
		_, err = robofilter.Process(doc.Body, doc.Options, robofilter.Outputs{
			Text: robofilter.NewTextWriter(&text),
			Link: func(l robofilter.Link) error {
				fmt.Println(doc.Name, "link", l.URL, l.Followed)
				return nil
			},
		})
		fmt.Printf("%s %s %q %v\n", doc.Name, doc.URI, text.String(), err)
	}
	// Output:
	// crawl.warc#3 link https://a.example/dir/x.html false
	// crawl.warc#3 https://a.example/dir/ "page a x\n" <nil>
	// crawl.warc#5 file:///srv/b.xml "b\n" <nil>
	// crawl.warc#7 https://a.example/d "cut\n" <nil>
}

// Sources read out of their container (Detach) and opened on other
// goroutines give the documents Next gives in turn, in order, whatever
// the bound on what is read out (sources past it are opened in turn),
// under pipeline.Run.
func TestDetachedSourcesGiveTheSameDocuments(t *testing.T) {
	inputs := []struct {
		kind input.Kind
		in   string
	}{
		{input.WARC, crawl + "garbage between records\r\n" + crawl},
		{input.WARC, crawl[:len(crawl)-40]}, // cut short in the last record
		{input.HTTP, httpResponse("X-A : b\r\nContent-Length: 4\r\n", "<p>a past its length")},
		{input.Plain, "<p>plain <b>page</b>"},
	}
	for _, tc := range inputs {
		want := processAll(t, tc.kind, tc.in, -1)
		for _, limit := range []int64{0, 30, 200, 1 << 20} {
			if got := processAll(t, tc.kind, tc.in, limit); got != want {
				t.Errorf("%.40q read out up to %d bytes:\n%s\nwant\n%s", tc.in, limit, got, want)
			}
		}
	}
}

// processAll processes every document of an input and describes them:
// in turn (limit < 0), or sources read out up to limit bytes and opened
// on four workers.
func processAll(t *testing.T, kind input.Kind, in string, limit int64) string {
	t.Helper()
	r := input.NewReader("f", strings.NewReader(in), kind, robofilter.Options{})
	describe := func(doc *input.Document) string {
		if doc.Err != nil {
			return doc.Name + " error " + doc.Err.Error()
		}
		d, err := robofilter.Filter(doc.Body, doc.Options)
		return fmt.Sprintf("%s %q %v %+v", doc.Name, d.Text, err, doc.Warnings)
	}
	var out []string
	if limit < 0 {
		for {
			doc, err := r.Next()
			if err != nil {
				return fmt.Sprint(out, err)
			}
			out = append(out, describe(doc))
		}
	}
	err := pipeline.Run(4, func() (*input.Source, bool, error) {
		src, err := r.NextSource()
		if err != nil {
			return nil, false, err
		}
		return src, !src.Detach(limit), nil
	}, func(src *input.Source) string {
		defer src.Release()
		doc, ok := src.Open()
		if !ok {
			return ""
		}
		return describe(doc)
	}, func(s string) error {
		if s != "" {
			out = append(out, s)
		}
		return nil
	})
	if err == nil {
		err = io.EOF // as Next ends
	}
	return fmt.Sprint(out, err)
}
