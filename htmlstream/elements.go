package htmlstream

import (
	"strings"

	"github.com/robofilter/robofilter/elements"
	a "golang.org/x/net/html/atom"
)

// Namespaces of elements (HTML, or foreign content).
const (
	nsHTML uint8 = iota
	nsSVG
	nsMath
)

// Element categories, looked up once per element in atomFlags.
// The low bits are the shared vocabulary's (elements.Kind); the others are
// the tree builder's own.
const (
	flagBlock  = uint16(elements.Block)
	flagCell   = uint16(elements.Cell)
	flagHidden = uint16(elements.Hidden)
	flagVoid   = uint16(elements.Void)
	kindMask   = flagBlock | flagCell | flagHidden | flagVoid
)

const (
	flagSpecial uint16 = 0x10 << iota
	flagFormatting
	flagBreakout
)

// atomFlags holds every category of every known element, so the builder
// looks an element up once instead of once per category. It is read on
// every element: an open-addressing table with a multiplicative hash,
// cheaper than a Go map for these 150-odd small keys.
var atomFlags = newAtomTable(atomFlagsMap())

type atomSlot struct {
	key   a.Atom
	flags uint16
	track uint8 // slot in the builder's openCount (scopeTracked)
}

// atomTable maps atoms to flags and scope-tracking slots; zero for atoms
// not in it.
type atomTable [1024]atomSlot

func atomHash(x a.Atom) uint32 { return uint32(x) * 2654435761 >> 22 }

func newAtomTable(m map[a.Atom]uint16) *atomTable {
	t := new(atomTable)
	track := map[a.Atom]uint8{}
	for i, x := range scopeTracked {
		track[x] = uint8(i + 1)
	}
	add := func(x a.Atom) {
		i := atomHash(x)
		for t[i].key != 0 {
			if t[i].key == x {
				return
			}
			i = (i + 1) & 1023
		}
		t[i] = atomSlot{x, m[x], track[x]}
	}
	for x := range m {
		add(x)
	}
	for x := range track {
		add(x) // a tracked atom has a slot even without flags
	}
	return t
}

// lookup is x's slot (zero if x is not in the table).
func (t *atomTable) lookup(x a.Atom) atomSlot {
	for i := atomHash(x); ; i = (i + 1) & 1023 {
		switch t[i].key {
		case x:
			return t[i]
		case 0:
			return atomSlot{}
		}
	}
}

// get is the flags of x.
func (t *atomTable) get(x a.Atom) uint16 { return t.lookup(x).flags }

func atomFlagsMap() map[a.Atom]uint16 {
	m := map[a.Atom]uint16{}
	elements.Each(func(x a.Atom, k elements.Kind) { m[x] |= uint16(k) })
	for _, set := range []struct {
		atoms map[a.Atom]bool
		flag  uint16
	}{
		{specialElements, flagSpecial}, {formattingElements, flagFormatting}, {breakoutElements, flagBreakout},
	} {
		for x := range set.atoms {
			m[x] |= set.flag
		}
	}
	return m
}

func atomSet(atoms ...a.Atom) map[a.Atom]bool {
	m := make(map[a.Atom]bool, len(atoms))
	for _, x := range atoms {
		m[x] = true
	}
	return m
}

// specialElements is the HTML parser's "special" category (HTML namespace).
var specialElements = atomSet(a.Address, a.Applet, a.Area, a.Article, a.Aside, a.Base, a.Basefont,
	a.Bgsound, a.Blockquote, a.Body, a.Br, a.Button, a.Caption, a.Center, a.Col, a.Colgroup, a.Dd,
	a.Details, a.Dir, a.Div, a.Dl, a.Dt, a.Embed, a.Fieldset, a.Figcaption, a.Figure, a.Footer, a.Form,
	a.Frame, a.Frameset, a.H1, a.H2, a.H3, a.H4, a.H5, a.H6, a.Head, a.Header, a.Hgroup, a.Hr, a.Html,
	a.Iframe, a.Img, a.Input, a.Keygen, a.Li, a.Link, a.Listing, a.Main, a.Marquee, a.Menu, a.Meta,
	a.Nav, a.Noembed, a.Noframes, a.Noscript, a.Object, a.Ol, a.P, a.Param, a.Plaintext, a.Pre,
	a.Script, a.Section, a.Select, a.Source, a.Style, a.Summary, a.Table, a.Tbody, a.Td, a.Template,
	a.Textarea, a.Tfoot, a.Th, a.Thead, a.Title, a.Tr, a.Track, a.Ul, a.Wbr, a.Xmp)

func (n *node) isSpecial() bool {
	if n.ns == nsHTML {
		return n.flags&flagSpecial != 0
	}
	return n.isForeignBoundary()
}

// isForeignBoundary: the MathML and SVG elements that are both "special"
// and scope boundaries (text integration points and the like).
func (n *node) isForeignBoundary() bool {
	switch n.ns {
	case nsMath:
		switch n.atom {
		case a.Mi, a.Mo, a.Mn, a.Ms, a.Mtext, a.AnnotationXml:
			return true
		}
	case nsSVG:
		switch n.atom {
		case a.ForeignObject, a.Desc, a.Title:
			return true
		}
	}
	return false
}

// formattingElements are the ones the parser reconstructs and adopts.
var formattingElements = atomSet(a.A, a.B, a.Big, a.Code, a.Em, a.Font, a.I, a.Nobr, a.S, a.Small,
	a.Strike, a.Strong, a.Tt, a.U)

// breakoutElements leave foreign content (HTML's "breakout" list).
var breakoutElements = atomSet(a.B, a.Big, a.Blockquote, a.Body, a.Br, a.Center, a.Code, a.Dd, a.Div,
	a.Dl, a.Dt, a.Em, a.Embed, a.H1, a.H2, a.H3, a.H4, a.H5, a.H6, a.Head, a.Hr, a.I, a.Img, a.Li,
	a.Listing, a.Menu, a.Meta, a.Nobr, a.Ol, a.P, a.Pre, a.Ruby, a.S, a.Small, a.Span, a.Strong,
	a.Strike, a.Sub, a.Sup, a.Table, a.Tt, a.U, a.Ul, a.Var)

// quirksMode reports whether a DOCTYPE token's text puts the document in
// quirks mode (WHATWG "initial" insertion mode; only <table> closing an
// open <p> depends on it here).
func quirksMode(doctype string) bool {
	const ws = " \t\r\n\f"
	s := doctype
	space := strings.IndexAny(s, ws)
	if space == -1 {
		space = len(s)
	}
	quirks := s[:space] != "html"
	s = strings.TrimLeft(s[space:], ws)
	if len(s) < 6 {
		return quirks || s != ""
	}
	key := strings.ToLower(s[:6])
	s = s[6:]
	var ids [][2]string
	for key == "public" || key == "system" {
		s = strings.TrimLeft(s, ws)
		if s == "" {
			break
		}
		quote := s[0]
		if quote != '"' && quote != '\'' {
			break
		}
		s = s[1:]
		var id string
		if q := strings.IndexByte(s, quote); q == -1 {
			id, s = s, ""
		} else {
			id, s = s[:q], s[q+1:]
		}
		ids = append(ids, [2]string{key, id})
		if key == "public" {
			key = "system"
		} else {
			key = ""
		}
	}
	if key != "" || s != "" {
		return true
	}
	if len(ids) == 0 {
		return quirks
	}
	if ids[0][0] == "public" {
		public := strings.ToLower(ids[0][1])
		switch public {
		case "-//w3o//dtd w3 html strict 3.0//en//", "-/w3d/dtd html 4.0 transitional/en", "html":
			quirks = true
		default:
			for _, q := range quirkyPublicIDs {
				if strings.HasPrefix(public, q) {
					quirks = true
					break
				}
			}
		}
		if len(ids) == 1 && (strings.HasPrefix(public, "-//w3c//dtd html 4.01 frameset//") ||
			strings.HasPrefix(public, "-//w3c//dtd html 4.01 transitional//")) {
			quirks = true
		}
	}
	if last := ids[len(ids)-1]; last[0] == "system" &&
		strings.EqualFold(last[1], "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd") {
		quirks = true
	}
	return quirks
}

// quirkyPublicIDs: the WHATWG list of public identifier prefixes that set
// quirks mode.
var quirkyPublicIDs = []string{
	"+//silmaril//dtd html pro v0r11 19970101//",
	"-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
	"-//as//dtd html 3.0 aswedit + extensions//",
	"-//ietf//dtd html 2.0 level 1//",
	"-//ietf//dtd html 2.0 level 2//",
	"-//ietf//dtd html 2.0 strict level 1//",
	"-//ietf//dtd html 2.0 strict level 2//",
	"-//ietf//dtd html 2.0 strict//",
	"-//ietf//dtd html 2.0//",
	"-//ietf//dtd html 2.1e//",
	"-//ietf//dtd html 3.0//",
	"-//ietf//dtd html 3.2 final//",
	"-//ietf//dtd html 3.2//",
	"-//ietf//dtd html 3//",
	"-//ietf//dtd html level 0//",
	"-//ietf//dtd html level 1//",
	"-//ietf//dtd html level 2//",
	"-//ietf//dtd html level 3//",
	"-//ietf//dtd html strict level 0//",
	"-//ietf//dtd html strict level 1//",
	"-//ietf//dtd html strict level 2//",
	"-//ietf//dtd html strict level 3//",
	"-//ietf//dtd html strict//",
	"-//ietf//dtd html//",
	"-//metrius//dtd metrius presentational//",
	"-//microsoft//dtd internet explorer 2.0 html strict//",
	"-//microsoft//dtd internet explorer 2.0 html//",
	"-//microsoft//dtd internet explorer 2.0 tables//",
	"-//microsoft//dtd internet explorer 3.0 html strict//",
	"-//microsoft//dtd internet explorer 3.0 html//",
	"-//microsoft//dtd internet explorer 3.0 tables//",
	"-//netscape comm. corp.//dtd html//",
	"-//netscape comm. corp.//dtd strict html//",
	"-//o'reilly and associates//dtd html 2.0//",
	"-//o'reilly and associates//dtd html extended 1.0//",
	"-//o'reilly and associates//dtd html extended relaxed 1.0//",
	"-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
	"-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
	"-//spyglass//dtd html 2.0 extended//",
	"-//sq//dtd html 2.0 hotmetal + extensions//",
	"-//sun microsystems corp.//dtd hotjava html//",
	"-//sun microsystems corp.//dtd hotjava strict html//",
	"-//w3c//dtd html 3 1995-03-24//",
	"-//w3c//dtd html 3.2 draft//",
	"-//w3c//dtd html 3.2 final//",
	"-//w3c//dtd html 3.2//",
	"-//w3c//dtd html 3.2s draft//",
	"-//w3c//dtd html 4.0 frameset//",
	"-//w3c//dtd html 4.0 transitional//",
	"-//w3c//dtd html experimental 19960712//",
	"-//w3c//dtd html experimental 970421//",
	"-//w3c//dtd w3 html//",
	"-//w3o//dtd w3 html 3.0//",
	"-//webtechs//dtd mozilla html 2.0//",
	"-//webtechs//dtd mozilla html//",
}
