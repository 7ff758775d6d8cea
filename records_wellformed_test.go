package robofilter_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/xmlstream"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// recordChunkings are the readers a records test replays its input
// through: the position of an error must not depend on how the input
// arrives (the parser's buffer, the feed reader's chunks).
func recordChunkings(input []byte) map[string]io.Reader {
	m := map[string]io.Reader{
		"whole":    bytes.NewReader(input),
		"one byte": iotest.OneByteReader(bytes.NewReader(input)),
		"data err": iotest.DataErrReader(bytes.NewReader(input)),
	}
	for _, n := range []int{2, 3, 7, 64, 511, 513, 4095, 4097} {
		m[fmt.Sprintf("chunks of %d", n)] = chunked.Reader(bytes.NewReader(input), n)
	}
	return m
}

// recordsFrom runs ProcessRecords on r and collects the records.
func recordsFrom(r io.Reader, xpath string, opts robofilter.Options) ([]robofilter.Record, error) {
	var recs []robofilter.Record
	err := robofilter.ProcessRecords(r, xpath, opts, func(rec robofilter.Record) error {
		recs = append(recs, rec)
		return nil
	})
	return recs, err
}

// xmlStageError is the error the XML stage gives for the document.
func xmlStageError(t *testing.T, input []byte, opts robofilter.Options) error {
	t.Helper()
	opts.Format = robofilter.XML
	_, err := robofilter.Process(bytes.NewReader(input), opts, robofilter.Outputs{})
	return err
}

func encode(t *testing.T, enc interface{ Bytes([]byte) ([]byte, error) }, s string) string {
	t.Helper()
	b, err := enc.Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// In records mode, XML that is not well-formed fails with the line and
// column of the error (SPEC section 6), after the records before it: where
// encoding/xml stopped, or, for what it finds at the end of a token or not
// at all, where the XML stage puts it. Columns count bytes of the original
// input; CR, LF and CRLF end lines.
func TestRecordsNotWellFormedErrorsHaveLineAndColumn(t *testing.T) {
	longLine := "<feed><entry>" + strings.Repeat("word ", 20_000) + "</wrong></entry></feed>"
	var manyLines, manyRecords strings.Builder
	manyLines.WriteString("<feed>\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&manyLines, "<entry><id>%d</id></entry>\n", i)
	}
	manyLines.WriteString("<entry><id>x</id>\n  <![CDATA[\x02]]></entry></feed>")
	manyRecords.WriteString("<feed>")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&manyRecords, "<entry><id>%d</id><content type=\"html\">%s</content></entry>", i, strings.Repeat("&lt;p&gt;text ", 20))
	}
	manyRecords.WriteString("<entry>broken</entry><entry>x</feed>")
	utf16 := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder()
	utf16NoBOM := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder()

	for _, tc := range []struct {
		name    string
		input   string
		opts    robofilter.Options
		records int    // records passed to fn before the error
		pos     string // line:column
		msg     string // in the error
		// notXMLStage: the XML stage has no error here, or another.
		notXMLStage bool
	}{
		{name: "mismatched_end_tag_at_the_end_tag", input: "<feed><entry><id>1</id></entry>\n<entry><id>2</wrong></entry></feed>",
			records: 1, pos: "2:13", msg: "element <id> closed by </wrong>"},
		{name: "end_tag_after_the_root_at_the_end_tag", input: "<feed><entry>x</entry></feed></x>", records: 1, pos: "1:30", msg: "unexpected end element </x>"},
		{name: "document_ends_inside_an_element_at_the_end", input: "<feed><entry>x</entry>\n<entry>y", records: 1, pos: "2:9", msg: "unexpected EOF"},
		{name: "document_ends_inside_a_comment_at_the_end", input: "<feed><entry>x</entry><!-- never", records: 1, pos: "1:33", msg: "unexpected EOF"},
		{name: "illegal_character_in_text_at_the_character", input: "<feed><entry>x</entry>\n<entry>a\x01b</entry></feed>", records: 1, pos: "2:9", msg: "illegal character code U+0001"},
		{name: "illegal_character_in_an_attribute_value", input: "<feed><entry a=\"x\x01\">x</entry></feed>", pos: "1:18", msg: "illegal character code U+0001"},
		{name: "illegal_character_in_a_cdata_section", input: "<feed><entry><![CDATA[a\x01]]></entry></feed>", pos: "1:24", msg: "illegal character code U+0001"},
		{name: "noncharacter_in_text", input: "<feed><entry>a\uFFFEb</entry></feed>", pos: "1:15", msg: "illegal character code U+FFFE"},
		{name: "invalid_utf8_in_text_at_the_byte", input: "<feed><entry>x\xffy</entry></feed>", pos: "1:15", msg: "invalid UTF-8"},
		{name: "truncated_utf8_sequence_at_its_start", input: "<feed><entry>ab\xc3</entry></feed>", pos: "1:16", msg: "invalid UTF-8"},
		{name: "encoded_surrogate_at_its_start", input: "<feed><entry>a\xed\xa0\x80b</entry></feed>", pos: "1:15", msg: "invalid UTF-8"},
		{name: "illegal_character_reference_at_the_reference", input: "<feed><entry>a &#1; b</entry></feed>", pos: "1:16", msg: "&#1; is not a legal character reference"},
		{name: "surrogate_character_reference", input: "<feed><entry>a &#xD800; b</entry></feed>", pos: "1:16", msg: "&#xD800; is not a legal character reference"},
		{name: "text_after_the_root_where_the_text_starts", input: "<feed><entry>x</entry></feed>\n  junk", records: 1, pos: "1:30", msg: "text outside the root element"},
		{name: "text_before_the_root_where_the_text_starts", input: "<?xml version=\"1.0\"?>\n junk<feed><entry>x</entry></feed>", pos: "1:22", msg: "text outside the root element"},
		{name: "cdata_section_after_the_root", input: "<feed><entry>x</entry></feed><![CDATA[x]]>", records: 1, pos: "1:30", msg: "text outside the root element"},
		{name: "second_root_element_at_its_start_tag", input: "<feed><entry>x</entry></feed>\n  <x/>", records: 1, pos: "2:3", msg: "a second root element <x>"},
		{name: "second_root_element_is_not_a_record", input: "<feed><entry>x</entry></feed><entry>y</entry>", records: 1, pos: "1:30", msg: "a second root element <entry>"},
		{name: "no_root_element_at_the_end", input: "  \n", pos: "2:1", msg: "no root element"},
		{name: "empty_document", input: "", pos: "1:1", msg: "no root element"},
		{name: "markup_declaration_inside_the_root", input: "<feed><entry>x<!x></entry></feed>", pos: "1:15", msg: "a markup declaration <!x> is not allowed inside or after the root element"},
		{name: "second_doctype", input: "<!DOCTYPE feed><!DOCTYPE feed><feed/>", pos: "1:16", msg: "a second DOCTYPE"},
		{name: "cr_and_crlf_end_lines", input: "<feed>\r<entry>\r\n<id>1</ix></entry></feed>", pos: "3:6", msg: "element <id> closed by </ix>"},
		{name: "utf8_byte_order_mark_counts_in_the_first_line", input: "\xEF\xBB\xBF<feed></oops>", pos: "1:10", msg: "element <feed> closed by </oops>"},
		{name: "utf16_with_byte_order_mark", input: encode(t, utf16, "<feed>\n<entry>x</entry>\n<entry>y</oops></entry></feed>"), records: 1, pos: "3:9", msg: "closed by </oops>"},
		{name: "utf16_byte_order_mark_counts_in_the_first_line", input: encode(t, utf16, "<feed></oops>"), pos: "1:9", msg: "closed by </oops>"},
		{name: "utf16_without_byte_order_mark", input: encode(t, utf16NoBOM, `<?xml version="1.0"?><feed></oops>`), pos: "1:28", msg: "closed by </oops>"},
		{name: "windows_1251_columns_count_original_bytes", input: encode(t, charmap.Windows1251.NewEncoder(), "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<feed><entry>Привет</wrong></entry></feed>"),
			pos: "2:20", msg: "closed by </wrong>"},
		{name: "shift_jis_columns_count_original_bytes", input: encode(t, japanese.ShiftJIS.NewEncoder(), "<?xml version=\"1.0\" encoding=\"shift_jis\"?>\n<feed><entry>日本語</wrong></entry></feed>"),
			pos: "2:20", msg: "closed by </wrong>"},
		{name: "charset_option_columns_count_original_bytes", input: encode(t, charmap.Windows1252.NewEncoder(), "<feed><entry>café</entry><entry>naïve\x01</entry></feed>"),
			opts: robofilter.Options{Charset: "windows-1252"}, records: 1, pos: "1:38", msg: "illegal character code U+0001"},
		{name: "error_far_along_a_long_line", input: longLine, pos: fmt.Sprintf("1:%d", 14+5*20_000), msg: "closed by </wrong>"},
		{name: "error_after_many_lines", input: manyLines.String(), records: 3000, pos: "3003:12", msg: "illegal character code U+0002"},
		{name: "records_before_the_error_are_passed", input: manyRecords.String(), records: 201, pos: fmt.Sprintf("1:%d", len(manyRecords.String())-len("</feed>")+1), msg: "element <entry> closed by </feed>"},
		{name: "unquoted_attribute_value_at_the_value", input: "<feed><entry a=\"1\" b=2>x</entry></feed>", pos: "1:22", msg: "unquoted or missing attribute value"},
		{name: "attribute_without_value_where_the_value_should_be", input: "<feed><entry a>x</entry></feed>", pos: "1:15", msg: "attribute name without = in element"},
		{name: "double_dash_in_a_comment_at_the_dashes", input: "<feed><entry>a <!-- x -- y --> b</entry></feed>", pos: "1:23", msg: `invalid sequence "--" not allowed in comments`},
		{name: "cdata_end_in_text_at_its_start", input: "<feed><entry>a ]]> b</entry></feed>", pos: "1:16", msg: "unescaped ]]> not in CDATA section"},
		{name: "reference_without_semicolon_at_the_ampersand", input: "<feed><entry>a &amp b</entry></feed>", pos: "1:16", msg: "invalid character entity &amp (no semicolon)"},
		{name: "lt_in_an_attribute_value_at_the_lt", input: "<feed><entry a=\"<\">x</entry></feed>", pos: "1:17", msg: "unescaped < inside quoted string"},
		{name: "no_element_name_after_lt_at_the_byte", input: "<feed><entry>a < b</entry></feed>", pos: "1:17", msg: "expected element name after <"},
		// encoding/xml through xmlquery rejects what the XML stage warns about.
		{name: "undeclared_namespace_prefix_at_the_start_tag", input: "<feed><entry><a:b>x</a:b></entry></feed>", pos: "1:14", msg: "namespace a is missing", notXMLStage: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var xmlPos string
			if !tc.notXMLStage {
				xerr := xmlStageError(t, []byte(tc.input), tc.opts)
				var xpe *filter.PosError
				if !errors.As(xerr, &xpe) {
					t.Fatalf("the XML stage gives %v, want a positioned error", xerr)
				}
				xmlPos = xpe.Pos.String()
			}
			for chunking, r := range recordChunkings([]byte(tc.input)) {
				recs, err := recordsFrom(r, "//entry", tc.opts)
				var pe *filter.PosError
				if !errors.As(err, &pe) {
					t.Fatalf("%s: error %v, want a *filter.PosError", chunking, err)
				}
				if got := pe.Pos.String(); got != tc.pos {
					t.Errorf("%s: error at %s, want %s: %v", chunking, got, tc.pos, err)
				}
				if !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("%s: error %q, want it to hold %q", chunking, err, tc.msg)
				}
				if !tc.notXMLStage && !errors.Is(err, xmlstream.ErrNotWellFormed) {
					t.Errorf("%s: error %v does not wrap xmlstream.ErrNotWellFormed", chunking, err)
				}
				if len(recs) != tc.records {
					t.Errorf("%s: %d records before the error, want %d", chunking, len(recs), tc.records)
				}
			}
			if !tc.notXMLStage && xmlPos != tc.pos {
				t.Errorf("the XML stage puts the error at %s, records mode at %s", xmlPos, tc.pos)
			}
		})
	}
}
