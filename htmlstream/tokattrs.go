package htmlstream

import "hash/maphash"

// The attributes of the current tag: kept in the builder's spans, a
// repeated name dropped as the tokenizer drops it, looked up by a hash of
// the lower-cased name.

// keepAttr adds a start tag's attribute unless one with the same name in
// ASCII lower case came before it; past maxKeptAttrs, unless the builder
// does not read it (dropAttr).
func (z *tokenizer) keepAttr(a attrSpan) {
	key := z.win[a.key.start:a.key.end]
	if len(z.attrs) < manyAttrs {
		if z.attrIndex(key) < 0 {
			z.attrs = append(z.attrs, a)
			z.lastValEnd = a.val.end
		}
		return
	}
	if len(z.attrs) == manyAttrs {
		if z.attrNames == nil {
			z.attrNames = make(map[uint64]int)
			z.attrSeed = maphash.MakeSeed()
		}
		clear(z.attrNames)
		for i, b := range z.attrs {
			z.attrNames[z.attrHash(z.win[b.key.start:b.key.end])] = i
		}
	}
	h := z.attrHash(key)
	i, seen := z.attrNames[h]
	if seen && (z.attrKeyIs(i, key) || z.attrIndex(key) >= 0) { // the second test: two names' hashes collide
		return
	}
	if len(z.attrs) >= maxKeptAttrs && !z.builderReads(key) {
		z.dropAttr(a)
		return
	}
	if !seen {
		z.attrNames[h] = len(z.attrs)
	}
	z.attrs = append(z.attrs, a)
	z.lastValEnd = a.val.end
}

// builderReads reports whether the builder or the core reads an attribute
// of this name (any case).
func (z *tokenizer) builderReads(key []byte) bool {
	mark := len(z.out)
	z.out = lowerASCII(z.out, key)
	reads := builderReadsAttr(string(z.out[mark:]))
	z.out = z.out[:mark]
	return reads
}

// dropAttr counts an attribute past maxKeptAttrs that the builder does
// not read and that repeats no kept one: only its part in the tag's
// identity is kept, its value decoded as the driver decodes kept ones
// (attrDecode). It is not compared with the other dropped attributes,
// except where that decides whether the tag closes itself (scanTag).
func (z *tokenizer) dropAttr(a attrSpan) {
	mark := len(z.out)
	key, val := z.attrKeyVal(a)
	if z.attrDecode != nil {
		val = z.attrDecode(val)
	}
	z.droppedKey += attrIdentity(key, val)
	z.dropped++
	z.lastValEnd, z.lastDropped = a.val.end, a
	z.out = z.out[:mark]
}

// repeatsDroppedName reports whether the current tag's attribute last,
// dropped, repeats the name of an attribute before it (one dropped too:
// dropAttr took it only if no kept one had it). The tag is in the window
// whole; it is scanned again from nameEnd, once per tag at most.
func (z *tokenizer) repeatsDroppedName(nameEnd int, last attrSpan) bool {
	win, i := z.win, nameEnd
	lastKey := win[last.key.start:last.key.end]
	for {
		i = skip(win, i, &notSpace)
		if i >= len(win) || win[i] == '>' {
			return false
		}
		var a attrSpan
		var ok bool
		if i, a, ok = z.scanAttr(i); !ok || a.key.start >= last.key.start {
			return false
		}
		if equalASCIIFold(win[a.key.start:a.key.end], lastKey) {
			return true
		}
	}
}

// droppedAttrs returns how many attributes of the current start tag were
// not kept (past maxKeptAttrs) and the sum of their identities.
func (z *tokenizer) droppedAttrs() (int, uint64) {
	if z.x != nil {
		return 0, 0
	}
	return z.dropped, z.droppedKey
}

// attrIndex returns the index of the kept attribute named key (ASCII case
// folded), or -1.
func (z *tokenizer) attrIndex(key []byte) int {
	for i := range z.attrs {
		if z.attrKeyIs(i, key) {
			return i
		}
	}
	return -1
}

func (z *tokenizer) attrKeyIs(i int, key []byte) bool {
	k := z.attrs[i].key
	return equalASCIIFold(key, z.win[k.start:k.end])
}

// attrHash hashes a name in ASCII lower case.
func (z *tokenizer) attrHash(key []byte) uint64 {
	mark := len(z.out)
	z.out = lowerASCII(z.out, key)
	h := hashAttrName(z.attrSeed, z.out[mark:])
	z.out = z.out[:mark]
	return h
}

// hashAttrName hashes a lower-case attribute name. (A variable, so that a
// test can make names collide.)
var hashAttrName = maphash.Bytes

func equalASCIIFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i, c := range a {
		d := b[i]
		if c == d {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}

// lowerASCII appends b to dst with A-Z in lower case.
func lowerASCII(dst, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
