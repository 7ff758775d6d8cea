package xmlstream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// entityCase is a document, the text it gives, and its error or warnings.
type entityCase struct {
	name, input string
	text        string
	err         string // the whole error, or "" for none
	warning     string // in the only warning, or "" for none
}

// runEntityCases runs each case read whole and in every chunking up to
// maxGoldenChunk (all giving the same result), and checks it.
func runEntityCases(t *testing.T, cases []entityCase, o Options) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			input := []byte(tc.input)
			var want string
			for _, ch := range chunkings(input, maxGoldenChunk) {
				oc := runXML(t, ch.r(), filter.Options{}, o)
				got := oc.render(input)
				if want != "" {
					if got != want {
						t.Fatalf("read %s, the result differs from reading it whole:\n%s\n---\n%s", ch.name, got, want)
					}
					continue
				}
				want = got
				if oc.text != tc.text {
					t.Errorf("text %q, want %q", oc.text, tc.text)
				}
				if e := fmt.Sprint(oc.err); oc.err != nil && e != tc.err || oc.err == nil && tc.err != "" {
					t.Errorf("error %v, want %q", oc.err, tc.err)
				}
				switch ws := oc.res.Warnings; {
				case tc.warning == "" && len(ws) > 0:
					t.Errorf("warnings %v, want none", ws)
				case tc.warning != "" && (len(ws) != 1 || !strings.Contains(ws[0].String(), tc.warning)):
					t.Errorf("warnings %v, want one with %q", ws, tc.warning)
				}
			}
		})
	}
}

// XML 1.0's WFC "Entity Declared": in a document without a DTD, with only
// an internal subset that holds no parameter entity reference, or with
// standalone="yes", an entity referred to must be declared (the five
// predefined ones need not be); a reference to another is not well-formed,
// at its position, with everything before it written. Where an external
// subset (never read) or a parameter entity may declare it, it is a
// warning, and the reference is read as the HTML entity of that name or
// kept as written.
func TestUndeclaredEntityIsAnErrorWhereXMLRequiresADeclaration(t *testing.T) {
	const (
		noDTD      = "not well-formed XML: entity &bogus; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)"
		noExternal = "not well-formed XML: entity &bogus; is not declared: the internal subset does not declare it and there is no external DTD subset"
		standalone = "not well-formed XML: entity &bogus; is not declared in the internal subset, as a standalone document requires"
		keptNote   = "entity &bogus; is not declared (no DTD is read): it is kept as written"
		xhtml      = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">`
	)
	runEntityCases(t, []entityCase{
		{name: "no_dtd_text", input: "<d>a\n b &bogus; c</d>", text: "a b\n", err: "2:4: " + noDTD},
		{name: "no_dtd_html_name", input: "<d>a&nbsp;b</d>", text: "a\n",
			err: "1:5: not well-formed XML: entity &nbsp; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)"},
		{name: "no_dtd_attribute_value", input: `<d><p>x</p><p t="a &bogus;">y</p></d>`, text: "x\n", err: "1:20: " + noDTD},
		{name: "no_dtd_predefined_entities_need_no_declaration", input: "<d t='&lt;&gt;'>&lt;&gt;&amp;&apos;&quot;</d>", text: "<>&'\"\n"},
		{name: "internal_subset_only", input: `<!DOCTYPE d [<!ENTITY x "why">]><d>&x; &bogus;</d>`, text: "why\n", err: "1:40: " + noExternal},
		{name: "internal_subset_declares_it", input: `<!DOCTYPE d [<!ENTITY bogus "fine">]><d>&bogus;</d>`, text: "fine\n"},
		{name: "internal_subset_external_entity_is_declared", input: `<!DOCTYPE d [<!ENTITY bogus SYSTEM "b.xml">]><d>&bogus;</d>`, text: "&bogus;\n",
			warning: "entity &bogus; is external: it is never loaded, and is kept as written"},
		{name: "internal_subset_parameter_entity_declared_not_referenced", input: `<!DOCTYPE d [<!ENTITY % p "x">]><d>&bogus;</d>`, err: "1:36: " + noExternal},
		{name: "internal_subset_percent_in_a_literal_or_comment_is_no_reference", input: `<!DOCTYPE d [<!ATTLIST d a CDATA "%p;"><!-- %p; --><?pi %p;?>]><d>&bogus;</d>`, err: "1:67: " + noExternal},
		{name: "internal_subset_parameter_entity_reference", input: `<!DOCTYPE d [<!ENTITY % p SYSTEM "p.ent">%p;]><d>&bogus;</d>`, text: "&bogus;\n", warning: keptNote},
		{name: "internal_subset_parameter_entity_reference_in_a_declaration", input: `<!DOCTYPE d [<!ENTITY % p "CDATA"><!ATTLIST d a %p; #IMPLIED>]><d>&bogus;</d>`, text: "&bogus;\n", warning: keptNote},
		{name: "root_element_named_SYSTEM_is_no_external_subset", input: `<!DOCTYPE SYSTEM [<!ENTITY x "y">]><SYSTEM>&bogus;</SYSTEM>`, err: "1:44: " + noExternal},
		{name: "external_subset_system", input: `<!DOCTYPE d SYSTEM "d.dtd"><d>a &bogus; b</d>`, text: "a &bogus; b\n", warning: keptNote},
		{name: "external_subset_and_internal_subset", input: `<!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY x "y">]><d>&x; &bogus;</d>`, text: "y &bogus;\n", warning: keptNote},
		{name: "external_subset_html_name_read_as_html", input: `<!DOCTYPE d PUBLIC "-//Example//DTD D//EN" "d.dtd"><d>a&eacute;</d>`, text: "aé\n",
			warning: `entity &eacute; is not declared (no DTD is read): it is read as the HTML entity "é"`},
		{name: "external_subset_standalone_no", input: `<?xml version="1.0" standalone="no"?><!DOCTYPE d SYSTEM "d.dtd"><d>&bogus;</d>`, text: "&bogus;\n", warning: keptNote},
		{name: "xhtml_dtd_declares_html_entities", input: xhtml + `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a&nbsp;b</p></body></html>`, text: "a b\n"}, // the phrase writer reads U+00A0 as a space
		{name: "standalone_with_external_subset", input: `<?xml version="1.0" standalone="yes"?><!DOCTYPE d SYSTEM "d.dtd"><d>a &bogus;</d>`, text: "a\n", err: "1:71: " + standalone},
		{name: "standalone_with_parameter_entity_reference", input: `<?xml version='1.0' standalone='yes'?><!DOCTYPE d [<!ENTITY % p SYSTEM "p.ent">%p;]><d>&bogus;</d>`, err: "1:88: " + standalone},
		{name: "standalone_xhtml_declares_nothing", input: `<?xml version="1.0" standalone="yes"?>` + xhtml + `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a&nbsp;b</p></body></html>`, text: "a\n",
			err: "1:201: not well-formed XML: entity &nbsp; is not declared in the internal subset, as a standalone document requires"},
		{name: "standalone_without_doctype", input: `<?xml version="1.0" standalone="yes"?><d>&bogus;</d>`, err: "1:42: " + noDTD},
		{name: "standalone_internal_subset_declares_it", input: `<?xml version="1.0" standalone="yes"?><!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY bogus "fine">]><d>&bogus;</d>`, text: "fine\n"},
	}, Options{})
}
