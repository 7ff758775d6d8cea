package robotstxt

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestBodyEncodings(t *testing.T) {
	const text = "User-agent: FooBot\nDisallow: /ツ\n"
	cases := []struct {
		name     string
		body     []byte
		encoding string
	}{
		{"plain UTF-8", []byte(text), EncodingUTF8},
		{"UTF-8 with BOM", append([]byte("\xEF\xBB\xBF"), text...), EncodingUTF8},
		{"first two bytes of a UTF-8 BOM", append([]byte("\xEF\xBB"), text...), EncodingUTF8},
		{"first byte of a UTF-8 BOM", append([]byte("\xEF"), text...), EncodingUTF8},
		{"UTF-16LE with BOM", utf16Bytes(text, false, true), EncodingUTF16LE},
		{"UTF-16BE with BOM", utf16Bytes(text, true, true), EncodingUTF16BE},
		{"UTF-16LE without BOM", utf16Bytes(text, false, false), EncodingUTF16LE},
		{"UTF-16BE without BOM", utf16Bytes(text, true, false), EncodingUTF16BE},
		{"DOS line ends", []byte(strings.ReplaceAll(text, "\n", "\r\n")), EncodingUTF8},
		{"old Mac line ends", []byte(strings.ReplaceAll(text, "\n", "\r")), EncodingUTF8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse(c.body, Options{})
			if r.Encoding() != c.encoding {
				t.Errorf("encoding = %s, want %s", r.Encoding(), c.encoding)
			}
			if r.Allowed("FooBot", "/%E3%83%84") || !r.Allowed("FooBot", "/other") {
				t.Errorf("rules not read right: groups %+v, warnings %v", r.Groups(), r.Warnings())
			}
			if len(r.Warnings()) != 0 {
				t.Errorf("warnings: %v", r.Warnings())
			}
		})
	}
}

func TestBrokenBOMLineIsSkipped(t *testing.T) {
	// EF 11 BF: the EF is a partial BOM, the rest spoils the first line only.
	r := Parse([]byte("\xEF\x11\xBFUser-Agent: foo\nDisallow: /AnyValue\n"), Options{})
	if !r.Allowed("foo", "/AnyValue") {
		t.Error("the spoilt User-agent line was used")
	}
	if w := r.Warnings(); len(w) != 2 || w[0].Line != 1 || w[1].Line != 2 {
		t.Errorf("warnings = %v, want lines 1 and 2", w)
	}
}

func TestInvalidUTF8AndNUL(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /\xff\xfe\nDisallow: /a\x00b\nAllow: /\x80/ok\n"), Options{})
	if r.Allowed("x", "/%FF%FE/page") {
		t.Error("an invalid UTF-8 pattern should match its percent-encoded bytes")
	}
	if r.Allowed("x", "/a/c") {
		t.Error("the pattern before the NUL should be kept")
	}
	if !r.Allowed("x", "http://h/%80/ok") {
		t.Error("the Allow with a lone continuation byte should match")
	}
}

func TestSizeLimit(t *testing.T) {
	filler := strings.Repeat("# "+strings.Repeat("x", 97)+"\n", 5000) // 500,000 bytes of comments
	t.Run("at least 500 KiB are read", func(t *testing.T) {
		body := "User-agent: *\n" + filler + "Disallow: /late\n"
		if len(body) < 500_000 {
			t.Fatalf("body is %d bytes", len(body))
		}
		r := Parse([]byte(body), Options{})
		if r.Allowed("x", "/late") {
			t.Error("a rule 500 KB into the file was not read")
		}
	})
	t.Run("past the limit nothing is read and a partial line is dropped", func(t *testing.T) {
		body := "User-agent: *\nDisallow: /private-area\nDisallow: /private-area-two\n"
		limit := strings.Index(body, "-two") // cuts "Disallow: /private-area" short of -two
		r := Parse([]byte(body), Options{MaxBytes: limit})
		if got := len(r.Groups()[0].Rules); got != 1 {
			t.Errorf("rules = %d, want 1", got)
		}
		w := r.Warnings()
		if len(w) != 1 || !strings.Contains(w[0].Message, "the rest is ignored") {
			t.Errorf("warnings = %v", w)
		}
	})
}

// endless is a robots.txt that never ends: a group, then the same rule for
// ever. It counts what was read and fails past a tripwire, so that a
// reader that does not stop fails the test rather than exhausting memory.
type endless struct {
	read, tripwire int64
}

func (e *endless) Read(p []byte) (int, error) {
	const head, line = "User-agent: *\n", "Disallow: /private/\n"
	if e.read >= e.tripwire {
		return 0, fmt.Errorf("read %d bytes of an endless body: the reader does not stop", e.read)
	}
	n := 0
	for n < len(p) {
		var s string
		if e.read+int64(n) < int64(len(head)) {
			s = head[e.read+int64(n):]
		} else {
			s = line[(e.read+int64(n)-int64(len(head)))%int64(len(line)):]
		}
		n += copy(p[n:], s)
	}
	e.read += int64(n)
	return n, nil
}

func TestReadBodyStopsAtTheLimit(t *testing.T) {
	for _, opts := range []Options{{}, {MaxBytes: 100}, {MaxBytes: 1 << 20, Mode: V1}} {
		src := &endless{tripwire: 64 << 20}
		body, err := ReadBody(src, opts)
		if err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if src.read > ReadLimit(opts)+64<<10 || int64(len(body)) != ReadLimit(opts) {
			t.Errorf("%+v: read %d bytes, kept %d; want %d", opts, src.read, len(body), ReadLimit(opts))
		}
		r := Parse(body, opts)
		ws := r.Warnings()
		if len(ws) != 1 || !strings.Contains(ws[0].Message, "the rest is ignored") {
			t.Errorf("%+v: warnings %v", opts, ws)
		}
		if r.Allowed("FooBot", "/private/x") {
			t.Errorf("%+v: the rules read were lost", opts)
		}
	}
}

// A body longer than ReadLimit parses as its first ReadLimit bytes do,
// in every encoding: what ReadBody leaves unread makes no difference.
func TestReadBodyKeepsWhatParseUses(t *testing.T) {
	text := "User-agent: FooBot\nDisallow: /ツ/𝄞\r\nAllow: /a\n" + strings.Repeat("Disallow: /é𝄞x\n", 200)
	bodies := map[string][]byte{
		"UTF-8":             []byte(text),
		"UTF-8 BOM":         append([]byte("\xEF\xBB\xBF"), text...),
		"UTF-16LE BOM":      utf16Bytes(text, false, true),
		"UTF-16BE BOM":      utf16Bytes(text, true, true),
		"UTF-16LE sniffed":  utf16Bytes(text, false, false),
		"UTF-16BE sniffed":  utf16Bytes(text, true, false),
		"UTF-16LE BOM, odd": append(utf16Bytes(text, false, true), 'x'),
	}
	for name, body := range bodies {
		for maxBytes := 1; maxBytes < 1500; maxBytes += 37 {
			opts := Options{MaxBytes: maxBytes}
			read, err := ReadBody(bytes.NewReader(body), opts)
			if err != nil {
				t.Fatal(err)
			}
			whole, cut := Parse(body, opts), Parse(read, opts)
			if whole.Encoding() != cut.Encoding() || whole.Size() != cut.Size() || whole.Lines() != cut.Lines() ||
				!reflect.DeepEqual(whole.Groups(), cut.Groups()) || !reflect.DeepEqual(whole.Warnings(), cut.Warnings()) {
				t.Fatalf("%s, MaxBytes %d: the body read (%d of %d bytes) parses differently:\n%v %d %v\n%v %d %v", name, maxBytes, len(read), len(body),
					whole.Encoding(), whole.Size(), whole.Warnings(), cut.Encoding(), cut.Size(), cut.Warnings())
			}
		}
	}
}
