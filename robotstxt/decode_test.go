package robotstxt

import (
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
