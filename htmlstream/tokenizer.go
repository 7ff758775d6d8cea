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
