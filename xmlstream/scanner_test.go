package xmlstream

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter/filter"
)

// scannedTokens runs the scanner over a UTF-8 document and renders each
// token as one line, in the form rawTokens gives encoding/xml's.
func scannedTokens(doc []byte, r io.Reader) ([]string, error) {
	core, err := filter.NewCore(filter.Options{}, filter.Outputs{})
	if err != nil {
		return nil, err
	}
	src, err := openSource(r, core, Options{MaxTokenSize: filter.DefaultMaxTokenSize})
	if err != nil {
		return nil, err
	}
	ents := newEntities(filter.DefaultMaxTokenSize)
	z := newScanner(src, ents)
	var out []string
	for {
		kind, err := z.next()
		if err != nil {
			if err == io.EOF {
				return out, nil
			}
			var se *scanError
			if errors.As(err, &se) && (kind == tokDirective ||
				(kind == tokComment || kind == tokPI) && (se.msg == "invalid UTF-8" || strings.HasPrefix(se.msg, "illegal character code"))) {
				return out, &uncheckedByEncodingXML{se}
			}
			return out, err
		}
		switch kind {
		case tokStart:
			line := "start " + string(z.name)
			for i := range z.attrCount() {
				name, value := z.attr(i)
				line += fmt.Sprintf(" %s=%q", name, spaced(string(value)))
			}
			out = append(out, line)
			if z.empty {
				out = append(out, "end "+string(z.name))
			}
		case tokEnd:
			out = append(out, "end "+string(z.name))
		case tokText, tokCDATA:
			out = append(out, fmt.Sprintf("text %q", z.text))
		case tokComment:
			out = append(out, fmt.Sprintf("comment %q", z.text))
		case tokPI:
			out = append(out, fmt.Sprintf("pi %s %q", z.name, z.text))
		case tokDirective:
			out = append(out, "directive")
		}
		if kind == tokDirective {
			ents.declare(&doctype{}) // nothing declared: the documents compared have no entity declarations
		}
		src.release(z.end())
	}
}

// rawTokens renders encoding/xml's tokens (strict, reading undeclared
// entities as the scanner does) the way scannedTokens does.
func rawTokens(doc []byte) ([]string, error) {
	// The source reads a byte order mark as no text; encoding/xml as text.
	// EntityFiller gives undeclared entities the values the scanner reads.
	m := map[string]string{}
	d := xml.NewDecoder(EntityFiller(bytes.NewReader(bytes.TrimPrefix(doc, []byte("\xEF\xBB\xBF"))), m))
	d.Strict = true
	d.Entity = m
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil } // UTF-8 documents only
	var out []string
	for {
		tok, err := d.RawToken()
		if err != nil {
			if err == io.EOF {
				return out, nil
			}
			return out, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line := "start " + qname(t.Name)
			for _, a := range t.Attr {
				line += fmt.Sprintf(" %s=%q", qname(a.Name), spaced(a.Value))
			}
			out = append(out, line)
		case xml.EndElement:
			out = append(out, "end "+qname(t.Name))
		case xml.CharData:
			out = append(out, fmt.Sprintf("text %q", []byte(t)))
		case xml.Comment:
			out = append(out, fmt.Sprintf("comment %q", lineEnds(t)))
		case xml.ProcInst:
			out = append(out, fmt.Sprintf("pi %s %q", t.Target, lineEnds(t.Inst)))
		case xml.Directive:
			out = append(out, "directive")
		}
	}
}

// lineEnds reads CR LF and CR as LF everywhere, as XML 1.0 section 2.11
// says and the scanner does; encoding/xml does it in text only.
func lineEnds(b []byte) []byte {
	return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
}

// spaced reads white space in an attribute value as spaces: the scanner
// normalises it (XML 1.0 section 3.3.3), encoding/xml does not.
func spaced(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// TestScannerAgreesWithEncodingXML compares the scanner's tokens with
// encoding/xml's on every UTF-8 document of the corpus that neither
// declares entities nor uses one outside HTML's, read whole and one byte at
// a time. Where they disagree on well-formedness, the difference must be
// one of the rules encoding/xml does not check (listed in docs/xml.md).
func TestScannerAgreesWithEncodingXML(t *testing.T) {
	files := corpusFiles(t)
	var same, bothFail, differ int
	for i, f := range files {
		if raceDetector && i%4 != 0 {
			continue
		}
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !isUTF8Doc(doc) || bytes.Contains(doc, []byte("<!ENTITY")) {
			continue
		}
		want, wantErr := rawTokens(doc)
		got, gotErr := scannedTokens(doc, bytes.NewReader(doc))
		oneByte, oneErr := scannedTokens(doc, iotest.OneByteReader(bytes.NewReader(doc)))
		if fmt.Sprint(got, gotErr) != fmt.Sprint(oneByte, oneErr) {
			t.Errorf("%s: the scanner reads differently one byte at a time", f)
		}
		switch {
		case wantErr == nil && gotErr == nil:
			if d := firstDifference(want, got); d != "" {
				t.Errorf("%s: %s", f, d)
				differ++
				continue
			}
			same++
		case wantErr != nil && gotErr != nil:
			bothFail++
		case gotErr != nil && acceptedDifference(gotErr):
			bothFail++
		default:
			differ++
			t.Errorf("%s: encoding/xml says %v, the scanner %v", f, wantErr, gotErr)
		}
	}
	t.Logf("same tokens: %d documents; both reject: %d; disagree: %d", same, bothFail, differ)
	if same == 0 {
		t.Error("no document compared")
	}
}

// uncheckedByEncodingXML is a character error in a comment or processing
// instruction, where encoding/xml checks no characters, or any error in a
// declaration, which encoding/xml reads by rules of its own (the driver
// accepts a DOCTYPE before the root and nothing else).
type uncheckedByEncodingXML struct{ *scanError }

func (u *uncheckedByEncodingXML) Unwrap() error { return u.scanError }

// acceptedDifference is a well-formedness error the scanner reports and
// encoding/xml's RawToken does not check.
func acceptedDifference(err error) bool {
	var unchecked *uncheckedByEncodingXML
	if errors.As(err, &unchecked) {
		return true
	}
	var se *scanError
	if !errors.As(err, &se) {
		return false
	}
	// An undeclared entity: encoding/xml accepts it here only because
	// rawTokens gives it a value (EntityFiller), as Run does where an
	// external DTD subset may declare it.
	// The XML declaration: encoding/xml reads a PI with target xml
	// anywhere, and checks only its version, not its place or grammar.
	for _, m := range []string{"is not declared", `"]]>" is not allowed in text`, "expected white space, '>' or '/>'", "is reserved", "expected white space or '?>'", "the XML declaration"} {
		if strings.Contains(se.msg, m) {
			return true
		}
	}
	return false
}

func isUTF8Doc(doc []byte) bool {
	cs, err := detectCharset(doc[:min(len(doc), headSize)], "")
	return err == nil && cs.enc == nil
}

func firstDifference(want, got []string) string {
	for i := 0; i < len(want) || i < len(got); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("token %d: encoding/xml %.200s, scanner %.200s", i, w, g)
		}
	}
	return ""
}

// The scanner's own rules, each shown on a small document: what it
// rejects and where, and what it reads.
func TestScannerRules(t *testing.T) {
	const misplaced = "the XML declaration <?xml …?> may only stand at the start of the document"
	for _, c := range []struct {
		name, doc string
		want      string // the tokens, or the error with its offset
	}{
		{"entity_and_character_references_are_replaced", `<a t="&lt;&#x41;&#66;">&amp;&quot;&#x263A;</a>`,
			`[start a t="<AB" text "&\"☺" end a]`},
		{"line_ends_read_as_LF_in_text_and_space_in_attributes", "<a t=\"x\r\ny\tz\">1\r\n2\r3</a>",
			`[start a t="x y z" text "1\n2\n3" end a]`},
		{"empty_element_is_start_and_end", `<a><b x='1'/></a>`, `[start a start b x="1" end b end a]`},
		{"cdata_comment_pi", `<a><![CDATA[<x>&amp;]]><!-- c --><?p  data?></a>`,
			`[start a text "<x>&amp;" comment " c " pi p "data" end a]`},
		{"doctype_with_subset_comment_and_pi_holding_quotes", "<!DOCTYPE a [<!-- it's --><?p don't?><!ELEMENT a ANY>]><a/>",
			`[directive start a end a]`},
		{"rejects_undeclared_entity_without_a_dtd", `<a>x &nosuch;</a>`, `error at 5: entity &nosuch; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)`},
		{"character_references_with_leading_zeros", `<a>&#x0000000041;&#000000000066;</a>`, `[start a text "AB" end a]`},
		{"names_beyond_ascii", `<é:ü ß="1">x</é:ü>`, `[start é:ü ß="1" text "x" end é:ü]`},
		{"rejects_bracket_bracket_gt_in_text", `<a>x]]>y</a>`, `error at 4: "]]>" is not allowed in text (write "]]&gt;")`},
		{"rejects_attributes_without_space", `<a x="1"y="2"/>`, `error at 8: 'y' in the start tag <a>: expected white space, '>' or '/>'`},
		{"rejects_lt_in_attribute", `<a x="<"/>`, `error at 6: '<' in the value of attribute x (write &lt;)`},
		{"rejects_bare_ampersand", `<a>fish & chips</a>`, `error at 8: an & that starts no entity or character reference (a literal & is written &amp;)`},
		{"rejects_ampersand_without_semicolon", `<a>&copy 2024</a>`, `error at 3: "&copy" is not a reference: no ';' ends it (a literal & is written &amp;)`},
		{"rejects_illegal_character_reference", `<a>&#0;</a>`, `error at 3: &#0; is not a legal character reference`},
		{"rejects_control_character", "<a>\x01</a>", `error at 3: illegal character code U+0001`},
		{"rejects_invalid_utf8", "<a>\xff</a>", `error at 3: invalid UTF-8`},
		{"rejects_double_hyphen_in_comment", `<a><!-- a -- b --></a>`, `error at 10: "--" is not allowed inside a comment`},
		{"rejects_unquoted_attribute", `<a x=1/>`, `error at 5: the value of attribute x is not quoted`},
		{"rejects_attribute_without_value", `<a x/>`, `error at 4: attribute x has no value (expected '=')`},
		{"rejects_reserved_pi_target", `<?XML version="1.0"?><a/>`, `error at 2: the processing instruction target XML is reserved`},
		{"reads_xml_1_1_as_1_0", `<?xml version="1.1"?><a/>`, `[pi xml "version=\"1.1\"" start a end a]`},
		{"rejects_version_2_0", `<?xml version="2.0"?><a/>`, `error at 6: version "2.0" in the XML declaration is not an XML 1.x version (robofilter reads XML 1.0)`},
		{"reads_a_declaration_with_every_pseudo_attribute", "<?xml version='1.0' encoding = \"UTF-8\"\r\n standalone='no' ?><a/>",
			`[pi xml "version='1.0' encoding = \"UTF-8\"\n standalone='no' " start a end a]`},
		{"rejects_a_declaration_inside_the_root", `<a>x<?xml version="1.0"?></a>`, `error at 4: ` + misplaced},
		{"reads_a_declaration_after_white_space", "\n<?xml version=\"1.0\"?><a/>", `[text "\n" pi xml "version=\"1.0\"" start a end a]`},
		{"rejects_a_declaration_after_a_comment", `<!--c--><?xml version="1.0"?><a/>`, `error at 8: ` + misplaced},
		{"rejects_xml_target_in_the_internal_subset", `<!DOCTYPE a [<?xml version="1.0"?>]><a/>`, `error at 13: ` + misplaced},
		{"rejects_reserved_target_in_the_internal_subset", `<!DOCTYPE a [<?xML x?>]><a/>`, `error at 15: the processing instruction target xML is reserved`},
		{"rejects_a_declaration_without_version", `<?xml encoding="utf-8"?><a/>`, `error at 6: the XML declaration has no version: it must start <?xml version="1.0", not with encoding`},
		{"rejects_an_empty_declaration", `<?xml?><a/>`, `error at 5: the XML declaration has no version: it must start <?xml version="1.0"`},
		{"rejects_standalone_maybe", `<?xml version="1.0" standalone="maybe"?><a/>`, `error at 20: standalone "maybe" in the XML declaration: the value must be "yes" or "no"`},
		{"rejects_pseudo_attributes_out_of_order", `<?xml version="1.0" standalone="no" encoding="utf-8"?><a/>`,
			`error at 36: encoding after standalone in the XML declaration: the order is version, encoding, standalone`},
		{"rejects_a_bad_encoding_name", `<?xml version="1.0" encoding="utf 8"?><a/>`,
			`error at 20: encoding "utf 8" in the XML declaration is not an encoding name (a letter, then letters, digits, '.', '_' or '-')`},
		{"rejects_end_tag_with_attributes", `<a></a x="1">`, `error at 7: 'x' in the end tag </a>: expected '>'`},
		{"rejects_input_ending_in_a_tag", `<a><b`, `error at 5: the document ends inside a start tag`},
		{"rejects_input_ending_in_a_comment", `<a><!-- x`, `error at 9: the document ends inside a comment`},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []struct {
				name string
				r    io.Reader
			}{
				{"whole", strings.NewReader(c.doc)},
				{"one-byte", iotest.OneByteReader(strings.NewReader(c.doc))},
			} {
				toks, err := scannedTokens([]byte(c.doc), r.r)
				got := fmt.Sprint(toks)
				var se *scanError
				if errors.As(err, &se) {
					got = fmt.Sprintf("error at %d: %s", se.off, se.msg)
				} else if err != nil {
					got = "error: " + err.Error()
				}
				if got != c.want {
					t.Errorf("%s: got\n%s\nwant\n%s", r.name, got, c.want)
				}
			}
		})
	}
}

// FuzzScannerAgainstEncodingXML checks the scanner against encoding/xml on
// any input without entity declarations: the same tokens where both
// accept it; where only one does, a difference docs/xml.md lists.
func FuzzScannerAgainstEncodingXML(f *testing.F) {
	for _, tc := range goldenCases {
		if !strings.Contains(tc.input, "<!ENTITY") {
			f.Add([]byte(tc.input))
		}
	}
	f.Add([]byte(`<a x="1&#10;2" y='&amp;'><![CDATA[]]]]><!--c--><?p?>t&lt;</a>`))
	f.Add([]byte(`<?xml version="1.1" encoding='utf-8' standalone="yes" ?><a>x<?xml?></a>`))
	f.Add([]byte(` <?xml version="1.0" standalone="maybe"?><a/>`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if bytes.Contains(doc, []byte("<!ENTITY")) || !isUTF8Doc(doc) || len(doc) > 4096 {
			return
		}
		got, gotErr := scannedTokens(doc, bytes.NewReader(doc))
		half, halfErr := scannedTokens(doc, iotest.HalfReader(bytes.NewReader(doc)))
		if fmt.Sprint(got, gotErr) != fmt.Sprint(half, halfErr) {
			t.Fatalf("read whole and in halves, the scanner differs:\n%v %v\n%v %v", got, gotErr, half, halfErr)
		}
		want, wantErr := rawTokens(doc)
		if slices.Contains(got, "directive") || slices.Contains(want, "directive") {
			// Declarations: encoding/xml reads them by rules of its own;
			// the driver accepts a DOCTYPE before the root and nothing else.
			return
		}
		switch {
		case wantErr == nil && gotErr == nil:
			if d := firstDifference(want, got); d != "" {
				t.Fatal(d)
			}
		case wantErr == nil && !acceptedDifference(gotErr):
			t.Fatalf("encoding/xml accepts it, the scanner says %v", gotErr)
		case gotErr == nil && !scannerMayAccept(doc, wantErr):
			t.Fatalf("the scanner accepts it, encoding/xml says %v", wantErr)
		}
	})
}

// scannerMayAccept is an encoding/xml error on a name XML 1.0 fifth edition
// allows: beyond the fourth edition's tables, or with colons where
// encoding/xml expects a namespace prefix (the driver reads such a name as
// all local, as encoding/xml does the names it accepts); or on a version
// 1.x other than 1.0, which encoding/xml rejects and the scanner reads as
// 1.0.
func scannerMayAccept(doc []byte, err error) bool {
	msg := err.Error()
	if _, ref, ok := strings.Cut(msg, "invalid character entity &"); ok && !isASCII([]byte(ref)) {
		return true // an entity name beyond the fourth edition's tables
	}
	if _, v, ok := strings.Cut(msg, `unsupported version "`); ok {
		if v, _, ok := strings.Cut(v, `"`); ok && isVersionNum(v) {
			return true // XML 1.0 section 2.8: a 1.x document is read as 1.0
		}
	}
	return strings.Contains(msg, "invalid XML name") ||
		bytes.Contains(doc, []byte(":")) && (strings.Contains(msg, "expected attribute name") || strings.Contains(msg, "expected element name"))
}
