package main

import (
	"fmt"
	"strings"

	"github.com/robofilter/robofilter/filter"
)

// The overlay's marks: the attributes that outline and label a region or
// a link on the start tag of its element, and the regions that cannot be
// drawn on an element of their own, noted as not drawn.

// marks adds to a start tag the attributes of the regions and links that
// start with it, and of the comment regions open, and notes the regions
// whose tag this is not.
func (o *overlay) marks(name string, add *strings.Builder) {
	var ids, offs, labels, titles []string
	linkKind := ""
	for _, m := range o.next {
		switch {
		case m.region != nil && strings.EqualFold(m.region.Tag, name):
			r := m.region
			if unrendered[name] {
				o.notDrawn(*r, fmt.Sprintf("its element, <%s>, is never shown on a page", name))
			} else {
				o.drawnRegions++
			}
			ids = append(ids, regionID(r))
			offs = append(offs, switchWords(r.Off, r.On)...)
			labels = append(labels, fmt.Sprintf("%s %d:%d", clipText(r.Marker, maxLabelLen), r.Line, r.Col))
			titles = append(titles, regionTitle(r))
		case m.region != nil:
			o.notDrawn(*m.region, "its element has no tag of its own here (the parser makes it)")
		case m.link != nil && strings.EqualFold(m.link.Tag, name):
			l := m.link
			switch {
			case l.Followed:
				linkKind = "followed"
				o.links[0]++
			case robotsReason(l.Reason):
				linkKind = "robots"
				o.links[1]++
				titles = append(titles, "link not followed: "+l.Reason+causeOf(*l))
			default:
				linkKind = "notpage"
				o.links[2]++
				titles = append(titles, "link no crawler follows: "+l.Reason)
			}
		}
	}
	o.next = o.next[:0]
	in, flatOff, flatLabel, flatTitle := o.flatMarks(name)
	if len(ids) > 0 && flatLabel != "" {
		labels, flatLabel = append(labels, flatLabel), "" // one label shows
	}
	if len(ids) > 0 {
		fmt.Fprintf(add, ` data-rf-region="%s" data-rf-off="%s" data-rf-label="%s"`, attrEscape(strings.Join(ids, " ")),
			attrEscape(strings.Join(dedupe(offs), " ")), attrEscape(strings.Join(labels, " + ")))
	}
	if linkKind != "" {
		fmt.Fprintf(add, ` data-rf-link="%s"`, linkKind)
	}
	if in != "" {
		fmt.Fprintf(add, ` data-rf-in="%s" data-rf-flat="%s"`, attrEscape(in), flatOff)
		if flatLabel != "" {
			fmt.Fprintf(add, ` data-rf-flat-label="%s"`, attrEscape(flatLabel))
		}
		titles = append(titles, flatTitle)
	}
	if len(titles) > 0 {
		fmt.Fprintf(add, ` title="%s"`, attrEscape(strings.Join(titles, "\n")))
	}
}

// unrendered are the elements a page never shows: a comment region that
// holds nothing else is not drawn, and its label waits for what is shown.
var unrendered = map[string]bool{"head": true, "title": true, "meta": true, "link": true, "base": true,
	"style": true, "script": true, "template": true, "noscript": true}

// flatMarks are the attributes of what is drawn inside the comment regions
// open (element, "" for text): their ids, what they turn off, a label for
// the first thing shown in a region, and the title.
func (o *overlay) flatMarks(element string) (in, off, label, title string) {
	if len(o.flats) == 0 {
		return
	}
	var ids, offs, labels, titles []string
	for _, f := range o.flats {
		ids = append(ids, f.id)
		offs = append(offs, switchWords(f.off, 0)...)
		if !f.labelled && !unrendered[element] {
			f.labelled = true
			o.drawnRegions++
			labels = append(labels, fmt.Sprintf("%s %s", clipText(f.r.Marker, maxLabelLen), f.id))
		}
		titles = append(titles, regionTitle(&f.r))
	}
	return strings.Join(ids, " "), strings.Join(dedupe(offs), " "), strings.Join(labels, " + "), strings.Join(titles, "\n")
}

func regionID(r *filter.Region) string { return fmt.Sprintf("%d:%d", r.Line, r.Col) }

// regionTitle says what a region does and what makes it, for the outline's
// tooltip.
func regionTitle(r *filter.Region) string {
	var effects []string
	for _, sc := range switchClasses {
		if r.Off&sc.bit != 0 {
			effects = append(effects, sc.meaning)
		}
	}
	if _, on := r.Switches(); on != "" {
		effects = append(effects, "turns back on: "+on)
	}
	return fmt.Sprintf("%s: %s%s (%s) at line %d, column %d", strings.Join(effects, ", "), tagOf(*r), r.Marker, r.Dialect, r.Line, r.Col)
}

// switchWords names the switches off (and "on-…" those turned back on).
func switchWords(off, on filter.Switch) []string {
	var w []string
	for _, sc := range switchClasses {
		if off&sc.bit != 0 {
			w = append(w, sc.name)
		}
		if on&sc.bit != 0 {
			w = append(w, "on-"+strings.TrimPrefix(sc.name, "no"))
		}
	}
	return w
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// StartRegion is told where a region starts: an element's, whose start
// tag is the next token; or a comment region's, drawn from here to its
// end.
func (o *overlay) StartRegion(r filter.Region) {
	o.flushText()
	if o.st == sRaw || o.st == sPlaintext {
		// The parser reads elements where a browser, scripts on, reads
		// text (<noscript>), or past where the overlay's reading ends.
		o.notDrawn(r, fmt.Sprintf("it is inside <%s>, whose content a browser shows as text, or not at all", o.rawName))
		return
	}
	if r.Tag == "" {
		o.flats = append(o.flats, &flatRegion{r: r, off: r.Off, id: regionID(&r)})
		return
	}
	if r.Offset < o.read && r.Tag == "html" && o.prologue {
		// The html element's classes count once a later <head profile>
		// names the profile: its tag has passed, and a second <html>
		// tag adds attributes to it.
		var add strings.Builder
		waiting := o.next
		o.next = []overlayMark{{region: &r}}
		o.marks("html", &add)
		o.out("<html" + add.String() + ">")
		o.next = waiting
		return
	}
	o.next = append(o.next, overlayMark{region: &r})
}

// StartLink is told where a link's element starts.
func (o *overlay) StartLink(l filter.Link) {
	o.flushText()
	if o.st == sRaw || o.st == sPlaintext {
		return
	}
	o.next = append(o.next, overlayMark{link: &l})
}

// endRegion is told where a region ends (the Region output): a comment
// region's part ends, or all of it.
func (o *overlay) endRegion(r filter.Region) {
	if r.Tag != "" {
		return
	}
	o.flushText()
	for i, f := range o.flats {
		if f.r.Offset != r.Offset || f.r.Dialect != r.Dialect {
			continue
		}
		f.off &^= r.Off
		if f.off == 0 {
			if !f.labelled {
				o.notDrawn(f.r, "nothing of it is drawn: it holds no element and no text (it is in the head, or white space only)")
			}
			o.flats = append(o.flats[:i], o.flats[i+1:]...)
		}
		return
	}
}

// notDrawnHere notes the regions waiting for a start tag as not drawn: the
// token here is another ("" when it is a comment or an end tag: the
// element then starts before it, as the parser makes it).
func (o *overlay) notDrawnHere(why string) {
	if why == "" {
		why = "its element has no tag of its own here (the parser makes it)"
	}
	for _, m := range o.next {
		if m.region != nil {
			o.notDrawn(*m.region, why)
		}
	}
	o.next = o.next[:0]
}

func (o *overlay) notDrawn(r filter.Region, why string) {
	o.undrawnCount++
	if len(o.undrawn) < maxUndrawn {
		o.undrawn = append(o.undrawn, undrawnRegion{r, why})
	}
}
