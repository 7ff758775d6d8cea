package feed_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/xmlstream"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// recordChunkings are the readers a entries test replays its input
// through: the position of an error must not depend on how the input
// arrives (the parser's buffer, the feed reader's chunks).
func entryChunkings(input []byte) map[string]io.Reader {
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

// recordsFrom runs Process on r and collects the entries.
func entriesFrom(r io.Reader, xpath string, opts robofilter.Options) ([]feed.Entry, error) {
	var recs []feed.Entry
	err := processEntries(r, xpath, opts, func(rec feed.Entry) error {
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

// In entries mode, XML that is not well-formed fails with the line and
// column of the error (SPEC section 6), after the entries before it: where
// encoding/xml stopped, or, for what it finds at the end of a token or not
// at all, where the XML stage puts it. Columns count bytes of the original
// input; CR, LF and CRLF end lines.
func TestEntriesNotWellFormedErrorsHaveLineAndColumn(t *testing.T) {
	longLine := "<feed><entry>" + strings.Repeat("word ", 20_000) + "</wrong></entry></feed>"
	var manyLines, manyEntries strings.Builder
	manyLines.WriteString("<feed>\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&manyLines, "<entry><id>%d</id></entry>\n", i)
	}
	manyLines.WriteString("<entry><id>x</id>\n  <![CDATA[\x02]]></entry></feed>")
	manyEntries.WriteString("<feed>")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&manyEntries, "<entry><id>%d</id><content type=\"html\">%s</content></entry>", i, strings.Repeat("&lt;p&gt;text ", 20))
	}
	manyEntries.WriteString("<entry>broken</entry><entry>x</feed>")
	utf16 := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder()
	utf16NoBOM := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder()

	for _, tc := range []struct {
		name    string
		input   string
		opts    robofilter.Options
		entries int    // entries passed to fn before the error
		pos     string // line:column
		msg     string // in the error
		// notXMLStage: the XML stage has no error here, or another.
		notXMLStage bool
	}{
		// The XML declaration, checked as the XML stage checks it.
		{name: "declaration_with_a_bad_standalone_at_the_pseudo_attribute", input: "<?xml version=\"1.0\" encoding=\"iso-8859-1\" standalone=\"Yes\"?><feed><entry>caf\xe9</entry></feed>",
			pos: "1:43", msg: `standalone "Yes" in the XML declaration: the value must be "yes" or "no"`},
		{name: "declaration_with_encoding_before_version", input: "<?xml encoding=\"utf-8\" version=\"1.0\"?><feed><entry>x</entry></feed>",
			pos: "1:7", msg: "the XML declaration has no version"},
		{name: "declaration_between_records_at_its_start", input: "<feed><entry>a</entry>\n<?xml version=\"1.0\"?><entry>b</entry></feed>",
			entries: 1, pos: "2:1", msg: "the XML declaration <?xml …?> may only stand at the start of the document"},
		{name: "long_declaration_between_records", input: "<feed><entry>a</entry>\n<?xml version=\"1.0\"" + strings.Repeat(" ", 1100) + "?><entry>b</entry></feed>",
			entries: 1, pos: "2:1", msg: "the XML declaration <?xml …?> may only stand at the start of the document"},
		{name: "long_declaration_with_a_bad_standalone", input: "<?xml version=\"1.0\"" + strings.Repeat(" ", 1100) + "standalone=\"maybe\"?><feed><entry>b</entry></feed>",
			pos: "1:1120", msg: `standalone "maybe" in the XML declaration`},
		{name: "reserved_target_in_another_case", input: "<feed><entry>a</entry><?XML x?><entry>b</entry></feed>",
			entries: 1, pos: "1:25", msg: "the processing instruction target XML is reserved"},
		{name: "mismatched_end_tag_at_the_end_tag", input: "<feed><entry><id>1</id></entry>\n<entry><id>2</wrong></entry></feed>",
			entries: 1, pos: "2:13", msg: "element <id> closed by </wrong>"},
		{name: "end_tag_after_the_root_at_the_end_tag", input: "<feed><entry>x</entry></feed></x>", entries: 1, pos: "1:30", msg: "unexpected end element </x>"},
		{name: "document_ends_inside_an_element_at_the_end", input: "<feed><entry>x</entry>\n<entry>y", entries: 1, pos: "2:9", msg: "unexpected EOF"},
		{name: "document_ends_inside_a_comment_at_the_end", input: "<feed><entry>x</entry><!-- never", entries: 1, pos: "1:33", msg: "unexpected EOF"},
		{name: "illegal_character_in_text_at_the_character", input: "<feed><entry>x</entry>\n<entry>a\x01b</entry></feed>", entries: 1, pos: "2:9", msg: "illegal character code U+0001"},
		{name: "illegal_character_in_an_attribute_value", input: "<feed><entry a=\"x\x01\">x</entry></feed>", pos: "1:18", msg: "illegal character code U+0001"},
		{name: "illegal_character_in_a_cdata_section", input: "<feed><entry><![CDATA[a\x01]]></entry></feed>", pos: "1:24", msg: "illegal character code U+0001"},
		{name: "noncharacter_in_text", input: "<feed><entry>a\uFFFEb</entry></feed>", pos: "1:15", msg: "illegal character code U+FFFE"},
		{name: "invalid_utf8_in_text_at_the_byte", input: "<feed><entry>x\xffy</entry></feed>", pos: "1:15", msg: "invalid UTF-8"},
		{name: "truncated_utf8_sequence_at_its_start", input: "<feed><entry>ab\xc3</entry></feed>", pos: "1:16", msg: "invalid UTF-8"},
		{name: "encoded_surrogate_at_its_start", input: "<feed><entry>a\xed\xa0\x80b</entry></feed>", pos: "1:15", msg: "invalid UTF-8"},
		{name: "illegal_character_reference_at_the_reference", input: "<feed><entry>a &#1; b</entry></feed>", pos: "1:16", msg: "&#1; is not a legal character reference"},
		{name: "surrogate_character_reference", input: "<feed><entry>a &#xD800; b</entry></feed>", pos: "1:16", msg: "&#xD800; is not a legal character reference"},
		{name: "text_after_the_root_where_the_text_starts", input: "<feed><entry>x</entry></feed>\n  junk", entries: 1, pos: "1:30", msg: "text outside the root element"},
		{name: "text_before_the_root_where_the_text_starts", input: "<?xml version=\"1.0\"?>\n junk<feed><entry>x</entry></feed>", pos: "1:22", msg: "text outside the root element"},
		{name: "cdata_section_after_the_root", input: "<feed><entry>x</entry></feed><![CDATA[x]]>", entries: 1, pos: "1:30", msg: "text outside the root element"},
		{name: "second_root_element_at_its_start_tag", input: "<feed><entry>x</entry></feed>\n  <x/>", entries: 1, pos: "2:3", msg: "a second root element <x>"},
		{name: "second_root_element_is_not_a_record", input: "<feed><entry>x</entry></feed><entry>y</entry>", entries: 1, pos: "1:30", msg: "a second root element <entry>"},
		{name: "no_root_element_at_the_end", input: "  \n", pos: "2:1", msg: "no root element"},
		{name: "empty_document", input: "", pos: "1:1", msg: "no root element"},
		{name: "markup_declaration_inside_the_root", input: "<feed><entry>x<!x></entry></feed>", pos: "1:15", msg: "a markup declaration <!x> is not allowed inside or after the root element"},
		{name: "second_doctype", input: "<!DOCTYPE feed><!DOCTYPE feed><feed/>", pos: "1:16", msg: "a second DOCTYPE"},
		{name: "cr_and_crlf_end_lines", input: "<feed>\r<entry>\r\n<id>1</ix></entry></feed>", pos: "3:6", msg: "element <id> closed by </ix>"},
		{name: "utf8_byte_order_mark_counts_in_the_first_line", input: "\xEF\xBB\xBF<feed></oops>", pos: "1:10", msg: "element <feed> closed by </oops>"},
		{name: "utf16_with_byte_order_mark", input: encode(t, utf16, "<feed>\n<entry>x</entry>\n<entry>y</oops></entry></feed>"), entries: 1, pos: "3:17", msg: "closed by </oops>"},
		{name: "utf16_byte_order_mark_counts_in_the_first_line", input: encode(t, utf16, "<feed></oops>"), pos: "1:15", msg: "closed by </oops>"},
		{name: "utf16_without_byte_order_mark", input: encode(t, utf16NoBOM, `<?xml version="1.0"?><feed></oops>`), pos: "1:55", msg: "closed by </oops>"},
		{name: "windows_1251_columns_count_original_bytes", input: encode(t, charmap.Windows1251.NewEncoder(), "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<feed><entry>Привет</wrong></entry></feed>"),
			pos: "2:20", msg: "closed by </wrong>"},
		{name: "shift_jis_columns_count_original_bytes", input: encode(t, japanese.ShiftJIS.NewEncoder(), "<?xml version=\"1.0\" encoding=\"shift_jis\"?>\n<feed><entry>日本語</wrong></entry></feed>"),
			pos: "2:20", msg: "closed by </wrong>"},
		{name: "charset_option_columns_count_original_bytes", input: encode(t, charmap.Windows1252.NewEncoder(), "<feed><entry>café</entry><entry>naïve\x01</entry></feed>"),
			opts: robofilter.Options{Charset: "windows-1252"}, entries: 1, pos: "1:38", msg: "illegal character code U+0001"},
		{name: "error_far_along_a_long_line", input: longLine, pos: fmt.Sprintf("1:%d", 14+5*20_000), msg: "closed by </wrong>"},
		{name: "error_after_many_lines", input: manyLines.String(), entries: 3000, pos: "3003:12", msg: "illegal character code U+0002"},
		{name: "records_before_the_error_are_passed", input: manyEntries.String(), entries: 201, pos: fmt.Sprintf("1:%d", len(manyEntries.String())-len("</feed>")+1), msg: "element <entry> closed by </feed>"},
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
			for chunking, r := range entryChunkings([]byte(tc.input)) {
				recs, err := entriesFrom(r, "//entry", tc.opts)
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
				if len(recs) != tc.entries {
					t.Errorf("%s: %d records before the error, want %d", chunking, len(recs), tc.entries)
				}
			}
			if !tc.notXMLStage && xmlPos != tc.pos {
				t.Errorf("the XML stage puts the error at %s, records mode at %s", xmlPos, tc.pos)
			}
		})
	}
}

// entityCase is a document whose root is the one entry (XPath /d): its
// title, or the link its href gives, or the error, must be what the XML
// stage reads.
type entityCase struct {
	name, input string
	title, link string // the entry's
	err         string // "line:col: message", the XML stage's too
}

func runEntryEntityCases(t *testing.T, cases []entityCase, opts robofilter.Options) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The XML stage's reading, for the same document.
			o := opts
			o.Format = robofilter.XML
			doc, xerr := robofilter.Filter(strings.NewReader(tc.input), o)
			text := doc.Text
			switch {
			case tc.err == "" && xerr != nil:
				t.Fatalf("the XML stage fails: %v", xerr)
			case tc.err != "" && (xerr == nil || xerr.Error() != tc.err):
				t.Fatalf("the XML stage gives %v, want %s", xerr, tc.err)
			case tc.err == "" && tc.title != "" && strings.Join(strings.Fields(text), " ") != strings.Join(strings.Fields(tc.title), " "):
				t.Fatalf("the XML stage reads %q, want %q", text, tc.title)
			}
			for chunking, r := range entryChunkings([]byte(tc.input)) {
				recs, err := entriesFrom(r, "/d", opts)
				if tc.err != "" {
					if err == nil || err.Error() != tc.err || len(recs) != 0 {
						t.Errorf("%s: %d records, error %v, want %s", chunking, len(recs), err, tc.err)
					}
					continue
				}
				if err != nil || len(recs) != 1 {
					t.Errorf("%s: %d records, error %v, want 1", chunking, len(recs), err)
					continue
				}
				if recs[0].Title != strings.Join(strings.Fields(tc.title), " ") || recs[0].Link != tc.link {
					t.Errorf("%s: title %q link %q, want %q and %q", chunking, recs[0].Title, recs[0].Link, tc.title, tc.link)
				}
			}
		})
	}
}

// An entity nobody declared is not well-formed where XML's WFC "Entity
// Declared" applies (no DTD; an internal subset without parameter entity
// references; standalone="yes"), as in the XML stage, at the reference,
// with the entries before it passed; elsewhere it reads as the HTML entity
// of that name or as written.
func TestEntriesUndeclaredEntityIsAnErrorWhereXMLRequiresADeclaration(t *testing.T) {
	const (
		noDTD      = "not well-formed XML: entity &bogus; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)"
		noExternal = "not well-formed XML: entity &bogus; is not declared: the internal subset does not declare it and there is no external DTD subset"
		standalone = "not well-formed XML: entity &bogus; is not declared in the internal subset, as a standalone document requires"
		xhtml      = `<!DOCTYPE d PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">`
	)
	runEntryEntityCases(t, []entityCase{
		{name: "no_dtd_text", input: "<d><title>a\n b &bogus; c</title></d>", err: "2:4: " + noDTD},
		{name: "no_dtd_html_name", input: "<d><title>a&nbsp;b</title></d>",
			err: "1:12: not well-formed XML: entity &nbsp; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)"},
		{name: "no_dtd_attribute_value", input: `<d><link href="a &bogus;"/></d>`, err: "1:18: " + noDTD},
		{name: "no_dtd_predefined_entities_need_no_declaration", input: "<d><title t='&lt;&gt;'>&lt;&gt;&amp;&apos;&quot;</title></d>", title: "<>&'\""},
		{name: "internal_subset_only", input: `<!DOCTYPE d [<!ENTITY x "why">]><d><title>&x; &bogus;</title></d>`, err: "1:47: " + noExternal},
		{name: "internal_subset_declares_it", input: `<!DOCTYPE d [<!ENTITY bogus "fine">]><d><title>&bogus;</title></d>`, title: "fine"},
		{name: "internal_subset_external_entity_kept_as_written", input: `<!DOCTYPE d [<!ENTITY bogus SYSTEM "b.xml">]><d><title>&bogus;</title></d>`, title: "&bogus;"},
		{name: "internal_subset_parameter_entity_declared_not_referenced", input: `<!DOCTYPE d [<!ENTITY % p "x">]><d><title>&bogus;</title></d>`, err: "1:43: " + noExternal},
		{name: "internal_subset_percent_in_a_literal_or_comment_is_no_reference", input: `<!DOCTYPE d [<!ATTLIST d a CDATA "%p;"><!-- %p; --><?pi %p;?>]><d><title>&bogus;</title></d>`, err: "1:74: " + noExternal},
		{name: "internal_subset_parameter_entity_reference", input: `<!DOCTYPE d [<!ENTITY % p SYSTEM "p.ent">%p;]><d><title>&bogus;</title></d>`, title: "&bogus;"},
		{name: "internal_subset_parameter_entity_reference_in_a_declaration_is_not_well_formed", input: `<!DOCTYPE d [<!ENTITY % p "CDATA"><!ATTLIST d a %p; #IMPLIED>]><d><title>&bogus;</title></d>`,
			err: "1:49: not well-formed XML: a parameter entity reference is not allowed inside a markup declaration of the internal subset"},
		{name: "root_element_named_SYSTEM_is_no_external_subset", input: `<!DOCTYPE SYSTEM [<!ENTITY x "y">]><SYSTEM><title>&bogus;</title></SYSTEM>`, err: "1:51: " + noExternal},
		{name: "external_subset_system", input: `<!DOCTYPE d SYSTEM "d.dtd"><d><title>a &bogus; b</title></d>`, title: "a &bogus; b"},
		{name: "external_subset_and_internal_subset", input: `<!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY x "y">]><d><title>&x; &bogus;</title></d>`, title: "y &bogus;"},
		{name: "external_subset_html_name_read_as_html", input: `<!DOCTYPE d PUBLIC "-//Example//DTD D//EN" "d.dtd"><d><title>a&eacute;</title></d>`, title: "aé"},
		{name: "external_subset_standalone_no", input: `<?xml version="1.0" standalone="no"?><!DOCTYPE d SYSTEM "d.dtd"><d><title>&bogus;</title></d>`, title: "&bogus;"},
		{name: "xhtml_dtd_declares_html_entities", input: xhtml + `<d><title>a&nbsp;b</title></d>`, title: "a\u00a0b"},
		{name: "standalone_with_external_subset", input: `<?xml version="1.0" standalone="yes"?><!DOCTYPE d SYSTEM "d.dtd"><d><title>a &bogus;</title></d>`, err: "1:78: " + standalone},
		{name: "standalone_with_parameter_entity_reference", input: `<?xml version='1.0' standalone='yes'?><!DOCTYPE d [<!ENTITY % p SYSTEM "p.ent">%p;]><d><title>&bogus;</title></d>`, err: "1:95: " + standalone},
		{name: "standalone_xhtml_declares_nothing", input: `<?xml version="1.0" standalone="yes"?>` + xhtml + `<d><title>a&nbsp;b</title></d>`,
			err: "1:156: not well-formed XML: entity &nbsp; is not declared in the internal subset, as a standalone document requires"},
		{name: "standalone_without_doctype", input: `<?xml version="1.0" standalone="yes"?><d><title>&bogus;</title></d>`, err: "1:49: " + noDTD},
		{name: "standalone_internal_subset_declares_it", input: `<?xml version="1.0" standalone="yes"?><!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY bogus "fine">]><d><title>&bogus;</title></d>`, title: "fine"},
		// encoding/xml ends the DOCTYPE at the '>' of the PI: the rest of
		// the internal subset still declares.
		{name: "internal_subset_with_a_pi_holding_a_gt", input: `<!DOCTYPE d [<?pi a > b?><!ENTITY x "y">]><d><title>t &x;</title></d>`, title: "t y"},
	}, robofilter.Options{})
}

// References in an internal entity's replacement text are read where the
// entity is used, as in the XML stage: character references and the
// predefined entities replaced, declared entities expanded in turn; an
// entity that refers to itself is not well-formed where it is used.
func TestEntriesExpandEntityReferencesInReplacementText(t *testing.T) {
	runEntryEntityCases(t, []entityCase{
		{name: "declared_entity", input: `<!DOCTYPE d [<!ENTITY a "alpha">]><d><title>x &a; y</title></d>`, title: "x alpha y"},
		{name: "nested_reference", input: `<!DOCTYPE d [<!ENTITY a "alpha"><!ENTITY b "x &a; y">]><d><title>&b;</title></d>`, title: "x alpha y"},
		{name: "declared_after_the_entity_that_refers_to_it", input: `<!DOCTYPE d [<!ENTITY b "x &a; y"><!ENTITY a "alpha">]><d><title>&b;</title></d>`, title: "x alpha y"},
		{name: "three_levels", input: `<!DOCTYPE d [<!ENTITY c "[&b;]"><!ENTITY b "(&a;)"><!ENTITY a "a">]><d><title>&c; &b;</title></d>`, title: "[(a)] (a)"},
		{name: "same_entity_twice_is_no_recursion", input: `<!DOCTYPE d [<!ENTITY a "x"><!ENTITY b "&a;-&a;">]><d><title>&b;&b;</title></d>`, title: "x-xx-x"},
		{name: "predefined_and_character_references_read_where_used", input: `<!DOCTYPE d [<!ENTITY e "&lt;t&gt; &amp;amp; &#38;#38; &#38;#x41; &#38;a;"><!ENTITY a "A">]><d><title>&e;</title></d>`,
			title: "<t> &amp; & A A"},
		{name: "ampersand_from_a_character_reference_is_not_well_formed", input: `<!DOCTYPE d [<!ENTITY e "fish &#38; chips"><!ENTITY f "&#38;a">]><d><title>&e; &f;</title></d>`,
			err: "1:76: not well-formed XML: an & that starts no entity or character reference, in the replacement text of &e; (a literal & is declared &#38;#38;)"},
		{name: "ampersand_declared_twice_escaped_is_text", input: `<!DOCTYPE d [<!ENTITY e "fish &#38;#38; chips">]><d><title>&e;</title></d>`, title: "fish & chips"},
		{name: "in_an_attribute_value", input: `<!DOCTYPE d [<!ENTITY u "http://&h;/&p;"><!ENTITY h "example.com"><!ENTITY p "a&amp;b">]><d><link href="&u;"/></d>`,
			link: "http://example.com/a&b"},
		{name: "recursive_entities_never_used_are_no_error", input: `<!DOCTYPE d [<!ENTITY a "&b;"><!ENTITY b "&a;">]><d><title>fine</title></d>`, title: "fine"},
		{name: "direct_recursion", input: `<!DOCTYPE d [<!ENTITY a "x &a;">]><d><title>before &a;</title></d>`,
			err: "1:52: not well-formed XML: entity &a; refers to itself (&a; → &a;)"},
		{name: "indirect_recursion", input: `<!DOCTYPE d [<!ENTITY a "x &b;"><!ENTITY b "y &c;"><!ENTITY c "z &b;">]><d><title>before &a;</title></d>`,
			err: "1:90: not well-formed XML: entity &b; refers to itself (&b; → &c; → &b;)"},
		{name: "recursion_in_an_attribute_value", input: `<!DOCTYPE d [<!ENTITY a "&a;">]><d><p>x</p><p t="&a;"/></d>`,
			err: "1:50: not well-formed XML: entity &a; refers to itself (&a; → &a;)"},
		{name: "undeclared_in_replacement_text_where_a_declaration_is_required", input: `<!DOCTYPE d [<!ENTITY b "x &bogus; y">]><d><title>t &b;</title></d>`,
			err: "1:53: not well-formed XML: entity &bogus; is not declared: the internal subset does not declare it and there is no external DTD subset (in the replacement text of &b;)"},
		{name: "undeclared_in_replacement_text_with_an_external_subset", input: `<!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY b "x &bogus; y">]><d><title>t &b; &b;</title></d>`, title: "t x &bogus; y x &bogus; y"},
		{name: "html_name_in_replacement_text_with_an_external_subset", input: `<!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY b "caf&eacute;">]><d><title>&b;</title></d>`, title: "café"},
		{name: "external_in_replacement_text", input: `<!DOCTYPE d [<!ENTITY x SYSTEM "x.xml"><!ENTITY b "a &x; b">]><d><title>&b;</title></d>`, title: "a &x; b"},
		{name: "illegal_character_reference_in_replacement_text", input: `<!DOCTYPE d [<!ENTITY b "&#38;#0;">]><d><title>t &b;</title></d>`,
			err: "1:50: not well-formed XML: &#0; is not a legal character reference (in the replacement text of &b;)"},
		{name: "illegal_character_reference_in_an_entity_value", input: `<!DOCTYPE d [<!ENTITY b "&#0;">]><d><title>t &b;</title></d>`,
			err: "1:26: not well-formed XML: &#0; is not a legal character reference (in an entity value)"},
	}, robofilter.Options{})
}

// An internal entity whose replacement text holds markup is read as content
// by the XML stage (XML 1.0 section 4.4.2); entries mode, which gives the
// decoder text through encoding/xml's Entity map, does not read markup
// inside entities: the reference reads as nothing (its tags do not become
// text, a robots region in it is not indexed), with one warning per entity
// name in the warnings of the entry that holds it, at its first
// reference there. Its use is checked as the XML stage checks it; in an
// attribute value it is not well-formed, as in the XML stage.
func TestEntriesEntityWithMarkupReadsAsNothingWithAWarning(t *testing.T) {
	const subset = `<!DOCTYPE d [<!ENTITY mk "<b>&a;</b>"><!ENTITY a "alpha"><!ENTITY hide "<span class='robots-noindex'>secret</span>"><!ENTITY outer "(&mk;)">]>`
	warning := func(name string) string {
		return "entity &" + name + "; holds markup, which entries mode does not read inside entities: the reference reads as nothing (the XML stage, without --entries, reads it as content)"
	}
	// at is the position of the first marker in input (a entry's test
	// names its reference so: "&hide; b").
	at := func(input, marker string) string {
		i := strings.Index(input, marker)
		if i < 0 {
			t.Fatalf("no %q in the input", marker)
		}
		line := 1 + strings.Count(input[:i], "\n")
		return fmt.Sprintf("%d:%d", line, i-strings.LastIndex(input[:i], "\n"))
	}
	type rec struct {
		title, text string
		warnings    [][2]string // the reference's marker, the entity's name
	}
	for _, tc := range []struct {
		name, input, xpath string
		xmlText            string // the XML stage's text, for the whole document
		recs               []rec
	}{
		{name: "markup_is_not_text", input: subset + `<d><title>x &mk; y &mk;</title></d>`, xpath: "/d", xmlText: "x alpha y alpha",
			recs: []rec{{title: "x y", warnings: [][2]string{{"&mk; y", "mk"}}}}},
		{name: "nested_markup_names_the_entity_referred_to", input: subset + `<d><title>&outer;z</title></d>`, xpath: "/d", xmlText: "( alpha )z",
			recs: []rec{{title: "z", warnings: [][2]string{{"&outer;", "outer"}}}}},
		{name: "one_warning_per_name_in_each_record", input: subset + "<f><e><title>&mk;&hide;&mk;</title></e>\n<e><title>t</title></e>\n<e><content type=\"html\">a &amp;lt;i&amp;gt; &hide; b</content></e></f>",
			xpath: "//e", xmlText: "alpha alpha t a &lt;i&gt; b",
			recs: []rec{
				{warnings: [][2]string{{"&mk;&hide;", "mk"}, {"&hide;&mk;", "hide"}}},
				{title: "t"},
				{text: "a <i> b", warnings: [][2]string{{"&hide; b", "hide"}}},
			}},
		{name: "between_records_goes_to_the_next", input: subset + "<f><e><title>a</title></e><x>&mk;</x>\n<e><title>b</title></e></f>", xpath: "//e", xmlText: "a alpha b",
			recs: []rec{{title: "a"}, {title: "b", warnings: [][2]string{{"&mk;</x>", "mk"}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := robofilter.Filter(strings.NewReader(tc.input), robofilter.Options{Format: robofilter.XML})
			if err != nil || strings.Join(strings.Fields(doc.Text), " ") != strings.Join(strings.Fields(tc.xmlText), " ") {
				t.Fatalf("the XML stage reads %q, error %v, want %q", doc.Text, err, tc.xmlText)
			}
			for chunking, r := range entryChunkings([]byte(tc.input)) {
				recs, err := entriesFrom(r, tc.xpath, robofilter.Options{})
				if err != nil || len(recs) != len(tc.recs) {
					t.Fatalf("%s: %d records, error %v, want %d", chunking, len(recs), err, len(tc.recs))
				}
				for i, want := range tc.recs {
					got := recs[i]
					var text string
					if got.Doc != nil {
						text = strings.Join(strings.Fields(got.Doc.Text), " ")
					}
					var warns []string
					for _, w := range got.Warnings {
						warns = append(warns, w.String())
						if w.Line != w.Pos.Line || w.Col != w.Pos.Col {
							t.Errorf("%s: record %d: warning %v: line and column %d:%d", chunking, i+1, w, w.Line, w.Col)
						}
					}
					var wantWarns []string
					for _, w := range want.warnings {
						wantWarns = append(wantWarns, at(tc.input, w[0])+": warning: "+warning(w[1]))
					}
					if got.Title != want.title || text != want.text || fmt.Sprint(warns) != fmt.Sprint(wantWarns) {
						t.Errorf("%s: record %d: title %q, text %q, warnings %q; want %q, %q, %q", chunking, i+1, got.Title, text, warns, want.title, want.text, wantWarns)
					}
				}
			}
		})
	}
	t.Run("in_an_attribute_value_is_not_well_formed", func(t *testing.T) {
		input := subset + `<d><link href="x&mk;"/></d>`
		want := at(input, "&mk;\"") + ": not well-formed XML: the replacement text of &mk; holds a '<', which an attribute value may not (WFC No < in Attribute Values)"
		if xerr := xmlStageError(t, []byte(input), robofilter.Options{}); xerr == nil || xerr.Error() != want {
			t.Fatalf("the XML stage gives %v, want %s", xerr, want)
		}
		for chunking, r := range entryChunkings([]byte(input)) {
			if recs, err := entriesFrom(r, "/d", robofilter.Options{}); err == nil || err.Error() != want || len(recs) != 0 {
				t.Errorf("%s: %d records, error %v, want %s", chunking, len(recs), err, want)
			}
		}
	})
}

// Every use of an internal entity, nested ones included, is charged to the
// document's expansion budget, as in the XML stage: the reference that
// would pass it fails with ErrEntityExpansion there, after the entries
// before it, quickly and without expanding what is past the budget.
func TestEntriesEntityExpansionPastTheBudgetStopsTheDocument(t *testing.T) {
	var laughs strings.Builder
	laughs.WriteString("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n")
	for i := 1; i <= 9; i++ {
		prev := "lol"
		if i > 1 {
			prev = fmt.Sprintf("lol%d", i-1)
		}
		fmt.Fprintf(&laughs, " <!ENTITY lol%d \"%s\">\n", i, strings.Repeat("&"+prev+";", 10))
	}
	laughs.WriteString("]>\n<lolz><e><title>fine &lol3;</title></e>\n<e><title>&lol9;</title></e></lolz>\n")
	big := strings.Repeat("x", 64<<10)
	var quadratic strings.Builder
	quadratic.WriteString(`<!DOCTYPE d [<!ENTITY big "` + big + `">]>` + "\n<d>")
	for i := 0; i < 20; i++ {
		quadratic.WriteString("<e><title>&big;</title></e>")
	}
	quadratic.WriteString("</d>")
	for _, tc := range []struct {
		name    string
		input   string
		opts    robofilter.Options
		entries int
		pos     string
	}{
		{name: "billion_laughs", input: laughs.String(), entries: 1, pos: "15:11"},
		{name: "one_long_entity_used_once_per_record", input: quadratic.String(), opts: robofilter.Options{MaxTokenSize: 1 << 20}, entries: 16, pos: fmt.Sprintf("2:%d", 4+16*27+10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xerr := xmlStageError(t, []byte(tc.input), tc.opts)
			var xpe *filter.PosError
			if !errors.As(xerr, &xpe) || !errors.Is(xerr, xmlstream.ErrEntityExpansion) || xpe.Pos.String() != tc.pos {
				t.Fatalf("the XML stage gives %v, want ErrEntityExpansion at %s", xerr, tc.pos)
			}
			start := time.Now()
			recs, err := entriesFrom(strings.NewReader(tc.input), "//e", tc.opts)
			elapsed := time.Since(start)
			if err == nil || err.Error() != xerr.Error() {
				t.Errorf("error %v, want the XML stage's %v", err, xerr)
			}
			if !errors.Is(err, xmlstream.ErrEntityExpansion) {
				t.Errorf("error %v does not wrap ErrEntityExpansion", err)
			}
			if len(recs) != tc.entries {
				t.Errorf("%d records before the error, want %d", len(recs), tc.entries)
			}
			for i, r := range recs {
				if tc.name == "one_long_entity_used_once_per_record" && r.Title != big {
					t.Errorf("record %d: title of %d bytes, want the entity's %d", i+1, len(r.Title), len(big))
				}
			}
			t.Logf("%v", elapsed) // the budget bounds the work; no bound on time, which load moves
		})
	}
}

// Where an undeclared entity is allowed, the decoder's map learns every
// name used, however many there are: names the decoder has read leave it
// (EntityFiller stopped learning at 4096 and the decoder then failed).
func TestEntriesReadAnyNumberOfUndeclaredEntities(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE feed SYSTEM "feed.dtd"><feed>`)
	const n = 10_000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "<entry><title>&e%d;</title></entry>\n", i)
	}
	b.WriteString("</feed>")
	recs, err := entriesFrom(strings.NewReader(b.String()), "//entry", robofilter.Options{})
	if err != nil || len(recs) != n {
		t.Fatalf("%d records, error %v", len(recs), err)
	}
	for i, r := range recs {
		if want := fmt.Sprintf("&e%d;", i); r.Title != want {
			t.Fatalf("record %d: title %q, want %q (kept as written)", i+1, r.Title, want)
		}
	}
}

// On the shared corpus, entries mode rejects exactly the documents the XML
// stage rejects as not well-formed, at the same line and column.
func TestEntriesAgreeWithTheXMLStageOnTheCorpus(t *testing.T) {
	files := shared.Walk(t, "corpus/xml")
	rejected := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		xerr := xmlStageError(t, src, robofilter.Options{})
		_, rerr := entriesFrom(bytes.NewReader(src), "//item|//entry|//url", robofilter.Options{})
		if errors.Is(rerr, feed.ErrEntryTooLarge) {
			continue // a document entries mode does not take
		}
		xbad := errors.Is(xerr, xmlstream.ErrNotWellFormed) || errors.Is(xerr, xmlstream.ErrEntityExpansion)
		if !xbad && xerr != nil {
			continue // a limit of the XML stage's
		}
		var xpe, rpe *filter.PosError
		switch {
		case xbad != (rerr != nil):
			t.Errorf("%s:\n  XML stage: %v\n  records:   %v", f, xerr, rerr)
		case !xbad:
		case !errors.As(xerr, &xpe) || !errors.As(rerr, &rpe) || xpe.Pos.String() != rpe.Pos.String():
			t.Errorf("%s: positions differ:\n  XML stage: %v\n  records:   %v", f, xerr, rerr)
		default:
			rejected++
		}
	}
	t.Logf("%d files, %d rejected by both at the same position", len(files), rejected)
}

// The warnings about entities with markup go to the entry that holds the
// references, one per name, however many references there are and however
// the input arrives (the parser reads ahead of the entry it returns).
func TestEntriesEntityWithMarkupWarningsFollowTheirEntries(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE f [<!ENTITY mk "<b>x</b>">]><f>`)
	var want []string // the first reference's offset in each entry, or ""
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "<e><title>%d</title>", i)
		if i%3 != 0 {
			want = append(want, fmt.Sprintf("1:%d", b.Len()+len("<p>")+1))
			b.WriteString("<p>" + strings.Repeat("&mk; ", 1+i%50) + "</p>")
		} else {
			want = append(want, "")
		}
		b.WriteString("</e>")
	}
	b.WriteString("</f>")
	for chunking, r := range entryChunkings([]byte(b.String())) {
		recs, err := entriesFrom(r, "//e", robofilter.Options{})
		if err != nil || len(recs) != len(want) {
			t.Fatalf("%s: %d records, error %v", chunking, len(recs), err)
		}
		for i, rec := range recs {
			var got string
			for _, w := range rec.Warnings {
				got += w.Pos.String()
			}
			if got != want[i] {
				t.Errorf("%s: record %d: warnings at %q, want %q", chunking, i+1, got, want[i])
			}
		}
	}
}
