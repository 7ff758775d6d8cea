package robofilter

import (
	"bytes"
	"strings"
	"testing"
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
