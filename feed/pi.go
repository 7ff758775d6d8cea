package feed

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// Robots PIs in entries mode. The feed reader sees every PI where the XML
// stage sees it, wherever it stands: in the prolog, in the DOCTYPE's
// internal subset, between entries, nested in other elements, inside a
// entry (its content included). It keeps those whose target may be robots
// with their position; each entry takes those before its end
// (takePIs): the first legal one applies to the entry that holds it or
// follows it and to every entry after; the others are reported at their
// line and column, in the XML stage's words, and ignored (SPEC section 2).

// feedPI is a PI whose target may be robots.
type feedPI struct {
	off  int64      // decoded offset of its '<'
	pos  filter.Pos // its position (Line 0: not placed yet)
	text []byte     // as read (see piByte), from "<?" to "?>"
	done bool       // read to its end
}

// The most a robots PI keeps of a run of white space, and of its text: a
// legal one keeps all it says within both (its three runs of white space
// clipped to piSpaceMax bytes each still make it legal), and a PI clipped to
// piTextMax bytes is not legal, as it was not.
const (
	piSpaceMax = 64
	piTextMax  = 1024
)

// robotsPIs is what the feed's robots PIs said so far.
type robotsPIs struct {
	found  bool
	pos    filter.Pos         // the first legal one's
	v      xmlstream.RobotsPI // what it says
	values []string           // X-Robots-Tag values it means
}

// piStart starts reading a PI at f.tagStart ("<?" read). A PI in what
// encoding/xml misreads as outside the DOCTYPE (f.split) is the
// internal subset's: doctypePIs reads it.
func (f *feedReader) piStart() {
	f.piText = append(f.piText[:0], '<', '?')
	f.piOn, f.piRun = !f.split, 0
}

// piByte reads a byte of the PI: its target's first bytes decide whether it
// may be a robots PI (ParseRobotsPI decides the rest).
func (f *feedReader) piByte(c byte) {
	t := f.piText
	if n := len(t) - len("<?"); n < len("robots") {
		if c|0x20 != "robots"[n] {
			f.piOn = false
			return
		}
		f.piText = append(t, c)
		if n+1 == len("robots") {
			f.pis = append(f.pis, feedPI{off: f.tagStart})
		}
		return
	}
	if isFeedSpace(c) {
		if f.piRun >= piSpaceMax {
			return
		}
		f.piRun++
	} else {
		f.piRun = 0
	}
	if len(t) < piTextMax {
		f.piText = append(t, c)
	}
}

// piEnd ends the PI at its '>' (read by piByte).
func (f *feedReader) piEnd() {
	if f.piOn && len(f.piText) >= len("<?robots") {
		pi := &f.pis[len(f.pis)-1]
		pi.text, pi.done = bytes.Clone(f.piText), true
	}
	f.piOn = false
}

// doctypePIs checks the DOCTYPE (in f.capture, from f.doctypeStart) as
// the XML stage checks it, and keeps its robots PIs, read as the XML stage
// reads its internal subset, and, when encoding/xml ended the DOCTYPE
// early (split), those of the prolog after its real end, which capture
// holds too (up to the root).
func (f *feedReader) doctypePIs() *feedError {
	end := xmlstream.DoctypeLength(f.capture)
	if end > 0 {
		if at, err := xmlstream.DoctypeError(f.capture[:end]); err != nil {
			return &feedError{off: f.doctypeStart + int64(at), err: err, inDoctype: true}
		}
	}
	pis := xmlstream.DoctypePIs(f.capture)
	if end > 0 {
		pis = append(pis, prologPIs(f.capture[end:])...)
	}
	for _, pi := range pis {
		if _, isRobots, _ := xmlstream.ParseRobotsPI(pi); !isRobots {
			continue
		}
		k := subsliceOffset(f.capture, pi)
		p := feedPI{off: f.doctypeStart + int64(k), text: bytes.Clone(pi), done: true}
		if !f.placeDoctype {
			// The DOCTYPE started in bytes handed out before: its
			// position is known (the window may no longer hold it).
			p.pos = f.win.u.advance(f.doctypePos, f.capture[:k], f.doctypeStart)
		} // else it is in the bytes being handed out: placePIs places it
		f.pis = append(f.pis, p)
	}
	return nil
}

// prologPIs returns the PIs of prolog text (PIs, comments and white space),
// each as a part of b from "<?" to "?>"; those in comments are not PIs.
func prologPIs(b []byte) [][]byte {
	var pis [][]byte
	for i := 0; i < len(b); {
		switch {
		case bytes.HasPrefix(b[i:], []byte("<!--")):
			j := bytes.Index(b[i+4:], []byte("-->"))
			if j < 0 {
				return pis
			}
			i += 4 + j + 3
		case bytes.HasPrefix(b[i:], []byte("<?")):
			j := bytes.Index(b[i+2:], []byte("?>"))
			if j < 0 {
				return pis
			}
			pis = append(pis, b[i:i+2+j+2])
			i += 2 + j + 2
		default:
			i++
		}
	}
	return pis
}

// subsliceOffset is where s, a part of b, starts in b.
func subsliceOffset(b, s []byte) int {
	if k := cap(b) - cap(s); len(s) > 0 && k >= 0 && k+len(s) <= len(b) && &b[k] == &s[0] {
		return k
	}
	return max(bytes.Index(b, s), 0)
}

// placePIs gives the PIs (and the DOCTYPE) in the bytes just handed out
// their position.
func (f *feedReader) placePIs() {
	if f.placeDoctype {
		f.doctypePos, f.placeDoctype = f.win.at(f.doctypeStart), false
	}
	for i := len(f.pis) - 1; i >= 0 && f.pis[i].pos.Line == 0; i-- {
		f.pis[i].pos = f.win.at(f.pis[i].off)
	}
}

// takePIs reads the PIs before decoded offset stop, where the decoder read
// the end of entry index: the first legal one applies from this entry
// on; the warnings are this entry's.
func (f *feedReader) takePIs(stop int64, index int) []filter.Warning {
	var warns []filter.Warning
	k := 0
	for ; k < len(f.pis) && f.pis[k].off < stop && f.pis[k].done; k++ {
		pi := &f.pis[k]
		warn := func(format string, args ...any) {
			warns = append(warns, filter.Warning{Pos: pi.pos, Line: pi.pos.Line, Col: pi.pos.Col, Message: fmt.Sprintf(format, args...)})
		}
		v, isRobots, err := xmlstream.ParseRobotsPI(pi.text)
		switch {
		case !isRobots:
		case err != nil:
			warn("illegal robots PI %s: %v; it is ignored", clipText(pi.text, 80), err)
		case f.robots.found:
			warn("a second robots PI (%s) is ignored: the first legal one, at %s, decides", v, f.robots.pos)
		default:
			f.robots.found, f.robots.pos, f.robots.v = true, pi.pos, v
			ds := v.Directives()
			if len(ds) == 0 {
				break
			}
			says := strings.Join(ds, ", ")
			f.robots.values = []string{says}
			if index > 1 {
				warn("robots PI says %s after record %d: the records before it were already written, it applies from record %d on", says, index-1, index)
			}
		}
	}
	f.pis = f.pis[:copy(f.pis, f.pis[k:])]
	return warns
}

// firstRobotsPI is the feed's first legal robots PI read so far: the one
// the entries took, else the first of those read since the last entry
// (after it, or before the error that stopped the feed).
func (f *feedReader) firstRobotsPI() (v xmlstream.RobotsPI, pos filter.Pos, ok bool) {
	if f.robots.found {
		return f.robots.v, f.robots.pos, true
	}
	for _, pi := range f.pis {
		if !pi.done || pi.pos.Line == 0 {
			continue
		}
		if v, isRobots, err := xmlstream.ParseRobotsPI(pi.text); isRobots && err == nil {
			return v, pi.pos, true
		}
	}
	return v, pos, false
}

// clipText shortens s to about n bytes for a message, on a character
// boundary, as the XML stage does.
func clipText(s []byte, n int) string {
	if len(s) <= n {
		return string(s)
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return string(s[:n]) + "…"
}
