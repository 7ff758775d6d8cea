package xmlstream

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// Entities gives another parser what the XML stage reads a reference as,
// or the XML stage's error for it.
func TestEntitiesExpandAsTheXMLStage(t *testing.T) {
	const subset = `<!DOCTYPE d [<!ENTITY a "alpha"><!ENTITY b "(&a; &amp; &#38;#65;)"><!ENTITY mk "<i>&a;</i>"><!ENTITY nest "x&mk;"><!ENTITY ws "a&#9;b"><!ENTITY x SYSTEM "x.ent"><!ENTITY r "&r;">]>`
	for _, tc := range []struct {
		name, doctype, decl, ref string
		inAttr                   bool
		budget                   int
		text                     string
		markup                   bool
		err                      string
	}{
		{name: "predefined", ref: "lt", text: "<"},
		{name: "declared", doctype: subset, ref: "a", text: "alpha"},
		{name: "nested_references", doctype: subset, ref: "b", text: "(alpha & A)"},
		{name: "markup", doctype: subset, ref: "mk", text: "<i>alpha</i>", markup: true},
		{name: "markup_through_a_reference", doctype: subset, ref: "nest", text: "x<i>alpha</i>", markup: true},
		{name: "white_space_as_written_in_an_attribute", doctype: subset, ref: "ws", inAttr: true, text: "a\tb"},
		{name: "markup_in_an_attribute", doctype: subset, ref: "mk", inAttr: true, markup: true,
			err: "not well-formed XML: the replacement text of &mk; holds a '<', which an attribute value may not (WFC No < in Attribute Values)"},
		{name: "external", doctype: subset, ref: "x", text: "&x;"},
		{name: "recursion", doctype: subset, ref: "r", err: "not well-formed XML: entity &r; refers to itself (&r; → &r;)"},
		{name: "undeclared_without_dtd", ref: "nbsp",
			err: "not well-formed XML: entity &nbsp; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)"},
		{name: "undeclared_with_an_external_subset", doctype: `<!DOCTYPE d SYSTEM "d.dtd">`, ref: "nbsp", text: "\u00a0"},
		{name: "standalone", doctype: `<!DOCTYPE d SYSTEM "d.dtd">`, decl: ` version="1.0" standalone="yes"`, ref: "nbsp",
			err: "not well-formed XML: entity &nbsp; is not declared in the internal subset, as a standalone document requires"},
		{name: "budget", doctype: subset, ref: "b", budget: 8, err: "entity references expand past the expansion budget (limit 8 bytes of replacement text per document, expanding &b;); output stops here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			budget := tc.budget
			if budget == 0 {
				budget = 1 << 20
			}
			x := NewEntities(budget)
			x.XMLDeclaration([]byte(tc.decl))
			if tc.doctype != "" && !x.Declare([]byte(tc.doctype), false) {
				t.Fatal("the DOCTYPE is read as cut short")
			}
			text, markup, err := x.Expand(tc.ref, tc.inAttr)
			switch {
			case tc.err != "" && (err == nil || err.Error() != tc.err):
				t.Errorf("error %v, want %s", err, tc.err)
			case tc.err == "" && (err != nil || text != tc.text):
				t.Errorf("%q, error %v, want %q", text, err, tc.text)
			case markup != tc.markup:
				t.Errorf("markup %v, want %v", markup, tc.markup)
			case err != nil && !errors.Is(err, ErrNotWellFormed) && !errors.Is(err, ErrEntityExpansion):
				t.Errorf("error %v wraps neither ErrNotWellFormed nor ErrEntityExpansion", err)
			}
		})
	}
}

// A DOCTYPE cut short inside its internal subset declares nothing, unless
// it is final.
func TestEntitiesDeclareADoctypeCutShort(t *testing.T) {
	cut := []byte(`<!DOCTYPE d [<?pi a >`)
	x := NewEntities(1 << 20)
	if x.Declare(cut, false) {
		t.Fatal("a DOCTYPE cut short is declared")
	}
	if !x.Declare(append(cut, ` b?><!ENTITY e "y">]>`...), false) {
		t.Fatal("the whole DOCTYPE is not declared")
	}
	if text, _, err := x.Expand("e", false); err != nil || text != "y" {
		t.Errorf("&e; reads as %q, error %v", text, err)
	}
	y := NewEntities(1 << 20)
	if !y.Declare([]byte(`<!DOCTYPE d [<!ENTITY e "y"><?pi >`), true) {
		t.Fatal("final: not declared")
	}
	if text, _, err := y.Expand("e", false); err != nil || text != "y" {
		t.Errorf("final: &e; reads as %q, error %v", text, err)
	}
}

func TestDeclarationError(t *testing.T) {
	for _, tc := range []struct {
		decl          string
		root, doctype bool
		want          string
	}{
		{decl: "DOCTYPE d", want: ""},
		{decl: "DOCTYPE", want: ""},
		{decl: "DOCTYPE d", doctype: true, want: "not well-formed XML: a second DOCTYPE"},
		{decl: "DOCTYPEX d", want: "not well-formed XML: <!DOCTYPEX> is not allowed here: only a DOCTYPE may stand before the root element"},
		{decl: "ELEMENT d ANY", want: "not well-formed XML: <!ELEMENT> is not allowed here: only a DOCTYPE may stand before the root element"},
		{decl: "DOCTYPE d", root: true, want: "not well-formed XML: a markup declaration <!DOCTYPE> is not allowed inside or after the root element"},
		{decl: "averyveryverylongdeclarationname x", root: true, want: "not well-formed XML: a markup declaration <!averyveryverylongdec…> is not allowed inside or after the root element"},
	} {
		err := DeclarationError([]byte(tc.decl), tc.root, tc.doctype)
		if err != nil && err.Error() != tc.want || err == nil && tc.want != "" {
			t.Errorf("%q: %v, want %q", tc.decl, err, tc.want)
		}
		if err != nil && !errors.Is(err, ErrNotWellFormed) {
			t.Errorf("%q: %v does not wrap ErrNotWellFormed", tc.decl, err)
		}
	}
}

func TestCharRefIsCharIsNameByte(t *testing.T) {
	for digits, want := range map[string]rune{"38": '&', "x26": '&', "0065": 'A', "x1F600": 0x1F600} {
		if r, ok := CharRef([]byte(digits)); !ok || r != want {
			t.Errorf("CharRef(%q) = %U, %v", digits, r, ok)
		}
	}
	for _, digits := range []string{"", "x", "1", "xD800", "xFFFE", "x110000", "12a", "999999999"} {
		if _, ok := CharRef([]byte(digits)); ok {
			t.Errorf("CharRef(%q) is legal", digits)
		}
	}
	if !IsChar('\t') || IsChar(0) || IsChar(0xFFFF) || !IsChar(0x10FFFF) {
		t.Error("IsChar")
	}
	if !IsNameByte('a') || !IsNameByte(':') || !IsNameByte(0xC3) || IsNameByte(' ') || IsNameByte(';') {
		t.Error("IsNameByte")
	}
}

func TestPositionMeasure(t *testing.T) {
	for charset, want := range map[string]bool{"utf-8": false, "utf-16le": false, "windows-1252": true, "shift_jis": true, "iso-2022-jp": false} {
		if got := NewPositionMeasure(charset) != nil; got != want {
			t.Errorf("NewPositionMeasure(%q): %v, want %v", charset, got, want)
		}
	}
	if n := NewPositionMeasure("shift_jis").Len([]byte("a\u3042\u0080\uFFFD")); n != 1+2+1+1 {
		t.Errorf("shift_jis: %d bytes, want 5", n)
	}
}

// ProcInstError gives another parser the XML stage's error for a PI, at
// the same place: for each PI, the XML stage's error on a document holding
// it at the start, or inside the root element, is ProcInstError's, at the
// offset it gives.
func TestProcInstErrorIsTheXMLStages(t *testing.T) {
	for _, tc := range []struct {
		pi      string
		atStart bool
		bad     bool
	}{
		{`<?xml version="1.0"?>`, true, false},
		{`<?xml version='1.1' encoding="UTF-8" standalone="no" ?>`, true, false},
		{`<?xml version="1.0"?>`, false, true},
		{`<?xml foo?>`, false, true},
		{`<?XML foo?>`, true, true},
		{`<?xMl?>`, false, true},
		{`<?xml?>`, true, true},
		{`<?xml encoding="utf-8"?>`, true, true},
		{`<?xml version="1.0" standalone="maybe"?>`, true, true},
		{`<?xml version="2.0"?>`, true, true},
		{"<?xml version=\"1.0\"\n encoding='x y'?>", true, true},
		{`<?xml-stylesheet href="a.css"?>`, false, false},
		{`<?xmlfoo?>`, false, false},
		{`<?robots index="no" follow="no"?>`, true, false},
	} {
		t.Run(tc.pi, func(t *testing.T) {
			doc, before := tc.pi+"<r/>", ""
			if !tc.atStart {
				doc, before = "<r>"+tc.pi+"</r>", "<r>"
			}
			oc := runXML(t, strings.NewReader(doc), filter.Options{}, Options{})
			at, err := ProcInstError([]byte(tc.pi), tc.atStart)
			if (err != nil) != tc.bad || (oc.err != nil) != tc.bad {
				t.Fatalf("ProcInstError %v, the XML stage %v; want an error: %v", err, oc.err, tc.bad)
			}
			if err == nil {
				return
			}
			var pe *filter.PosError
			if !errors.As(oc.err, &pe) || !errors.Is(err, ErrNotWellFormed) {
				t.Fatalf("errors %v and %v", err, oc.err)
			}
			pos := filter.StartPos.Advance([]byte(before + tc.pi[:at]))
			if got, want := fmt.Sprintf("%s: %v", pos, err), oc.err.Error(); got != want {
				t.Errorf("ProcInstError %s, the XML stage %s", got, want)
			}
		})
	}
}
