package filter

import "strings"

// Switch is one of the four things that can be turned off at a position of
// a document (SPEC section 1). A Switch value with several bits set is a set.
type Switch uint8

const (
	NoIndex      Switch = 1 << iota // text is not indexed
	NoFollow                        // links are not followed
	NoArchive                       // content is kept out of the archive copy
	NoAnchorText                    // link text is not used as anchor text
)

// numSwitches is how many switches there are: per-switch tables have this
// many entries, entry i for the switch 1<<i.
const numSwitches = 4

// The switches' indexes in per-switch tables.
const (
	noIndexBit   = 0
	noArchiveBit = 2
)

// String lists the switches that are off, as the profile's class suffixes.
func (s Switch) String() string {
	if s == 0 {
		return "none"
	}
	var parts []string
	for _, n := range switchNames {
		if s&n.bit != 0 {
			parts = append(parts, n.off)
		}
	}
	return strings.Join(parts, ",")
}

var switchNames = []struct {
	bit     Switch
	on, off string
}{
	{NoIndex, "index", "noindex"},
	{NoFollow, "follow", "nofollow"},
	{NoArchive, "archive", "noarchive"},
	{NoAnchorText, "anchortext", "noanchortext"},
}

// Override is what one region says about the switches: the bits in Off are
// turned off, the bits in On are turned back on. Bits in neither are left as
// the enclosing region had them (SPEC section 1, rule 2: innermost decides).
type Override struct {
	Off, On Switch
}

// Apply returns the switches in force inside a region with this override,
// given those in force outside it.
func (o Override) Apply(outer Switch) Switch {
	return (outer | o.Off) &^ o.On
}

// IsZero reports whether the override says nothing.
func (o Override) IsZero() bool { return o.Off == 0 && o.On == 0 }

// merge combines two overrides of equal specificity on one element: where
// they disagree, "no" wins (rule 3) and the conflicting bits are returned.
func (o Override) merge(p Override) (Override, Switch) {
	m := Override{Off: o.Off | p.Off, On: o.On | p.On}
	conflict := m.Off & m.On
	m.On &^= m.Off
	return m, conflict
}

// over puts a more specific override over a generic one (rule 3): bits the
// specific one mentions are decided by it alone.
func (o Override) over(generic Override) Override {
	said := o.Off | o.On
	return Override{Off: o.Off | generic.Off&^said, On: o.On | generic.On&^said}
}
