package xmlstream

import (
	"cmp"
	"encoding/xml"
	"hash/maphash"
	"slices"
	"unsafe"

	"github.com/robofilter/robofilter/filter"
)

// A start tag's attributes: borrowed bytes, and the check that no
// attribute is written twice (by name, then by namespace).

// borrowString views bytes as a string without copying them: the string
// is valid only as long as the bytes are not overwritten.
func borrowString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// borrow views an attribute value as bytes without copying it. The core
// only borrows an Element's byte slices for the duration of the call and
// never writes to them (filter.Element's contract), and a start element's
// strings are not used after it: a copy per class and link would only feed
// the garbage collector.
func borrow(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// attrs are the unprefixed attributes robofilter reads, and XLink's.
type attrs struct {
	href, src, rel, url, name, content, profile  string
	hasHref, hasSrc, hasURL, hasName, hasContent bool
	hasProfile                                   bool
	inputType                                    string
	xlinkHref, xlinkType, xlinkShow              string
	hasXlinkHref                                 bool
}

func (at *attrs) set(a xml.Attr, el *filter.Element) {
	switch a.Name.Local {
	case "class":
		el.Class = borrow(a.Value)
	case "data-nosnippet":
		el.NoSnippet = true
	case "href":
		at.href, at.hasHref = a.Value, true
	case "src":
		at.src, at.hasSrc = a.Value, true
	case "rel":
		at.rel = a.Value
	case "url":
		at.url, at.hasURL = a.Value, true
	case "name":
		at.name, at.hasName = a.Value, true
	case "content":
		at.content, at.hasContent = a.Value, true
	case "profile":
		at.profile, at.hasProfile = a.Value, true
	case "type":
		at.inputType = a.Value
	}
}

// duplicateAttr finds an attribute written twice on one element.
func duplicateAttr(as []xml.Attr) (xml.Name, bool) {
	if len(as) < 2 {
		return xml.Name{}, false
	}
	if len(as) <= 16 {
		for i := 1; i < len(as); i++ {
			for j := 0; j < i; j++ {
				if as[i].Name == as[j].Name {
					return as[i].Name, true
				}
			}
		}
		return xml.Name{}, false
	}
	// Many attributes: sorted by a hash of their names, 16 bytes each (a
	// map of the names cost about 80 bytes an attribute in a huge tag).
	// Within a run of equal hashes, in document order, the first attribute
	// that has the name of one before it is the one a map finds: the
	// first, in document order, whose name came before.
	type hashed struct {
		h uint64
		i int
	}
	hs := make([]hashed, len(as))
	for i, a := range as {
		hs[i] = hashed{maphash.Comparable(attrSeed, a.Name), i}
	}
	slices.SortFunc(hs, func(a, b hashed) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	first := -1
	for lo := 0; lo < len(hs); {
		hi := lo + 1
		for hi < len(hs) && hs[hi].h == hs[lo].h {
			hi++
		}
	run:
		for k := lo + 1; k < hi; k++ {
			for j := lo; j < k; j++ {
				if as[hs[j].i].Name == as[hs[k].i].Name {
					if first < 0 || hs[k].i < first {
						first = hs[k].i
					}
					break run
				}
			}
		}
		lo = hi
	}
	if first < 0 {
		return xml.Name{}, false
	}
	return as[first].Name, true
}

var attrSeed = maphash.MakeSeed()
