package warc

import (
	"fmt"
	"strings"
	"testing"
)

// arcRecord writes one ARC record: its header line (version 1), its block
// and the LF after it.
func arcRecord(url, contentType, block string) string {
	return fmt.Sprintf("%s 192.0.2.1 20140216050221 %s %d\n%s\n", url, contentType, len(block), block)
}

// arcVersionBlock is an ARC file's first record.
var arcVersionBlock = arcRecord("filedesc://crawl.arc", "text/plain", "1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n")

const arcResponse = "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x"

// An ARC file is read as a WARC file: its version block a warcinfo
// record, a block that is an HTTP response a response record, any other a
// resource record; the header line's fields become the WARC fields, and a
// URL may hold spaces (the fields are counted from the line's end).
func TestReaderReadsARC(t *testing.T) {
	page := arcRecord("http://example.com/", "text/html", arcResponse)
	dns := arcRecord("dns:example.com", "text/dns", "20140216050221\nexample.com. 300 IN A 192.0.2.1")
	spaces := arcRecord("http://example.com/a b?c d", "text/html", arcResponse)
	v2 := "http://example.com/v2 192.0.2.1 20140216050221 text/html 200 D41D8CD98F00B204E9800998ECF8427E - 1234 crawl.arc " +
		fmt.Sprint(len(arcResponse)) + "\n" + arcResponse + "\n"
	in := arcVersionBlock + page + dns + spaces + v2
	got := readEveryWay(t, "ARC", in)
	at := func(records ...string) Position { return plainAt(len(strings.Join(records, ""))) }
	want := []read{
		{"warcinfo", "filedesc://crawl.arc", "1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n", at()},
		{"response", "http://example.com/", arcResponse, at(arcVersionBlock)},
		{"resource", "dns:example.com", "20140216050221\nexample.com. 300 IN A 192.0.2.1", at(arcVersionBlock, page)},
		{"response", "http://example.com/a b?c d", arcResponse, at(arcVersionBlock, page, dns)},
		{"response", "http://example.com/v2", arcResponse, at(arcVersionBlock, page, dns, spaces)},
	}
	if got.err != nil || len(got.warnings) != 0 || fmt.Sprint(got.records) != fmt.Sprint(want) {
		t.Fatalf("records %v, warnings %q, error %v; want %v", got.records, got.warnings, got.err, want)
	}

	// The fields, and the same records out of gzip members.
	wr, err := NewReader(strings.NewReader(gzipMembers(arcVersionBlock, page, dns)))
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	for {
		rec, err := wr.Next()
		if err != nil {
			break
		}
		fields = append(fields, fmt.Sprintf("%s|%s|%s|%s|%s", rec.Type(), rec.Header.Get("WARC-Date"), rec.Header.Get("WARC-IP-Address"), rec.Header.Get("Content-Type"), rec.Header.Get("Content-Length")))
	}
	wantFields := []string{
		"warcinfo|2014-02-16T05:02:21Z|192.0.2.1|text/plain|" + fmt.Sprint(len(want[0].block)),
		"response|2014-02-16T05:02:21Z|192.0.2.1|application/http; msgtype=response|" + fmt.Sprint(len(arcResponse)),
		"resource|2014-02-16T05:02:21Z|192.0.2.1|text/dns|" + fmt.Sprint(len(want[2].block)),
	}
	if fmt.Sprint(fields) != fmt.Sprint(wantFields) {
		t.Errorf("fields out of gzip members:\n%q\nwant\n%q", fields, wantFields)
	}
	gz := readEveryWay(t, "ARC in gzip members", gzipMembers(arcVersionBlock, page, dns))
	if gz.err != nil || len(gz.records) != 3 || gz.records[1].block != arcResponse || gz.records[2].at != memberAt(len(gzipMembers(arcVersionBlock, page)), 0) {
		t.Errorf("ARC in gzip members: %v, %v", gz.records, gz.err)
	}
}

// What does not read as an ARC header line is skipped to the next one
// that does, said with its offset and size; a header line whose length is
// no number is a record with an empty block and a warning (as warcio reads
// bad.arc: four records); a block cut short by the file's end is an error.
func TestReaderResynchronisesInARC(t *testing.T) {
	a := arcRecord("http://a/", "text/html", "<p>a")
	b := arcRecord("http://b/", "text/html", "<p>b")
	badLength := strings.Replace(arcRecord("http://x/", "text/html", "<p>x"), " 4\n", " abc\n", 1)
	negative := strings.Replace(arcRecord("http://x/", "text/html", "<p>x"), " 4\n", " -1\n", 1)
	for _, tc := range []struct {
		name, between string
		records       []read
		warnings      []string
	}{
		{"stray lines", "stray\nbytes\n", nil,
			[]string{fmt.Sprintf(`at byte %d of the file: skipped 12 bytes that are no ARC record, starting "stray\nbytes\n"`, len(arcVersionBlock+a))}},
		{"a length that is no number", badLength,
			[]read{{"resource", "http://x/", "", plainAt(len(arcVersionBlock + a))}},
			[]string{
				fmt.Sprintf(`at byte %d of the file: the ARC record's length "abc" is not a length: its block is read as empty`, len(arcVersionBlock+a)),
				fmt.Sprintf(`at byte %d of the file: skipped 5 bytes that are no ARC record, starting "<p>x\n"`, len(arcVersionBlock+a)+len("http://x/ 192.0.2.1 20140216050221 text/html abc\n")),
			}},
		{"a negative length", negative,
			[]read{{"resource", "http://x/", "", plainAt(len(arcVersionBlock + a))}},
			[]string{
				fmt.Sprintf(`at byte %d of the file: the ARC record's length "-1" is not a length: its block is read as empty`, len(arcVersionBlock+a)),
				fmt.Sprintf(`at byte %d of the file: skipped 5 bytes that are no ARC record, starting "<p>x\n"`, len(arcVersionBlock+a)+len("http://x/ 192.0.2.1 20140216050221 text/html -1\n")),
			}},
		{"a line too long for a header", strings.Repeat("x", maxARCLine+10) + "\n", nil,
			[]string{fmt.Sprintf(`at byte %d of the file: skipped %d bytes that are no ARC record, starting "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"`, len(arcVersionBlock+a), maxARCLine+11)}},
	} {
		in := arcVersionBlock + a + tc.between + b
		got := readEveryWay(t, tc.name, in)
		want := []read{{"warcinfo", "filedesc://crawl.arc", "1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n", plainAt(0)}, {"resource", "http://a/", "<p>a", plainAt(len(arcVersionBlock))}}
		want = append(append(want, tc.records...), read{"resource", "http://b/", "<p>b", plainAt(len(arcVersionBlock + a + tc.between))})
		if got.err != nil || fmt.Sprint(got.records) != fmt.Sprint(want) {
			t.Errorf("%s: records %v (%v), want %v", tc.name, got.records, got.err, want)
		}
		if fmt.Sprintf("%q", got.warnings) != fmt.Sprintf("%q", tc.warnings) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.name, got.warnings, tc.warnings)
		}
	}
	cut := arcVersionBlock + a + b[:len(b)-3] // "<p" of "<p>b\n"
	got := readEveryWay(t, "cut short", cut)
	if len(got.records) != 3 || got.err == nil || !strings.Contains(got.err.Error(), "cut short after 2 of its 4 bytes") {
		t.Errorf("cut short: %v, %v", got.records, got.err)
	}
}
