package htmlstream

import (
	"bytes"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/ascii"

	"golang.org/x/net/html"
)

// Long text in pieces. Text, raw text (script, style, title, textarea,
// plaintext…) and comments have no structure that needs them whole, and a
// page can be one text node as long as the document. Past the tokenizer's
// piece size, such a token is passed on in pieces of about that size, each
// a token of the same type whose Raw() bytes follow the last one's: memory
// stays bounded by the piece size, not by the text, and the token size
// limit applies to tags, doctypes, bogus comments and CDATA sections only.
// Tree construction appends each piece to the text before it, as
// html.Parse appends adjacent text; its tree could tell in two places, no
// output can: whitespace in a table, which html.Parse moves out of the
// table with the text run it belongs to, where a piece made only of
// whitespace stays in the table; and a piece made only of the newline
// after <pre>, which lets the next piece lose its first newline too.
//
// A piece never ends where its bytes would read otherwise whole: inside a
// character reference (where references are decoded: '&' and a name of
// up to refWindow bytes, or '&#' and all its digits; a run of letters or
// digits with no '&' before it is no reference), between CR and LF, inside
// a character, between '<' and a byte it could open markup with, or
// inside the markup that would end a comment or a script's escape. Where
// it ends is decided by the bytes there, not by where the token starts,
// so that a piece ending early (before a run no piece can end in) does
// not make the next token end early too: each byte is looked at a few
// times, however the text runs.

// minCommentPiece is the least a comment is held whole, whatever the piece
// size: one that can be a marker (googleoff, <!--noindex-->: at most
// filter.MaxMarkerComment bytes as written) comes whole, and a longer one
// is no marker however it comes.
const minCommentPiece = filter.MaxMarkerComment

// cutAfter marks the bytes a piece may end with in any ASCII-compatible
// charset: white space (not CR), and ASCII punctuation that ends every
// character reference and is neither '<' nor '&' nor '#'. Below 0x30 none
// is ever the second byte of a character in Shift_JIS, Big5, GBK, gb18030
// or EUC (those start at 0x40, or at 0x30 in gb18030's four-byte form as
// golang.org/x/text reads it); from 0x3A to 0x3F a piece ends after one
// only where an ASCII byte comes before it.
var cutAfter = byteSet(func(c byte) bool {
	switch {
	case c == ' ', c == '\t', c == '\n', c == '\f':
		return true
	case c == '<', c == '&', c == '#':
		return false
	}
	return 0x21 <= c && c <= 0x2F || 0x3A <= c && c <= 0x3F
})

// cutAfterInComment is cutAfter without '-' and '!'.
var cutAfterInComment = byteSet(func(c byte) bool { return cutAfter[c] && c != '-' && c != '!' })

// refByte marks what a character reference is made of after its '&'.
var refByte = byteSet(func(c byte) bool { return isASCIILetter(c) || '0' <= c && c <= '9' || c == '#' })

// pieceKind says what a piece is cut from: where character references are
// decoded (text, title, textarea, and comments, whose data x/net's Text
// decodes too), a piece may not end inside one; in raw text (script,
// style, plaintext and the like) nothing is decoded.
type pieceKind uint8

const (
	textPieces    pieceKind = iota // references decoded
	rawPieces                      // nothing decoded
	commentPieces                  // references decoded, and "--" or "--!" then '>' end the comment
)

// textCut returns where a piece of the token in win may end, between lo
// and hi (hi <= len(win)): the last place after a byte cutAfter marks or,
// where words may be cut (cutInWords), before an ASCII byte or the first
// byte of a UTF-8 sequence (a character of its own in a single-byte
// charset too), outside a character reference (inReference), not between
// CR and LF, and not after '<' unless another '<' follows (with which it
// opens nothing). In a comment it does not end a piece after '-' or '!',
// which with what follows could end the comment. It returns 0 where there is none. It
// looks at each place once, and back over a run of reference bytes once
// per token (z.run).
func (z *tokenizer) textCut(win []byte, lo, hi int, kind pieceKind) int {
	lo = max(lo, 1)
	after := &cutAfter
	if kind == commentPieces {
		after = &cutAfterInComment
	}
	for p := hi; p >= lo; p-- {
		if c := win[p-1]; after[c] && (c < 0x30 || p < 2 || win[p-2] < 0x80) {
			z.examined += hi - p + 1
			return p
		}
	}
	z.examined += max(hi-lo+1, 0)
	if !z.cutInWords {
		return 0
	}
	var run refRun // the run of reference bytes the place looked at last ends in
	top := min(hi, len(win)-1)
	for p := top; p >= lo; p-- {
		c, before := win[p], win[p-1]
		if 0x80 <= c && c < 0xC0 || before == '\r' && c == '\n' || before == '<' && c != '<' ||
			kind == commentPieces && (before == '-' || before == '!') {
			continue
		}
		if kind != rawPieces && (refByte[c] || c == ';') && z.inReference(win, p, &run) {
			if before != '&' {
				// Every place in the run below p is inside it too.
				p = max(run.start, lo)
			}
			continue
		}
		z.examined += top - p + 1
		return p // c ends any reference before it
	}
	z.examined += max(top-lo+1, 0)
	return 0
}

// refWindow bounds the named references: past the longest (32 bytes), a
// run of letters and digits after '&' is no name x/net reads whole, and
// cutting it further on changes nothing.
const refWindow = 40

// refRun is a run of reference bytes in the current token's window:
// win[start:end] are all refByte and start is where the run starts (0, or
// after a byte that is not one); end is as far as it has been looked at.
// amp says a '&' stands before it; win[start:numEnd] is the longest part
// of it (up to end) that has a numeric reference's form: '#', then decimal
// digits, or "#x" or "#X", then hexadecimal digits. Indices count from the
// token's first byte, so they hold across reads.
type refRun struct {
	start, end, numEnd int
	amp                bool
}

// inReference reports whether a piece ending before win[p] (a byte that
// can go on with a character reference) could cut one: right after '&',
// or in a run of reference bytes that a '&' starts, within refWindow bytes
// of it or still in a numeric reference's form, which x/net reads to its
// last digit however long it is ("&#" and a million zeros is one
// character). A run with no '&' before it is no reference, and one that
// reaches the window's start is not either: a piece never ends inside a
// reference, and a tag's '>' is no '&'. run holds the run looked at last
// (zero at first): the places textCut looks at go down the window, so
// each run is measured once.
func (z *tokenizer) inReference(win []byte, p int, run *refRun) bool {
	before := win[p-1]
	if before == '&' {
		return true
	}
	if !refByte[before] {
		return false
	}
	if !(run.start < p && p <= run.end) {
		z.measureRun(win, p-1, run)
	}
	return run.amp && (p-run.start < refWindow || p <= run.numEnd)
}

// measureRun sets *run to the run of reference bytes that holds win[q],
// looked at up to q. The highest run measured in the token is kept
// (z.run): findTextEnd looks only at the bytes each read brings, and
// rawCut and scanCommentFrom look again at a window that doubles, but the
// run at the top may go back to the token's start; it is looked back over
// once, and its numeric form checked once.
func (z *tokenizer) measureRun(win []byte, q int, run *refRun) {
	m := &z.run
	if m.start <= q && q < m.end {
		*run = *m
		return
	}
	// The kept run may go on up to q: looking back stops at its end.
	joins := m.end > m.start && m.end <= q
	s := q
	for s > 0 && refByte[win[s-1]] && !(joins && s == m.end) {
		s--
	}
	z.examined += q - s + 1
	r := refRun{start: s, end: q + 1, numEnd: s, amp: s > 0 && win[s-1] == '&'}
	from := s
	if joins && s == m.end {
		r.start, r.amp, r.numEnd = m.start, m.amp, m.numEnd
		from = -1 // the form broke before
		if m.numEnd == m.end {
			from = m.end
		}
	}
	if from >= 0 {
		r.numEnd = numericFormEnd(win, r.start, from, r.end)
		z.examined += r.numEnd - from
	}
	*run = r
	if r.end >= m.end {
		*m = r
	}
}

// numericFormEnd returns how far from start win[start:end] has a numeric
// reference's form (see refRun), knowing it has up to from.
func numericFormEnd(win []byte, start, from, end int) int {
	e := from
	if e == start {
		if e == end || win[e] != '#' {
			return e
		}
		e++
	}
	if e == start+1 {
		if e == end || !decimalDigit[win[e]] && win[e]|0x20 != 'x' {
			return e
		}
		e++
	}
	digit := &decimalDigit
	if win[start+1]|0x20 == 'x' {
		digit = &hexDigit
	}
	for e < end && digit[win[e]] {
		e++
	}
	return e
}

var (
	decimalDigit = byteSet(func(c byte) bool { return '0' <= c && c <= '9' })
	hexDigit     = byteSet(ascii.IsHexDigit)
)

// textPiece makes the first n bytes of win a text token, with the flags of
// the text it is part of.
func (z *tokenizer) textPiece(n int, textIsRaw, convertNUL bool) (html.TokenType, bool) {
	z.size, z.data = n, span{0, n}
	z.textIsRaw, z.convertNUL = textIsRaw, convertNUL
	z.plain = !hasTextSpecial(z.win[:n])
	z.examined += n
	return html.TextToken, true
}

// findTextEnd is find(i, '<') for text in the data state, except that it
// reports cut (and no '<') once the text is as long as a piece and a piece
// of it can end. *searched is how far the token has been searched for a
// place to end one (scanData keeps it across the '<' that open nothing).
func (z *tokenizer) findTextEnd(i int, searched *int) (lt, cut int, ok bool) {
	for {
		if k := bytes.IndexByte(z.win[i:], '<'); k >= 0 {
			z.examined += k + 1
			return i + k, 0, true
		}
		z.examined += len(z.win) - i
		i = len(z.win)
		if z.piece > 0 && i >= z.piece {
			// What was searched before, in this call or an earlier one
			// for the same token, has no place to end a piece.
			if p := z.textCut(z.win, *searched, i, textPieces); p > 0 {
				return 0, p, true
			}
			*searched = i
		}
		if !z.more(i + 1) {
			return i, 0, false
		}
	}
}

// scanRawPiece runs scan (scanScript or scanRawTextEnd) with reads capped
// at the piece size. Where the text runs on past it, it returns cut, the
// length of the piece to pass; where no piece can end there, it tries
// again with twice the cap, up to the token limit, where it fails as
// scan does at the limit.
func (z *tokenizer) scanRawPiece(scan func() (int, bool)) (end, cut int, ok bool) {
	if z.piece <= 0 {
		end, ok = scan()
		return end, 0, ok
	}
	for limit := z.piece; ; limit *= 2 {
		last := z.lastCap(&limit)
		z.pieceCap, z.capped = limit, false
		end, ok = scan()
		z.pieceCap = 0
		z.examined += len(z.win) // each round scans the window from its start
		if ok || !z.capped {
			return end, 0, ok
		}
		if p := z.rawCut(); p > 0 {
			return 0, p, true
		}
		if last {
			return 0, 0, false // the limit, with no piece to end before it
		}
	}
}

// lastCap keeps a doubling cap on the window below the token limit, so
// that the last round looks for a piece in all the window the limit
// allows; it reports whether this is that round.
func (z *tokenizer) lastCap(limit *int) bool {
	if z.maxBuf > 0 && *limit >= z.maxBuf-1 {
		*limit = z.maxBuf - 1
		return true
	}
	return false
}

// rawCut returns where a piece of raw text may end, given where the
// scanner stopped (resumeAt, in script state resumeState): anywhere before
// the stretch from there on that leaves the state as it is (up to the
// next byte that could change it), after resumeAt in script, or 0.
func (z *tokenizer) rawCut() int {
	win, lo := z.win, z.resumeAt
	if lo > len(win) {
		return 0
	}
	hi := len(win)
	switch z.resumeState {
	case scriptData:
		if k := bytes.IndexByte(win[lo:], '<'); k >= 0 {
			hi = lo + k
		}
	case scriptEscaped, scriptDoubleEscaped:
		if k := skip(win, lo, &dashOrLT); k < len(win) {
			hi = k
		}
	default: // after a dash, the next byte decides
		hi = lo
	}
	if z.rawTag != "script" {
		lo = 0 // no state: any byte scanned so far is past (no end tag in it)
	}
	kind := rawPieces
	if z.rawTag == "textarea" || z.rawTag == "title" {
		kind = textPieces // RCDATA: references are decoded
	}
	return z.textCut(win, lo, hi, kind)
}

// commentPieceCutShort ends a comment that the end of the input (or the
// size limit, where no piece could end) cuts short inside a piece that
// goes on with it, as x/net ends a comment at the end of the input: its
// data stops before a last "--!", "--" or "-".
func (z *tokenizer) commentPieceCutShort() (html.TokenType, bool) {
	n := len(z.buf) - z.start
	if z.readErr == nil || z.maxBuf > 0 && n >= z.maxBuf {
		return z.tagCutShort() // the limit's error
	}
	z.err = z.readErr
	z.win = z.buf[z.start:]
	end := n
	for _, suffix := range []string{"--!", "--", "-"} {
		if bytes.HasSuffix(z.win, []byte(suffix)) {
			end -= len(suffix)
			break
		}
	}
	z.size, z.data, z.commentPiece = n, span{0, end}, true
	return html.CommentToken, true
}
