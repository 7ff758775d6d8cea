package xmlstream

import (
	"strings"
	"testing"
)

// Each DOCTYPE that XML 1.0's productions [28] to [83] and the
// well-formedness constraints of the internal subset allow is accepted;
// each they forbid is rejected at the offending byte, with a message that
// says what was wrong.
func TestCheckDoctypeAcceptsWellFormedDeclarations(t *testing.T) {
	for _, tc := range []struct{ name, doctype string }{
		{"name_only", `<!DOCTYPE r>`},
		{"white_space_before_end", "<!DOCTYPE r \t\r\n>"},
		{"system", `<!DOCTYPE r SYSTEM "r.dtd">`},
		{"system_with_single_quotes_and_markup_inside", `<!DOCTYPE r SYSTEM 'a>b"c.dtd'>`},
		{"public", `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">`},
		{"public_with_every_pubid_character", `<!DOCTYPE r PUBLIC "azAZ09 -'()+,./:=?;!*#@$_%` + "\r\n" + `" "x">`},
		{"empty_subset", `<!DOCTYPE r []>`},
		{"subset_and_external", `<!DOCTYPE r SYSTEM "r.dtd" [ ] >`},
		{"element_declarations", `<!DOCTYPE r [<!ELEMENT r EMPTY><!ELEMENT a ANY><!ELEMENT b (#PCDATA)><!ELEMENT c (#PCDATA)*>` +
			`<!ELEMENT d ( #PCDATA | a | b )*><!ELEMENT e (a, (b | c)*, d?)+><!ELEMENT f (a)>]>`},
		{"attribute_list_declarations", `<!DOCTYPE r [<!ATTLIST r a CDATA #IMPLIED b ID #REQUIRED c (x|y| z ) "x" d NOTATION (n) #IMPLIED ` +
			`e NMTOKENS #FIXED "1 2" f ENTITIES #IMPLIED g IDREFS #IMPLIED h (1a|-b) '1a'><!ATTLIST r>]>`},
		{"attribute_default_with_references", `<!DOCTYPE r [<!ENTITY e "ok"><!ATTLIST r a CDATA "&lt;&#60;&#x3C;&e;">]>`},
		{"entity_declarations", `<!DOCTYPE r [<!ENTITY a "x &b; &#38; y"><!ENTITY b 'q"q'><!ENTITY % p "<!ELEMENT x ANY>">` +
			`<!ENTITY c SYSTEM "c.xml"><!ENTITY d PUBLIC "-//D//EN" "d.xml"><!NOTATION n SYSTEM "n"><!ENTITY u SYSTEM "u.gif" NDATA n>` +
			`<!ENTITY % q SYSTEM "q.ent">]>`},
		{"notation_declarations", `<!DOCTYPE r [<!NOTATION a SYSTEM "a"><!NOTATION b PUBLIC "-//B//EN"><!NOTATION c PUBLIC "-//C//EN" "c">]>`},
		{"parameter_entity_reference_between_declarations", `<!DOCTYPE r [<!ENTITY % p SYSTEM "p.ent"> %p; <!ELEMENT r ANY>%p;]>`},
		{"undeclared_entity_in_a_default_after_a_parameter_entity_reference", `<!DOCTYPE r [<!ENTITY % p SYSTEM "p.ent">%p;<!ATTLIST r a CDATA "&u;">]>`},
		{"undeclared_entity_in_a_default_with_an_external_subset", `<!DOCTYPE r SYSTEM "r.dtd" [<!ATTLIST r a CDATA "&u;">]>`},
		{"comments_and_pis", `<!DOCTYPE r [<!-- a - b --><?target data ? > ?><?t?><!---->]>`},
		{"non_ascii_names", `<!DOCTYPE été [<!ELEMENT été ANY><!ATTLIST été clé CDATA #IMPLIED>]>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if bad := checkDoctype([]byte(tc.doctype)); bad != nil {
				t.Errorf("rejected at %d: %s", bad.at, bad.msg)
			}
		})
	}
}

func TestCheckDoctypeRejectsWhatXMLForbids(t *testing.T) {
	for _, tc := range []struct {
		name, doctype string
		at            string // the text the error points at (first occurrence)
		msg           string // part of the message
	}{
		{"no_root_name", `<!DOCTYPE>`, `>`, "root element's name"},
		{"junk_after_name", `<!DOCTYPE r junk>`, `junk`, "expected an external identifier"},
		{"system_without_literal", `<!DOCTYPE r SYSTEM>`, `>`, "system literal"},
		{"public_without_system_literal", `<!DOCTYPE r PUBLIC "p">`, `>`, "system literal"},
		{"public_id_with_a_brace", `<!DOCTYPE r PUBLIC "a{b" "x">`, `{`, "public identifier"},
		{"public_id_with_a_tab", "<!DOCTYPE r PUBLIC \"a\tb\" \"x\">", "\t", "public identifier"},
		{"unclosed_literal", `<!DOCTYPE r SYSTEM "x>`, `"x`, "not closed"},
		{"text_in_the_subset", `<!DOCTYPE r [ stray ]>`, `stray`, "between the internal subset's declarations"},
		{"lower_case_keyword", `<!DOCTYPE r [<!element r ANY>]>`, `<!element`, "not a markup declaration"},
		{"conditional_section", `<!DOCTYPE r [<![INCLUDE[ <!ELEMENT r ANY> ]]>]>`, `<![`, "conditional section"},
		{"element_without_content_spec", `<!DOCTYPE r [<!ELEMENT r>]>`, `>]`, "content specification"},
		{"element_cdata_content", `<!DOCTYPE r [<!ELEMENT r CDATA>]>`, `CDATA`, "content specification"},
		{"mixed_separators", `<!DOCTYPE r [<!ELEMENT r (a,b|c)>]>`, `|c`, "mixed in one group"},
		{"mixed_content_without_star", `<!DOCTYPE r [<!ELEMENT r (#PCDATA|a)>]>`, `>]`, `")*"`},
		{"pcdata_not_first", `<!DOCTYPE r [<!ELEMENT r (a|#PCDATA)*>]>`, `#PCDATA`, "element name"},
		{"space_before_modifier", `<!DOCTYPE r [<!ELEMENT r (a) *>]>`, `*>`, "ELEMENT"},
		{"empty_group", `<!DOCTYPE r [<!ELEMENT r ()>]>`, `)>`, "element name"},
		{"attribute_without_type", `<!DOCTYPE r [<!ATTLIST r a #IMPLIED>]>`, `#IMPLIED`, "attribute type"},
		{"attribute_without_default", `<!DOCTYPE r [<!ATTLIST r a CDATA>]>`, `>]`, "white space must stand before the attribute's default"},
		{"attribute_definitions_not_separated", `<!DOCTYPE r [<!ATTLIST r a CDATA "x"b CDATA #IMPLIED>]>`, `b CDATA #`, "next attribute definition"},
		{"unknown_default_keyword", `<!DOCTYPE r [<!ATTLIST r a CDATA #DEFAULT "x">]>`, `#DEFAULT`, "#REQUIRED, #IMPLIED or #FIXED"},
		{"notation_type_without_space", `<!DOCTYPE r [<!ATTLIST r a NOTATION(n) #IMPLIED>]>`, `(n)`, "notation names"},
		{"lt_in_default", `<!DOCTYPE r [<!ATTLIST r a CDATA "a<b">]>`, `<b"`, "'<' is not allowed"},
		{"bare_ampersand_in_default", `<!DOCTYPE r [<!ATTLIST r a CDATA "a & b">]>`, `& b`, "must begin a reference"},
		{"illegal_character_reference_in_default", `<!DOCTYPE r [<!ATTLIST r a CDATA "&#0;">]>`, `&#0;`, "not a legal character reference"},
		{"undeclared_entity_in_default", `<!DOCTYPE r [<!ATTLIST r a CDATA "&u;">]>`, `&u;`, "not declared before it"},
		{"entity_declared_after_the_default", `<!DOCTYPE r [<!ATTLIST r a CDATA "&u;"><!ENTITY u "x">]>`, `&u;`, "not declared before it"},
		{"external_entity_in_default", `<!DOCTYPE r [<!ENTITY e SYSTEM "e"><!ATTLIST r a CDATA "&e;">]>`, `&e;`, "external entity"},
		{"entity_with_lt_in_default", `<!DOCTYPE r [<!ENTITY e "a&#60;b"><!ATTLIST r a CDATA "x&e;">]>`, `&e;"`, "holds '<'"},
		{"recursive_entity_in_default", `<!DOCTYPE r [<!ENTITY a "&b;"><!ENTITY b "&a;"><!ATTLIST r a CDATA "&a;">]>`, `&a;">]>`, "refers to itself"},
		{"parameter_entity_reference_in_a_declaration", `<!DOCTYPE r [<!ENTITY % t "CDATA"><!ATTLIST r a %t; #IMPLIED>]>`, `%t;`, "parameter entity reference"},
		{"parameter_entity_reference_in_an_entity_value", `<!DOCTYPE r [<!ENTITY % t "x"><!ENTITY e "a%t;">]>`, `%t;"`, "parameter entity reference"},
		{"parameter_entity_reference_without_semicolon", `<!DOCTYPE r [%p ]>`, `%p`, "must end with ';'"},
		{"ampersand_in_an_entity_value", `<!DOCTYPE r [<!ENTITY e "a & b">]>`, `& b`, "must begin a reference"},
		{"entity_without_value", `<!DOCTYPE r [<!ENTITY e>]>`, `>]`, "white space must stand before the entity's value"},
		{"entity_without_space_before_name", `<!DOCTYPE r [<!ENTITY% p "x">]>`, `% p`, "entity's name"},
		{"parameter_entity_with_ndata", `<!DOCTYPE r [<!ENTITY % p SYSTEM "p" NDATA n>]>`, ` NDATA`, "NDATA"},
		{"ndata_on_an_internal_entity", `<!DOCTYPE r [<!ENTITY e "x" NDATA n>]>`, `NDATA`, "ENTITY"},
		{"notation_without_identifier", `<!DOCTYPE r [<!NOTATION n>]>`, `>]`, "white space must stand before the notation's identifier"},
		{"double_hyphen_in_comment", `<!DOCTYPE r [<!-- a -- b -->]>`, `-- b`, `"--"`},
		{"pi_target_xml", `<!DOCTYPE r [<?xml version="1.0"?>]>`, `<?xml`, "XML declaration"},
		{"pi_target_with_illegal_character", `<!DOCTYPE r [<?a×b x?>]>`, `×`, "expected white space or '?>'"},
		{"pi_without_target", `<!DOCTYPE r [<? x?>]>`, ` x?>`, "target"},
		{"junk_after_subset", `<!DOCTYPE r [] x>`, `x>`, "expected '>'"},
		{"name_starting_with_a_digit", `<!DOCTYPE r [<!ELEMENT 1r ANY>]>`, `1r`, "element's name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := checkDoctype([]byte(tc.doctype))
			if bad == nil {
				t.Fatalf("accepted")
			}
			if want := strings.Index(tc.doctype, tc.at); bad.at != want {
				t.Errorf("error at %d (%q), want %d (%q): %s", bad.at, tc.doctype[min(bad.at, len(tc.doctype)):], want, tc.at, bad.msg)
			}
			if !strings.Contains(bad.msg, tc.msg) {
				t.Errorf("message %q does not say %q", bad.msg, tc.msg)
			}
		})
	}
}

// FuzzDoctype: the checker never panics, and a declaration it accepts is
// one the internal subset reader reads to its end.
func FuzzDoctype(f *testing.F) {
	for _, s := range []string{
		`<!DOCTYPE r>`, `<!DOCTYPE r SYSTEM "r.dtd" [<!ELEMENT r (a,(b|c)*)+><!ATTLIST r a CDATA "&#60;">]>`,
		`<!DOCTYPE r [<!ENTITY % p "x"><!ENTITY e "&e;"><!NOTATION n PUBLIC "p">%p;<?t x?><!-- c -->]>`,
		`<!DOCTYPE r [<!ENTITY a "&b;"><!ENTITY b "&a;"><!ATTLIST r a CDATA "&a;">]>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		bad := checkDoctype(b)
		if bad != nil {
			if bad.at < 0 || bad.at > len(b) || bad.msg == "" {
				t.Fatalf("error at %d of %d: %q", bad.at, len(b), bad.msg)
			}
			return
		}
		if !strings.HasPrefix(string(b), "<!DOCTYPE") {
			t.Fatalf("accepted %q, which is no DOCTYPE", b)
		}
		if dt := scanDoctype(b); dt.open || dt.end != len(b) {
			t.Fatalf("accepted %q, which the subset reader ends at %d (open %v)", b, dt.end, dt.open)
		}
	})
}
