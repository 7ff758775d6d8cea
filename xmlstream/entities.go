package xmlstream

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"

	"github.com/robofilter/robofilter/filter"
)

// Entity references. No DTD is ever read; the scanner replaces each
// reference as it reads it:
//
//   - the five predefined entities and character references;
//   - entities declared in the internal subset get their replacement text,
//     as text, never parsed as markup, never expanded recursively, within a
//     total expansion budget;
//   - any other name is not well-formed where XML 1.0's WFC "Entity
//     Declared" applies: in a document without a DTD, with only an
//     internal subset that holds no parameter entity reference, or with
//     standalone="yes". Elsewhere the external subset robofilter does not
//     read may declare it: it is reported where it is used (a warning with
//     its position, once per name) and is read as the HTML entity of that
//     name if there is one, or kept as written. An XHTML DOCTYPE declares
//     the HTML entities, so there they are not reported.
type entities struct {
	m        map[string]string // internal-subset entities: replacement text
	declared map[string]int    // internal-subset entities: replacement length (-1: external)
	xhtmlDTD bool
	// What decides whether an undeclared name is an error: the DOCTYPE
	// (none, or its external subset and parameter entity references) and
	// the XML declaration's standalone="yes".
	doctype, externalSubset, peRefs, standalone bool

	warned     map[string]bool
	expanded   int // bytes of replacement text of declared entities seen so far
	budget     int
	budgetHit  bool
	budgetWarn bool
}

// maxEntityNames bounds the names EntityFiller's map learns; past it an
// unknown entity is left to the decoder, which reports it as an error.
const maxEntityNames = 4096

// maxEntityName bounds how far EntityFiller looks for the end of a
// reference's name.
const maxEntityName = 256

// maxWarnedEntities bounds the names warned about.
const maxWarnedEntities = 1000

func newEntities(budget int) *entities {
	return &entities{m: map[string]string{}, declared: map[string]int{}, warned: map[string]bool{}, budget: budget}
}

// replacement is what the reference &name; (not a predefined entity) reads
// as: a declared entity's replacement text, as text, while the expansion
// budget lasts, and nothing once it is spent; or, with asWritten, the
// reference itself (an external entity, an unknown name without an HTML
// meaning); or the HTML entity of that name.
func (e *entities) replacement(name []byte) (value string, asWritten bool) {
	if n, ok := e.declared[string(name)]; ok {
		switch {
		case n < 0:
			return "", true
		case e.budgetHit:
			return "", false
		case e.expanded+n > e.budget:
			e.budgetHit = true
			return "", false
		}
		e.expanded += n
		return e.m[string(name)], false
	}
	if v, ok := xml.HTMLEntity[string(name)]; ok {
		return v, false
	}
	return "", true
}

// mustDeclare reports whether XML 1.0's WFC "Entity Declared" applies:
// then every entity referred to must be declared in the internal subset
// (the five predefined ones need not be).
func (e *entities) mustDeclare() bool {
	return e.standalone || !e.externalSubset && !e.peRefs
}

// undeclared returns the well-formedness error for a reference to name, an
// entity that is not predefined, when it is not declared and must be; or "".
func (e *entities) undeclared(name []byte) string {
	if _, ok := e.declared[string(name)]; ok || !e.mustDeclare() {
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

// EntityFiller passes a UTF-8 document through and, before a parser reads
// an entity reference other than the five predefined ones, adds the entity
// to m, when m has no value for it, with the value Run gives an undeclared
// entity where an external DTD subset may declare it (the HTML entity of
// that name, or the reference as written). A strict encoding/xml decoder
// whose Entity map is m then reads undeclared entities so instead of
// failing. EntityFiller reads no DTD: it does this in every document, also
// where Run reports an undeclared entity as not well-formed (no DTD, or
// standalone="yes"). m learns at most 4096 names.
func EntityFiller(r io.Reader, m map[string]string) io.Reader {
	return &entityFiller{r: r, m: m}
}

type entityFiller struct {
	r     io.Reader
	m     map[string]string
	buf   []byte
	start int // next byte to hand out
	hold  int // bytes scanned: buf[start:hold] may be handed out
	eof   bool
	err   error
	zero  int // reads in a row that returned nothing
}

func (f *entityFiller) Read(p []byte) (int, error) {
	for f.start >= f.hold {
		if f.err != nil {
			return 0, f.err
		}
		if f.eof {
			f.err = io.EOF
			continue
		}
		if f.start > 0 {
			n := copy(f.buf, f.buf[f.start:])
			f.buf, f.hold, f.start = f.buf[:n], f.hold-f.start, 0
		}
		if cap(f.buf)-len(f.buf) < 4096 {
			f.buf = append(make([]byte, 0, 2*cap(f.buf)+4096), f.buf...)
		}
		n, err := f.r.Read(f.buf[len(f.buf):cap(f.buf)])
		f.buf = f.buf[:len(f.buf)+n]
		switch {
		case err == io.EOF:
			f.eof = true
		case err != nil:
			f.err = err
		case n == 0:
			if f.zero++; f.zero > 100 {
				f.err = io.ErrNoProgress
			}
		default:
			f.zero = 0
		}
		f.hold, _ = scanEntityRefs(f.buf, f.hold, f.eof || f.err != nil, f.saw)
	}
	n := copy(p, f.buf[f.start:f.hold])
	f.start += n
	return n, nil
}

func (f *entityFiller) saw(name []byte) bool {
	if _, ok := predefinedEntity(string(name)); ok {
		return false
	}
	if _, ok := f.m[string(name)]; ok || len(f.m) >= maxEntityNames {
		return false
	}
	f.m[string(name)] = undeclaredEntityValue(string(name))
	return false
}

// declare records the internal subset's entities; the first declaration of
// a name binds (XML 1.0 section 4.2).
func (e *entities) declare(dt *doctype) {
	e.xhtmlDTD = dt.xhtml()
	e.doctype, e.externalSubset, e.peRefs = true, dt.externalSubset, dt.peRefs
	for _, d := range dt.entities {
		if _, ok := e.declared[d.name]; ok {
			continue
		}
		if _, ok := predefinedEntity(d.name); ok {
			continue
		}
		if d.external {
			e.declared[d.name] = -1
			continue
		}
		e.declared[d.name] = len(d.value)
		e.m[d.name] = d.value
	}
}

// check reports the undeclared references in decoded markup or text that
// the decoder has just read; posAt gives the position of an offset in it.
func (e *entities) check(core *filter.Core, text []byte, posAt func(off int) filter.Pos) {
	if e.budgetHit && !e.budgetWarn {
		e.budgetWarn = true
		core.Warn(posAt(0), "entity expansion passed %d bytes: from here on, references to declared entities expand to nothing", e.budget)
	}
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '&')
		if j < 0 {
			return
		}
		i += j
		k := bytes.IndexByte(text[i:], ';')
		if k < 0 {
			return
		}
		name := text[i+1 : i+k]
		at := i
		i += k + 1
		if len(name) == 0 || name[0] == '#' {
			continue
		}
		if _, ok := predefinedEntity(string(name)); ok {
			continue
		}
		n, declared := e.declared[string(name)]
		if declared && n >= 0 || e.warned[string(name)] || len(e.warned) >= maxWarnedEntities {
			continue
		}
		v, html := xml.HTMLEntity[string(name)]
		if html && e.xhtmlDTD && !declared {
			continue
		}
		e.warned[string(name)] = true
		var msg string
		switch {
		case declared:
			msg = fmt.Sprintf("entity &%s; is external: it is never loaded, and is kept as written", name)
		case html:
			msg = fmt.Sprintf("entity &%s; is not declared (no DTD is read): it is read as the HTML entity %q", name, v)
		default:
			msg = fmt.Sprintf("entity &%s; is not declared (no DTD is read): it is kept as written", name)
		}
		core.Warn(posAt(at), "%s; later uses are not reported", msg)
	}
}

// scanEntityRefs calls saw with the name of every entity reference (not a
// character reference) in b[from:]. It returns len(b); or the offset of an
// '&' whose name may continue past the end of b (unless final); or, with
// stopped set, that of a reference saw asked to stop at.
func scanEntityRefs(b []byte, from int, final bool, saw func(name []byte) bool) (int, bool) {
	i := from
	for {
		j := bytes.IndexByte(b[i:], '&')
		if j < 0 {
			return len(b), false
		}
		i += j
		k := i + 1
		for k < len(b) && k-i <= maxEntityName && !endsRefName(b[k]) {
			k++
		}
		switch {
		case k < len(b) && b[k] == ';':
			if k > i+1 && b[i+1] != '#' && saw != nil && saw(b[i+1:k]) {
				return i, true
			}
			i = k + 1
		case k == len(b) && k-i <= maxEntityName && !final:
			return i, false
		default:
			i++ // not a reference: the decoder reports it
		}
	}
}

func endsRefName(c byte) bool {
	switch c {
	case ';', '<', '>', '&', '"', '\'', '=', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
