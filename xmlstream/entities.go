package xmlstream

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
)

// Entity references. No DTD is ever read; the scanner replaces each
// reference as it reads it:
//
//   - the five predefined entities and character references;
//   - entities declared in the internal subset get their replacement text,
//     its own references replaced in turn (an entity that refers to itself,
//     directly or not, is not well-formed), within a total expansion budget
//     per document: as text when it holds no markup (expand); in content,
//     when it does (hasMarkup), the scanner reads its tokens instead
//     (enter, leave; scanner.markupRef), and in an attribute value it is
//     not well-formed;
//   - any other name is not well-formed where XML 1.0's WFC "Entity
//     Declared" applies: in a document without a DTD, with only an
//     internal subset that holds no parameter entity reference, or with
//     standalone="yes". Elsewhere the external subset robofilter does not
//     read may declare it: it is reported where it is used (a warning with
//     its position, once per name) and is read as the HTML entity of that
//     name if there is one, or kept as written. An XHTML DOCTYPE declares
//     the HTML entities, so there they are not reported.
type entities struct {
	defs     map[string]*entityDef // the internal subset's entities
	xhtmlDTD bool
	// What decides whether an undeclared name is an error: the DOCTYPE
	// (none, or its external subset and parameter entity references) and
	// the XML declaration's standalone="yes".
	doctype, externalSubset, peRefs, standalone bool

	warned   map[string]bool
	notes    []entityNote // warnings about the current token's references
	expanded int          // bytes of replacement text expanded so far
	budget   int
	stack    []expansion
}

// entityDef is a general entity declared in the internal subset.
type entityDef struct {
	name     string
	value    string // the replacement text: character references replaced, entity references as written
	external bool   // SYSTEM or PUBLIC: never loaded
	unparsed bool   // external with NDATA: no reference may name it
	open     bool   // being expanded: a reference to it now is a recursion
	markup   markupState
	text     []byte // value, for the scanner to read as content (entities with markup)
}

// markupState says whether an entity's replacement text holds markup:
// found out on first use (entities.hasMarkup).
type markupState uint8

const (
	markupUnknown markupState = iota
	markupVisiting
	markupNo
	markupYes
)

// expansion is an entity whose replacement text is being read, and how far.
// An entity with markup (read by the scanner as content, one token at a
// time) stays on the stack while its tokens are read; the expansions of
// text go on top of it and are gone when the token that holds them is read.
type expansion struct {
	def    *entityDef
	i      int
	markup bool
}

// entityNote is a warning about a reference at a decoded offset.
type entityNote struct {
	off int64
	msg string
}

// MaxEntityExpansion is the expansion budget: the bytes of replacement text
// the references to a document's internal entities may expand to, nested
// ones included, in all (and at most Options.MaxTokenSize). Past it the
// document stops with ErrEntityExpansion, so that entities referring to
// each other many times over ("billion laughs") cost bounded time and
// memory.
const MaxEntityExpansion = 16 << 20

// ErrEntityExpansion is returned, wrapped in a *filter.PosError at the
// reference that would pass the expansion budget, when a document's
// entity references expand to more than MaxEntityExpansion bytes (or
// Options.MaxTokenSize, when it is smaller).
var ErrEntityExpansion = errors.New("entity references expand past the expansion budget")

// maxEntityName bounds how far a reference's name is looked for.
const maxEntityName = 256

// maxWarnedEntities bounds the names warned about.
const maxWarnedEntities = 1000

func newEntities(budget int) *entities {
	return &entities{defs: map[string]*entityDef{}, warned: map[string]bool{}, budget: min(budget, MaxEntityExpansion)}
}

// mustDeclare reports whether XML 1.0's WFC "Entity Declared" applies:
// then every entity referred to must be declared in the internal subset
// (the five predefined ones need not be).
func (e *entities) mustDeclare() bool {
	return e.standalone || !e.externalSubset && !e.peRefs
}

// undeclared returns the well-formedness error for a reference to name, an
// entity that is not predefined, when it is not declared and must be; or "".
func (e *entities) undeclared(name string) string {
	if _, ok := e.defs[name]; ok || !e.mustDeclare() {
		return ""
	}
	switch {
	case !e.doctype:
		return fmt.Sprintf("entity &%s; is not declared: the document has no DTD (only lt, gt, amp, apos and quot need no declaration)", name)
	case e.standalone && (e.externalSubset || e.peRefs):
		return fmt.Sprintf("entity &%s; is not declared in the internal subset, as a standalone document requires", name)
	}
	return fmt.Sprintf("entity &%s; is not declared: the internal subset does not declare it and there is no external DTD subset", name)
}

// undeclaredEntityValue is what an entity nobody declared reads as: the
// HTML entity of that name, or the reference as written.
func undeclaredEntityValue(name string) string {
	if v, ok := xml.HTMLEntity[name]; ok {
		return v
	}
	return "&" + name + ";"
}

// declare records the internal subset's entities; the first declaration of
// a name binds (XML 1.0 section 4.2).
func (e *entities) declare(dt *doctype) {
	e.xhtmlDTD = dt.xhtml()
	e.doctype, e.externalSubset, e.peRefs = true, dt.externalSubset, dt.peRefs
	for _, d := range dt.entities {
		if _, ok := e.defs[d.name]; ok {
			continue
		}
		if _, ok := predefinedEntity(d.name); ok {
			continue
		}
		e.defs[d.name] = &entityDef{name: d.name, value: d.value, external: d.external, unparsed: d.unparsed}
	}
}

// expand appends to out what the reference &name; (not a predefined
// entity) at decoded offset off reads as, white space read as spaces in an
// attribute value (XML 1.0 section 3.3.3). A declared internal entity
// gives its replacement text, read as text: its character references and
// predefined entities are replaced, and the references to other entities
// in turn, each charged to the expansion budget; an '&' that starts no
// reference is not well-formed. In content it reads only entities without
// markup (the scanner reads the others as content); in an attribute value
// a '<' of a replacement text is an error. An external entity, or an
// undeclared one where that is allowed, is noted for a warning and read as
// the HTML entity of that name or kept as written. The error, at off, is
// a *scanError (a limit one past the budget).
func (e *entities) expand(out []byte, name []byte, inAttr bool, off int64) ([]byte, error) {
	def, ok := e.defs[string(name)]
	if !ok || def.external {
		return e.notExpanded(out, string(name), def, inAttr, off, "")
	}
	mark := len(e.stack) // the entities with markup being read stay open
	if err := e.push(def, off); err != nil {
		return out, err
	}
	defer e.reset(mark)
	for len(e.stack) > mark {
		top := &e.stack[len(e.stack)-1]
		v := top.def.value
		if top.i == len(v) {
			top.def.open = false
			e.stack = e.stack[:len(e.stack)-1]
			continue
		}
		k := strings.IndexByte(v[top.i:], '&')
		if k < 0 {
			k = len(v) - top.i
		}
		if inAttr && strings.IndexByte(v[top.i:top.i+k], '<') >= 0 {
			return out, &scanError{off: off, msg: fmt.Sprintf("the replacement text of &%s; holds a '<', which an attribute value may not (WFC No < in Attribute Values)", top.def.name)}
		}
		out = appendText(out, v[top.i:top.i+k], inAttr)
		top.i += k
		if top.i == len(v) {
			continue
		}
		ref, n := refAt(v[top.i:])
		if n == 0 {
			// A character reference in the declaration gave it ("&#38;"):
			// the replacement text is read as the document would be, where
			// it is not well-formed, as the scanner finds in an entity with
			// markup (XML 1.0 appendix D: a literal & is declared "&#38;#38;").
			return out, &scanError{off: off, msg: fmt.Sprintf("an & that starts no entity or character reference, in the replacement text of &%s; (a literal & is declared &#38;#38;)", top.def.name)}
		}
		top.i += n
		in := top.def.name
		if ref[0] == '#' {
			r, ok := charRefDigits([]byte(ref[1:]))
			if !ok || !isXMLChar(r) {
				return out, &scanError{off: off, msg: fmt.Sprintf("&%s; is not a legal character reference (in the replacement text of &%s;)", ref, in)}
			}
			out = utf8.AppendRune(out, r)
			continue
		}
		if v, ok := predefinedEntity(ref); ok {
			out = append(out, v...)
			continue
		}
		d, ok := e.defs[ref]
		if !ok || d.external {
			var err error
			if out, err = e.notExpanded(out, ref, d, inAttr, off, in); err != nil {
				return out, err
			}
			continue
		}
		if err := e.push(d, off); err != nil {
			return out, err
		}
	}
	return out, nil
}

// push starts reading a declared internal entity's replacement text as
// text, charging it to the budget, unless it is being read already.
func (e *entities) push(def *entityDef, off int64) error {
	if def.open {
		var chain []string
		from := 0
		for i, x := range e.stack {
			if x.def == def {
				from = i
			}
		}
		for _, x := range e.stack[from:] {
			chain = append(chain, "&"+x.def.name+";")
		}
		if len(chain) > 8 {
			chain = append(append(chain[:4:4], "…"), chain[len(chain)-3:]...)
		}
		chain = append(chain, "&"+def.name+";")
		return &scanError{off: off, msg: fmt.Sprintf("entity &%s; refers to itself (%s)", def.name, strings.Join(chain, " → "))}
	}
	if e.expanded+len(def.value) > e.budget {
		return &scanError{off: off, limit: e.budget, msg: fmt.Sprintf("expanding &%s;", e.stack0(def).name)}
	}
	e.expanded += len(def.value)
	def.open = true
	e.stack = append(e.stack, expansion{def: def})
	return nil
}

// stack0 is the entity referred to in the document: the bottom of the
// stack, or def when the stack is empty.
func (e *entities) stack0(def *entityDef) *entityDef {
	if len(e.stack) > 0 {
		return e.stack[0].def
	}
	return def
}

// reset ends an expansion as text, finished or failed: the entities above
// mark (those with markup being read as content stay).
func (e *entities) reset(mark int) {
	for _, x := range e.stack[mark:] {
		x.def.open = false
	}
	e.stack = e.stack[:mark]
}

// enter starts reading an entity with markup as content (the scanner reads
// its tokens), charging its replacement text to the budget, unless it is
// being read already; leave ends it.
func (e *entities) enter(def *entityDef, off int64) error {
	if err := e.push(def, off); err != nil {
		return err
	}
	e.stack[len(e.stack)-1].markup = true
	if def.text == nil {
		def.text = []byte(def.value)
	}
	return nil
}

func (e *entities) leave() {
	n := len(e.stack) - 1
	e.stack[n].def.open = false
	e.stack = e.stack[:n]
}

// markupEntity returns the declared internal entity named name if its
// replacement text holds markup (hasMarkup), or nil.
func (e *entities) markupEntity(name []byte) *entityDef {
	def, ok := e.defs[string(name)]
	if !ok || def.external || !e.hasMarkup(def) {
		return nil
	}
	return def
}

// hasMarkup reports whether an internal entity's replacement text holds
// markup: a '<', in it or in the replacement text of an entity it refers
// to, in turn. A reference to it in content is then read as content, its
// tokens as the document's (XML 1.0 section 4.4.2, "Included"); one to an
// entity without markup is read as text (expand). Each entity's text is
// looked through once, with a stack of its own (not the goroutine's): a
// chain of references is as long as the internal subset allows. In a cycle
// of references the search stops where it started: an entity in a cycle
// may be said to hold no markup, but any use of it is a recursion, an
// error either way.
func (e *entities) hasMarkup(def *entityDef) bool {
	if def.markup == markupUnknown {
		e.findMarkup(def)
	}
	return def.markup == markupYes
}

func (e *entities) findMarkup(root *entityDef) {
	type visit struct {
		def *entityDef
		i   int
		yes bool
	}
	root.markup = markupVisiting
	stack := []visit{{def: root, yes: strings.IndexByte(root.value, '<') >= 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		var next *entityDef
		for v := top.def.value; !top.yes && next == nil && top.i < len(v); {
			k := strings.IndexByte(v[top.i:], '&')
			if k < 0 {
				top.i = len(v)
				break
			}
			top.i += k
			ref, n := refAt(v[top.i:])
			if n == 0 {
				top.i++
				continue
			}
			top.i += n
			d, ok := e.defs[ref]
			switch {
			case !ok || d.external:
			case d.markup == markupYes:
				top.yes = true
			case d.markup == markupUnknown:
				next = d
			}
		}
		if next != nil {
			next.markup = markupVisiting
			stack = append(stack, visit{def: next, yes: strings.IndexByte(next.value, '<') >= 0})
			continue
		}
		yes := top.yes
		top.def.markup = markupNo
		if yes {
			top.def.markup = markupYes
		}
		stack = stack[:len(stack)-1]
		if yes && len(stack) > 0 {
			stack[len(stack)-1].yes = true
		}
	}
}

// notExpanded appends what a reference to an external entity (def), or to
// one nobody declared (def nil), reads as, and notes it for a warning; an
// undeclared one is an error where XML requires the declaration. in names
// the entity whose replacement text holds the reference ("": the
// document).
func (e *entities) notExpanded(out []byte, name string, def *entityDef, inAttr bool, off int64, in string) ([]byte, error) {
	where := func() string {
		if in == "" {
			return ""
		}
		return fmt.Sprintf(" (in the replacement text of &%s;)", in)
	}
	switch {
	case def == nil:
		if msg := e.undeclared(name); msg != "" {
			return out, &scanError{off: off, msg: msg + where()}
		}
	case def.unparsed:
		return out, &scanError{off: off, msg: fmt.Sprintf("&%s;%s names an unparsed (NDATA) entity, which no reference may (WFC Parsed Entity)", clipRunes(name, 80), where())}
	case inAttr:
		return out, &scanError{off: off, msg: fmt.Sprintf("&%s;%s in an attribute value names an external entity (WFC No External Entity References)", clipRunes(name, 80), where())}
	}
	v, html := xml.HTMLEntity[name]
	switch {
	case !e.noting(name):
	case def != nil:
		e.note(off, name, fmt.Sprintf("entity &%s;%s is external: it is never loaded, and is kept as written", clipRunes(name, 80), where()))
	case html && e.xhtmlDTD:
		// The XHTML DTD declares it.
	case html:
		e.note(off, name, fmt.Sprintf("entity &%s;%s is not declared (no DTD is read): it is read as the HTML entity %q", clipRunes(name, 80), where(), v))
	default:
		e.note(off, name, fmt.Sprintf("entity &%s;%s is not declared (no DTD is read): it is kept as written", clipRunes(name, 80), where()))
	}
	if def == nil && html {
		return appendText(out, v, inAttr), nil
	}
	return append(append(append(out, '&'), name...), ';'), nil
}

// noting reports whether the use of an entity name is to be noted: the
// first, of a bounded number of names.
func (e *entities) noting(name string) bool {
	return !e.warned[warnedKey(name)] && len(e.warned) < maxWarnedEntities
}

// warnedKey is what the names warned about (entities, namespace prefixes)
// are kept as: names as long as a
// token cut to their first 256 bytes, so that what is kept does not grow
// with the document (1,000 names of 16 MiB each).
func warnedKey(name string) string {
	if len(name) > 256 {
		return name[:256]
	}
	return name
}

// note keeps a warning about the first use of an entity name (noting), to
// be given with the token that holds it (flush).
func (e *entities) note(off int64, name, msg string) {
	e.warned[warnedKey(name)] = true
	e.notes = append(e.notes, entityNote{off: off, msg: msg + "; later uses are not reported"})
}

// flush gives the warnings noted in the current token before decoded
// offset end; posAt gives the position of an offset in it.
func (e *entities) flush(core *filter.Core, end int64, posAt func(off int64) filter.Pos) {
	for _, n := range e.notes {
		if n.off < end {
			core.Warn(posAt(n.off), "%s", n.msg)
		}
	}
	e.notes = e.notes[:0]
}

// appendText appends text, white space read as spaces in an attribute
// value.
func appendText(out []byte, s string, inAttr bool) []byte {
	if inAttr {
		return appendNormalized(out, s)
	}
	return append(out, s...)
}

// refAt reads the reference at the start of s ('&'): its name, or '#' and
// the digits of a character reference, and its length; n is 0 when no
// reference starts there.
func refAt(s string) (ref string, n int) {
	k := 1
	for k < len(s) && k <= maxEntityName && s[k] != ';' && !endsRefName(s[k]) {
		k++
	}
	if k >= len(s) || s[k] != ';' || k == 1 {
		return "", 0
	}
	ref = s[1:k]
	if ref[0] != '#' && !isXMLName([]byte(ref)) {
		return "", 0
	}
	return ref, k + 1
}

func endsRefName(c byte) bool {
	switch c {
	case ';', '<', '>', '&', '"', '\'', '=', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
