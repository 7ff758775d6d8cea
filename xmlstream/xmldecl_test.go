package xmlstream

import (
	"fmt"
	"testing"
)

// The XML declaration is checked as XML 1.0 (fifth edition) has it, which
// encoding/xml does not (it reads a PI with target xml anywhere and checks
// only its version): [17] PITarget excludes xml in any case, so <?xml …?>
// is the declaration or an error; [22] prolog and [23] XMLDecl put the
// declaration at the very start (after a byte order mark, nothing before
// it; white space before it is taken, with a warning, as feeds written by
// templates often have it); VersionInfo is required and comes first,
// then EncodingDecl, then SDDecl, whose value is yes or no ([24]–[26],
// [32], [80], [81]). An error is at the offending <?xml or pseudo-attribute,
// everything before it is written (SPEC 6), and every chunking of the
// input gives the same result. A version 1.x other than 1.0 is read as
// 1.0, with a warning (section 2.8).
func TestXMLDeclarationWellFormedness(t *testing.T) {
	const (
		nwf        = "not well-formed XML: "
		misplaced  = nwf + "the XML declaration <?xml …?> may only stand at the start of the document"
		noVersion  = nwf + `the XML declaration has no version: it must start <?xml version="1.0"`
		spaceFirst = "white space before the XML declaration, which XML wants first in the document; it is read as the declaration"
	)
	for _, tc := range []struct {
		name, input string
		text        string // the text output
		archive     string // the archive copy ("" for the input itself)
		err         string // the error, "" for none
		warnings    string // the warnings, as rendered
	}{
		// Where the declaration may stand.
		{name: "declaration_again_inside_the_root",
			input: `<?xml version="1.0"?><r>a<?xml version="1.0"?>b</r>`, text: "a\n", archive: `<?xml version="1.0"?><r>a`,
			err: "1:26: " + misplaced},
		{name: "xml_target_without_version_inside_the_root",
			input: `<?xml version="1.0"?><r>a<?xml foo?>b</r>`, text: "a\n", archive: `<?xml version="1.0"?><r>a`,
			err: "1:26: " + misplaced},
		{name: "upper_case_xml_target_inside_the_root_is_reserved",
			input: `<?xml version="1.0"?><r>a<?XML foo?>b</r>`, text: "a\n", archive: `<?xml version="1.0"?><r>a`,
			err: "1:28: " + nwf + "the processing instruction target XML is reserved"},
		// White space before the declaration, a common fault of feeds
		// written by templates, is taken with a warning: nothing is lost.
		{name: "space_before_the_declaration_is_warned_about",
			input: ` <?xml version="1.0"?><r>hi</r>`, text: "hi\n", warnings: "1:2: warning: " + spaceFirst + "\n"},
		{name: "blank_lines_before_the_declaration_are_warned_about",
			input: "\n\r\n<?xml version=\"1.0\"?><r>hi</r>", text: "hi\n", warnings: "3:1: warning: " + spaceFirst + "\n"},
		{name: "byte_order_mark_then_space_before_the_declaration",
			input: "\xEF\xBB\xBF <?xml version=\"1.0\"?><r>hi</r>", text: "hi\n",
			warnings: "1:5: warning: " + spaceFirst + "\n"}, // columns count the BOM's bytes
		{name: "space_then_a_comment_then_the_declaration",
			input: ` <!-- c --><?xml version="1.0"?><r>hi</r>`, archive: ` <!-- c -->`,
			err: "1:12: " + misplaced},
		{name: "byte_order_mark_then_the_declaration_is_the_start",
			input: "\xEF\xBB\xBF<?xml version=\"1.0\"?><r>hi</r>", text: "hi\n"},
		{name: "declaration_after_a_comment",
			input: `<!-- c --><?xml version="1.0"?><r>hi</r>`, archive: `<!-- c -->`,
			err: "1:11: " + misplaced},
		{name: "declaration_after_the_root",
			input: "<r>hi</r>\n<?xml version=\"1.0\"?>", text: "hi\n", archive: "<r>hi</r>\n",
			err: "2:1: " + misplaced},
		{name: "declaration_on_a_later_line_inside_the_root",
			input: "<?xml version=\"1.0\"?>\n<r>\n  <p>one</p>\n  <?xml version=\"1.0\"?>\n</r>", text: "one\n",
			archive: "<?xml version=\"1.0\"?>\n<r>\n  <p>one</p>\n  ",
			err:     "4:3: " + misplaced},
		{name: "declaration_in_the_internal_subset",
			input: `<!DOCTYPE r [<!ELEMENT r ANY><?xml version="1.0"?>]><r>hi</r>`, archive: "",
			err: "1:30: " + misplaced},
		{name: "reserved_target_in_the_internal_subset",
			input: `<!DOCTYPE r [<?Xml x?>]><r>hi</r>`, archive: "",
			err: "1:16: " + nwf + "the processing instruction target Xml is reserved"},
		{name: "declaration_in_an_entity_replacement_text_is_at_the_reference",
			input: `<!DOCTYPE r [<!ENTITY e "<?xml version='1.0'?>">]><r>a &e; b</r>`, text: "a\n",
			archive: `<!DOCTYPE r [<!ENTITY e "<?xml version='1.0'?>">]><r>a `,
			err:     "1:56: " + misplaced},
		{name: "declaration_in_utf16",
			input: utf16LE(`<r>a<?xml version="1.0"?></r>`), text: "a\n", archive: utf16LE(`<r>a`),
			err: "1:11: " + misplaced}, // columns count the input's bytes: the BOM's two, then two a character

		// What the declaration must say.
		{name: "no_version",
			input: `<?xml encoding="utf-8"?><r>a</r>`, archive: "",
			err: "1:7: " + noVersion + ", not with encoding"},
		{name: "nothing_at_all",
			input: `<?xml?><r>a</r>`, archive: "",
			err: "1:6: " + noVersion},
		{name: "only_white_space",
			input: "<?xml \n ?><r>a</r>", archive: "",
			err: "2:2: " + noVersion},
		{name: "standalone_maybe",
			input: `<?xml version="1.0" standalone="maybe"?><r>a</r>`, archive: "",
			err: "1:21: " + nwf + `standalone "maybe" in the XML declaration: the value must be "yes" or "no"`},
		{name: "standalone_in_upper_case",
			input: `<?xml version="1.0" standalone="YES"?><r>a</r>`, archive: "",
			err: "1:21: " + nwf + `standalone "YES" in the XML declaration: the value must be "yes" or "no"`},
		{name: "error_on_the_second_line_of_the_declaration",
			input: "<?xml version=\"1.0\"\r\n  standalone='maybe'?><r>a</r>", archive: "",
			err: "2:3: " + nwf + `standalone "maybe" in the XML declaration: the value must be "yes" or "no"`},
		{name: "version_2_0",
			input: `<?xml version="2.0"?><r>a</r>`, archive: "",
			err: "1:7: " + nwf + `version "2.0" in the XML declaration is not an XML 1.x version (robofilter reads XML 1.0)`},
		{name: "version_without_minor_digits",
			input: `<?xml version="1."?><r>a</r>`, archive: "",
			err: "1:7: " + nwf + `version "1." in the XML declaration is not an XML 1.x version (robofilter reads XML 1.0)`},
		{name: "version_1_1_is_read_as_1_0_with_a_warning",
			input: `<?xml version="1.1"?><r>a</r>`, text: "a\n",
			warnings: "1:7: warning: XML version 1.1 is read as XML 1.0\n"},
		{name: "version_after_encoding",
			input: `<?xml encoding="utf-8" version="1.0"?><r>a</r>`, archive: "",
			err: "1:7: " + noVersion + ", not with encoding"},
		{name: "encoding_after_standalone",
			input: `<?xml version="1.0" standalone="yes" encoding="utf-8"?><r>a</r>`, archive: "",
			err: "1:38: " + nwf + "encoding after standalone in the XML declaration: the order is version, encoding, standalone"},
		{name: "version_twice",
			input: `<?xml version="1.0" version="1.0"?><r>a</r>`, archive: "",
			err: "1:21: " + nwf + "version is written twice in the XML declaration"},
		{name: "version_again_after_encoding",
			input: `<?xml version="1.0" encoding="utf-8" version="1.0"?><r>a</r>`, archive: "",
			err: "1:38: " + nwf + "version is written twice in the XML declaration"},
		{name: "unknown_pseudo_attribute",
			input: `<?xml version="1.0" lang="en"?><r>a</r>`, archive: "",
			err: "1:21: " + nwf + `"lang" in the XML declaration: only version, encoding and standalone may stand there, in that order`},
		{name: "pseudo_attribute_in_upper_case",
			input: `<?xml VERSION="1.0"?><r>a</r>`, archive: "",
			err: "1:7: " + nwf + `"VERSION" in the XML declaration: only version, encoding and standalone may stand there, in that order`},
		{name: "no_white_space_between_pseudo_attributes",
			input: `<?xml version="1.0"encoding="utf-8"?><r>a</r>`, archive: "",
			err: "1:20: " + nwf + "'e' in the XML declaration: expected white space or '?>'"},
		{name: "no_equals_sign",
			input: `<?xml version "1.0"?><r>a</r>`, archive: "",
			err: "1:15: " + nwf + "version in the XML declaration has no value (expected '=')"},
		{name: "unquoted_value",
			input: `<?xml version=1.0?><r>a</r>`, archive: "",
			err: "1:15: " + nwf + "the value of version in the XML declaration is not quoted"},
		{name: "value_not_closed_before_the_end",
			input: `<?xml version="1.0?><r>a</r>`, archive: "",
			err: "1:15: " + nwf + "the value of version in the XML declaration has no closing quote before '?>'"},
		{name: "empty_encoding",
			input: `<?xml version="1.0" encoding=""?><r>a</r>`, archive: "",
			err: "1:21: " + nwf + `encoding "" in the XML declaration is not an encoding name (a letter, then letters, digits, '.', '_' or '-')`},
		{name: "encoding_name_starting_with_a_digit",
			input: `<?xml version="1.0" encoding="8859-1"?><r>a</r>`, archive: "",
			err: "1:21: " + nwf + `encoding "8859-1" in the XML declaration is not an encoding name (a letter, then letters, digits, '.', '_' or '-')`},

		// Well-formed declarations.
		{name: "every_pseudo_attribute_single_quotes_and_spaces_around_equals",
			input: "<?xml version = '1.0'\r\n\tencoding= 'UTF-8' standalone ='yes' ?><r>a</r>", text: "a\n"},
		{name: "standalone_without_encoding",
			input: `<?xml version="1.0" standalone="no"?><r>a</r>`, text: "a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			atEveryChunking(t, []byte(tc.input), Options{}, func(oc outcome) {
				if oc.text != tc.text {
					t.Errorf("text %q, want %q", oc.text, tc.text)
				}
				archive := tc.archive
				if tc.err == "" {
					archive = tc.input
				}
				if string(oc.archive) != archive {
					t.Errorf("archive %q, want %q", oc.archive, archive)
				}
				if gotErr := errorString(oc.err); gotErr != tc.err {
					t.Errorf("error %q, want %q", gotErr, tc.err)
				}
				var warnings string
				for _, w := range oc.res.Warnings {
					warnings += fmt.Sprintf("%s\n", w)
				}
				if warnings != tc.warnings {
					t.Errorf("warnings %q, want %q", warnings, tc.warnings)
				}
			})
		})
	}
}

// errorString is err's message, or "" for none.
func errorString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
