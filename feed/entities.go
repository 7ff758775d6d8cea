package feed

import (
	"fmt"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// Entities, read as the XML stage reads them (xmlstream.Entities), through
// encoding/xml's Entity map, which holds the text a reference reads as,
// inserted as text. feedReader sees every reference in text and attribute
// values before the decoder reads it, gives the map what the reference
// reads as, or stops the decoder with the XML stage's error, at the
// reference:
//
//   - a declared internal entity reads as its replacement text, the
//     references in it read in turn, every use charged to the document's
//     expansion budget (the XML stage's: xmlstream.MaxEntityExpansion and
//     the token size limit); an entity that refers to itself is an error;
//   - one whose replacement text holds markup ('<', in it or in an entity
//     it refers to) the XML stage reads in content as content (XML 1.0
//     section 4.4.2), which the map cannot give: its text would be read as
//     text, tags and all, and a robots region in it would not count. It
//     reads as nothing, with a warning in the entry that holds it
//     (feedReader.note); its use is checked and charged as the XML stage
//     does. In an attribute value it is not well-formed;
//   - an external entity reads as the reference as written;
//   - one nobody declared is an error where XML's WFC "Entity Declared"
//     applies (no DTD; only an internal subset, without parameter entity
//     references; standalone="yes"), else reads as the HTML entity of that
//     name or as written.
type feedEntities struct {
	x *xmlstream.Entities
	m map[string]string // the decoder's Entity map
	// last: where the last reference to each name in m ends, so that
	// names the decoder has read can leave m.
	last map[string]int64
}

// maxMapEntities bounds the names the map holds: past it, those the decoder
// has read leave it.
const maxMapEntities = 4096

func newFeedEntities(budget int) *feedEntities {
	return &feedEntities{x: xmlstream.NewEntities(budget), m: map[string]string{}, last: map[string]int64{}}
}

// reference handles a reference to name (long: the name was clipped), in
// an attribute value or not, whose ';' is at decoded offset end; handed is
// what the feed reader handed out before the current chunk. markup reports
// an entity with markup, which reads as nothing.
func (e *feedEntities) reference(name string, long, inAttr bool, end, handed int64) (markup bool, err error) {
	text, markup, err := e.x.Expand(name, inAttr)
	if err != nil {
		return false, err
	}
	if long {
		// Longer than any name the map learns: the decoder would not find it.
		return false, fmt.Errorf("%w: entity &%s; is not declared, and its name is longer than %d bytes", xmlstream.ErrNotWellFormed, name, feedNameMax)
	}
	if markup {
		text = ""
	}
	if _, ok := e.m[name]; !ok {
		if len(e.last) >= maxMapEntities {
			// The decoder has read every reference before what its
			// buffer may hold: those names can go.
			for n, last := range e.last {
				if last < handed-feedBufSize {
					delete(e.last, n)
					delete(e.m, n)
				}
			}
		}
		e.m[name] = text
	}
	e.last[name] = end
	return markup, nil
}

// feedNote is a reference to an entity with markup, which read as nothing:
// a warning for the entry that holds it.
type feedNote struct {
	off  int64      // decoded offset of the '&'
	pos  filter.Pos // its position (Line 0: not known yet)
	name string
}

// note keeps a warning about the reference to an entity with markup at
// decoded offset off. A entry needs one per name; but where a entry ends
// is known only when the parser returns it, at most feedBufSize behind what
// the feed reader handed out. So of the notes before that point only the
// first of each name is kept (they all go to the next entry); the later
// ones are kept all.
func (f *feedReader) note(off int64, name string) {
	f.notes = append(f.notes, feedNote{off: off, name: name})
	if len(f.notes) <= f.notesMax {
		return
	}
	sure := f.off - feedBufSize // every entry still to come ends after it
	seen := map[string]bool{}
	kept := f.notes[:0]
	for _, n := range f.notes {
		if n.off < sure {
			if seen[n.name] {
				continue
			}
			seen[n.name] = true
		}
		kept = append(kept, n)
	}
	f.notes = kept
	f.notesMax = 2*len(kept) + 64
}

// placeNotes gives the notes of the bytes just handed out their position.
func (f *feedReader) placeNotes() {
	for i := len(f.notes) - 1; i >= 0 && f.notes[i].pos.Line == 0; i-- {
		f.notes[i].pos = f.win.at(f.notes[i].off)
	}
}

// takeNotes returns the warnings of the entry whose end the decoder read
// before decoded offset stop: one per name, for the references before stop
// (since the previous entry); the later ones stay.
func (f *feedReader) takeNotes(stop int64) []filter.Warning {
	if len(f.notes) == 0 {
		return nil
	}
	var warns []filter.Warning
	seen := map[string]bool{}
	rest := f.notes[:0]
	for _, n := range f.notes {
		switch {
		case n.off >= stop:
			rest = append(rest, n)
		case !seen[n.name]:
			seen[n.name] = true
			warns = append(warns, filter.Warning{Pos: n.pos, Line: n.pos.Line, Col: n.pos.Col,
				Message: fmt.Sprintf("entity &%s; holds markup, which entries mode does not read inside entities: the reference reads as nothing (the XML stage, without --entries, reads it as content)", n.name)})
		}
	}
	f.notes = rest
	return warns
}
