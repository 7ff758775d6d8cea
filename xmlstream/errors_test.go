package xmlstream

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16LE encodes s as UTF-16 little-endian after a byte order mark.
func utf16LE(s string) string {
	var b strings.Builder
	b.WriteString("\xff\xfe")
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.String()
}

// A text or CDATA token that holds a well-formedness error is written up to
// the error point (text, archive copy, anchor text) in the scopes open
// there, then the error is reported where it was before: SPEC 6,
// "everything before the error is written". Every chunking of the input
// gives the same result.
func TestTextBeforeAnErrorInTheSameTokenIsWritten(t *testing.T) {
	const xlinkDoc = `<d xmlns:xlink="http://www.w3.org/1999/xlink">`
	for _, tc := range []struct {
		name, input string
		text        string // the text output
		archive     string // the archive copy
		err         string
		anchor      string // the last link's anchor text, when there is a link
	}{
		{name: "bare_ampersand_in_text",
			input:   `<d><p>para one</p>these words precede the error & oops</d>`,
			text:    "para one these words precede the error\n",
			archive: `<d><p>para one</p>these words precede the error `,
			err:     "1:49: not well-formed XML: an & that starts no entity or character reference (a literal & is written &amp;)"},
		{name: "illegal_character_reference_after_a_blank_line",
			input:   "<d>words before\n\n more words &#0;</d>",
			text:    "words before more words\n",
			archive: "<d>words before\n\n more words ",
			err:     "3:13: not well-formed XML: &#0; is not a legal character reference"},
		{name: "reference_without_semicolon",
			input:   "<d>a &copy 2024</d>",
			text:    "a\n",
			archive: "<d>a ",
			err:     `1:6: not well-formed XML: "&copy" is not a reference: no ';' ends it (a literal & is written &amp;)`},
		{name: "invalid_utf8_in_text",
			input:   "<d><p>ok</p>before \xff after</d>",
			text:    "ok before\n",
			archive: "<d><p>ok</p>before ",
			err:     "1:20: not well-formed XML: invalid UTF-8"},
		{name: "nul_in_text",
			input:   "<d>before\x00after</d>",
			text:    "before\n",
			archive: "<d>before",
			err:     "1:10: not well-formed XML: illegal character code U+0000"},
		{name: "cdata_end_in_text",
			input:   "<d>x ]] y ]]> z</d>",
			text:    "x ]] y\n",
			archive: "<d>x ]] y ",
			err:     `1:11: not well-formed XML: "]]>" is not allowed in text (write "]]&gt;")`},
		{name: "references_and_line_ends_before_the_error_are_read",
			input:   "<d>a &lt;b&gt;\r\nc &#233; \x01</d>",
			text:    "a <b> c é\n",
			archive: "<d>a &lt;b&gt;\r\nc &#233; ",
			err:     "2:10: not well-formed XML: illegal character code U+0001"},
		{name: "nul_in_cdata",
			input:   "<d>text <![CDATA[<not> a tag \x00 x]]></d>",
			text:    "text <not> a tag\n",
			archive: "<d>text <![CDATA[<not> a tag ",
			err:     "1:30: not well-formed XML: illegal character code U+0000"},
		{name: "invalid_utf8_in_cdata",
			input:   "<d><![CDATA[one\r\ntwo \xc3(]]></d>",
			text:    "one two\n",
			archive: "<d><![CDATA[one\r\ntwo ",
			err:     "2:5: not well-formed XML: invalid UTF-8"},
		{name: "document_ends_inside_cdata",
			input:   "<d>a <![CDATA[b c",
			text:    "a b c\n",
			archive: "<d>a <![CDATA[b c",
			err:     "1:18: not well-formed XML: the document ends inside a CDATA section"},
		{name: "error_at_the_start_of_a_text_token_writes_nothing_more",
			input:   "<d><p>x</p>&#0;</d>",
			text:    "x\n",
			archive: "<d><p>x</p>",
			err:     "1:12: not well-formed XML: &#0; is not a legal character reference"},
		{name: "noarchive_region_stays_elided",
			input:   `<d>kept <p class="robots-noarchive">secret & x</p></d>`,
			text:    "kept secret\n",
			archive: `<d>kept <p class="robots-noarchive">…`,
			err:     "1:44: not well-formed XML: an & that starts no entity or character reference (a literal & is written &amp;)"},
		{name: "noindex_region_stays_unindexed",
			input:   `<d>seen <p class="robots-noindex">hidden &#0; x</p></d>`,
			text:    "seen\n",
			archive: `<d>seen <p class="robots-noindex">hidden `,
			err:     "1:42: not well-formed XML: &#0; is not a legal character reference"},
		{name: "anchor_text_of_an_open_link",
			input:   xlinkDoc + `<a xlink:href="http://example.com/y">open anchor &#0; oops</a></d>`,
			text:    "open anchor\n",
			archive: xlinkDoc + `<a xlink:href="http://example.com/y">open anchor `,
			err:     "1:96: not well-formed XML: &#0; is not a legal character reference",
			anchor:  "open anchor"},
		{name: "blank_text_after_the_root",
			input:   "<d>x</d>\n&#0;",
			text:    "x\n",
			archive: "<d>x</d>\n",
			err:     "2:1: not well-formed XML: &#0; is not a legal character reference"},
		{name: "character_reference_before_the_root_is_no_white_space",
			input: "&#32;<d>x</d>",
			err:   "1:1: not well-formed XML: text outside the root element"},
		{name: "character_reference_after_the_root_is_no_white_space",
			input:   "<d>x</d>\n&#x20;",
			text:    "x\n",
			archive: "<d>x</d>",
			err:     "1:9: not well-formed XML: text outside the root element"},
		{name: "text_after_the_root_writes_nothing",
			input:   "<d>x</d>junk &#0;",
			text:    "x\n",
			archive: "<d>x</d>",
			err:     "1:14: not well-formed XML: &#0; is not a legal character reference"},
		{name: "single_byte_charset_archive_keeps_the_original_bytes",
			input:   "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<d><p>caf\xe9</p>na\xefve &#0; x</d>",
			text:    "café naïve\n",
			archive: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<d><p>caf\xe9</p>na\xefve ",
			err:     "2:21: not well-formed XML: &#0; is not a legal character reference"},
		{name: "utf16_archive_keeps_the_original_bytes",
			input:   utf16LE("<d>été &#0;</d>"),
			text:    "été\n",
			archive: utf16LE("<d>été "),
			err:     "1:17: not well-formed XML: &#0; is not a legal character reference"}, // columns count the input's bytes: the BOM's two, then two a character
	} {
		t.Run(tc.name, func(t *testing.T) {
			atEveryChunking(t, []byte(tc.input), Options{}, func(oc outcome) {
				if oc.text != tc.text {
					t.Errorf("text %q, want %q", oc.text, tc.text)
				}
				if string(oc.archive) != tc.archive {
					t.Errorf("archive %q, want %q", oc.archive, tc.archive)
				}
				if fmt.Sprint(oc.err) != tc.err {
					t.Errorf("error %v, want %s", oc.err, tc.err)
				}
				if tc.anchor != "" && (len(oc.links) == 0 || oc.links[len(oc.links)-1].Text != tc.anchor) {
					t.Errorf("links %+v, want the last one's anchor text %q", oc.links, tc.anchor)
				}
			})
		})
	}
}

// A byte that starts no UTF-8 sequence, in a UTF-8 document, cannot be part
// of a name (XML 1.0 [4] NameStartChar, [4a] NameChar; the scanner read it
// as U+FFFD, which is one): an element, attribute, end tag, PI target or
// entity reference name holding one is an error there, after what came
// before is written. U+FFFD written as such is a name character.
func TestInvalidUTF8InANameIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		text        string // the text output
		archive     string // the archive copy
		err         string
	}{
		{name: "element_name",
			input:   "<d><p>ok</p>before <e\xff>x</e\xff></d>",
			text:    "ok before\n",
			archive: "<d><p>ok</p>before ",
			err:     "1:22: not well-formed XML: invalid UTF-8 in an element name"},
		{name: "element_name_start",
			input:   "<d>before <\xc3(/></d>",
			text:    "before\n",
			archive: "<d>before ",
			err:     "1:12: not well-formed XML: invalid UTF-8 in an element name"},
		{name: "attribute_name_on_a_later_line",
			input:   "<d>before <e\n  a=\"1\"\n  b\xe9=\"2\">x</e></d>",
			text:    "before\n",
			archive: "<d>before ",
			err:     "3:4: not well-formed XML: invalid UTF-8 in an attribute name"},
		{name: "end_tag_name",
			input:   "<d><e>inside</e\xed\xa0\x80></d>",
			text:    "inside\n",
			archive: "<d><e>inside",
			err:     "1:16: not well-formed XML: invalid UTF-8 in an element name"},
		{name: "truncated_at_the_end",
			input:   "<d>x</d\xe2\x82",
			text:    "x\n",
			archive: "<d>x",
			err:     "1:8: not well-formed XML: invalid UTF-8 in an element name"},
		{name: "pi_target",
			input:   "<d>before <?p\x80 data?></d>",
			text:    "before\n",
			archive: "<d>before ",
			err:     "1:14: not well-formed XML: invalid UTF-8 in a processing instruction's target"},
		{name: "pi_target_in_the_internal_subset",
			input: "<!DOCTYPE d [<?\xffp?>]><d/>",
			err:   "1:16: not well-formed XML: invalid UTF-8 in a processing instruction's target"},
		{name: "entity_reference_in_text",
			input:   "<d>before &e\xff; after</d>",
			text:    "before\n",
			archive: "<d>before ",
			err:     "1:11: not well-formed XML: invalid UTF-8 in the name of an entity reference"},
		{name: "entity_reference_in_an_attribute_value",
			input:   "<d>before <e a=\"&\xffe;\"/></d>",
			text:    "before\n",
			archive: "<d>before ",
			err:     "1:17: not well-formed XML: invalid UTF-8 in the name of an entity reference"},
		{name: "replacement_character_written_as_such_is_a_name_character",
			input:   "<d>x<e\uFFFD a\uFFFD=\"1\"><?p\uFFFD?>y</e\uFFFD></d>",
			text:    "x y\n",
			archive: "<d>x<e\uFFFD a\uFFFD=\"1\"><?p\uFFFD?>y</e\uFFFD></d>",
			err:     "<nil>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			atEveryChunking(t, []byte(tc.input), Options{}, func(oc outcome) {
				if oc.text != tc.text {
					t.Errorf("text %q, want %q", oc.text, tc.text)
				}
				if string(oc.archive) != tc.archive {
					t.Errorf("archive %q, want %q", oc.archive, tc.archive)
				}
				if fmt.Sprint(oc.err) != tc.err {
					t.Errorf("error %v, want %s", oc.err, tc.err)
				}
			})
		})
	}
}
