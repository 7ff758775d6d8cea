package htmlstream

import (
	"bytes"
	"hash/maphash"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/net/html"
)

// tokenizer splits HTML into exactly the tokens golang.org/x/net/html's
// Tokenizer (v0.62.0) makes of it (but for text, raw text and comments
// longer than its piece size, which come in pieces that join to x/net's
// token: pieces.go): the same types, the same Raw() bytes
// (which partition the input), the same Text(), TagName() and TagAttr(),
// and the same errors. x/net reads every byte through a method that does
// not inline; this one scans its window of the input in place, with
// bytes.IndexByte and tight loops, and allocates nothing per token.
//
// A token whose input ends (or fails) before the token does, or that
// reaches the size limit, is where x/net's rules get intricate (it backs
// up, retries, and reports partial tokens). There the tokenizer hands the
// rest of the input, from that token's first byte on, to an x/net
// Tokenizer put in the same state, and relays its tokens from then on:
// that happens at most once per document, and the result is x/net's by
// construction. The one such case that ends most documents, text running
// to the end of the input, is handled here.
//
// Raw, Text, TagName and TagAttr return slices borrowed from the
// tokenizer's buffers: they are valid until the next call of Next, and no
// longer. Unlike x/net's, Text, TagName and TagAttr never modify the bytes
// Raw returns.
type tokenizer struct {
	r       io.Reader
	readErr error // the reader's error, reported once the bytes before it are tokenized
	maxBuf  int   // x/net's SetMaxBuf: a token fails when its raw length (bytes read included) reaches it; 0 means no limit

	// buf[start:] is the current token and the input read after it; win
	// is the part the scanners may look at: all of it, or, under maxBuf,
	// as much of it as a token may read without failing.
	buf   []byte
	start int
	// beforeMove, when set, is called before bytes of buf that are
	// already read (before start) are overwritten, and at the hand-over to
	// x/net: the driver may have put off passing them to the archive copy.
	beforeMove func()
	win        []byte
	winClipped bool // win ends before buf (under maxBuf)
	readSize   int  // the next read's size: small first, doubling up to maxRead

	// buf[start:noLFBefore] holds no '\n' and buf[start:noCRBefore] no
	// '\r'; noLineEndBefore is the smaller (see lineends.go), or negative
	// where no search is made (advancePosAlone).
	noLFBefore, noCRBefore, noLineEndBefore int

	// buf[:utf8Checked] is known to be valid UTF-8 while utf8Bad is
	// false; once a read brings an invalid byte, utf8Bad stays set (see
	// checkUTF8).
	utf8Checked int
	utf8Bad     bool

	tt   html.TokenType
	err  error      // sticky: once set, every Next returns an ErrorToken
	size int        // the current token's raw length
	pos  filter.Pos // where the current token starts (see lineends.go)

	rawTag string // x/net's rawTag: the next token is raw text up to this element's end tag
	// cdataAllowed says whether <![CDATA[...]]> is text (in foreign
	// content) rather than a bogus comment, as x/net's AllowCDATA does. It
	// is asked only where it matters ("<![" in the data state; after the
	// hand-over, before each token), so the driver need not say it before
	// every token. nil: never.
	cdataAllowed func() bool

	data       span // text, comment or doctype data, or a tag's name
	textIsRaw  bool // the text is not unescaped (script, style and the like)
	plain      bool // see textIsPlain
	convertNUL bool // Text replaces NUL with U+FFFD (raw text, CDATA)
	// commentPiece: this token is a piece of a comment (pieces.go), set
	// beside the flags above (one store clears them all).
	commentPiece bool
	attrs        []attrSpan
	attrsRead    int
	// lastValEnd is where the value of the last attribute x/net would
	// keep ends: "/>" right after it is that value's, not a self-closing
	// mark.
	lastValEnd int
	// dropped counts the attributes of this tag past maxKeptAttrs that
	// were not kept, and droppedKey sums their identities (attrsKey).
	dropped    int
	droppedKey uint64
	// lastDropped is the last attribute dropped (valid while dropped > 0).
	lastDropped attrSpan
	// attrDecode, when set, decodes an attribute value from the document's
	// charset, as the driver decodes the ones it keeps.
	attrDecode func([]byte) []byte
	// attrNames de-duplicates the attributes of tags that have many: the
	// first attribute kept whose lower-case name has a hash, by hash.
	attrNames map[uint64]int
	attrSeed  maphash.Seed

	// out holds what Text, TagName and TagAttr return when it differs
	// from the raw bytes. It only grows during a token, so an earlier
	// result stays valid when a later one reallocates it.
	out  []byte
	refs [2]map[string]string // rare character references decoded, by x/net, per unescape mode

	x    *html.Tokenizer // x/net's, once it has taken over (see above)
	xRaw []byte          // a copy of x's Raw, which x's Text rewrites in place

	// in, for a document decoded in front of the tokenizer (UTF-16,
	// ISO-2022-JP), maps positions in the decoded text it reads to the
	// input's bytes: pos is then the input's, and dpos where the token
	// starts in the decoded text (the archive copy's offsets). Unused
	// otherwise.
	in   *rawInput
	dpos filter.Pos
	// pooled holds the window's slice for windowPool (nil: made here).
	pooled *[]byte

	// Long text in pieces (pieces.go). piece is the size past which text,
	// raw text and comments are passed in pieces (0: never); cutInWords
	// says a piece may end between two ASCII bytes (UTF-8 or a
	// single-byte charset: no ASCII byte is part of a wider character).
	piece      int
	cutInWords bool
	// pieceCap, while set, caps the window's growth for a raw text scan:
	// more fails past it, setting capped. The scanners note where each of
	// their steps starts (resumeAt) and, in script, in which state.
	pieceCap, resumeAt int
	resumeState        int
	capped             bool
	// scriptState is the state the next piece of a script starts in.
	scriptState int
	// commentCont: the next token goes on with the comment this one is a
	// piece of.
	commentCont bool
	// run is the highest run of reference bytes textCut has measured in
	// the current token (see measureRun).
	run refRun

	// examined counts the bytes the searches for a token's end and for a
	// place to end a piece looked at (a window a scan went over again
	// counts again), a few additions per token or read: the tests that
	// check the work grows linearly with the input read it.
	examined int
}

// span is a range of the current token's raw bytes, relative to its start.
type span struct{ start, end int }

type attrSpan struct{ key, val span }

const (
	firstRead = 4 << 10
	maxRead   = 32 << 10
	// manyAttrs is where de-duplicating a tag's attributes by comparing
	// each with all before it gives way to a map.
	manyAttrs = 16
	// maxKeptAttrs bounds the attributes kept of one tag: past it, only
	// those the builder reads (builderReadsAttr) are kept, de-duplicated; the
	// others count only towards the tag's identity for the Noah's Ark
	// clause (dropped, droppedKey), without being compared with one
	// another. A tag of millions of short distinct attributes, within the
	// token limit, took about 40 times its size in memory to keep them.
	maxKeptAttrs = 1024
	// Character references longer than this are decoded without caching.
	maxCachedRef = 64
)

// newTokenizer returns a tokenizer reading r, with x/net's SetMaxBuf
// limit maxBuf (0: none).
func newTokenizer(r io.Reader, maxBuf int) *tokenizer {
	z := &tokenizer{r: r, maxBuf: maxBuf, readSize: firstRead, pos: filter.StartPos}
	if w, ok := windowPool.Get().(*[]byte); ok {
		if cap(*w) <= maxBuf {
			z.buf, z.pooled = (*w)[:0], w
		} else {
			windowPool.Put(w) // for a document with a larger limit
		}
	}
	return z
}

// windowPool keeps tokenizer windows from one document to the next: a run
// over many documents (a crawl's records) reuses them instead of growing a
// new one from firstRead in each, which was most of what such a run
// allocated. A window larger than maxPooledWindow (a document's long
// token) is let go.
var windowPool sync.Pool

const maxPooledWindow = 1 << 20

// release gives the window back for the next document; the tokenizer
// reads nothing more.
func (z *tokenizer) release() {
	if cap(z.buf) == 0 || cap(z.buf) > maxPooledWindow {
		return
	}
	w := z.pooled
	if w == nil {
		w = new([]byte)
	}
	*w = z.buf[:0]
	z.buf, z.pooled = nil, nil
	windowPool.Put(w)
}

// Pos returns the position of the current token's first byte (Line, Col
// and Offset count from where the tokenizer started, StartPos unless set).
func (z *tokenizer) Pos() filter.Pos { return z.pos }

// mapPositions makes positions count the input's bytes, for input decoded
// by in: every token's position is mapped (advancePosAlone).
func (z *tokenizer) mapPositions(in *rawInput) {
	z.in, z.dpos = in, filter.StartPos
	z.noLineEndBefore = -1
}

// endOffset returns the input's bytes before the current token's end.
func (z *tokenizer) endOffset() int64 {
	if z.in == nil {
		return z.pos.Offset + int64(len(z.Raw()))
	}
	return z.in.inputOffset(z.dpos.Offset + int64(len(z.Raw())))
}

// allowsCDATA reports whether CDATA is allowed now (see cdataAllowed).
func (z *tokenizer) allowsCDATA() bool {
	return z.cdataAllowed != nil && z.cdataAllowed()
}

// NextIsNotRawText is x/net's: the next token is not raw text even though
// the start tag just read (<title>, <script>...) would make it so.
func (z *tokenizer) NextIsNotRawText() {
	z.rawTag = ""
	if z.x != nil {
		z.x.NextIsNotRawText()
	}
}

// Err returns the error of the last ErrorToken: io.EOF at the end of the
// input, html.ErrBufferExceeded, or the reader's error.
func (z *tokenizer) Err() error {
	if z.x != nil {
		return z.x.Err()
	}
	if z.tt != html.ErrorToken {
		return nil
	}
	return z.err
}

// Raw returns the current token's bytes as they are in the input (for an
// ErrorToken, the bytes of a token the input cut short). Valid until the
// next Next; rawStays says whether they stay valid and unchanged after it,
// until beforeMove is called.
func (z *tokenizer) Raw() []byte {
	if z.x != nil {
		return z.xRaw
	}
	return z.buf[z.start : z.start+z.size]
}

// rawStays reports whether Raw's bytes are in buf (not x/net's buffer,
// after the hand-over), where they stay until beforeMove.
func (z *tokenizer) rawStays() bool { return z.x == nil }

// Next scans the next token and returns its type.
func (z *tokenizer) Next() html.TokenType {
	if z.start+z.size <= z.noLineEndBefore {
		z.pos = z.pos.AdvanceInLine(z.size) // no line end in the token before
	} else {
		z.advancePosOverLineEnds()
	}
	z.start += z.size
	z.win = z.win[z.size:]
	if z.winClipped {
		z.setWindow() // the window's end moves too
	}
	z.size = 0
	z.data = span{}
	z.attrs = z.attrs[:0]
	z.attrsRead = 0
	z.out = z.out[:0]
	z.textIsRaw, z.convertNUL, z.plain, z.commentPiece = false, false, false, false
	z.run = refRun{}
	if z.x != nil || z.err != nil || z.rawTag != "" || z.commentCont {
		return z.nextOtherState()
	}
	tt, ok := z.scanData()
	if !ok {
		return z.handOver("")
	}
	z.tt = tt
	return tt
}

// nextOtherState is Next where the next token is not scanned in the data
// state: raw text, after the end of the input, or after the hand-over.
func (z *tokenizer) nextOtherState() html.TokenType {
	if z.x != nil {
		return z.nextFromX()
	}
	if z.err != nil {
		z.tt = html.ErrorToken
		return z.tt
	}
	if z.commentCont {
		z.tt, _ = z.scanCommentFrom(0)
		return z.tt
	}
	rawTag := z.rawTag
	tt, ok := z.scanRawText()
	if !ok {
		return z.handOver(rawTag)
	}
	z.tt = tt
	return tt
}

// scanRawText scans the token after a start tag whose content is raw
// text. It reports false when the input ends or fails inside a token
// (text aside), or when the token reaches the size limit.
func (z *tokenizer) scanRawText() (html.TokenType, bool) {
	if z.rawTag == "plaintext" {
		for searched := 0; ; {
			if n := len(z.win); z.piece > 0 && n >= z.piece {
				if p := z.textCut(z.win, searched, n, rawPieces); p > 0 {
					return z.textPiece(p, true, true) // the next token goes on with it
				}
				searched = n
			}
			if !z.more(len(z.win) + 1) {
				return z.textToEnd(true, true)
			}
		}
	}
	var end, cut int
	var ok bool
	if z.rawTag == "script" {
		end, cut, ok = z.scanRawPiece(z.scanScript)
		z.textIsRaw = true
	} else {
		end, cut, ok = z.scanRawPiece(z.scanRawTextEnd)
		z.textIsRaw = z.rawTag != "textarea" && z.rawTag != "title"
	}
	if cut > 0 {
		z.scriptState = z.resumeState
		return z.textPiece(cut, z.textIsRaw, true)
	}
	escaped := z.scriptState != scriptData
	z.rawTag, z.scriptState = "", scriptData
	if !ok {
		tt, ok := z.textToEnd(z.textIsRaw, true)
		if !ok && escaped {
			// Past the limit with no piece to end: x/net cannot be put in
			// a script's escape, so this is the limit's error here.
			return z.tagCutShort()
		}
		return tt, ok
	}
	if end > 0 {
		z.size, z.data, z.convertNUL = end, span{0, end}, true
		z.plain = !hasTextSpecial(z.win[:end])
		return html.TextToken, true
	}
	// No raw text: the end tag follows at once, read as usual.
	z.textIsRaw = false
	return z.scanData()
}

// textToEnd makes a text token of everything left, as x/net does when the
// input ends in text; the next token is the error. It reports false (hand
// over) when the token reaches the size limit instead.
func (z *tokenizer) textToEnd(textIsRaw, convertNUL bool) (html.TokenType, bool) {
	n := len(z.buf) - z.start
	if z.readErr == nil || z.maxBuf > 0 && n >= z.maxBuf {
		return 0, false
	}
	z.err = z.readErr
	if n == 0 {
		return html.ErrorToken, true
	}
	z.size, z.data = n, span{0, n}
	z.textIsRaw, z.convertNUL = textIsRaw, convertNUL
	z.plain = !hasTextSpecial(z.buf[z.start:])
	return html.TextToken, true
}

// tagCutShort ends a tag that the end of the input, or the size limit,
// cut short as x/net does: with an error token (of every byte left, at
// the end of the input). It does not hand over: x/net would read the
// tag's attributes again and keep them all, at about forty times their
// size in memory for millions of short ones.
func (z *tokenizer) tagCutShort() (html.TokenType, bool) {
	if z.maxBuf > 0 {
		// x/net fails the token once it has read maxBuf bytes of it.
		for z.readErr == nil && len(z.buf)-z.start < z.maxBuf {
			z.fill()
		}
	}
	z.size, z.err = len(z.buf)-z.start, z.readErr
	if z.maxBuf > 0 && z.size >= z.maxBuf {
		z.size, z.err = z.maxBuf, html.ErrBufferExceeded
		// Its bytes may end inside a character that checkUTF8 found
		// whole.
		z.utf8Checked = min(z.utf8Checked, z.start)
	}
	z.win = z.buf[z.start : z.start+z.size]
	return html.ErrorToken, true
}

// handOver gives the input from the current token on to an x/net
// Tokenizer in the state this one was in at the token's start, and
// returns that tokenizer's first token.
func (z *tokenizer) handOver(rawTag string) html.TokenType {
	rest := z.r
	if z.readErr != nil {
		rest = errReader{z.readErr}
	}
	// x/net's raw-text state can only be entered through its start tag.
	// That tag is no longer than the one that started it here, which did
	// not reach the limit, so it does not either.
	var prefix string
	if rawTag != "" {
		prefix = "<" + rawTag + ">"
	}
	if z.beforeMove != nil {
		z.beforeMove() // from here on, Raw is in x/net's buffer
	}
	x := html.NewTokenizer(io.MultiReader(strings.NewReader(prefix), bytes.NewReader(z.buf[z.start:]), rest))
	x.SetMaxBuf(z.maxBuf)
	if prefix != "" {
		x.Next()
	}
	z.x = x
	z.size, z.win = 0, nil
	z.noLineEndBefore = -1 // every token takes advancePosAlone from here on
	return z.nextFromX()
}

func (z *tokenizer) nextFromX() html.TokenType {
	z.x.AllowCDATA(z.allowsCDATA())
	z.tt = z.x.Next()
	z.xRaw = append(z.xRaw[:0], z.x.Raw()...)
	return z.tt
}

// errReader replays the error that ended the input.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// setWindow makes win the bytes a scanner may look at (see win).
func (z *tokenizer) setWindow() {
	end := len(z.buf)
	if z.maxBuf > 0 && end-z.start > z.maxBuf-1 {
		end = z.start + z.maxBuf - 1
	}
	z.win = z.buf[z.start:end]
	z.winClipped = end < len(z.buf)
}

// more makes win hold at least n bytes, reading as needed. It reports
// false when the input ends first, or when x/net would fail a token that
// reads n bytes (n reaches maxBuf). It may move the bytes: callers index
// z.win afresh after it.
func (z *tokenizer) more(n int) bool {
	if z.pieceCap > 0 && n > z.pieceCap && n > len(z.win) {
		z.capped = true // before the limit: a piece may end before it
		return false
	}
	if z.maxBuf > 0 && n >= z.maxBuf {
		return false
	}
	for len(z.buf)-z.start < n && z.readErr == nil {
		z.fill()
	}
	z.setWindow()
	return len(z.win) >= n
}

// fill reads once more from the input (a read that returns nothing 100
// times in a row fails with io.ErrNoProgress, as in x/net). It keeps only
// the current token and what follows, and grows the buffer only when the
// current token leaves too little room.
func (z *tokenizer) fill() {
	if cap(z.buf)-len(z.buf) < z.readSize {
		if z.start > 0 {
			if z.beforeMove != nil {
				z.beforeMove()
			}
			n := copy(z.buf, z.buf[z.start:])
			z.noLFBefore -= z.start
			z.noCRBefore -= z.start
			z.noLineEndBefore -= z.start
			z.utf8Checked = max(z.utf8Checked-z.start, 0)
			z.buf, z.start = z.buf[:n], 0
		}
		if cap(z.buf)-len(z.buf) < z.readSize {
			nb := make([]byte, len(z.buf), max(2*cap(z.buf), len(z.buf)+z.readSize))
			copy(nb, z.buf)
			z.buf = nb
		}
	}
	for range 100 {
		want := cap(z.buf) - len(z.buf)
		n, err := z.r.Read(z.buf[len(z.buf):cap(z.buf)])
		z.buf = z.buf[:len(z.buf)+n]
		if err != nil {
			z.readErr = err
		}
		if n > 0 || err != nil {
			if n == want {
				// Reads grow while the input fills them; a short one
				// (a small document, a slow pipe) does not ask for a
				// bigger buffer.
				z.readSize = min(2*z.readSize, maxRead)
			}
			z.checkUTF8()
			return
		}
	}
	z.readErr = io.ErrNoProgress
}

// checkUTF8 validates what the last read brought, once for the whole
// chunk: the driver then need not validate each text token. A sequence cut
// by the end of the buffer waits for the next read (or, at the end of the
// input, counts as invalid).
func (z *tokenizer) checkUTF8() {
	if z.utf8Bad {
		return
	}
	end := len(z.buf)
	if z.readErr == nil && end > z.utf8Checked {
		end -= incompleteTail(z.buf[z.utf8Checked:end])
	}
	if !utf8.Valid(z.buf[z.utf8Checked:end]) {
		z.utf8Bad = true
		return
	}
	z.utf8Checked = end
}

// tokenIsUTF8 reports whether the current token's raw bytes are valid
// UTF-8, as checkUTF8 found. It may report false for valid bytes (after
// an invalid byte anywhere before or ahead in the buffer, or after the
// hand-over), never true for invalid ones.
func (z *tokenizer) tokenIsUTF8() bool {
	return !z.utf8Bad && z.x == nil && z.start+z.size <= z.utf8Checked
}

// The scanners read win through these helpers, which read more input at
// its end. The hottest loops (text and tags) test for the end of win
// themselves and call the helpers only there: Go does not inline them.

// byteAt returns win[i], reading as needed; false as for more.
func (z *tokenizer) byteAt(i int) (byte, bool) {
	if i < len(z.win) {
		return z.win[i], true
	}
	if !z.more(i + 1) {
		return 0, false
	}
	return z.win[i], true
}

// find returns the index of the first c at or after i, reading as needed.
func (z *tokenizer) find(i int, c byte) (int, bool) {
	for {
		if k := bytes.IndexByte(z.win[i:], c); k >= 0 {
			z.examined += k + 1
			return i + k, true
		}
		z.examined += len(z.win) - i
		i = len(z.win)
		if !z.more(i + 1) {
			return i, false
		}
	}
}

// skipUntil returns the index of the first byte at or after i that stop
// marks, reading as needed.
func (z *tokenizer) skipUntil(i int, stop *[256]bool) (int, bool) {
	for {
		if i = skip(z.win, i, stop); i < len(z.win) {
			return i, true
		}
		if !z.more(i + 1) {
			return i, false
		}
	}
}

// skip returns the index of the first byte at or after i in win that stop
// marks, or len(win).
func skip(win []byte, i int, stop *[256]bool) int {
	for i < len(win) && !stop[win[i]] {
		i++
	}
	return i
}

// Byte sets for skipUntil.
var (
	notSpace    = byteSet(func(c byte) bool { return !isTagSpace(c) })
	tagNameEnd  = byteSet(func(c byte) bool { return isTagSpace(c) || c == '/' || c == '>' })
	attrKeyEnd  = byteSet(func(c byte) bool { return isTagSpace(c) || c == '/' || c == '>' || c == '=' })
	unquotedEnd = byteSet(func(c byte) bool { return isTagSpace(c) || c == '>' })
	// opensMarkup: the bytes after '<' that start a token (one lookup, not
	// four tests whose outcome changes from tag to tag).
	opensMarkup = byteSet(func(c byte) bool { return isASCIILetter(c) || c == '/' || c == '!' || c == '?' })
	dashOrLT    = byteSet(func(c byte) bool { return c == '-' || c == '<' })
)

func byteSet(in func(byte) bool) (set [256]bool) {
	for c := range set {
		set[c] = in(byte(c))
	}
	return set
}

func isTagSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// scanData scans a token in the data state: text up to the next tag,
// comment or the like, or that construct.
func (z *tokenizer) scanData() (html.TokenType, bool) {
	win, lt := z.win, 0
	// plain: no byte that textSpecial marks in win[:lt], as far as
	// indexLT looked; it looks at all of them until the window ends.
	plain, looked := true, true
	searched := 0 // for a place to end a piece (findTextEnd)
	for {
		if lt < len(win) && win[lt] == '<' {
			// Most tokens after text start here.
		} else if k := indexLT(win, lt, &plain); k >= 0 {
			z.examined += k - lt
			lt = k
		} else {
			z.examined += len(win) - lt
			plain, looked = false, false // the text is looked at once it ends
			var cut int
			var ok bool
			if lt, cut, ok = z.findTextEnd(len(win), &searched); !ok {
				return z.textToEnd(false, false)
			} else if cut > 0 {
				return z.textPiece(cut, false, false)
			}
			win = z.win
		}
		if lt+1 == len(win) {
			if z.piece > 0 && lt >= z.piece && lt > searched {
				// A '<' last in a window as long as a piece: a piece may
				// end before it (a run of '<' that open nothing never
				// leaves this loop for findTextEnd).
				if p := z.textCut(win, searched, lt, textPieces); p > 0 {
					return z.textPiece(p, false, false)
				}
				searched = lt
			}
			if !z.more(lt + 2) {
				if z.readErr == nil && z.piece > 0 && lt >= z.piece {
					// The limit, with a '<' last: a piece ends before it.
					if p := z.textCut(win, 0, lt, textPieces); p > 0 {
						return z.textPiece(p, false, false)
					}
				}
				return z.textToEnd(false, false)
			}
			win = z.win
		}
		c := win[lt+1]
		if !opensMarkup[c] {
			lt++
			continue
		}
		if lt > 0 {
			if !looked {
				plain = !hasTextSpecial(win[:lt])
			}
			z.size, z.data, z.plain = lt, span{0, lt}, plain
			return html.TextToken, true
		}
		switch c {
		case '!':
			return z.scanMarkupDecl()
		case '?':
			return z.scanBogusComment(1)
		case '/':
			if len(win) > 2 && isASCIILetter(win[2]) {
				return z.scanTag(2, true)
			}
			return z.scanEndTag()
		}
		return z.scanTag(1, false)
	}
}

// scanEndTag scans what starts with "</".
func (z *tokenizer) scanEndTag() (html.TokenType, bool) {
	if len(z.win) < 3 && !z.more(3) {
		return 0, false
	}
	switch c := z.win[2]; {
	case c == '>':
		// "</>" is no token in HTML; x/net returns it as an empty comment
		// so that Raw() still covers it.
		z.size = 3
		return html.CommentToken, true
	case isASCIILetter(c):
		return z.scanTag(2, true)
	}
	return z.scanBogusComment(2)
}

// scanBogusComment scans a comment whose data runs from i to the next '>'.
func (z *tokenizer) scanBogusComment(i int) (html.TokenType, bool) {
	gt, ok := z.find(i, '>')
	if !ok {
		return 0, false
	}
	z.size, z.data = gt+1, span{i, gt}
	return html.CommentToken, true
}

// scanMarkupDecl scans what starts with "<!": a comment, a doctype, a
// CDATA section (when allowed) or a bogus comment.
func (z *tokenizer) scanMarkupDecl() (html.TokenType, bool) {
	// x/net reads the two bytes after "<!" before deciding.
	if !z.more(4) {
		return 0, false
	}
	if z.win[2] == '-' && z.win[3] == '-' {
		return z.scanComment()
	}
	if match, ok := z.keyword(2, "DOCTYPE", true); !ok {
		return 0, false
	} else if match {
		i, ok := z.skipUntil(2+len("DOCTYPE"), &notSpace)
		if !ok {
			return 0, false
		}
		gt, ok := z.find(i, '>')
		if !ok {
			return 0, false
		}
		z.size, z.data = gt+1, span{i, gt}
		return html.DoctypeToken, true
	}
	if z.allowsCDATA() {
		if match, ok := z.keyword(2, "[CDATA[", false); !ok {
			return 0, false
		} else if match {
			return z.scanCDATA(2 + len("[CDATA["))
		}
	}
	return z.scanBogusComment(2)
}

// keyword reports whether kw stands at i (upper or lower case letters for
// each upper-case one when fold), reading only up to the first byte that
// differs, as x/net does.
func (z *tokenizer) keyword(i int, kw string, fold bool) (match, ok bool) {
	for j := 0; j < len(kw); j++ {
		c, ok := z.byteAt(i + j)
		if !ok {
			return false, false
		}
		if c != kw[j] && !(fold && c == kw[j]+('a'-'A')) {
			return false, true
		}
	}
	return true, true
}

// scanCDATA scans a CDATA section's data, from i to "]]>"; x/net returns
// it as text.
func (z *tokenizer) scanCDATA(i int) (html.TokenType, bool) {
	from := i
	for {
		gt, ok := z.find(i, '>')
		if !ok {
			return 0, false
		}
		if gt-2 >= from && z.win[gt-1] == ']' && z.win[gt-2] == ']' {
			z.size, z.data, z.convertNUL = gt+1, span{from, gt - 2}, true
			return html.TextToken, true
		}
		i = gt + 1
	}
}

// scanComment scans a comment after "<!--". It ends at the first '>'
// that follows "--" or "--!", or only dashes since the data began
// ("<!-->", "<!--->"); the data stops before those.
func (z *tokenizer) scanComment() (html.TokenType, bool) {
	return z.scanCommentFrom(len("<!--"))
}

// scanCommentFrom scans a comment whose data starts at from: after "<!--",
// or at 0 in a piece that goes on with a comment (commentCont).
func (z *tokenizer) scanCommentFrom(from int) (html.TokenType, bool) {
	cont := from == 0
	z.commentCont = false
	limit := z.piece
	if limit > 0 {
		limit = max(limit, minCommentPiece)
	}
	for ; ; limit *= 2 {
		last := limit > 0 && z.lastCap(&limit)
		z.pieceCap, z.capped = limit, false
		tt, ok := z.scanCommentEnd(from, cont)
		z.pieceCap = 0
		switch {
		case ok:
			z.commentPiece = cont
			return tt, true
		case z.capped:
			if p := z.textCut(z.win, from, len(z.win), commentPieces); p > from {
				z.size, z.data = p, span{from, p}
				z.commentCont, z.commentPiece = true, true
				return html.CommentToken, true
			}
			if !last {
				continue
			}
			if cont {
				return z.commentPieceCutShort() // the limit's error
			}
			return 0, false
		case cont:
			// x/net cannot be put inside a comment: end it here.
			return z.commentPieceCutShort()
		default:
			return 0, false
		}
	}
}

// scanCommentEnd finds the end of the comment whose data starts at from
// (see scanCommentFrom).
func (z *tokenizer) scanCommentEnd(from int, cont bool) (html.TokenType, bool) {
	// lead: the run of dashes the data starts with ends here; a piece
	// that goes on with a comment has none.
	lead := from
	if cont {
		lead = -1
	}
	for i := from; ; {
		gt, ok := z.find(i, '>')
		if !ok {
			return 0, false
		}
		win := z.win
		for lead >= 0 && lead < gt && win[lead] == '-' {
			lead++
		}
		dataEnd := -1
		switch {
		case lead == gt, gt-2 >= from && win[gt-1] == '-' && win[gt-2] == '-':
			dataEnd = max(gt-2, from)
		case gt-3 >= from && win[gt-1] == '!' && win[gt-2] == '-' && win[gt-3] == '-':
			dataEnd = gt - 3
		}
		if dataEnd >= 0 {
			z.size, z.data = gt+1, span{from, dataEnd}
			return html.CommentToken, true
		}
		i = gt + 1
	}
}

// scanTag scans a start tag (or an end tag) whose name starts at i, after
// "<" (or "</"), by x/net's rules: the name runs to white space, '/' or
// '>'; each attribute is a name (a leading '=' is part of it) and perhaps
// '=' and a value, quoted or not; a '/' where a name would start is
// skipped; only the first of attributes with the same name (in ASCII
// lower case) is kept, and none of an end tag's.
func (z *tokenizer) scanTag(i int, end bool) (html.TokenType, bool) {
	win, ok := z.win, true
	nameStart := i
	if i = skip(win, i+1, &tagNameEnd); i == len(win) {
		if i, ok = z.skipUntil(i, &tagNameEnd); !ok {
			return z.tagCutShort()
		}
		win = z.win
	}
	z.data = span{nameStart, i}
	z.dropped, z.droppedKey = 0, 0
	if isTagSpace(win[i]) {
		i++
	}
	for {
		if i = skip(win, i, &notSpace); i == len(win) {
			if i, ok = z.skipUntil(i, &notSpace); !ok {
				return z.tagCutShort()
			}
			win = z.win
		}
		if win[i] == '>' {
			i++
			break
		}
		var a attrSpan
		if i, a, ok = z.scanAttr(i); !ok {
			return z.tagCutShort()
		}
		win = z.win
		switch {
		case end || a.key.start == a.key.end:
		case len(z.attrs) == 0:
			z.attrs = append(z.attrs, a) // no name before it to be the same
			z.lastValEnd = a.val.end
		default:
			z.keepAttr(a)
		}
	}
	z.size = i
	if end {
		return html.EndTagToken, true
	}
	if n := z.data.end - z.data.start; n < 16 && rawTextLengths[win[z.data.start]|0x20]>>n&1 != 0 {
		z.setRawTag()
	}
	// "/>" closes the tag unless that '/' is the last byte of the last
	// attribute's unquoted value (<a href=/>), of the last one x/net keeps:
	// past maxKeptAttrs, a dropped one that repeats an earlier name is not.
	if win[i-2] == '/' && (len(z.attrs) == 0 || i-2 != z.lastValEnd-1 ||
		z.dropped > 0 && z.lastValEnd == z.lastDropped.val.end && z.repeatsDroppedName(z.data.end, z.lastDropped)) {
		return html.SelfClosingTagToken, true
	}
	return html.StartTagToken, true
}

// scanAttr scans an attribute at i and returns where the tag goes on.
func (z *tokenizer) scanAttr(i int) (int, attrSpan, bool) {
	win, ok := z.win, true
	keyStart := i
	if win[i] == '=' {
		i++
	}
	if i = skip(win, i, &attrKeyEnd); i == len(win) {
		if i, ok = z.skipUntil(i, &attrKeyEnd); !ok {
			return 0, attrSpan{}, false
		}
		win = z.win
	}
	a := attrSpan{key: span{keyStart, i}, val: span{i, i}}
	j := i
	if j = skip(win, j, &notSpace); j == len(win) {
		if j, ok = z.skipUntil(j, &notSpace); !ok {
			return 0, a, false
		}
		win = z.win
	}
	switch win[j] {
	case '/':
		return j + 1, a, true
	case '=':
	default:
		return j, a, true
	}
	if j = skip(win, j+1, &notSpace); j == len(win) {
		if j, ok = z.skipUntil(j, &notSpace); !ok {
			return 0, a, false
		}
		win = z.win
	}
	switch q := win[j]; q {
	case '>':
		return j, a, true
	case '"', '\'':
		e := j + 1
		if k := bytes.IndexByte(win[e:], q); k >= 0 {
			e += k
		} else if e, ok = z.find(len(win), q); !ok {
			return 0, a, false
		}
		a.val = span{j + 1, e}
		return e + 1, a, true
	}
	e := skip(win, j+1, &unquotedEnd)
	if e == len(win) {
		if e, ok = z.skipUntil(e, &unquotedEnd); !ok {
			return 0, a, false
		}
		win = z.win
	}
	a.val = span{j, e}
	if win[e] == '>' {
		return e, a, true
	}
	return e + 1, a, true
}

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

// setRawTag makes the next token raw text when this start tag's name is
// one of the elements whose content is not markup.
func (z *tokenizer) setRawTag() {
	name := z.win[z.data.start:z.data.end]
	var candidates []string
	switch len(name) {
	case 3:
		candidates = rawText3
	case 5:
		candidates = rawText5
	case 6:
		candidates = rawText6
	case 7:
		candidates = rawText7
	case 8:
		candidates = rawText8
	case 9:
		candidates = rawText9
	}
	for _, e := range candidates {
		if isName(name, e) {
			z.rawTag = e
			return
		}
	}
}

// isName reports whether name is lower, an ASCII lower-case name, in any
// case.
func isName(name []byte, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// rawTextLengths has, for the first letter of each element whose content
// is raw text (in lower case), a bit for the length of its name: most
// start tags are no such element by these two bytes alone.
var rawTextLengths = func() (lengths [256]uint16) {
	for _, names := range [][]string{rawText3, rawText5, rawText6, rawText7, rawText8, rawText9} {
		for _, e := range names {
			lengths[e[0]] |= 1 << len(e)
		}
	}
	return lengths
}()

// The elements whose content is raw text, by the length of their names.
var (
	rawText3 = []string{"xmp"}
	rawText5 = []string{"style", "title"}
	rawText6 = []string{"iframe", "script"}
	rawText7 = []string{"noembed"}
	rawText8 = []string{"noframes", "noscript", "textarea"}
	rawText9 = []string{"plaintext"}
)

// rawEndTag reports whether name (in either case) and a byte that ends a
// tag name stand at i, as x/net's readRawEndTag. next is where to read on:
// just after that byte, or else the first byte that differs.
func (z *tokenizer) rawEndTag(i int, name string) (match bool, next int, ok bool) {
	for j := 0; j < len(name); j++ {
		c, ok := z.byteAt(i + j)
		if !ok {
			return false, 0, false
		}
		if c != name[j] && c != name[j]-('a'-'A') {
			return false, i + j, true
		}
	}
	i += len(name)
	c, ok := z.byteAt(i)
	if !ok {
		return false, 0, false
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return true, i + 1, true
	}
	return false, i, true
}

// findTagOpen finds the next '<' at or after i and the byte after it,
// reading as needed; false as for more.
func (z *tokenizer) findTagOpen(i int) (lt int, next byte, ok bool) {
	if lt, ok = z.find(i, '<'); !ok {
		return 0, 0, false
	}
	next, ok = z.byteAt(lt + 1)
	return lt, next, ok
}

// scanRawTextEnd finds the end of RAWTEXT or RCDATA: the element's end
// tag. It returns the length of the text before it.
func (z *tokenizer) scanRawTextEnd() (int, bool) {
	name := z.rawTag
	i := 0
	z.resumeState = scriptData
	for {
		z.resumeAt = i
		lt, c, ok := z.findTagOpen(i)
		if !ok {
			return 0, false
		}
		if c != '/' {
			i = lt + 1
			continue
		}
		match, next, ok := z.rawEndTag(lt+2, name)
		if !ok {
			return 0, false
		}
		if match {
			return lt, true
		}
		i = next
	}
}

// The states of script data that scanScript keeps between bytes
// (WHATWG 13.2.5, as x/net implements them).
const (
	scriptData = iota
	scriptEscaped
	scriptEscapedDash
	scriptEscapedDashDash
	scriptDoubleEscaped
	scriptDoubleEscapedDash
	scriptDoubleEscapedDashDash
)

// scanScript finds the end of a script's text: its end tag, which
// "<!--" and a "<script" inside it can hide. It returns the length of
// the text before the end tag.
func (z *tokenizer) scanScript() (int, bool) {
	i, state := 0, z.scriptState
	for {
		z.resumeAt, z.resumeState = i, state
		if state == scriptData {
			lt, c, ok := z.findTagOpen(i)
			if !ok {
				return 0, false
			}
			i = lt + 1
			switch c {
			case '/':
				match, next, ok := z.rawEndTag(lt+2, "script")
				if !ok {
					return 0, false
				}
				if match {
					return lt, true
				}
				i = next
			case '!':
				// "<!--" escapes; anything else is read again as script data.
				for j := 2; j < 4; j++ {
					c, ok := z.byteAt(lt + j)
					if !ok {
						return 0, false
					}
					if c != '-' {
						i = lt + j
						break
					}
				}
				if i == lt+1 {
					i, state = lt+4, scriptEscapedDashDash
				}
			}
			continue
		}
		if state == scriptEscaped || state == scriptDoubleEscaped {
			var ok bool
			if i, ok = z.skipUntil(i, &dashOrLT); !ok {
				return 0, false
			}
		}
		c, ok := z.byteAt(i)
		if !ok {
			return 0, false
		}
		i++
		double := state >= scriptDoubleEscaped
		switch c {
		case '-':
			switch state {
			case scriptEscaped:
				state = scriptEscapedDash
			case scriptEscapedDash:
				state = scriptEscapedDashDash
			case scriptDoubleEscaped:
				state = scriptDoubleEscapedDash
			case scriptDoubleEscapedDash:
				state = scriptDoubleEscapedDashDash
			}
		case '>':
			switch state {
			case scriptEscapedDashDash, scriptDoubleEscapedDashDash:
				state = scriptData
			case scriptEscapedDash:
				state = scriptEscaped
			case scriptDoubleEscapedDash:
				state = scriptDoubleEscaped
			}
		case '<':
			lt := i - 1
			c, ok := z.byteAt(i)
			if !ok {
				return 0, false
			}
			switch {
			case c == '/':
				match, next, ok := z.rawEndTag(lt+2, "script")
				if !ok {
					return 0, false
				}
				switch {
				case !double && match:
					return lt, true
				case !double:
					i, state = next, scriptEscaped
				case match:
					// "</script>" ends the double escape; x/net steps
					// over it and its delimiter.
					i, state = next, scriptEscaped
				default:
					i, state = next, scriptDoubleEscaped
				}
			case double:
				state = scriptDoubleEscaped
			case isASCIILetter(c):
				match, next, ok := z.rawEndTag(i, "script")
				if !ok {
					return 0, false
				}
				if match {
					i, state = next, scriptDoubleEscaped
				} else {
					i, state = next, scriptEscaped
				}
			default:
				// x/net reads on in script data here, not escaped.
				state = scriptData
			}
		default:
			if double {
				state = scriptDoubleEscaped
			} else {
				state = scriptEscaped
			}
		}
	}
}

// Text returns the data of a text, comment or doctype token, as x/net's
// Text does: "\r\n" and "\r" become "\n"; NUL becomes U+FFFD in raw
// text, CDATA and comments; character references are replaced except in
// raw text (script, style and the like). Like x/net's, a second call for
// the same token returns nothing. Valid until the next Next.
func (z *tokenizer) Text() []byte {
	if z.x != nil {
		return z.x.Text()
	}
	switch z.tt {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
	default:
		return nil
	}
	s := z.win[z.data.start:z.data.end]
	z.data = span{z.size, z.size}
	return z.clean(s, z.convertNUL || z.tt == html.CommentToken, !z.textIsRaw, false)
}

// TagName returns a tag's name in ASCII lower case, NUL replaced by
// U+FFFD, and whether it has attributes to read with TagAttr. Like x/net's,
// a second call for the same token returns nothing. Valid until the next
// Next.
func (z *tokenizer) TagName() (name []byte, hasAttr bool) {
	if z.x != nil {
		return z.x.TagName()
	}
	if z.data.start >= z.data.end {
		return nil, false
	}
	switch z.tt {
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
	default:
		return nil, false
	}
	s := z.win[z.data.start:z.data.end]
	z.data = span{z.size, z.size}
	return z.lowerName(s), z.attrsRead < len(z.attrs)
}

// tagNameAsIs returns the current tag's name as it stands in the input
// (TagName's is lower-cased, with NUL replaced), and whether the tag has
// attributes to read with TagAttr. Only for tags, before TagName; nil
// after the hand-over, where TagName has the name.
func (z *tokenizer) tagNameAsIs() (name []byte, hasAttr bool) {
	if z.x != nil {
		return nil, false
	}
	return z.win[z.data.start:z.data.end], len(z.attrs) > 0
}

// TagAttr returns a start tag's next attribute: its name as TagName's,
// its value with newlines normalised, NUL replaced by U+FFFD and character
// references replaced (by the rules for attribute values), and whether
// more follow. Valid until the next Next.
func (z *tokenizer) TagAttr() (key, val []byte, more bool) {
	if z.x != nil {
		return z.x.TagAttr()
	}
	if z.attrsRead >= len(z.attrs) || z.tt != html.StartTagToken && z.tt != html.SelfClosingTagToken {
		return nil, nil, false
	}
	a := z.attrs[z.attrsRead]
	z.attrsRead++
	key, val = z.attrKeyVal(a)
	return key, val, z.attrsRead < len(z.attrs)
}

// attrKeyVal returns an attribute's name and value as TagAttr does.
func (z *tokenizer) attrKeyVal(a attrSpan) (key, val []byte) {
	// Most keys are lower case and most values hold no reference: a look
	// here, and lowerName and clean only for those that change.
	key, val = z.win[a.key.start:a.key.end], z.win[a.val.start:a.val.end]
	for _, c := range key {
		if nameChanges[c] {
			key = z.lowerName(key)
			break
		}
	}
	if len(val) >= 8 { // a word at a time (URLs, most often)
		if hasTextSpecial(val) {
			val = z.clean(val, true, true, true)
		}
		return key, val
	}
	for _, c := range val {
		if textSpecial[c] {
			val = z.clean(val, true, true, true)
			break
		}
	}
	return key, val
}

// nameChanges marks the bytes lowerName changes.
var nameChanges = byteSet(func(c byte) bool { return c == 0 || 'A' <= c && c <= 'Z' })

// lowerName returns s in ASCII lower case with NUL replaced by U+FFFD,
// copying only when that changes it.
func (z *tokenizer) lowerName(s []byte) []byte {
	i := skip(s, 0, &nameChanges)
	if i == len(s) {
		return s
	}
	mark := len(z.out)
	out := append(z.out, s[:i]...)
	for _, c := range s[i:] {
		switch {
		case c == 0:
			out = append(out, "\uFFFD"...)
		case 'A' <= c && c <= 'Z':
			out = append(out, c+'a'-'A')
		default:
			out = append(out, c)
		}
	}
	z.out = out
	return out[mark:]
}

// Bytes on which clean changes the text, by what it does.
var (
	cleanCR        = byteSet(func(c byte) bool { return c == '\r' })
	cleanCRNUL     = byteSet(func(c byte) bool { return c == '\r' || c == 0 })
	cleanCRAmp     = byteSet(func(c byte) bool { return c == '\r' || c == '&' })
	cleanCRNULAmp  = byteSet(func(c byte) bool { return c == '\r' || c == 0 || c == '&' })
	cleanSpecial   = [2][2]*[256]bool{{&cleanCR, &cleanCRAmp}, {&cleanCRNUL, &cleanCRNULAmp}}
	replacementNUL = []byte("\uFFFD")
)

// clean returns s with "\r\n" and "\r" as "\n", and, as asked, NUL as
// U+FFFD and character references replaced, copying only when that
// changes it. x/net does these one after the other; none of them makes
// or breaks what another one acts on, so one pass does all three.
func (z *tokenizer) clean(s []byte, nul, unescape, attribute bool) []byte {
	special := cleanSpecial[b2i(nul)][b2i(unescape)]
	i := skip(s, 0, special)
	if i == len(s) {
		return s
	}
	mark := len(z.out)
	out := append(z.out, s[:i]...)
	for i < len(s) {
		c := s[i]
		if !special[c] {
			out = append(out, c)
			i++
			continue
		}
		switch c {
		case '\r':
			out = append(out, '\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case 0:
			out = append(out, replacementNUL...)
			i++
		case '&':
			out, i = z.appendCharRef(out, s, i, attribute)
		}
	}
	z.out = out
	return out[mark:]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendCharRef appends the character reference at s[i] ('&') replaced as
// x/net's unescape does, and returns where the text goes on. A reference
// is replaced on its own bytes alone ("&", then a number or a name, then
// perhaps ';'), except that in an attribute value a name without ';'
// followed by '=' is left alone; numbers and the most common names are
// decoded here, any other name by x/net (and remembered).
func (z *tokenizer) appendCharRef(out, s []byte, i int, attribute bool) ([]byte, int) {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		r, n := numericCharRef(s[i:])
		if n == 0 {
			return append(out, '&'), i + 1
		}
		if r < 0 {
			return append(out, z.rareCharRef(s[i:i+n], false)...), i + n
		}
		return utf8.AppendRune(out, r), i + n
	}
	for j < len(s) && isASCIIAlnum(s[j]) {
		j++
	}
	if j == i+1 {
		return append(out, '&'), i + 1
	}
	semicolon := j < len(s) && s[j] == ';'
	if semicolon {
		j++
	} else if attribute && j < len(s) && s[j] == '=' {
		return append(out, s[i:j]...), j
	}
	if v, ok := commonCharRef(s[i+1 : j]); ok {
		return append(out, v...), j
	}
	return append(out, z.rareCharRef(s[i:j], attribute)...), j
}

func isASCIIAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// numericCharRef decodes "&#digits" or "&#xhex", with perhaps ';', at
// the start of s. n is 0 when no digit follows (no reference). r is -1
// for the numbers 0x80 to 0x9F, which stand for Windows-1252 characters
// (left to x/net's table).
func numericCharRef(s []byte) (r rune, n int) {
	i := 2
	hex := i < len(s) && s[i]|0x20 == 'x'
	if hex {
		i++
	}
	digits := i
	for ; i < len(s); i++ {
		c := s[i]
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case hex && 'a' <= c|0x20 && c|0x20 <= 'f':
			d = rune(c|0x20-'a') + 10
		default:
			goto done
		}
		if r <= utf8.MaxRune {
			if hex {
				r = r*16 + d
			} else {
				r = r*10 + d
			}
		}
	}
done:
	if i == digits {
		return 0, 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	switch {
	case 0x80 <= r && r <= 0x9F:
		return -1, i
	case r == 0, 0xD800 <= r && r <= 0xDFFF, r > utf8.MaxRune:
		return utf8.RuneError, i
	}
	return r, i
}

// commonCharRef decodes the named references that make up most of those
// on real pages (name is what follows '&', with its ';' if any). Each is
// in x/net's table with the same value (a test checks), so the lookup
// x/net does first would find it.
func commonCharRef(name []byte) (string, bool) {
	switch string(name) {
	case "amp;", "amp":
		return "&", true
	case "lt;", "lt":
		return "<", true
	case "gt;", "gt":
		return ">", true
	case "quot;", "quot":
		return `"`, true
	case "apos;":
		return "'", true
	case "nbsp;", "nbsp":
		return "\u00a0", true
	case "copy;", "copy":
		return "©", true
	case "reg;", "reg":
		return "®", true
	case "middot;", "middot":
		return "·", true
	case "raquo;", "raquo":
		return "»", true
	case "laquo;", "laquo":
		return "«", true
	case "hellip;":
		return "…", true
	case "mdash;":
		return "—", true
	case "ndash;":
		return "–", true
	case "lsquo;":
		return "‘", true
	case "rsquo;":
		return "’", true
	case "ldquo;":
		return "“", true
	case "rdquo;":
		return "”", true
	case "bull;":
		return "•", true
	case "trade;":
		return "™", true
	case "euro;":
		return "€", true
	}
	return "", false
}

// rareCharRef decodes a character reference by x/net's own code and
// table, remembering short ones. Text references go through
// html.UnescapeString; attribute values have their own rules (no prefix
// of a longer name is a reference), which only x/net's tokenizer applies,
// so a one-attribute tag carries the reference there (it has no quote).
func (z *tokenizer) rareCharRef(ref []byte, attribute bool) string {
	mode := b2i(attribute)
	if v, ok := z.refs[mode][string(ref)]; ok {
		return v
	}
	var v string
	if attribute {
		x := html.NewTokenizer(strings.NewReader(`<a v="` + string(ref) + `">`))
		x.Next()
		_, val, _ := x.TagAttr()
		v = string(val)
	} else {
		v = html.UnescapeString(string(ref))
	}
	if len(ref) <= maxCachedRef {
		if z.refs[mode] == nil {
			z.refs[mode] = make(map[string]string)
		} else if len(z.refs[mode]) >= 256 {
			clear(z.refs[mode])
		}
		z.refs[mode][string(ref)] = v
	}
	return v
}
