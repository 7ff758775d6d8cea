package xmlstream

import (
	"errors"
	"fmt"

	"github.com/robofilter/robofilter/filter"
)

// Where an error is: a token cut at the limit, the position of a byte of
// the input, and the error that stops the document.

// notWellFormed is the error for XML that breaks a well-formedness rule
// between tokens (the scanner checks each token's own).
func notWellFormed(pos filter.Pos, format string, args ...any) error {
	return &filter.PosError{Pos: pos, Err: fmt.Errorf("%w: %s", ErrNotWellFormed, fmt.Sprintf(format, args...))}
}

// cutToken writes the character data of a text or CDATA token that fails
// on a well-formedness error, or where the input fails, up to that point,
// as the whole token would have been written: text, archive copy and link
// text, in the scopes open there. Nothing is closed: the error follows.
// It returns the position after what it wrote.
func (d *driver) cutToken() filter.Pos {
	end := d.scan.cutEnd
	if end <= d.tokStart {
		return d.pos
	}
	raw, text := d.src.rawSpan(d.tokStart, end), d.src.decSpan(d.tokStart, end)
	d.core.SetPos(d.pos)
	// Text outside the root element writes nothing and is an error of its
	// own; the scanner's is the one reported, as for any other token.
	_ = d.charData(d.scan.text, raw, text)
	return d.src.advance(d.pos, raw, text)
}

// stopAt ends what is open where err stands (not where the token it is
// in started: the last piece of a long text node, perhaps) and returns it.
func (d *driver) stopAt(err error) error {
	var pe *filter.PosError
	if errors.As(err, &pe) {
		d.core.SetPos(pe.Pos)
	}
	return err
}

func (d *driver) failure(err error) error {
	var se *scanError
	// A well-formedness error is in bytes read: it comes first also when
	// the read that brought them failed too (a reader may return bytes and
	// an error together), as when the failure comes with the next read.
	switch {
	case errors.Is(err, errTokenTooLong):
		return filter.LimitError(d.pos, filter.ErrTokenTooLong, d.maxToken)
	case errors.As(err, &se):
		return &filter.PosError{Pos: d.posAt(se.off), Err: se.wrapped()}
	case d.src.readErr:
		return &filter.PosError{Pos: d.pos, Err: err}
	}
	return &filter.PosError{Pos: d.pos, Err: fmt.Errorf("%w: %v", ErrNotWellFormed, err)}
}

// posAt is the position of a decoded offset inside the current token.
func (d *driver) posAt(off int64) filter.Pos {
	return d.src.advance(d.pos, d.src.rawSpan(d.tokStart, off), d.src.decSpan(d.tokStart, off))
}

// posWalk gives the positions of offsets in the current token one after
// the other, each from the one before: the positions of many references
// or PIs in one long token (entity warnings, the PIs of an internal
// subset) then cost the token's length once, where posAt costs the length
// up to each. An offset before the last one is given by posAt.
type posWalk struct {
	d        *driver
	started  bool  // off, raw and pos are set: at has been called
	off, raw int64 // the last offset given, decoded and original
	pos      filter.Pos
}

// walk starts a posWalk at the current token's start. It costs nothing
// until a position is asked for: most tokens have nothing to warn about.
func (d *driver) walk() *posWalk { return &posWalk{d: d} }

func (w *posWalk) at(off int64) filter.Pos {
	s := w.d.src
	if !w.started {
		w.started = true
		w.off, w.raw, w.pos = w.d.tokStart, s.rawAt(w.d.tokStart), w.d.pos
	}
	if off < w.off {
		return w.d.posAt(off)
	}
	r := s.rawFrom(w.off, w.raw, off)
	w.pos = s.advance(w.pos, s.rawBetween(w.off, w.raw, off, r), s.decSpan(w.off, off))
	w.off, w.raw = off, r
	return w.pos
}
