package xmlstream

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// maxGoldenChunk is the largest reader chunk size every case is replayed at
// (besides whole): past it, chunks only cut the inputs in fewer places.
const maxGoldenChunk = 64

type goldenCase struct {
	name  string
	input string
	fo    filter.Options
	o     Options
}

const xlinkNS = `xmlns:xlink="http://www.w3.org/1999/xlink"`

var goldenCases = []goldenCase{
	// The four legal forms of the robots PI, and the white space the grammar allows.
	{name: "pi_legal_index_yes_follow_yes", input: `<?xml version="1.0"?>
<?robots index="yes" follow="yes"?>
<doc ` + xlinkNS + `><p>Indexed text</p><ref xlink:href="http://example.com/a">followed</ref></doc>
`},
	{name: "pi_legal_index_no_follow_yes", input: `<?xml version="1.0"?>
<?robots index="no" follow="yes"?>
<doc ` + xlinkNS + `><p>Not indexed</p><ref xlink:href="http://example.com/a">followed</ref></doc>
`},
	{name: "pi_legal_index_yes_follow_no", input: `<?xml version="1.0"?>
<?robots index="yes" follow="no"?>
<doc ` + xlinkNS + `><p>Indexed</p><ref xlink:href="http://example.com/a">not followed</ref></doc>
`},
	{name: "pi_legal_index_no_follow_no", input: `<?xml version="1.0"?>
<?robots index="no" follow="no"?>
<doc ` + xlinkNS + `><p>Neither</p><ref xlink:href="http://example.com/a">link</ref></doc>
`},
	{name: "pi_legal_with_tabs_newlines_and_space_before_end", input: "<?robots\tindex=\"no\"\r\n   follow=\"no\" \n?><doc>text</doc>"},
	// Every illegal form is reported at its position and ignored.
	{name: "pi_illegal_single_quotes", input: `<?robots index='no' follow='no'?><doc>still indexed</doc>`},
	{name: "pi_illegal_swapped_attributes", input: `<?robots follow="no" index="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_missing_follow", input: `<?robots index="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_missing_index", input: `<?robots follow="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_no_attributes", input: `<?robots?><doc>still indexed</doc>`},
	{name: "pi_illegal_value_maybe", input: `<?robots index="maybe" follow="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_upper_case_target", input: `<?ROBOTS index="no" follow="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_upper_case_value", input: `<?robots index="NO" follow="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_upper_case_attribute", input: `<?robots Index="no" follow="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_extra_attribute", input: `<?robots index="no" follow="no" archive="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_space_around_equals", input: `<?robots index = "no" follow="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_no_space_between_attributes", input: `<?robots index="no"follow="no"?><doc>still indexed</doc>`},
	{name: "pi_illegal_index_twice", input: `<?robots index="no" index="no"?><doc>still indexed</doc>`},
	{name: "pi_other_targets_are_not_robots_pis", input: `<?robot index="no" follow="no"?><?robots-x index="no" follow="no"?><?xml-stylesheet href="a.css"?><doc>indexed</doc>`},
	// Placement.
	{name: "pi_first_legal_wins_later_ones_ignored", input: `<?robots index="maybe" follow="no"?>
<?robots index="no" follow="yes"?>
<?robots index="yes" follow="no"?>
<doc>text</doc>`},
	{name: "pi_in_internal_subset_counts", input: `<?xml version="1.0"?>
<!DOCTYPE doc [
  <!-- <?robots index="yes" follow="yes"?> in a comment is no PI -->
  <!ENTITY fake "<?robots index='yes' follow='yes'?> in a literal is no PI">
  <?robots index="no" follow="no"?>
  <!ELEMENT doc (#PCDATA)>
]>
<doc>hidden</doc>`},
	{name: "pi_in_internal_subset_after_a_pi_with_an_apostrophe", input: "<!DOCTYPE doc [\n<?note don't stop here?>\n<!-- nor 'here -->\n<?robots index=\"no\" follow=\"no\"?>\n]>\n<doc>hidden</doc>"},
	{name: "pi_in_internal_subset_illegal_position_reported", input: "<!DOCTYPE doc [\n\t<?robots index=\"no\" follow=\"perhaps\"?>\n]>\n<doc>indexed</doc>"},
	{name: "pi_after_root_start_before_content_applies_silently", input: `<doc><?robots index="no" follow="no"?>text</doc>`},
	{name: "pi_after_content_applies_from_there_with_warning", input: `<doc ` + xlinkNS + `><p>written before</p><a xlink:href="/before">before</a>
<?robots index="no" follow="no"?>
<p>after</p><a xlink:href="/after">after</a></doc>`, fo: filter.Options{Base: "http://example.com/"}},
	{name: "pi_second_legal_one_after_content_ignored", input: `<?robots index="yes" follow="yes"?><doc>a<?robots index="no" follow="no"?>b</doc>`},

	// Links.
	{name: "xlink_simple_locator_and_untyped_any_prefix", input: `<doc xmlns:xl="http://www.w3.org/1999/xlink" xml:base="http://example.com/dir/">
<storytitle xl:type="simple" xl:href="tech/xml_number_1.xml">XML Wins Again!</storytitle>
<loc xl:type="locator" xl:href="../up.xml" xl:label="x">locator text is no anchor</loc>
<plain xl:href="plain.xml">untyped is simple</plain>
<arc xl:type="arc" xl:href="arc.xml">href means nothing on an arc</arc>
<other xmlns:xlink="http://example.com/not-xlink" xlink:href="no.xml">not the XLink namespace</other>
</doc>`},
	{name: "xlink_embedded_resources_are_not_links", input: `<doc xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="http://example.com/dir/">
<svg xmlns="http://www.w3.org/2000/svg"><defs><pattern id="p" xlink:href="#q"/></defs>
<use xlink:href="sprites.svg#icon"/><image xlink:href="photo.png"/><script xlink:href="app.js"/>
<filter id="f"><feImage xlink:href="texture.png"/></filter><text><textPath xlink:href="#path">along</textPath></text>
<a xlink:href="page.html">svg a</a> <a href="svg2.html">svg 2 a</a> <a xlink:href="shown.html" xlink:show="embed">svg a embed</a></svg>
<figure xlink:type="simple" xlink:href="chart.png" xlink:show="embed" xlink:actuate="onLoad">embedded</figure>
<note xlink:href="note.xml" xlink:show=" embed ">embedded, untyped</note>
<ref xlink:href="new.html" xlink:show="new">new window</ref> <ref xlink:href="replace.html" xlink:show="replace">replace</ref>
<ref xlink:href="other.html" xlink:show="other">other</ref> <ref xlink:href="none.html" xlink:show="none">none</ref>
</doc>`},
	{name: "atom_links_with_nested_xml_base", input: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.org/blog/">
  <title>Example Feed</title>
  <link href="/feed.atom" rel="self"/>
  <link href="./"/>
  <entry xml:base="2024/">
    <title>Entry</title>
    <link rel="alternate" type="text/html" href="entry.html"/>
    <link rel="nofollow" href="sponsored.html"/>
    <content type="image/png" src="pic.png"/>
    <summary type="html">&lt;p&gt;escaped &lt;b&gt;HTML&lt;/b&gt;&lt;/p&gt;</summary>
  </entry>
  <entry xml:base="http://other.example/x/">
    <link href="y"/>
  </entry>
</feed>`},
	{name: "rss2_link_text_enclosure_and_atom_link", input: `<?xml version="1.0"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>News</title>
  <link>http://example.com/</link>
  <atom:link href="http://example.com/feed.rss" rel="self" type="application/rss+xml"/>
  <item>
    <title>One</title>
    <link>
      http://example.com/one
    </link>
    <enclosure url="http://example.com/one.mp3" length="1" type="audio/mpeg"/>
    <description>&lt;a href="http://example.com/in-html"&gt;escaped HTML is text here&lt;/a&gt;</description>
  </item>
  <item class="robots-nofollow">
    <title>Two</title>
    <link><![CDATA[http://example.com/two]]></link>
  </item>
  <item><link></link><title>no link</title></item>
</channel>
</rss>`},
	{name: "rss1_rdf_links_in_rss_namespace", input: `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
  <channel rdf:about="http://example.com/"><title>C</title><link>http://example.com/</link></channel>
  <item rdf:about="http://example.com/1"><title>I</title><link>/1</link></item>
</rdf:RDF>`, fo: filter.Options{Base: "http://example.com/base/"}},
	{name: "sitemap_and_sitemap_index_loc", input: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>http://www.example.com/</loc><lastmod>2005-01-01</lastmod>
    <image:image><image:loc>http://www.example.com/image.jpg</image:loc></image:image></url>
  <url><loc>
    http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii
  </loc></url>
</urlset>`},
	{name: "sitemap_index_without_namespace", input: `<sitemapindex><sitemap><loc>http://www.example.com/sitemap1.xml.gz</loc></sitemap></sitemapindex>`},
	{name: "link_text_only_in_rss_vocabulary", input: `<doc><link>http://example.com/not-rss</link><loc>http://example.com/not-a-sitemap</loc></doc>`},
	{name: "caller_base_then_xml_base", input: `<doc xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="x">x</a><sub xml:base="sub/"><a xlink:href="y">y</a><deeper xml:base="/root/"><a xlink:href="z">z</a></deeper></sub></doc>`, fo: filter.Options{Base: "http://example.com/dir/page.xml"}},
	{name: "atom_xhtml_content_links_resolve_against_entry_xml_base", input: `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.org/">
<entry xml:base="/2024/post/"><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>See <a href="../other/">the other post</a> and <a href="img.png" class="robots-noanchortext">this</a>.</p></div></content></entry>
</feed>`},
	{name: "links_in_nofollow_region_and_pi_nofollow_reasons", input: `<?robots index="yes" follow="no"?>
<doc ` + xlinkNS + `><a xlink:href="http://example.com/a">a</a></doc>`},

	// XHTML read as XML.
	{name: "xhtml_meta_disagrees_with_pi_is_warned_not_obeyed", input: `<?xml version="1.0"?>
<?robots index="yes" follow="yes"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title>
<meta name="robots" content="noindex, nofollow"/></head>
<body><p>indexed: the PI decides</p><a href="http://example.com/">followed</a></body></html>`},
	{name: "xhtml_meta_agreeing_with_pi_is_silent", input: `<?robots index="no" follow="yes"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="robots" content="noindex"/></head><body><p>x</p></body></html>`},
	{name: "xhtml_meta_noindex_without_pi_is_warned_not_obeyed", input: `<html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="ROBOTS" content="NOINDEX,NOARCHIVE"/></head><body><p>indexed</p></body></html>`},
	{name: "xhtml_layout_hidden_and_inline_as_in_html", input: `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>The title</title><style>p{}</style><script>var x;</script></head>
<body><h1>Head</h1><p>wo<b>rd</b> and <span>more</span></p><div>block<br/>next</div><table><tr><td>c1</td><td>c2</td></tr></table></body></html>`},
	{name: "xhtml_media_fallback_and_hidden_inputs_are_not_text", input: `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a<video>no video <a href="v.mp4">download</a></video>b<canvas>no canvas</canvas>c</p>
<p>wo<label>r</label>d<input type="Hidden" name="n" value="v"/>s <input type="text"/>next <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby></p></body></html>`},
	{name: "xhtml_links_base_rel_and_stylesheet", input: `<html xmlns="http://www.w3.org/1999/xhtml"><head><base href="http://example.com/x/"/>
<link rel="stylesheet" href="s.css"/><link rel="alternate" href="alt.html"/></head>
<body><a href="a.html">A</a> <a href="b.html" rel="nofollow ugc">B</a> <map><area href="c.html"/></map>
<a href="javascript:void(0)">js</a> <a href="">empty</a> <p class="robots-nofollow"><a href="d.html">D</a></p>
<a class="robots-follow" rel="nofollow" href="e.html">profile beats rel</a></body></html>`},
	{name: "xhtml_require_profile_honours_head_profile", input: `<html xmlns="http://www.w3.org/1999/xhtml"><head profile="http://example.org/xmdp/robots-profile#"></head><body><p class="robots-noindex">hidden</p><p>shown</p></body></html>`, fo: filter.Options{RequireProfile: true}},
	{name: "xhtml_require_profile_class_on_html_counts_once_the_head_names_it", input: `<html xmlns="http://www.w3.org/1999/xhtml" class="robots-noindex"><head profile="http://example.org/xmdp/robots-profile#"><title>T</title></head><body><p>hidden</p><p class="robots-index">shown</p></body></html>`, fo: filter.Options{RequireProfile: true}},
	{name: "xhtml_without_profile_under_require_profile", input: `<html xmlns="http://www.w3.org/1999/xhtml"><head></head><body><p class="robots-noindex">shown: no profile</p></body></html>`, fo: filter.Options{RequireProfile: true}},
	{name: "yandex_noindex_tag_without_namespace", input: `<?xml version="1.0"?><r>a <noindex>hidden <b>x</b></noindex> b <n:noindex xmlns:n="urn:other">kept</n:noindex></r>`},
	{name: "xhtml_yandex_noindex_tag", input: `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a <noindex>hidden <b>x</b></noindex> b</p></body></html>`},
	{name: "xhtml_per_robot_classes", input: `<html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="RobotExclusion.RobotName1" content="Foo Bot"/></head><body><p class="robots-noindex robot1-index">only robot 1</p></body></html>`, fo: filter.Options{Agent: "Foo Bot/1.0"}},

	// Regions on any element.
	{name: "classes_on_any_element_nest", input: `<doc><sec class="robots-noindex">out <sub class="robots-index">back in</sub> out</sec><p class="robots-nocontent">yahoo</p><p>kept</p></doc>`},
	{name: "entity_external_in_attribute_value_is_not_well_formed", input: `<!DOCTYPE r [<!ENTITY e SYSTEM "x.txt">]><r><p>before</p><q a="&e;">x</q></r>`},
	{name: "entity_unparsed_reference_is_not_well_formed", input: `<!DOCTYPE r [<!NOTATION n SYSTEM "n"><!ENTITY e SYSTEM "x.gif" NDATA n><!ENTITY f SYSTEM "NDATA y">]><r><p>before &f;</p>&e;</r>`},
	{name: "xhtml_void_element_with_an_end_tag_is_replaced_tags_and_all", input: `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a<input class="robots-noarchive" value="secret"></input>b<img data-nosnippet="" src="private.png"> </img>c<img class="robots-noarchive" src="x.png"/>d</p></body></html>`},
	{name: "classes_noarchive_elides_archive_empty_element_too", input: `<doc><p>kept</p><p class="robots-noarchive">gone <b>bold</b></p><img class="robots-noarchive" src="x"/><q data-nosnippet="">no snippet</q><p>end</p></doc>`},
	{name: "classes_unknown_robots_class_warned", input: `<doc><p class="robots-noindx">typo</p></doc>`},
	{name: "comment_dialects_googleoff_and_yandex", input: `<doc><p>a</p><!--googleoff: index--><p>b</p><!--googleon: index--><p>c</p><!--noindex--><p>d</p><!--/noindex--><p>e</p><!--googleoff: snippet--><p>f</p><!--googleon: snippet--></doc>`},

	// Text.
	{name: "element_boundaries_separate_words", input: `<doc><a>wo</a><b>rd</b><c>x<d/>y</c></doc>`},
	{name: "containers_end_lines_mixed_content_does_not", input: `<feed><entry><title>One</title><id>1</id></entry><entry><title>Two</title><id>2</id></entry><para>Some <em>mixed</em> text</para><para>next</para></feed>`},
	{name: "cdata_is_text_comments_and_pis_are_not", input: `<doc><![CDATA[<not> a tag & not an entity]]><!-- comment --><?pi data?> tail</doc>`},
	{name: "entities_predefined_and_character_references", input: `<doc a="&quot;&#65;">&lt;&gt;&amp;&apos;&quot; &#233;&#x4E2D;</doc>`},
	// An external subset (never read) may declare what the internal one does not.
	{name: "entity_undeclared_html_name_with_external_subset_warned_read_as_html", input: "<!DOCTYPE doc SYSTEM \"doc.dtd\">\n<doc>\n  caf&eacute;&nbsp;bar &eacute; <x t=\"&copy;\"/></doc>"},
	{name: "entity_unknown_with_external_subset_warned_kept_as_written", input: `<!DOCTYPE doc PUBLIC "-//Example//DTD Doc//EN" "doc.dtd"><doc>a &bogus; b</doc>`},
	{name: "entity_unknown_after_parameter_entity_reference_warned_kept_as_written", input: `<!DOCTYPE doc [<!ENTITY % more SYSTEM "more.ent"> %more;]><doc>a &bogus; b</doc>`},
	// Without one, XML's WFC "Entity Declared" makes it an error.
	{name: "entity_undeclared_without_dtd_not_well_formed", input: "<doc><p>before</p>\ncaf&eacute; au lait</doc>"},
	{name: "entity_declared_in_internal_subset_expanded_as_text", input: `<!DOCTYPE doc [<!ENTITY co "Acme &amp; Co &#233;"><!ENTITY mk "&lt;b>not markup&lt;/b>">]><doc>&co; &mk;</doc>`},
	{name: "entity_references_in_replacement_text_expanded_in_turn", input: `<!DOCTYPE doc [<!ENTITY b "x &a; y"><!ENTITY a "alpha &c;"><!ENTITY c "&#38;#233;">]><doc>&b;</doc>`},
	// An entity with markup is read as content at the reference: its robots markup counts, at the reference's position.
	{name: "entity_markup_noindex_element_is_a_phrase_break", input: `<!DOCTYPE doc [<!ENTITY s '<s class="robots-noindex">secret</s>'>]><doc>public &s; more</doc>`},
	{name: "entity_markup_links_regions_and_warnings_at_the_reference", input: `<!DOCTYPE doc [<!ENTITY l '<a xlink:href="http://example.com/a">A</a> <b class="robots-nofollow robots-noindx"><a xlink:href="/b">B</a></b>'>]>
<doc ` + xlinkNS + ` xml:base="http://example.com/dir/">
  see &l; and <p class="robots-noindex">&l;</p>
</doc>`},
	{name: "entity_markup_noarchive_elides_the_reference", input: `<!DOCTYPE doc [<!ENTITY s '<s class="robots-noarchive">secret</s>'><!ENTITY i '<i>open</i>'>]>
<doc><p>a &s; b &i; c</p><p class="robots-noarchive">&i;</p></doc>`},
	{name: "entity_markup_robots_pi_and_comment_dialects", input: `<!DOCTYPE doc [<!ENTITY pi '<?robots index="yes" follow="no"?>'><!ENTITY off '<!--googleoff: all-->'><!ENTITY on '<!--googleon: all-->'>]>
<doc ` + xlinkNS + `>&pi;<a xlink:href="http://example.com/">x</a> a &off; b &on; c</doc>`},
	{name: "entity_markup_utf16_archive_cuts_at_the_reference", input: "\xff\xfe<\x00!\x00D\x00O\x00C\x00T\x00Y\x00P\x00E\x00 \x00d\x00 \x00[\x00<\x00!\x00E\x00N\x00T\x00I\x00T\x00Y\x00 \x00s\x00 \x00'\x00<\x00s\x00 \x00c\x00l\x00a\x00s\x00s\x00=\x00\"\x00r\x00o\x00b\x00o\x00t\x00s\x00-\x00n\x00o\x00a\x00r\x00c\x00h\x00i\x00v\x00e\x00\"\x00>\x00x\x00<\x00/\x00s\x00>\x00'\x00>\x00]\x00>\x00<\x00d\x00>\x00a\x00\xe9\x00 \x00&\x00s\x00;\x00 \x00b\x00<\x00/\x00d\x00>\x00"},
	{name: "entity_markup_unbalanced_is_not_well_formed", input: `<!DOCTYPE doc [<!ENTITY s '<s>secret'>]>
<doc><p>written</p> &s; </s></doc>`},
	{name: "entity_external_never_loaded", input: `<!DOCTYPE doc [<!ENTITY chap SYSTEM "http://example.com/chap.xml">]><doc>before &chap; after</doc>`},
	{name: "entity_expansion_past_the_budget_is_an_error", input: `<!DOCTYPE d [<!ENTITY e "0123456789012345678901234567890">]><d>&e;&e;&e;&e;&e;&e;</d>`, o: Options{MaxTokenSize: 100}},
	{name: "entity_xhtml_doctype_declares_html_entities", input: `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a&nbsp;b &mdash; c</p></body></html>`},

	// Not well-formed: what came before is written, then the error with its position.
	{name: "error_mismatched_end_tag", input: "<doc>\n<p>written</p>\n<p>cut</q></doc>"},
	{name: "error_document_ends_inside_element", input: `<doc><p>written</p><p>open`},
	{name: "error_text_after_root", input: `<doc>ok</doc>junk`},
	{name: "error_second_root", input: `<doc>ok</doc><doc/>`},
	{name: "error_duplicate_attribute", input: `<doc><p a="1" a="2">x</p></doc>`},
	{name: "error_unquoted_attribute", input: "<doc>\n<p>before</p><p a=1>x</p></doc>"},
	{name: "error_invalid_utf8", input: "<doc><p>ok</p>\n\xff</doc>"},
	{name: "error_ampersand_without_name", input: "<doc>fish & chips</doc>"},
	{name: "error_no_root", input: "<?xml version=\"1.0\"?>\n<!-- nothing -->\n"},
	{name: "error_doctype_inside_root", input: `<doc><!DOCTYPE doc></doc>`},
	{name: "error_unexpected_eof_in_tag", input: `<doc><p class="x`},

	// Charsets: the text is decoded, the archive copy keeps the original bytes.
	{name: "charset_declared_iso_8859_1", input: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<doc class=\"caf\xe9\">caf\xe9 <p class=\"robots-noarchive\">na\xefve</p></doc>"},
	{name: "charset_shift_jis_with_noarchive", input: "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<doc><p>\x93\xfa\x96\x7b\x8c\xea</p><p class=\"robots-noarchive\">\x83\x65\x83\x58\x83\x67</p></doc>"},
	{name: "charset_utf16le_bom", input: "\xff\xfe<\x00d\x00o\x00c\x00>\x00h\x00\xe9\x00<\x00/\x00d\x00o\x00c\x00>\x00"},
	{name: "charset_utf16be_without_bom_declared", input: "\x00<\x00?\x00x\x00m\x00l\x00 \x00v\x00e\x00r\x00s\x00i\x00o\x00n\x00=\x00\"\x001\x00.\x000\x00\"\x00 \x00e\x00n\x00c\x00o\x00d\x00i\x00n\x00g\x00=\x00\"\x00U\x00T\x00F\x00-\x001\x006\x00\"\x00?\x00>\x00<\x00d\x00>\x4e\x2d\x00<\x00/\x00d\x00>"},
	{name: "charset_utf8_bom", input: "\xef\xbb\xbf<?xml version=\"1.0\"?><doc>bom</doc>"},
	{name: "charset_caller_label_overrides_declaration", input: "<?xml version=\"1.0\" encoding=\"utf-8\"?><doc>\xe0\xe1</doc>", o: Options{Charset: "windows-1251"}},
	{name: "charset_unknown_label_read_as_utf8", input: "<?xml version=\"1.0\" encoding=\"x-no-such\"?><doc>plain</doc>"},
	{name: "charset_iso_2022_jp_decoded_whole", input: "<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?><doc>\x1b$BF|K\\\x1b(B</doc>"},
	{name: "xml_declaration_after_white_space_warned", input: "\n<?xml version=\"1.0\"?><doc/>"},
	{name: "xml_declaration_inside_the_root_not_well_formed", input: "<doc>a<?xml version=\"1.0\"?>b</doc>"},
}

func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range goldenCases {
		if seen[tc.name] {
			t.Fatalf("two cases named %s", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			input := []byte(tc.input)
			path := filepath.Join("testdata", "golden", tc.name+".golden")
			var want string
			for _, ch := range chunkings(input, maxGoldenChunk) {
				got := runXML(t, ch.r(), tc.fo, tc.o).render(input)
				if want == "" {
					if *update {
						if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					b, err := os.ReadFile(path)
					if err != nil {
						t.Fatalf("%v (run with -update to create it)", err)
					}
					want = string(b)
				}
				if got != want {
					t.Fatalf("read %s: output differs from %s\n--- got\n%s\n--- want\n%s", ch.name, path, got, want)
				}
			}
		})
	}
}

// TestGoldenFilesHaveCases keeps testdata/golden free of files no case writes.
func TestGoldenFilesHaveCases(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range goldenCases {
		names[tc.name+".golden"] = true
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.golden"))
	for _, f := range files {
		if !names[filepath.Base(f)] {
			t.Errorf("%s belongs to no case", f)
		}
	}
}
