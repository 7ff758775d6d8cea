package htmlstream

import "bytes"

// Positions. Most tokens hold no line end, and a token is about ten bytes
// long: calling Pos.Advance on each costs more than the token's scan. The
// tokenizer keeps the next line feed and the next carriage return after
// the current token in view, so a token that ends before both moves the
// position by its length alone; only a token that holds one (or reaches
// past what was searched) takes Advance, and then the search goes on
// from its end. Each byte is searched about once for each of the two.

// advancePosOverLineEnds moves pos past the current token when it may
// hold a line end (Next moves it past the others itself). It searches
// the buffer again beyond the token for the line ends it passed.
func (z *tokenizer) advancePosOverLineEnds() {
	if z.noLineEndBefore < 0 {
		z.advancePosAlone()
		return
	}
	end := z.start + z.size
	z.pos = z.pos.Advance(z.buf[z.start:end]) // Raw: x/net's tokenizer has not taken over
	if end > z.noLFBefore {
		z.noLFBefore = indexFrom(z.buf, end, '\n')
	}
	if end > z.noCRBefore {
		z.noCRBefore = indexFrom(z.buf, end, '\r')
	}
	z.noLineEndBefore = min(z.noLFBefore, z.noCRBefore)
}

// indexFrom returns the index of the first c in b at or after i, or
// len(b).
func indexFrom(b []byte, i int, c byte) int {
	if k := bytes.IndexByte(b[i:], c); k >= 0 {
		return i + k
	}
	return len(b)
}

// advancePosAlone moves pos past every token, with no search ahead
// (noLineEndBefore stays negative): once x/net's tokenizer holds the input
// there is no window to search, and positions in input decoded in front
// of the tokenizer are mapped to the input's bytes token by token.
func (z *tokenizer) advancePosAlone() {
	if z.in == nil {
		z.pos = z.pos.Advance(z.Raw())
		return
	}
	z.dpos = z.dpos.Advance(z.Raw())
	z.pos = z.in.inputPos(z.dpos)
}
