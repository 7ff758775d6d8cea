package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/chunked"
)

// record writes one WARC record.
func record(typ, uri, contentType, block string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: <urn:uuid:%d>\r\n", typ, len(block))
	if uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", uri)
	}
	if contentType != "" {
		fmt.Fprintf(&b, "Content-Type: %s\r\n", contentType)
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	return b.String()
}

// gzipMembers compresses each record as a gzip member of its own, as WARC
// writers do.
func gzipMembers(records ...string) string {
	var b bytes.Buffer
	for _, r := range records {
		w := gzip.NewWriter(&b)
		io.WriteString(w, r)
		w.Close()
	}
	return b.String()
}

type read struct {
	typ, uri, block string
	at              Position
}

func (r read) String() string { return fmt.Sprintf("{%s %s %q at %v}", r.typ, r.uri, r.block, r.at) }

// result is what a Reader makes of an input: its records (their blocks
// read, except requests', which Next skips), its warnings, the error that
// ended it (nil: io.EOF).
type result struct {
	records  []read
	warnings []string
	err      error
	work     int64 // Reader.work at the end
	out      int64 // decompressed bytes
}

func readAll(in io.Reader) (res result) {
	wr, err := NewReader(in)
	if err != nil {
		res.err = err
		return res
	}
	wr.Warn = func(w Warning) { res.warnings = append(res.warnings, w.String()) }
	defer func() {
		res.work, res.out = wr.work, wr.mem.out
		if wr.zstd {
			res.out += wr.file.n // the zstd stream's decompressed bytes
		}
	}()
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return res
		}
		if err != nil {
			res.err = err
			return res
		}
		rd := read{typ: rec.Type(), uri: rec.TargetURI(), at: rec.Position}
		if rec.Type() != "request" { // a block not read is skipped by Next
			b, err := io.ReadAll(rec.Block)
			rd.block = string(b)
			if err != nil {
				rd.block += " [" + err.Error() + "]"
			}
		}
		res.records = append(res.records, rd)
	}
}

// readEveryWay reads in at several chunk sizes and fails unless each gives
// the same result; it returns it.
func readEveryWay(t *testing.T, name, in string) result {
	t.Helper()
	first := readAll(strings.NewReader(in))
	for _, size := range []int{1, 2, 7, 100, 1000} {
		got := readAll(chunked.Reader(strings.NewReader(in), size))
		if fmt.Sprint(got.records, got.warnings, got.err) != fmt.Sprint(first.records, first.warnings, first.err) {
			t.Fatalf("%s: reads of %d differ from reading it whole:\n%v %q %v\n%v %q %v", name, size, got.records, got.warnings, got.err, first.records, first.warnings, first.err)
		}
	}
	return first
}

func plainAt(off int) Position { return Position{Offset: int64(off)} }
func memberAt(off, in int) Position {
	return Position{Offset: int64(off), Compressed: true, InMember: int64(in)}
}

func TestReaderReadsRecordsInOrder(t *testing.T) {
	info := record("warcinfo", "", "application/warc-fields", "software: test\r\n")
	req := record("request", "http://example.com/", "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n")
	resp := record("response", "<http://example.com/>", "application/http; msgtype=response", "HTTP/1.1 200 OK\r\n\r\n<p>hi")
	empty := record("resource", "http://example.com/e", "text/html", "")
	want := func(at ...Position) []read {
		return []read{
			{typ: "warcinfo", block: "software: test\r\n", at: at[0]},
			{typ: "request", uri: "http://example.com/", at: at[1]},
			{typ: "response", uri: "http://example.com/", block: "HTTP/1.1 200 OK\r\n\r\n<p>hi", at: at[2]},
			{typ: "resource", uri: "http://example.com/e", at: at[3]},
		}
	}
	plain := info + req + resp + empty
	m1, m2, m3 := len(gzipMembers(info)), len(gzipMembers(info, req)), len(gzipMembers(info, req, resp))
	blanks := strings.ReplaceAll(plain, "\r\n\r\nWARC/", "\r\n\r\n\r\n\nWARC/")
	b1 := len(info) + 3
	b2 := b1 + len(req) + 3
	for _, tc := range []struct {
		name, in string
		want     []read
	}{
		{"plain", plain, want(plainAt(0), plainAt(len(info)), plainAt(len(info+req)), plainAt(len(info+req+resp)))},
		{"gzip, a member per record", gzipMembers(info, req, resp, empty), want(memberAt(0, 0), memberAt(m1, 0), memberAt(m2, 0), memberAt(m3, 0))},
		{"gzip, one member for all", gzipMembers(plain), want(memberAt(0, 0), memberAt(0, len(info)), memberAt(0, len(info+req)), memberAt(0, len(info+req+resp)))},
		{"extra blank lines in between", blanks, want(plainAt(0), plainAt(b1), plainAt(b2), plainAt(b2+len(resp)+3))},
		{"a record spanning gzip members", gzipMembers(info+req[:20], req[20:]+resp[:40], resp[40:], empty), want(memberAt(0, 0), memberAt(0, len(info)), memberAt(len(gzipMembers(info+req[:20])), len(req)-20), memberAt(len(gzipMembers(info+req[:20], req[20:]+resp[:40], resp[40:])), 0))},
		{"a plain record after gzip members", gzipMembers(info, req, resp) + empty, want(memberAt(0, 0), memberAt(m1, 0), memberAt(m2, 0), plainAt(m3))},
		{"gzip members after a plain record", info + gzipMembers(req, resp, empty), want(plainAt(0), memberAt(len(info), 0), memberAt(len(info)+len(gzipMembers(req)), 0), memberAt(len(info)+len(gzipMembers(req, resp)), 0))},
		{"empty gzip members in between", gzipMembers(info, "", req, "", "", resp, empty), want(memberAt(0, 0), memberAt(len(gzipMembers(info, "")), 0), memberAt(len(gzipMembers(info, "", req, "", "")), 0), memberAt(len(gzipMembers(info, "", req, "", "", resp)), 0))},
	} {
		got := readEveryWay(t, tc.name, tc.in)
		if got.err != nil || len(got.warnings) > 0 || fmt.Sprint(got.records) != fmt.Sprint(tc.want) {
			t.Errorf("%s:\n got %v (%v, warnings %q)\nwant %v", tc.name, got.records, got.err, got.warnings, tc.want)
		}
	}
}

// A header line that cannot be read costs that line, with a warning that
// names the record and the line; the record is read.
func TestReaderSkipsHeaderLinesItCannotRead(t *testing.T) {
	good := record("resource", "http://example.com/", "text/html", "<p>x")
	withLines := func(lines string) string {
		return "WARC/1.0\r\nWARC-Type: resource\r\n" + lines + "Content-Length: 4\r\n\r\n<p>y\r\n\r\n"
	}
	for _, tc := range []struct {
		name, in string
		uri      string
		warnings []string
	}{
		{"lines ending CR CR LF (pywb's missing-status-text.warc)",
			strings.ReplaceAll(withLines("WARC-Target-URI: http://e/\r\n"), "\r\n", "\r\r\n"), "http://e/",
			[]string{"the record's header lines end in CR CR LF: the extra CR is read as white space"}},
		{"a line without a colon", withLines("WARC-Target-URI <none>\r\n"), "",
			[]string{`skipped header line 3, "WARC-Target-URI <none>": no colon`}},
		{"a NUL in a line", withLines("WARC-Target-URI: http://e/\x00x\r\nWARC-Warcinfo-ID: <u>\r\n"), "",
			[]string{`skipped header line 3, "WARC-Target-URI: http://e/\x00x": it holds a NUL byte`}},
		{"no field name", withLines(": v\r\n"), "", []string{`skipped header line 3, ": v": no field name before the colon`}},
		{"a continuation line", withLines("WARC-Target-URI: http://e/\r\n  more\r\n"), "http://e/ more", nil},
		{"LF line ends", strings.ReplaceAll(withLines("WARC-Target-URI: http://e/\r\n"), "\r\n", "\n"), "http://e/", nil},
		{"a line with only CRs ends the header", "WARC/1.0\r\nContent-Length: 4\r\nWARC-Type: resource\r\nWARC-Target-URI: http://e/\r\n\r\r\n<p>y\r\n\r\n", "http://e/",
			[]string{"the record's header lines end in CR CR LF: the extra CR is read as white space"}},
	} {
		in := good + tc.in + good
		got := readEveryWay(t, tc.name, in)
		want := []read{{"resource", "http://example.com/", "<p>x", plainAt(0)}, {"resource", tc.uri, "<p>y", plainAt(len(good))}, {"resource", "http://example.com/", "<p>x", plainAt(len(good + tc.in))}}
		if got.err != nil || fmt.Sprint(got.records) != fmt.Sprint(want) {
			t.Errorf("%s: records %v (%v), want %v", tc.name, got.records, got.err, want)
		}
		var wantWarnings []string
		for _, w := range tc.warnings {
			wantWarnings = append(wantWarnings, fmt.Sprintf("at byte %d of the file: %s", len(good), w))
		}
		if fmt.Sprintf("%q", got.warnings) != fmt.Sprintf("%q", wantWarnings) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.name, got.warnings, wantWarnings)
		}
	}
	// The warnings about one record's lines are bounded.
	in := withLines(strings.Repeat("no colon\r\n", 100))
	got := readEveryWay(t, "100 lines without a colon", in)
	if len(got.records) != 1 || len(got.warnings) != maxLineWarnings+1 || !strings.HasSuffix(got.warnings[maxLineWarnings], fmt.Sprintf("skipped %d more header lines", 100-maxLineWarnings)) {
		t.Errorf("100 lines without a colon: %v, %q", got.records, got.warnings)
	}
}

// Bytes that are no record are skipped to the next line that starts one,
// said with their offset and size; a record that cannot be read is
// skipped the same way; the records around are read.
func TestReaderResynchronises(t *testing.T) {
	a := record("resource", "http://a/", "text/html", "<p>a")
	b := record("resource", "http://b/", "text/html", "<p>b")
	c := record("resource", "http://c/", "text/html", "<p>c")
	lengthTooShort := strings.Replace(b, "Content-Length: 4", "Content-Length: 3", 1)
	lengthTooLong := strings.Replace(b, "Content-Length: 4", "Content-Length: 30", 1)
	noLength := strings.Replace(b, "Content-Length: 4\r\n", "", 1)
	badLength := strings.Replace(b, "Content-Length: 4", "Content-Length: four", 1)
	headerUnended := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Len"
	tooLong := "WARC/1.0\r\nX: " + strings.Repeat("a", MaxHeaderBytes) + "\r\nContent-Length: 4\r\n\r\n<p>b\r\n\r\n"
	tooLongCut := 10 + (MaxHeaderBytes-10)/bufSize*bufSize + bufSize
	ra := read{"resource", "http://a/", "<p>a", plainAt(0)}
	rc := func(at int) read { return read{"resource", "http://c/", "<p>c", plainAt(at)} }
	for _, tc := range []struct {
		name, in string
		want     []read
		warnings []string
	}{
		{"stray bytes after a block (pywb's example.warc)", a + "m\r\n\r\n\r\n" + c, []read{ra, rc(len(a) + 7)},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped 7 bytes that are no WARC record, starting "m\r\n\r\n\r\n", after the block of the record at byte 0 of the file (its Content-Length may be wrong)`, len(a))}},
		{"a Content-Length too short", a + lengthTooShort + c,
			[]read{ra, {"resource", "http://b/", "<p>", plainAt(len(a))}, rc(len(a + b))},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped 5 bytes that are no WARC record, starting "b\r\n\r\n", after the block of the record at byte %d of the file (its Content-Length may be wrong)`, len(a+b)-5, len(a))}},
		{"a Content-Length too long", a + lengthTooLong + c + c,
			// The block takes in the next record's start: that one is lost.
			[]read{ra, {"resource", "http://b/", (lengthTooLong + c)[len(lengthTooLong)-8 : len(lengthTooLong)-8+30], plainAt(len(a))}, rc(len(a + lengthTooLong + c))},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped %d bytes that are no WARC record, starting %q, after the block of the record at byte %d of the file (its Content-Length may be wrong)`,
				len(a+lengthTooLong)+22, len(c)-22, c[22:54], len(a))}},
		{"zero padding", a + strings.Repeat("\x00", 512) + c, []read{ra, rc(len(a) + 512)},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped 512 bytes, all zero (padding)`, len(a))}},
		{"no Content-Length", a + noLength + c, []read{ra, rc(len(a + noLength))},
			[]string{fmt.Sprintf(`at byte %d of the file: the record has no Content-Length: skipped (where it ends is unknown)`, len(a)),
				fmt.Sprintf(`at byte %d of the file: skipped 8 bytes that are no WARC record, starting "<p>b\r\n\r\n"`, len(a+noLength)-8)}},
		{"a Content-Length that is not a length", a + badLength + c, []read{ra, rc(len(a + badLength))},
			[]string{fmt.Sprintf(`at byte %d of the file: the record's Content-Length "four" is not a length: skipped`, len(a)),
				fmt.Sprintf(`at byte %d of the file: skipped 8 bytes that are no WARC record, starting "<p>b\r\n\r\n"`, len(a+badLength)-8)}},
		{"a header cut short by the next record", a + headerUnended + "\r\n" + c, []read{ra, rc(len(a+headerUnended) + 2)},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped header line 3, "Content-Len": no colon`, len(a)),
				fmt.Sprintf(`at byte %d of the file: the record's header has no end (blank line) before the next record, at byte %d of the file: skipped`, len(a), len(a+headerUnended)+2)}},
		{"a header longer than MaxHeaderBytes", a + tooLong + c, []read{ra, rc(len(a + tooLong))},
			[]string{fmt.Sprintf(`at byte %d of the file: the record's header is longer than %d bytes: skipped`, len(a), MaxHeaderBytes),
				// The header is read in pieces of the buffer's size: the
				// skipping starts after the piece that went over.
				fmt.Sprintf(`at byte %d of the file: skipped %d bytes that are no WARC record, starting %q`, len(a)+tooLongCut, len(tooLong)-tooLongCut, tooLong[tooLongCut:][:32])}},
		{"not WARC at the start", "HTTP/1.1 200 OK\r\n\r\nWARC/1.0 \r\n" + a, []read{{"resource", "http://a/", "<p>a", plainAt(30)}},
			[]string{`at byte 0 of the file: skipped 19 bytes that are no WARC record, starting "HTTP/1.1 200 OK\r\n\r\n"`,
				`at byte 19 of the file: the record's header has no end (blank line) before the next record, at byte 30 of the file: skipped`}},
	} {
		got := readEveryWay(t, tc.name, tc.in)
		if got.err != nil || fmt.Sprint(got.records) != fmt.Sprint(tc.want) {
			t.Errorf("%s: records\n%v (%v)\nwant\n%v", tc.name, got.records, got.err, tc.want)
		}
		if fmt.Sprintf("%q", got.warnings) != fmt.Sprintf("%q", tc.warnings) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.name, got.warnings, tc.warnings)
		}
	}
}

// gzip-level trouble: what is not a member is skipped to the next member
// or record, said with its offset in the file; a corrupt member is skipped
// to the next member's magic bytes.
func TestReaderReadsOnPastGzipTrouble(t *testing.T) {
	a := record("resource", "http://a/", "text/html", "<p>a")
	c := record("resource", "http://c/", "text/html", "<p>c")
	ga, gc := gzipMembers(a), gzipMembers(c)
	ra := read{"resource", "http://a/", "<p>a", memberAt(0, 0)}
	rc := func(at int) read { return read{"resource", "http://c/", "<p>c", memberAt(at, 0)} }
	// A member whose deflate data is bad from its first byte (block type
	// 3, which does not exist).
	corrupt := ga[:10] + "\x07" + "junk"
	badCRC := []byte(ga)
	badCRC[len(badCRC)-8] ^= 1
	cutAtMemberEnd := gzipMembers(a[:len(a)-6])
	for _, tc := range []struct {
		name, in string
		want     []read
		warnings []string
	}{
		{"garbage after the last member (gowarc's corrupted-trailing-bytes)", ga + gc + "GARBAGE_DATA", []read{ra, rc(len(ga))},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped 12 bytes that are no WARC record, starting "GARBAGE_DATA"`, len(ga+gc))}},
		{"zero padding between members", ga + strings.Repeat("\x00", 512) + gc, []read{ra, rc(len(ga) + 512)},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped 512 bytes, all zero (padding)`, len(ga))}},
		{"garbage between members", ga + "junk\x1f\x8b" + gc, []read{ra, rc(len(ga) + 6)},
			[]string{fmt.Sprintf(`at byte %d of the file: skipped 6 bytes that are no WARC record, starting "junk\x1f\x8b"`, len(ga))}},
		{"a corrupt member", ga + corrupt + gc, []read{ra, rc(len(ga + corrupt))},
			[]string{fmt.Sprintf(`at the gzip member at byte %d of the file: the gzip member at byte %[1]d of the file is corrupt (found at byte %d of the file): flate: corrupt input before offset 1; read on from the next gzip member or record`, len(ga), len(ga)+11),
				fmt.Sprintf(`at byte %d of the file: skipped 4 bytes that are no WARC record, starting "junk"`, len(ga)+11)}},
		{"a member whose CRC does not match", string(badCRC) + gc, []read{ra, rc(len(ga))},
			[]string{`at the gzip member at byte 0 of the file: the gzip member's CRC-32 or length does not match its data (kept as it is)`}},
		{"a member that ends inside a record, then garbage", cutAtMemberEnd + "junk" + gc,
			[]read{{"resource", "http://a/", "<p [the record's block is cut short after 2 of its 4 bytes (the gzip member ends at byte " + fmt.Sprint(len(cutAtMemberEnd)) + " of the file and what follows is no gzip member): unexpected EOF]", memberAt(0, 0)}, rc(len(cutAtMemberEnd) + 4)},
			[]string{fmt.Sprintf(`at the gzip member at byte 0 of the file: the record's block is cut short after 2 of its 4 bytes (the gzip member ends at byte %d of the file and what follows is no gzip member): unexpected EOF`, len(cutAtMemberEnd)),
				fmt.Sprintf(`at byte %d of the file: skipped 4 bytes that are no WARC record, starting "junk"`, len(cutAtMemberEnd))}},
	} {
		got := readEveryWay(t, tc.name, tc.in)
		if got.err != nil || fmt.Sprint(got.records) != fmt.Sprint(tc.want) {
			t.Errorf("%s: records\n%v (%v)\nwant\n%v", tc.name, got.records, got.err, tc.want)
		}
		if fmt.Sprintf("%q", got.warnings) != fmt.Sprintf("%q", tc.warnings) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.name, got.warnings, tc.warnings)
		}
	}
}

// The file's end cutting a record short ends the file with an error that
// says where, after what could be read of the record; Next keeps it.
func TestReaderEndsAtARecordCutShortByTheFilesEnd(t *testing.T) {
	a := record("resource", "http://a/", "text/html", "<p>a")
	ga := gzipMembers(a)
	noise := make([]byte, 4000)
	for i, x := 0, uint32(1); i < len(noise); i++ {
		x = x*1664525 + 1013904223
		noise[i] = 'a' + byte(x>>24)%26
	}
	cutMember := gzipMembers(record("resource", "http://n/", "text/html", string(noise)))
	cutMember = cutMember[:len(cutMember)/2]
	tests := []struct{ name, in, last, err string }{
		{"a block", a + "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 99\r\n\r\ncut", "cut [the record's block is cut short after 3 of its 99 bytes (the file ends): unexpected EOF]",
			fmt.Sprintf("WARC record at byte %d of the file: the record's block is cut short after 3 of its 99 bytes (the file ends): unexpected EOF", len(a))},
		{"a header", a + "WARC/1.0\r\nWARC-Type: res", "<p>a", fmt.Sprintf("WARC record at byte %d of the file: the record's header is cut short by the file's end: unexpected EOF", len(a))},
		{"a gzip member (resiliparse's clipped.warc.gz)", ga + cutMember, "",
			fmt.Sprintf("WARC record at the gzip member at byte %d of the file: the record's block is cut short after ", len(ga))},
	}
	for _, tc := range tests {
		got := readEveryWay(t, tc.name, tc.in)
		if got.err == nil || !strings.HasPrefix(got.err.Error(), tc.err) || len(got.warnings) > 0 {
			t.Errorf("%s: error %v, want %q (warnings %q)", tc.name, got.err, tc.err, got.warnings)
		}
		if last := got.records[len(got.records)-1].block; tc.last != "" && last != tc.last {
			t.Errorf("%s: last block %q, want %q", tc.name, last, tc.last)
		}
		if tc.last == "" && !strings.Contains(got.err.Error(), fmt.Sprintf("(the gzip member at byte %d of the file is cut short by the file's end (byte %d)): unexpected EOF", len(ga), len(ga+cutMember))) {
			t.Errorf("%s: error %v", tc.name, got.err)
		}
		wr, _ := NewReader(strings.NewReader(tc.in))
		var err1 error
		for err1 == nil {
			_, err1 = wr.Next()
		}
		if _, err2 := wr.Next(); err1 == io.EOF || err2 != err1 {
			t.Errorf("%s: the error is not kept: %v, then %v", tc.name, err1, err2)
		}
	}
}

func TestIsHTTPResponse(t *testing.T) {
	for _, tc := range []struct {
		typ, ct string
		want    bool
	}{
		{"response", "application/http; msgtype=response", true},
		{"response", "application/http", true},
		{"response", "Application/HTTP;msgtype=response", true},
		{"request", "application/http; msgtype=request", false},
		{"response", "text/dns", false},
		{"resource", "text/html", false},
	} {
		rec := Record{Header: map[string][]string{"Warc-Type": {tc.typ}, "Content-Type": {tc.ct}}}
		if got := rec.IsHTTPResponse(); got != tc.want {
			t.Errorf("%s, %s: %v, want %v", tc.typ, tc.ct, got, tc.want)
		}
	}
	// A response record without a Content-Type is one when its block
	// starts with an HTTP status line.
	in := record("response", "http://a/", "", "HTTP/1.1 200 OK\r\n\r\n<p>a") + record("response", "http://b/", "", "<p>b")
	wr, _ := NewReader(chunked.Reader(strings.NewReader(in), 1))
	for _, want := range []bool{true, false} {
		rec, err := wr.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.IsHTTPResponse(); got != want {
			t.Errorf("%s without a Content-Type: %v, want %v", rec.TargetURI(), got, want)
		}
		if b, _ := io.ReadAll(rec.Block); !strings.HasSuffix(string(b), "<p>"+rec.TargetURI()[7:8]) {
			t.Errorf("the block after sniffing: %q", b)
		}
	}
}

// Skipping is linear on every shape of input that is no record: doubling
// the input doubles the work (bytes looked at), and the work stays within
// a few times the input's bytes, raw and decompressed.
func TestSkippingIsLinear(t *testing.T) {
	c := record("resource", "http://c/", "text/html", "<p>c")
	tiny := gzipMembers("x")
	tinyMembers := func(n int) string { return strings.Repeat(tiny, n/len(tiny)) }
	for _, tc := range []struct {
		name  string
		shape func(n int) string // about n bytes
		gzip  bool
	}{
		{"letters", func(n int) string { return strings.Repeat("abcdefgh", n/8) }, false},
		{"line ends", func(n int) string { return "x" + strings.Repeat("\n\r", n/2) }, false},
		{"zeros", func(n int) string { return strings.Repeat("\x00", n) }, false},
		{"near-miss lines", func(n int) string { return strings.Repeat("\nWARC/1\n\nWARC/0.\nWARC\r", n/24) }, false},
		{"records with no Content-Length", func(n int) string { return strings.Repeat("WARC/1.0\r\nX: y\r\n\r\n", n/18) }, false},
		{"version lines", func(n int) string { return strings.Repeat("WARC/1.0\r\n", n/10) }, false},
		{"header lines without a colon", func(n int) string { return "WARC/1.0\r\n" + strings.Repeat("x\r\n", n/3) + "\r\n" }, false},
		{"fake gzip magic", func(n int) string { return gzipMembers(c) + strings.Repeat("\x1f\x8b\x08\xff", n/4) }, true},
		{"a member of garbage", func(n int) string { return gzipMembers(strings.Repeat("\nWARC/1", n/7)) }, true},
		{"tiny members of garbage", tinyMembers, true},
		// In an ARC file (arc is true), lines are looked at as header lines.
		{"ARC: lines a field short of a header", func(n int) string { return strings.Repeat("http://x 1 20140101000000 t\n", n/28) }, false},
		{"ARC: lines longer than a header", func(n int) string {
			return strings.Repeat(strings.Repeat("x", maxARCLine+100)+"\n", n/(maxARCLine+101)+1)
		}, false},
		{"ARC: header lines whose length is no number", func(n int) string { return strings.Repeat("http://x 1 20140101000000 t z\n", n/30) }, false},
		{"ARC: short lines", func(n int) string { return strings.Repeat("\n", n) }, false},
	} {
		var work [2]int64
		for i, n := range []int{64 << 10, 128 << 10} {
			in := tc.shape(n) + "\r\n" + c
			switch {
			case tc.gzip:
				in = tc.shape(n) + gzipMembers(c)
			case strings.HasPrefix(tc.name, "ARC:"):
				in = arcVersionBlock + tc.shape(n) + arcRecord("http://c/", "text/html", "<p>c")
			}
			got := readAll(strings.NewReader(in))
			if got.err != nil || len(got.records) == 0 || got.records[len(got.records)-1].uri != "http://c/" {
				t.Fatalf("%s, %d bytes: the record after is not read: %v, %v", tc.name, n, got.records, got.err)
			}
			if limit := 16 * (int64(len(in)) + got.out); got.work > limit {
				t.Errorf("%s, %d bytes (%d decompressed): work %d, over %d", tc.name, len(in), got.out, got.work, limit)
			}
			work[i] = got.work
		}
		if float64(work[1]) > 2.2*float64(work[0]) {
			t.Errorf("%s: work %d for the input, %d for twice as much", tc.name, work[0], work[1])
		}
	}
}

// Any input: Next ends (io.EOF, or an error it then keeps), whatever the
// reads' sizes, with the same records and warnings; the work is bounded
// by the input's bytes, raw and decompressed; what it reads of an
// uncompressed part is in it, in order, and what it skips is counted
// within it.
func FuzzReader(f *testing.F) {
	a := record("response", "http://e/", "application/http", "HTTP/1.1 200 OK\r\n\r\nx")
	c := record("resource", "u", "text/html", "<p>")
	f.Add([]byte(a + c))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n\r\nWARC/1.0\r\nContent-Length: -1\r\n\r\n"))
	f.Add([]byte(gzipMembers(record("warcinfo", "", "", "a"), "WARC/1.1\r\nContent-Length: 9\r\n\r\nshort")))
	f.Add([]byte("WARC/1.1\r\nX\r\n\r\n"))
	f.Add([]byte(a + "m\r\n\r\n\r\n" + c))                                                   // stray bytes
	f.Add([]byte(strings.Replace(a, "Content-Length: 20", "Content-Length: 40", 1) + c + c)) // a length too long
	f.Add([]byte(strings.ReplaceAll(a, "\r\n", "\r\r\n") + c))                               // CR CR LF
	f.Add([]byte(a + strings.Repeat("\x00", 40) + c))                                        // zero padding
	f.Add([]byte(gzipMembers(a) + "junk\x1f\x8b" + gzipMembers(c) + "\x00\x00"))             // gzip garbage
	f.Add([]byte(gzipMembers(a)[:30] + gzipMembers(c)))                                      // a member cut short
	f.Add([]byte(gzipMembers(a+c[:20], c[20:]) + c))                                         // a record across members, then a plain one
	f.Add([]byte(arcVersionBlock + arcRecord("http://e/", "text/html", "HTTP/1.0 200 OK\r\n\r\nx") + "stray\n" + arcRecord("dns:e", "text/dns", "1.2.3.4")))
	f.Add([]byte(arcVersionBlock + "http://e/ 1.2.3.4 20140101000000 text/html abc\n<p>\n" + arcRecord("http://e/ a b", "text/html", "<p>")))
	f.Add([]byte(gzipMembers(arcVersionBlock, arcRecord("http://e/", "text/html", "<p>"))))
	f.Add([]byte(zstdWARC(f, zstdRecords()[:2], nil, false)))
	f.Fuzz(func(t *testing.T, in []byte) {
		whole := readAll(bytes.NewReader(in))
		bytewise := readAll(chunked.Reader(bytes.NewReader(in), 1))
		if fmt.Sprint(whole.records, whole.warnings, whole.err) != fmt.Sprint(bytewise.records, bytewise.warnings, bytewise.err) {
			t.Fatalf("read a byte at a time:\n%v %q %v\nread whole:\n%v %q %v", bytewise.records, bytewise.warnings, bytewise.err, whole.records, whole.warnings, whole.err)
		}
		if len(whole.records) > len(in) {
			t.Fatalf("%d records from %d bytes", len(whole.records), len(in))
		}
		if limit := 16*(int64(len(in))+whole.out) + 64; whole.work > limit {
			t.Fatalf("work %d for %d bytes (%d decompressed): over %d", whole.work, len(in), whole.out, limit)
		}
		wr, err := NewReader(bytes.NewReader(in))
		if err != nil {
			if whole.err == nil || whole.err.Error() != err.Error() || len(whole.records) > 0 {
				t.Fatalf("NewReader: %v; reading whole: %v", err, whole.err)
			}
			return // a file not read at all (a zstd dictionary frame that is none)
		}
		for err == nil {
			_, err = wr.Next()
		}
		if _, again := wr.Next(); again != err {
			t.Fatalf("error %v, then %v", err, again)
		}
		at := int64(0) // where the last block read ended, in the file
		for _, rec := range whole.records {
			if rec.at.Compressed || rec.at.Zstd || rec.typ == "request" {
				continue
			}
			if rec.at.Offset < at {
				t.Fatalf("record at %d, before the end of the last block (%d)", rec.at.Offset, at)
			}
			block, _, _ := strings.Cut(rec.block, " [") // the error read, if any
			if k := bytes.Index(in[rec.at.Offset:], []byte(block)); k < 0 {
				t.Fatalf("block %q is not in the input after its record's start", block)
			} else {
				at = rec.at.Offset + int64(k+len(block))
			}
		}
		wr, _ = NewReader(bytes.NewReader(in))
		wr.Warn = func(w Warning) {
			if w.Skipped < 0 || !w.Compressed && !w.Zstd && w.Offset+w.Skipped > int64(len(in)) {
				t.Fatalf("%v: skipped %d bytes, past the input's %d", w, w.Skipped, len(in))
			}
		}
		for err := error(nil); err == nil; _, err = wr.Next() {
		}
	})
}
