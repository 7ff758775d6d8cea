package filter

// The flat dialects: regions toggled by comments or tags in document
// order, crossing element boundaries (SPEC section 4), each with its own
// per-switch state in Core.
const (
	flatYandex    = iota // <noindex>, <!--noindex-->
	flatGoogleOff        // googleoff/googleon comments
	numFlatDialects
)

func (c *Core) flatOffAt(s *Scope) Switch {
	off := s.Off
	for i := 0; i < numSwitches; i++ {
		if c.flatTurnsOff(s, i) {
			off |= Switch(1) << i
		}
	}
	return off
}

// flatTurnsOff reports whether a flat span turns switch i off at a place
// in scope s: one that turns it off opened after the innermost element
// region that said something about it.
func (c *Core) flatTurnsOff(s *Scope, i int) bool {
	bit := Switch(1) << i
	return c.flatBy[flatYandex]&bit != 0 && c.flatSeq[flatYandex][i] > s.seq[i] ||
		c.flatBy[flatGoogleOff]&bit != 0 && c.flatSeq[flatGoogleOff][i] > s.seq[i]
}

// Toggle turns flat (document-order) region switches off or back on: the
// comment and tag dialects whose regions cross element boundaries. Each
// dialect keeps its own state, so a Yandex close never ends a googleoff.
func (c *Core) Toggle(d Dialects, marker string, off, on Switch) {
	if c.dialects&d == 0 {
		return
	}
	k := flatYandex
	if d == DialectGoogleOff {
		k = flatGoogleOff
	}
	before := c.flat
	st := &c.flatBy[k]
	if off != 0 {
		// Every switch the marker turns off opens now, also one whose
		// span was already open: an element region that opened since
		// (robots-index) is outside it then, and the span, as the
		// innermost region, decides again (SPEC 1.2).
		c.seq++
		for i := 0; i < numSwitches; i++ {
			if off&(1<<i) != 0 {
				c.flatSeq[k][i] = c.seq
			}
		}
	}
	if off&*st&NoIndex != 0 {
		c.heldText.brk(c) // a span opened again: its region record goes on
	}
	if opening := off &^ *st; opening != 0 {
		pos := c.position()
		r := &Region{Dialect: dialectName(d), Marker: marker, Off: opening, Line: pos.Line, Col: pos.Col, Offset: pos.Offset, start: pos}
		if c.out.Source != nil {
			c.sourceUpToHere()
			c.out.Source.StartRegion(*r)
		}
		for i := 0; i < numSwitches; i++ {
			if opening&(1<<i) != 0 {
				c.flatOpen[k][i] = r
			}
		}
	}
	if closing := on & *st; closing != 0 {
		// One record per region; a googleon that ends part of a region
		// reports that part and leaves the rest open.
		for i := 0; i < numSwitches; i++ {
			r := c.flatOpen[k][i]
			if r == nil || closing&(1<<i) == 0 {
				continue
			}
			part := r.Off & closing
			for j := 0; j < numSwitches; j++ {
				if part&(1<<j) != 0 {
					c.flatOpen[k][j] = nil
				}
			}
			if c.out.Region != nil {
				done := *r
				done.Off = part
				c.endRegion(&done)
			}
			r.Off &^= part
		}
	}
	*st = (*st | off) &^ on
	c.flat = c.flatBy[flatYandex] | c.flatBy[flatGoogleOff]
	for i := 0; i < numSwitches; i++ {
		c.flatWhy[i] = c.flatOpen[flatYandex][i]
		if c.flatWhy[i] == nil {
			c.flatWhy[i] = c.flatOpen[flatGoogleOff][i]
		}
	}
	if c.flat&NoIndex != 0 && before&NoIndex == 0 {
		c.heldText.brk(c)
	}
}

func dialectName(d Dialects) string {
	for _, n := range dialectNames {
		if n.d == d {
			return n.name
		}
	}
	return d.String()
}
