package htmlstream

import a "golang.org/x/net/html/atom"

// adoptionAgency is the HTML parser's adoption agency algorithm for an end
// tag of a formatting element, step for step as html.Parse runs it. The
// tree moves are applied to the open nodes' parents; the scopes of the open
// elements are then recomputed, and clones are announced to the core as the
// new elements they are. Content written before the move keeps the
// switches it was written under (a stream cannot take words back).
func (b *builder) adoptionAgency(tagAtom a.Atom, tagName string) {
	// Fast path for the common well-nested case, "<b>x</b>": the current
	// node is the last entry of the list of active formatting elements and
	// has the tag. The full algorithm then finds it as the formatting
	// element (the last entry with the tag, and no marker after it), finds
	// it in scope (it is the current node), finds no furthest block (no
	// element above it on the stack), and so pops it and removes it from
	// the list: exactly this.
	if cur, k := b.top(), len(b.afe)-1; k >= 0 && b.afe[k] == cur && cur.atom == tagAtom && cur.ns == nsHTML {
		b.pop()
		b.afeRemove(cur)
		return
	}
	if cur := b.top(); cur.name == tagName && !cur.inAFE {
		b.pop()
		return
	}
	// The index of a deep stack is held from the first reordering to the
	// end of the call, not taken down and rebuilt for each of up to eight
	// runs: what the runs look up is within maxAdoptionReach of the top.
	defer b.releaseIndex()
	for outer := 0; outer < 8; outer++ {
		var fe *node
		for j := len(b.afe) - 1; j >= 0; j-- {
			if b.afe[j] == scopeMarker {
				break
			}
			if b.afe[j].atom == tagAtom {
				fe = b.afe[j]
				break
			}
		}
		if fe == nil {
			b.releaseIndex() // its search may go anywhere down the stack
			b.endTagOther(tagAtom, tagName)
			return
		}
		feIndex := b.indexWithin(fe, maxAdoptionReach)
		if feIndex == -1 {
			b.afeRemove(fe)
			return
		}
		if feIndex == beyondReach {
			// More than maxAdoptionReach open elements above it: only a
			// stack html.Parse refuses (deeper than 512) gets here. Every
			// run of the algorithm would move it one level up and rescope
			// everything above it, so "<a>", 100,000 "<div>"s and then
			// "</a>" repeated took hours; the end tag is ignored instead,
			// as when the element is not in scope. What follows stays
			// inside it, as it does (in a clone) in the DOM.
			return
		}
		if !b.elementInScope(defaultScope, tagAtom) {
			return
		}
		var fb *node
		for _, e := range b.oe[feIndex:] {
			if e.isSpecial() {
				fb = e
				break
			}
		}
		if fb == nil {
			fe.pinned++
			for {
				if b.pop() == fe {
					break
				}
			}
			fe.pinned--
			b.afeRemove(fe)
			return
		}
		b.adopted++
		// The entries from fe up are reordered: out of the stack's index
		// until the call ends.
		b.dx.held = true
		b.suspendIndex(feIndex)
		fe.pinned++
		fb.pinned++
		ca := b.oe[feIndex-1]
		ca.pinned++
		bookmark := b.afeIndex(fe)
		lastNode, nd := fb, fb
		x := b.indexOf(nd)
		var chain []*node
		for j := 1; ; j++ {
			x--
			nd = b.oe[x]
			if nd == fe {
				break
			}
			if ni := b.afeIndex(nd); j > 3 && ni > -1 {
				b.afeRemove(nd)
				if ni <= bookmark {
					bookmark--
				}
				continue
			}
			if b.afeIndex(nd) == -1 {
				b.removeFromStack(nd)
				continue
			}
			clone := b.cloneOf(nd)
			b.afe[b.afeIndex(nd)] = clone
			clone.inAFE, nd.inAFE = true, false
			b.oe[x] = clone
			clone.onStack, clone.open = true, 1
			nd.onStack = false
			if lastNode == fb {
				bookmark = b.afeIndex(clone) + 1
			}
			b.reparent(lastNode, clone)
			b.decOpen(nd) // it left the stack
			lastNode = clone
			chain = append(chain, clone)
		}
		target := ca
		switch ca.atom {
		case a.Table, a.Tbody, a.Tfoot, a.Thead, a.Tr:
			target = b.fosterTarget()
		}
		b.reparent(lastNode, target)

		feClone := b.cloneOf(fe)
		b.setParent(feClone, fb)
		fbIndex := b.indexOf(fb)
		for _, n := range b.oe[fbIndex+1:] {
			if n.parent == fb {
				b.reparent(n, feClone)
			}
		}
		if old := b.afeIndex(fe); old != -1 && old < bookmark {
			bookmark--
		}
		b.afeRemove(fe)
		b.afeInsert(bookmark, feClone)
		b.removeFromStack(fe)
		fbIndex = b.indexOf(fb)
		b.oe = append(b.oe, nil)
		copy(b.oe[fbIndex+2:], b.oe[fbIndex+1:])
		b.oe[fbIndex+1] = feClone
		feClone.onStack = true
		b.countOpen(feClone, 1)
		feClone.open++

		// Announce the clones from the outermost in, then recompute the
		// scopes of everything that moved.
		for i := len(chain) - 1; i >= 0; i-- {
			c := chain[i]
			b.startClone(c, c.parent)
		}
		fb.scope = b.core.Rescope(fb.parent.scope, fb.scope)
		b.startClone(feClone, fb)
		b.refresh(b.indexOf(ca) + 1)

		for _, n := range []*node{fe, fb, ca} {
			n.pinned--
			b.maybeFree(n)
		}
	}
}
