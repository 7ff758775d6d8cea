package xmlstream

import (
	"strings"
	"testing"
)

// A reference in content to an internal entity whose replacement text
// holds markup is read as if that text stood in the document at the
// reference (XML 1.0 section 4.4.2, "Included"): its elements, comments,
// PIs, CDATA sections, character data and references count, robots markup
// included. Everything found in it is at the reference's position. The
// archive copy keeps the reference as written, unless the expansion holds
// content that is not to be archived: then the reference is elided.
func TestEntityMarkupIsReadAsContent(t *testing.T) {
	const (
		secret = `<!DOCTYPE doc [<!ENTITY s '<s class="robots-noindex">secret</s>'>]>`
		xlink  = `xmlns:xlink="http://www.w3.org/1999/xlink"`
	)
	same := func(s string) string { return s } // an archive copy identical to the input
	nosnip := `<!DOCTYPE d [<!ENTITY s '<s class="robots-noarchive">secret</s>'>]><d>`
	runEntityCases(t, []entityCase{
		{name: "noindex_element_in_entity_is_a_phrase_break", input: secret + `<doc>public &s; more</doc>`, text: "public\n\nmore\n",
			archive: same(secret + `<doc>public &s; more</doc>`)},
		{name: "nested_elements_in_entity", input: `<!DOCTYPE d [<!ENTITY s '<a>one <b class="robots-noindex">two <c>three</c></b> four <c>five</c></a>'>]><d>zero &s; six</d>`,
			text: "zero one\n\nfour five six\n"},
		{name: "entity_used_twice", input: `<!DOCTYPE d [<!ENTITY s '<i>x</i><q class="robots-noindex">y</q>'>]><d>a &s; b &s; c</d>`,
			text: "a x\n\nb x\n\nc\n"},
		{name: "entity_used_in_a_noindex_region", input: `<!DOCTYPE d [<!ENTITY s '<i>in</i> <b class="robots-index">back</b>'>]><d>a <p class="robots-noindex">x &s; y</p> b</d>`,
			text: "a\n\nback\n\nb\n"},
		{name: "entity_at_the_start_and_end_of_text", input: `<!DOCTYPE d [<!ENTITY s '<i>x</i>'>]><d>&s;a&s;b&s;</d>`, text: "x a x b x\n"},
		{name: "entity_with_markup_in_an_entity_with_markup", input: `<!DOCTYPE d [<!ENTITY a '<b>&c;</b>'><!ENTITY c '<i class="robots-noindex">x</i> &t;'><!ENTITY t 'text'>]><d>p&a;q</d>`,
			text: "p\n\ntext q\n"},
		{name: "entity_without_markup_refers_to_one_with_markup", input: `<!DOCTYPE d [<!ENTITY a 'see &c;'><!ENTITY c '<i class="robots-noindex">x</i>'>]><d>p &a; q</d>`,
			text: "p see\n\nq\n"},
		{name: "markup_from_a_character_reference_in_the_entity_value", input: `<!DOCTYPE d [<!ENTITY s "&#60;i class='robots-noindex'>x&#60;/i>">]><d>p &s; q</d>`,
			text: "p\n\nq\n"},
		{name: "escaped_markup_stays_text", input: `<!DOCTYPE d [<!ENTITY s "<u>&#38;lt;i>x&#38;lt;/i> &lt;b></u>">]><d>p &s; q</d>`, text: "p <i>x</i> <b> q\n"},
		{name: "cdata_comment_and_references_in_entity", input: `<!DOCTYPE d [<!ENTITY s '<![CDATA[<raw>]]><!-- c -->&amp;&#38;#65;'>]><d>&s;</d>`, text: "<raw>&A\n"},
		{name: "link_in_entity", input: `<!DOCTYPE d [<!ENTITY l '<a xlink:href="http://example.com/x">anchor</a>'>]><d ` + xlink + `>see &l;</d>`,
			text: "see anchor\n", link: "http://example.com/x"},
		{name: "link_in_entity_in_a_nofollow_region", input: `<!DOCTYPE d [<!ENTITY l '<a xlink:href="http://example.com/x">anchor</a>'>]><d ` + xlink + `><p class="robots-nofollow">&l;</p></d>`,
			text: "anchor\n", link: "http://example.com/x"}, // listed, not followed (the golden case shows it)
		{name: "robots_pi_in_entity", input: `<!DOCTYPE d [<!ENTITY pi '<?robots index="no" follow="yes"?>'>]><d>&pi;hidden</d>`, text: ""},
		{name: "googleoff_comment_in_entity", input: `<!DOCTYPE d [<!ENTITY off '<!--googleoff: index-->'><!ENTITY on '<!--googleon: index-->'>]><d>a &off; b &on; c</d>`,
			text: "a\n\nc\n"},
		{name: "yandex_comment_in_entity", input: `<!DOCTYPE d [<!ENTITY s '<!--noindex-->x<!--/noindex-->'>]><d>a &s; b</d>`, text: "a\n\nb\n"},
		{name: "robots_class_typo_in_entity_warned_at_the_reference", input: "<!DOCTYPE d [<!ENTITY s '<i class=\"robots-noindx\">x</i>'>]><d>\n  &s;</d>",
			text: "x\n", warning: "2:3: warning: <i>: unknown Robot Exclusion Profile class \"robots-noindx\""},

		// The archive copy.
		{name: "archive_keeps_a_reference_with_nothing_to_elide", input: `<!DOCTYPE d [<!ENTITY s '<i>x</i>'>]><d><p>a &s; b</p></d>`, text: "a x b\n",
			archive: `<!DOCTYPE d [<!ENTITY s '<i>x</i>'>]><d><p>a &s; b</p></d>`},
		{name: "archive_elides_a_reference_holding_a_noarchive_region", input: nosnip + `a &s; b</d>`, text: "a secret b\n",
			archive: nosnip + `a … b</d>`},
		{name: "archive_elides_a_reference_holding_data_nosnippet", input: `<!DOCTYPE d [<!ENTITY s '<q data-nosnippet="">x</q>'>]><d>a &s; b</d>`, text: "a x b\n",
			archive: `<!DOCTYPE d [<!ENTITY s '<q data-nosnippet="">x</q>'>]><d>a … b</d>`},
		{name: "archive_elides_a_reference_holding_an_empty_noarchive_element", input: `<!DOCTYPE d [<!ENTITY s '<q class="robots-noarchive"/>'>]><d>a &s; b</d>`, text: "a b\n",
			archive: `<!DOCTYPE d [<!ENTITY s '<q class="robots-noarchive"/>'>]><d>a … b</d>`},
		{name: "archive_elides_a_reference_holding_googleoff_snippet", input: `<!DOCTYPE d [<!ENTITY s 'x<!--googleoff: snippet-->y'>]><d>a &s; b<!--googleon: snippet--> c</d>`, text: "a xy b c\n",
			archive: `<!DOCTYPE d [<!ENTITY s 'x<!--googleoff: snippet-->y'>]><d>a …<!--googleon: snippet--> c</d>`},
		{name: "archive_elides_a_reference_in_a_noarchive_region", input: `<!DOCTYPE d [<!ENTITY s '<i>x</i>'>]><d>a <p class="robots-noarchive">b &s; c</p> d</d>`, text: "a b x c d\n",
			archive: `<!DOCTYPE d [<!ENTITY s '<i>x</i>'>]><d>a <p class="robots-noarchive">…</p> d</d>`},
		{name: "archive_keeps_a_reference_in_an_archived_scope_of_a_noarchive_region", input: `<!DOCTYPE d [<!ENTITY s '<i>x</i>'>]><d><p class="robots-noarchive">b <q class="robots-archive">&s;</q> c</p></d>`,
			text: "b x\nc\n", archive: `<!DOCTYPE d [<!ENTITY s '<i>x</i>'>]><d><p class="robots-noarchive">…<q class="robots-archive">&s;</q>…</p></d>`},
		{name: "archive_elides_only_the_reference_that_needs_it", input: `<!DOCTYPE d [<!ENTITY s '<s class="robots-noarchive">secret</s>'><!ENTITY i '<i>x</i>'>]><d>a &s; b &i; c</d>`,
			text: "a secret b x c\n", archive: `<!DOCTYPE d [<!ENTITY s '<s class="robots-noarchive">secret</s>'><!ENTITY i '<i>x</i>'>]><d>a … b &i; c</d>`},
		{name: "archive_cuts_exactly_in_a_single_byte_charset", input: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + nosnip + "caf\xe9 &s; na\xefve</d>", text: "café secret naïve\n",
			archive: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + nosnip + "caf\xe9 \x85 na\xefve</d>"}, // the ellipsis in windows-1252, as WHATWG reads the label
		{name: "archive_cuts_exactly_in_shift_jis", input: "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>" + nosnip + "\x93\xfa\x96\x7b&s;\x8c\xea</d>", text: "日本 secret 語\n",
			archive: "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>" + nosnip + "\x93\xfa\x96\x7b\x81\x63\x8c\xea</d>"}, // the ellipsis in Shift_JIS
	}, Options{})
}

// The replacement text must be content on its own: an element that starts
// in it ends in it, a tag neither starts in it and ends outside nor the
// reverse; an entity with markup may not refer to itself; its expansion
// counts against the budget; the depth limit holds inside it; a reference
// to it in an attribute value is an error (WFC "No < in Attribute
// Values"). Each error is at the reference, after what came before it.
func TestEntityMarkupMustBeWellFormedContent(t *testing.T) {
	runEntityCases(t, []entityCase{
		{name: "element_starts_and_does_not_end", input: `<!DOCTYPE d [<!ENTITY s '<b>x'>]><d>p &s; q</b></d>`, text: "p x\n",
			err: "1:39: not well-formed XML: the replacement text of &s; ends inside <b>, which starts in it: an element must end in the entity where it starts"},
		{name: "end_tag_of_an_element_started_outside", input: `<!DOCTYPE d [<!ENTITY s 'x</p>'>]><d><p>p &s; q</d>`, text: "p x\n",
			err: "1:43: not well-formed XML: end tag </p> in the replacement text of &s; ends an element that starts outside it: an element must end in the entity where it starts"},
		{name: "start_tag_cut_by_the_end_of_the_entity", input: `<!DOCTYPE d [<!ENTITY s '<b'>]><d>p &s;>q</b></d>`, text: "p\n",
			err: "1:37: not well-formed XML: the replacement text of &s; ends inside a start tag"},
		{name: "comment_cut_by_the_end_of_the_entity", input: `<!DOCTYPE d [<!ENTITY s 'x<!-- y'>]><d>p &s; --> q</d>`, text: "p x\n",
			err: "1:42: not well-formed XML: the replacement text of &s; ends inside a comment"},
		{name: "not_well_formed_inside_the_entity_is_at_the_reference", input: "<!DOCTYPE d [<!ENTITY s '<b>fish &#38; chips</b>'>]><d>\np &s; q</d>", text: "p\n",
			err: "2:3: not well-formed XML: an & that starts no entity or character reference (a literal & is written &amp;)"},
		{name: "undeclared_entity_inside", input: `<!DOCTYPE d [<!ENTITY s '<b>&bogus;</b>'>]><d>p &s;</d>`, text: "p\n",
			err: "1:49: not well-formed XML: entity &bogus; is not declared: the internal subset does not declare it and there is no external DTD subset"},
		{name: "direct_recursion_with_markup", input: `<!DOCTYPE d [<!ENTITY s '<b>x &s;</b>'>]><d>p &s;</d>`, text: "p x\n",
			err: "1:47: not well-formed XML: entity &s; refers to itself (&s; → &s;)"},
		{name: "indirect_recursion_through_text_and_markup", input: `<!DOCTYPE d [<!ENTITY a '<b>&c;</b>'><!ENTITY c 'y &a;'>]><d>p &a;</d>`, text: "p y\n",
			err: "1:64: not well-formed XML: entity &a; refers to itself (&a; → &c; → &a;)"},
		{name: "reference_in_an_attribute_value", input: `<!DOCTYPE d [<!ENTITY s '<b/>'>]><d><p>x</p><p t="&s;"/></d>`, text: "x\n",
			err: "1:51: not well-formed XML: the replacement text of &s; holds a '<', which an attribute value may not (WFC No < in Attribute Values)"},
		{name: "reference_in_an_attribute_value_through_another_entity", input: `<!DOCTYPE d [<!ENTITY a 'v &s;'><!ENTITY s '&#60;b/>'>]><d t="&a;"/>`,
			err: "1:63: not well-formed XML: the replacement text of &s; holds a '<', which an attribute value may not (WFC No < in Attribute Values)"},
		{name: "reference_outside_the_root_element", input: `<!DOCTYPE d [<!ENTITY s '<d/>'>]>&s;`,
			err: "1:34: not well-formed XML: entity reference &s; outside the root element"},
		{name: "second_root_element_from_an_entity_is_no_second_root", input: `<!DOCTYPE d [<!ENTITY s '<d/>'>]><d>&s;</d>`, text: ""},
		{name: "depth_limit_inside_the_expansion", input: `<!DOCTYPE d [<!ENTITY s '<a><b><c>deep</c></b></a>'>]><d>p &s;</d>`, text: "p\n",
			err: "1:60: elements nested deeper than the depth limit (limit 3); output stops here"},
	}, Options{MaxDepth: 3})
	// The expansion budget: every byte of replacement text read as content
	// counts, as that read as text does.
	runEntityCases(t, []entityCase{
		{name: "budget_counts_replacement_text_read_as_content", input: `<!DOCTYPE d [<!ENTITY e '<i>` + strings.Repeat("x", 33) + `</i>'>]><d>&e;&e;&e;&e;</d>`,
			text: strings.Repeat("x", 33) + " " + strings.Repeat("x", 33) + "\n",
			err:  "1:79: entity references expand past the expansion budget (limit 100 bytes of replacement text per document, expanding &e;); output stops here"},
		{name: "billion_laughs_with_markup_stops_at_the_budget", input: `<!DOCTYPE d [<!ENTITY l '<l>lol</l>'><!ENTITY l1 '&l;&l;&l;&l;'><!ENTITY l2 '&l1;&l1;&l1;&l1;'>]>` + "\n<d>&l2;</d>",
			text: "lol lol lol lol lol lol\n",
			err:  "2:4: entity references expand past the expansion budget (limit 100 bytes of replacement text per document, expanding &l2;); output stops here"},
	}, Options{MaxTokenSize: 100})
}
