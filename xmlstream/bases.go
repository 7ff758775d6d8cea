package xmlstream

import (
	"net/url"
	"strings"

	"github.com/robofilter/robofilter/weburl"
)

// Bases: xml:base resolved against the document's URL, bounded
// (weburl.MaxBaseLen), for the links.

// Resolved xml:base values are bounded, so that nesting cannot make them
// grow with the square of the depth (each level's base can be longer than
// its parent's by the attribute's length): one is at most maxBaseLen bytes,
// and those of the open elements together at most maxBaseBytes. A value
// past either bound is ignored with a warning, as one that does not parse.
//
// So is the time they take. Resolving a value goes through the base it
// resolves against and the URL it makes, up to maxBaseLen bytes each for
// an attribute of a few bytes: 100,000 nested xml:base="x/" (2 MB) went
// through 1.6 GB of URLs, in 8 s. A document may spend baseWorkFree bytes
// of resolving, plus baseWorkPerByte per byte read (replacement text
// included); past that, its xml:base values are ignored with a warning
// each. A real document's bases are short and far apart: it never gets
// near the bound.
const (
	maxBaseLen      = weburl.MaxBaseLen
	maxBaseBytes    = 4 << 20
	baseWorkFree    = 8 * maxBaseBytes
	baseWorkPerByte = 8
)

// xmlBase resolves an xml:base value against the base in effect (parent,
// whose string is parentLen bytes long; nil: the document's). It returns
// the new base and its length, which the caller charges to d.baseBytes
// until the element ends; ok false when the value is ignored (with a
// warning) and parent stays in effect.
func (d *driver) xmlBase(parent *url.URL, parentLen int, v string) (u *url.URL, n int, ok bool) {
	v = strings.TrimSpace(v)
	if read := d.scan.end() + int64(d.ents.expanded); len(v) <= maxBaseLen && int64(d.baseWork) > baseWorkFree+baseWorkPerByte*read {
		d.core.Warn(d.pos, "xml:base %q: resolving the document's xml:base values has gone through more than %d MiB of URLs and %d bytes per byte read; ignored", clipRunes(v, 80), baseWorkFree>>20, baseWorkPerByte)
		return nil, 0, false
	}
	base := parent
	if base == nil {
		base, parentLen = d.core.Base(), d.measureDocBase()
	}
	if len(v) <= maxBaseLen {
		d.baseWork += parentLen + len(v)
	}
	u, err := weburl.ResolveBase(base, v)
	if err != nil {
		d.core.Warn(d.pos, "xml:base %q %v; ignored", clipRunes(v, 80), err)
		return nil, 0, false
	}
	n = len(u.String())
	d.baseWork += n
	if d.baseBytes+n > maxBaseBytes {
		d.core.Warn(d.pos, "xml:base %q: the open elements' bases would exceed %d bytes; ignored", clipRunes(v, 80), maxBaseBytes)
		return nil, 0, false
	}
	d.baseBytes += n
	return u, n, true
}

// measureDocBase is the length of the document's base as a string,
// measured again only when the base changes.
func (d *driver) measureDocBase() int {
	if b := d.core.Base(); b != d.docBase {
		d.docBase, d.docBaseLen = b, 0
		if b != nil {
			d.docBaseLen = len(b.String())
		}
	}
	return d.docBaseLen
}
