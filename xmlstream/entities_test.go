package xmlstream

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robofilter/robofilter/filter"
)

// entityCase is a document, the text it gives, and its error or warnings.
type entityCase struct {
	name, input string
	text        string
	err         string // the whole error, or "" for none
	warning     string // in the only warning, or "" for none
	link        string // the only link's URL, or "" for no link
	archive     string // the archive copy, or "" not to check it
}

// runEntityCases runs each case read whole and in every chunking up to
// maxGoldenChunk (all giving the same result), and checks it.
func runEntityCases(t *testing.T, cases []entityCase, o Options) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			atEveryChunking(t, []byte(tc.input), o, func(oc outcome) {
				if oc.text != tc.text {
					t.Errorf("text %q, want %q", oc.text, tc.text)
				}
				if e := fmt.Sprint(oc.err); oc.err != nil && e != tc.err || oc.err == nil && tc.err != "" {
					t.Errorf("error %v, want %q", oc.err, tc.err)
				}
				if tc.link != "" && (len(oc.links) != 1 || oc.links[0].URL != tc.link) || tc.link == "" && len(oc.links) > 0 {
					t.Errorf("links %+v, want %q", oc.links, tc.link)
				}
				if tc.archive != "" && string(oc.archive) != tc.archive {
					t.Errorf("archive %q, want %q", oc.archive, tc.archive)
				}
				switch ws := oc.res.Warnings; {
				case tc.warning == "" && len(ws) > 0:
					t.Errorf("warnings %v, want none", ws)
				case tc.warning != "" && (len(ws) != 1 || !strings.Contains(ws[0].String(), tc.warning)):
					t.Errorf("warnings %v, want one with %q", ws, tc.warning)
				}
			})
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
		// WFC "PEs in Internal Subset".
		{name: "internal_subset_parameter_entity_reference_in_a_declaration_is_not_well_formed", input: `<!DOCTYPE d [<!ENTITY % p "CDATA"><!ATTLIST d a %p; #IMPLIED>]><d>&bogus;</d>`,
			err: "1:49: not well-formed XML: a parameter entity reference is not allowed inside a markup declaration of the internal subset"},
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

// The replacement text of an internal entity is read as text where the
// entity is used: its character references and predefined entities are
// replaced, and the references to other entities in turn (XML 1.0 section
// 4.4.2, "Included"); a '<' makes it markup, read as content
// (TestEntityMarkupIsReadAsContent). An entity that refers to itself,
// directly or not, is not well-formed where it is used.
func TestEntityReferencesInReplacementTextAreExpanded(t *testing.T) {
	const xlink = ` xmlns:xlink="http://www.w3.org/1999/xlink"`
	runEntityCases(t, []entityCase{
		{name: "nested_reference", input: `<!DOCTYPE d [<!ENTITY a "alpha"><!ENTITY b "x &a; y">]><d>&b;</d>`, text: "x alpha y\n"},
		{name: "declared_after_the_entity_that_refers_to_it", input: `<!DOCTYPE d [<!ENTITY b "x &a; y"><!ENTITY a "alpha">]><d>&b;</d>`, text: "x alpha y\n"},
		{name: "three_levels", input: `<!DOCTYPE d [<!ENTITY c "[&b;]"><!ENTITY b "(&a;)"><!ENTITY a "a">]><d>&c; &b;</d>`, text: "[(a)] (a)\n"},
		{name: "same_entity_twice_is_no_recursion", input: `<!DOCTYPE d [<!ENTITY a "x"><!ENTITY b "&a;-&a;">]><d>&b;&b;</d>`, text: "x-xx-x\n"},
		{name: "predefined_and_character_references_read_where_used", input: `<!DOCTYPE d [<!ENTITY e "&lt;t&gt; &amp;amp; &#38;#38; &#38;#x41; &#38;a;"><!ENTITY a "A">]><d>&e;</d>`,
			text: "<t> &amp; & A A\n"},
		{name: "ampersand_from_a_character_reference_is_not_well_formed", input: `<!DOCTYPE d [<!ENTITY e "fish &#38; chips"><!ENTITY f "&#38;a">]><d>&e; &f;</d>`,
			err: "1:69: not well-formed XML: an & that starts no entity or character reference, in the replacement text of &e; (a literal & is declared &#38;#38;)"},
		{name: "ampersand_declared_twice_escaped_is_text", input: `<!DOCTYPE d [<!ENTITY e "fish &#38;#38; chips">]><d>&e;</d>`, text: "fish & chips\n"},
		{name: "markup_is_content_not_text", input: `<!DOCTYPE d [<!ENTITY mk "<b>&a;</b>"><!ENTITY a "alpha">]><d>&mk;</d>`, text: "alpha\n"},
		{name: "in_an_attribute_value", input: `<!DOCTYPE d [<!ENTITY u "http://&h;/&p;"><!ENTITY h "example.com"><!ENTITY p "a&amp;b">]><d` + xlink + `><a xlink:href="&u;">t</a></d>`,
			text: "t\n", link: "http://example.com/a&b"},
		{name: "recursive_entities_never_used_are_no_error", input: `<!DOCTYPE d [<!ENTITY a "&b;"><!ENTITY b "&a;">]><d>fine</d>`, text: "fine\n"},
		{name: "direct_recursion", input: `<!DOCTYPE d [<!ENTITY a "x &a;">]><d>before &a;</d>`, text: "before\n",
			err: "1:45: not well-formed XML: entity &a; refers to itself (&a; → &a;)"},
		{name: "indirect_recursion", input: `<!DOCTYPE d [<!ENTITY a "x &b;"><!ENTITY b "y &c;"><!ENTITY c "z &b;">]><d>before &a;</d>`, text: "before\n",
			err: "1:83: not well-formed XML: entity &b; refers to itself (&b; → &c; → &b;)"},
		{name: "recursion_in_an_attribute_value", input: `<!DOCTYPE d [<!ENTITY a "&a;">]><d><p>x</p><p t="&a;"/></d>`, text: "x\n",
			err: "1:50: not well-formed XML: entity &a; refers to itself (&a; → &a;)"},
		{name: "undeclared_in_replacement_text_where_a_declaration_is_required", input: `<!DOCTYPE d [<!ENTITY b "x &bogus; y">]><d>t &b;</d>`, text: "t\n",
			err: "1:46: not well-formed XML: entity &bogus; is not declared: the internal subset does not declare it and there is no external DTD subset (in the replacement text of &b;)"},
		{name: "undeclared_in_replacement_text_with_an_external_subset", input: `<!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY b "x &bogus; y">]><d>t &b; &b;</d>`, text: "t x &bogus; y x &bogus; y\n",
			warning: "1:61: warning: entity &bogus; (in the replacement text of &b;) is not declared (no DTD is read): it is kept as written"},
		{name: "external_in_replacement_text", input: `<!DOCTYPE d [<!ENTITY x SYSTEM "x.xml"><!ENTITY b "a &x; b">]><d>&b;</d>`, text: "a &x; b\n",
			warning: "1:66: warning: entity &x; (in the replacement text of &b;) is external: it is never loaded, and is kept as written"},
		{name: "illegal_character_reference_in_replacement_text", input: `<!DOCTYPE d [<!ENTITY b "&#38;#0;">]><d>t &b;</d>`, text: "t\n",
			err: "1:43: not well-formed XML: &#0; is not a legal character reference (in the replacement text of &b;)"},
		{name: "illegal_character_reference_in_an_entity_value", input: `<!DOCTYPE d [<!ENTITY b "&#0;">]><d>t &b;</d>`,
			err: "1:26: not well-formed XML: &#0; is not a legal character reference (in an entity value)"},
	}, Options{})
}

// billionLaughs is the classic document: ten entities, each ten references
// to the one before, three bytes at the bottom (3 GB of text in all).
func billionLaughs(use string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n <!ELEMENT lolz (#PCDATA)>\n")
	for i := 1; i <= 9; i++ {
		prev := "lol"
		if i > 1 {
			prev = fmt.Sprintf("lol%d", i-1)
		}
		fmt.Fprintf(&b, " <!ENTITY lol%d \"%s\">\n", i, strings.Repeat("&"+prev+";", 10))
	}
	b.WriteString("]>\n" + use + "\n")
	return b.String()
}

// Entities that refer to each other many times over would expand to far
// more than the document: the expansion budget (MaxEntityExpansion) stops
// them with ErrEntityExpansion at the reference that passes it, quickly and
// in bounded memory, after writing what came before it.
func TestEntityExpansionPastTheBudgetStopsTheDocument(t *testing.T) {
	quadratic := `<!DOCTYPE d [<!ENTITY big "` + strings.Repeat("x", 64<<10) + `">]>` + "\n<d>" + strings.Repeat("&big; ", 100) + "</d>"
	for _, tc := range []struct {
		name, input string
		o           Options
		line, col   int
		text        string
		lols        bool // the text is "lol" words, written before the budget ran out
	}{
		{name: "billion_laughs", input: billionLaughs("<lolz>&lol9;</lolz>"), line: 15, col: 7},
		{name: "billion_laughs_after_text", input: billionLaughs("<lolz><p>before</p>and &lol9;</lolz>"), line: 15, col: 24, text: "before and\n"},
		{name: "billion_laughs_in_an_attribute_value", input: billionLaughs(`<lolz a="&lol9;"/>`), line: 15, col: 10},
		{name: "billion_laughs_of_empty_entities", input: strings.Replace(billionLaughs("<lolz>&lol9;</lolz>"), `"lol">`, `"">`, 1), line: 15, col: 7},
		{name: "one_long_entity_used_many_times", input: quadratic, o: Options{MaxTokenSize: 1 << 20}, line: 2, col: 4 + 6*16,
			text: strings.TrimSuffix(strings.Repeat(strings.Repeat("x", 64<<10)+" ", 16), " ") + "\n"},
		{name: "billion_laughs_with_a_small_token_limit", input: billionLaughs("<lolz>&lol9;</lolz>"), o: Options{MaxTokenSize: 4 << 10}, line: 15, col: 7},
		// Entities with markup are read as content, a token at a time: the
		// same budget stops them.
		{name: "billion_laughs_with_markup", input: strings.Replace(billionLaughs("<lolz>&lol9;</lolz>"), `"lol">`, `"<l>lol</l>">`, 1), line: 15, col: 7, lols: true},
		{name: "billion_laughs_with_markup_in_text", input: strings.Replace(billionLaughs("<lolz>&lol9;</lolz>"), `"lol">`, `"lol<l/>">`, 1), line: 15, col: 7, lols: true},
		{name: "billion_laughs_with_markup_and_a_small_token_limit", input: strings.Replace(billionLaughs("<lolz>&lol9;</lolz>"), `"lol">`, `"<l>lol</l>">`, 1), o: Options{MaxTokenSize: 64 << 10}, line: 15, col: 7, lols: true},
		{name: "billion_laughs_with_markup_at_the_top", input: strings.Replace(billionLaughs("<lolz>&lol9;</lolz>"), `<!ENTITY lol9 "`, `<!ENTITY lol9 "<l>lol</l>`, 1), line: 15, col: 7, lols: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			budget := MaxEntityExpansion
			if tc.o.MaxTokenSize > 0 {
				budget = min(budget, tc.o.MaxTokenSize)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			oc := runXML(t, strings.NewReader(tc.input), filter.Options{}, tc.o)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			var pe *filter.PosError
			if !errors.As(oc.err, &pe) || !errors.Is(oc.err, ErrEntityExpansion) {
				t.Fatalf("error %v, want a PosError wrapping ErrEntityExpansion", oc.err)
			}
			if pe.Pos.Line != tc.line || pe.Pos.Col != tc.col {
				t.Errorf("error at %d:%d, want %d:%d: %v", pe.Pos.Line, pe.Pos.Col, tc.line, tc.col, oc.err)
			}
			if want := fmt.Sprintf("(limit %d bytes of replacement text per document", budget); !strings.Contains(oc.err.Error(), want) {
				t.Errorf("error %v, want it to say %q", oc.err, want)
			}
			switch words := strings.Fields(oc.text); {
			case tc.lols:
				if len(words) == 0 || len(oc.text) > budget || strings.Trim(strings.Join(words, ""), "lo") != "" {
					t.Errorf("text %.80q (%d bytes), want lol words, fewer than %d bytes", oc.text, len(oc.text), budget)
				}
			case oc.text != tc.text:
				t.Errorf("text %.80q (%d bytes), want %.80q (%d bytes)", oc.text, len(oc.text), tc.text, len(tc.text))
			}
			// The expansion holds at most the budget, in a buffer that grows
			// by doubling; the input and outputs come on top (text read as
			// content is written as it is read, in buffers that double).
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*budget+8*len(tc.input)+4*(len(oc.text)+len(oc.archiveText))+8<<20) {
				t.Errorf("allocated %d MB", alloc>>20)
			}
			// No bound on time (it takes about 0.3 s, and a loaded machine
			// may take a hundred times that): the budget bounds the work,
			// and the allocation bound above what expanding whole would
			// take (gigabytes).
			t.Logf("%v, %d MB allocated, %d bytes of text", elapsed, (after.TotalAlloc-before.TotalAlloc)>>20, len(oc.text))
		})
	}
}
