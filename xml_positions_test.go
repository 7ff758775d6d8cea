package robofilter

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/text/encoding/unicode"
)

// In UTF-16 the XML stage's positions count the input's bytes, as the
// HTML stage's do: an offset is where the place starts in the file as
// given, and a column counts the bytes from its line's start (two per
// character of the Basic Multilingual Plane, four beyond it).
func TestXMLPositionsInUTF16CountTheInputsBytes(t *testing.T) {
	doc := "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<r xmlns:xl=\"http://www.w3.org/1999/xlink\">\r\n" +
		"  <t>café 😀 x</t><p class=\"robots-noindex\">hid</p>\r" +
		"\t<q>日本</q><a xl:href=\"/l\" xl:type=\"simple\">l</a>\n</r>\n"
	for _, e := range []struct {
		name string
		enc  unicode.Endianness
	}{{"UTF-16LE", unicode.LittleEndian}, {"UTF-16BE", unicode.BigEndian}} {
		src, err := unicode.UTF16(e.enc, unicode.UseBOM).NewEncoder().Bytes([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		var places []filter.Pos
		_, err = Process(bytes.NewReader(src), Options{Format: XML}, Outputs{
			Region: func(r filter.Region) error {
				places = append(places, filter.Pos{Offset: r.Offset, Line: r.Line, Col: r.Col})
				return nil
			},
			Link: func(l filter.Link) error {
				places = append(places, filter.Pos{Offset: l.Offset, Line: l.Line, Col: l.Col})
				return nil
			},
		})
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if len(places) != 2 {
			t.Fatalf("%s: %d places, want a region and a link", e.name, len(places))
		}
		for i, want := range []string{"<p", "<a"} {
			p := places[i]
			if p.Offset < 0 || int(p.Offset) > len(src) {
				t.Fatalf("%s: offset %d out of the input", e.name, p.Offset)
			}
			// What stands at the offset, and the line and column a walk of
			// the input character by character gives for it.
			units := make([]uint16, 0, len(src)/2)
			for i := 2; i+1 < len(src); i += 2 {
				if e.enc == unicode.LittleEndian {
					units = append(units, uint16(src[i])|uint16(src[i+1])<<8)
				} else {
					units = append(units, uint16(src[i])<<8|uint16(src[i+1]))
				}
			}
			before := string(utf16.Decode(units[:(p.Offset-2)/2]))
			at := string(utf16.Decode(units[(p.Offset-2)/2:]))
			if !strings.HasPrefix(at, want) {
				t.Errorf("%s: at offset %d stands %.10q, want %q", e.name, p.Offset, at, want)
			}
			line, lineStart := 1, 0 // lineStart: input bytes before the line (line 1 counts the mark)
			afterCR := false
			off := 2 // the byte order mark, on line 1 as in UTF-8
			for _, r := range before {
				n := 2
				if r > 0xFFFF {
					n = 4
				}
				off += n
				switch {
				case r == '\n' && afterCR:
					lineStart = off
				case r == '\n' || r == '\r':
					line++
					lineStart = off
				}
				afterCR = r == '\r'
			}
			if wantCol := 1 + off - lineStart; p.Line != line || p.Col != wantCol {
				t.Errorf("%s: %q at %d:%d, want %d:%d", e.name, want, p.Line, p.Col, line, wantCol)
			}
		}
	}
}

// Records mode counts positions as the XML stage does, exactly, in
// multi-byte charsets too: a character the charset decodes but cannot
// encode (Shift_JIS's byte 0x80, U+0080) counts the one byte it was, not
// the six of the character reference x/net's encoder writes for it; a
// malformed sequence of two bytes read as one U+FFFD counts two; a byte
// read as a character the encoder writes longer (gb18030's 0x80, €) or a
// sequence read as two characters (Big5's 0x88 0x62) count their bytes.
func TestRecordPositionsCountTheOriginalBytes(t *testing.T) {
	for _, tc := range []struct{ charset, odd string }{
		{"Shift_JIS", "\x80"},
		{"Shift_JIS", "\x81\xff"},
		{"Big5", "\x81\x7f"},
		{"Big5", "\x88\x62"},
		{"gb18030", "\x80"},
		{"EUC-JP", "\x8f\xa1"},
	} {
		doc := `<?xml version="1.0" encoding="` + tc.charset + `"?><feed><entry><title>` + tc.odd + " a\n" + tc.odd + " &x</title></entry></feed>"
		want := strings.Index(doc, "&x")
		for _, r := range []io.Reader{strings.NewReader(doc), iotest.OneByteReader(strings.NewReader(doc))} {
			err := ProcessRecords(r, "//entry", Options{}, func(Record) error { return nil })
			var pe *filter.PosError
			if !errors.As(err, &pe) {
				t.Fatalf("%s %q: error %v, want a position", tc.charset, tc.odd, err)
			}
			if col := want - strings.LastIndex(doc, "\n"); pe.Pos.Offset != int64(want) || pe.Pos.Col != col {
				t.Errorf("%s %q: error at offset %d, column %d; want %d, %d (the &)", tc.charset, tc.odd, pe.Pos.Offset, pe.Pos.Col, want, col)
			}
		}
	}
}

// A robots PI in a DOCTYPE is placed when the DOCTYPE ends, perhaps long
// after the position window moved past its start: the irregular
// characters between (a malformed two-byte sequence) still count.
func TestRecordPositionsInALongDoctype(t *testing.T) {
	doc := `<?xml version="1.0" encoding="Shift_JIS"?><!DOCTYPE feed [ <!-- ` + "\x81\xff" + ` --> <!--` + strings.Repeat("y", 40000) + `--> <?robots index='no' follow="no"?> ]><feed><entry/></feed>`
	var warnings []filter.Warning
	if err := ProcessRecords(strings.NewReader(doc), "//entry", Options{}, func(r Record) error {
		warnings = append(warnings, r.Warnings...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := strings.Index(doc, "<?robots")
	if len(warnings) != 1 || warnings[0].Pos.Offset != int64(want) || warnings[0].Col != want+1 {
		t.Fatalf("warnings %+v; want one at offset %d, column %d (the PI)", warnings, want, want+1)
	}
}
