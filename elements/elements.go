// Package elements is the HTML element vocabulary both stages share
// (htmlstream for HTML, xmlstream for XHTML elements inside XML): which
// elements end a line of the text, which separate words without ending
// one, whose content is never text, and which never have content. The
// stages and their DOM oracles all classify through it, so they agree by
// construction on what is text.
package elements

import (
	"strings"

	"github.com/robofilter/robofilter/filter"
	a "golang.org/x/net/html/atom"
)

// Kind is an element's categories, as bits.
type Kind uint8

const (
	// Block elements end a line in the text (HTML's block-level elements,
	// the table structure, line breaks, and form controls that stand on
	// their own).
	Block Kind = 1 << iota
	// Cell elements separate words without ending a line: table cells and
	// the boxes that stand inline (controls, images, media, frames). A
	// hidden input is not among them (HiddenInput).
	Cell
	// Hidden elements have content that is never indexable text: it is
	// code, fallback that a reader with scripting on does not see
	// (noscript; the content of iframe, canvas, video and audio; ruby's
	// parentheses, rp), or inert (SPEC section 5). Their own box still
	// separates the words around it (filter.Scope's boxed). The head is not
	// among them: its content is not text either, except the title
	// (filter.Element.Head).
	Hidden
	// Void elements never have content (HTML's void elements plus the
	// obsolete ones the parser treats so).
	Void
)

var lists = [...]struct {
	kind  Kind
	atoms []a.Atom
}{
	{Block, []a.Atom{a.Address, a.Article, a.Aside, a.Blockquote, a.Body, a.Br, a.Caption, a.Center,
		a.Dd, a.Details, a.Dialog, a.Dir, a.Div, a.Dl, a.Dt, a.Fieldset, a.Figcaption, a.Figure, a.Footer, a.Form,
		a.Frameset, a.H1, a.H2, a.H3, a.H4, a.H5, a.H6, a.Header, a.Hgroup, a.Hr, a.Html, a.Legend, a.Li,
		a.Listing, a.Main, a.Menu, a.Nav, a.Ol, a.Optgroup, a.Option, a.P, a.Plaintext, a.Pre, a.Search,
		a.Section, a.Summary, a.Table, a.Tbody, a.Tfoot, a.Thead, a.Title, a.Tr, a.Ul, a.Xmp, a.Textarea,
		a.Select}},
	{Cell, []a.Atom{a.Td, a.Th, a.Button, a.Input, a.Img, a.Rt, a.Video, a.Audio, a.Canvas,
		a.Iframe, a.Embed, a.Object}},
	{Hidden, []a.Atom{a.Script, a.Style, a.Template, a.Noscript, a.Noembed, a.Noframes, a.Iframe,
		a.Datalist, a.Canvas, a.Video, a.Audio, a.Rp}},
	{Void, []a.Atom{a.Area, a.Base, a.Basefont, a.Bgsound, a.Br, a.Col, a.Embed, a.Frame, a.Hr,
		a.Img, a.Input, a.Keygen, a.Link, a.Meta, a.Param, a.Source, a.Track, a.Wbr}},
}

// kinds is every element's categories, built from lists.
var kinds = func() map[a.Atom]Kind {
	m := map[a.Atom]Kind{}
	Each(func(x a.Atom, k Kind) { m[x] |= k })
	return m
}()

// Each calls fn for every element in a category, once per category it is
// in (a stage builds its own lookup table from them).
func Each(fn func(a.Atom, Kind)) {
	for _, l := range lists {
		for _, x := range l.atoms {
			fn(x, l.kind)
		}
	}
}

// Of is an HTML element's categories (0 for an element in none, and for
// an unknown one).
func Of(tag a.Atom) Kind { return kinds[tag] }

// IsVoid reports whether an HTML element never has content (img, br, …).
func IsVoid(tag a.Atom) bool { return Of(tag)&Void != 0 }

// HiddenInput reports whether an input's type attribute makes it hidden
// (type=hidden, ASCII case-insensitive): it shows nothing, so it does not
// separate words as other inputs do.
func HiddenInput(typ []byte) bool {
	return len(typ) == 6 && strings.EqualFold(string(typ), "hidden")
}

// Classify says how an element affects the text: its layout boundary, and
// whether its content is hidden (never text).
func Classify(tag a.Atom, foreign bool) (layout filter.Layout, hidden bool) {
	if foreign {
		// SVG and MathML: text is text, except code. The drawing or
		// formula is a box of its own, as an img is, and so is a
		// foreignObject: they separate words.
		switch tag {
		case a.Svg, a.Math, a.ForeignObject:
			return filter.Cell, false
		}
		return filter.Inline, tag == a.Style || tag == a.Script
	}
	return ClassifyKind(Of(tag))
}

// ClassifyForeign is Classify for an SVG or MathML element, which also
// knows SVG's text element by name (it has no atom): each is a line of its
// own, placed apart from the others, so it separates words.
func ClassifyForeign(tag a.Atom, name string) (layout filter.Layout, hidden bool) {
	if tag == 0 && name == "text" {
		return filter.Cell, false
	}
	return Classify(tag, true)
}

// ClassifyKind is Classify for an HTML element whose categories a stage
// has looked up already (in a table of its own, built with Each).
func ClassifyKind(k Kind) (layout filter.Layout, hidden bool) {
	switch {
	case k&Block != 0:
		layout = filter.Block
	case k&Cell != 0:
		layout = filter.Cell
	}
	return layout, k&Hidden != 0
}
