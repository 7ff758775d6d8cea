package htmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/net/html"
	a "golang.org/x/net/html/atom"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// Options configure the HTML stage.
type Options struct {
	MaxDepth     int    // 0: filter.DefaultMaxDepth
	MaxTokenSize int    // 0: filter.DefaultMaxTokenSize
	Charset      string // a label that overrides detection ("" to detect)
	ContentType  string // an HTTP Content-Type, for its charset parameter

	// deepFrom is where the stack's index starts (deepstack.go), 0 for
	// defaultDeepFrom; tests set it low to run the index on every page.
	deepFrom int
	// afterToken, when set, sees the builder after each token (tests).
	afterToken func(*builder)
	// piece, when set, is the tokenizer's piece size (tests set it low to
	// pass every text in pieces).
	piece int
}

// Run reads an HTML document once and feeds the core. It never fails on
// bad markup; it returns an error only for reading failures and exceeded
// limits, after everything before that point has been fed. The caller
// calls core.Finish afterwards in every case.
func Run(r io.Reader, core *filter.Core, opts Options) error {
	b, err := run(r, core, opts)
	if b != nil && b.done != nil {
		b.done()
	}
	return err
}

// run is Run, also returning the builder (tests read its counters).
func run(r io.Reader, core *filter.Core, opts Options) (*builder, error) {
	in, err := openInput(r, opts, core.WantsArchive())
	if err != nil {
		return nil, err
	}
	core.SetResultInfo("html", in.name)
	switch {
	case in.raw != nil:
		core.SetEllipsis(rawEllipsis(in.enc, in.name, core.Ellipsis()))
	case in.enc != nil:
		core.SetEllipsis(ellipsisIn(in.enc, core.Ellipsis()))
	}
	if in.withheld { // every command says so: check reports what archive would do
		core.Warn(filter.StartPos, "the charset is WHATWG's replacement encoding (ISO-2022-KR, ISO-2022-CN, HZ-GB-2312 and the like), "+
			"which browsers do not decode: the page reads as one U+FFFD, its robots directives cannot be read, and no archive copy is written")
	}
	maxTok := opts.MaxTokenSize
	if maxTok <= 0 {
		maxTok = filter.DefaultMaxTokenSize
	}
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = filter.DefaultMaxDepth
	}
	z := newTokenizer(in.r, maxTok)
	z.piece = filter.TextPiece(maxTok)
	if opts.piece > 0 {
		z.piece = opts.piece
	}
	_, singleByte := in.enc.(*charmap.Charmap)
	z.cutInWords = in.dec == nil || singleByte
	if len(in.bom) > 0 {
		core.SetPos(z.pos)
		core.Archive(in.bom, true)
		if in.raw == nil {
			z.pos = z.pos.Advance(in.bom) // in UTF-16, rawInput counts it
		}
	}
	if in.raw != nil {
		z.mapPositions(in.raw)
	}
	deepFrom := opts.deepFrom
	if deepFrom <= 0 {
		deepFrom = defaultDeepFrom
	}
	b := newBuilder(core, z, maxDepth, deepFrom)
	b.afterToken = opts.afterToken != nil
	b.charset = in
	d := &driver{b: b, core: core, z: z, dec: in.dec, fallback: in.fallback, raw: in.raw,
		archive: core.WantsArchive() && !in.withheld, all: core.WantsSource(), pendingEnd: -1}
	d.utf8 = d.dec == nil && d.fallback == nil
	if d.dec != nil {
		z.attrDecode = d.decodeValue // the values of attributes past maxKeptAttrs
	}
	if d.archive {
		z.beforeMove = d.passPending
		core.ArchivePending(d.passPending)
		core.ArchiveMarkable(b.ellipsisCanStand)
	}
	b.done = func() {
		// The tokens the archive copy has not been given yet are in the
		// window: given now, so that the window can go back to the pool
		// before the core finishes.
		if d.archive {
			d.passPending()
			core.ArchivePending(nil)
		}
		z.release()
	}
	z.cdataAllowed = func() bool { // in foreign content
		top := b.top()
		return top != b.doc && top.ns != nsHTML
	}
	core.FollowPos(&z.pos) // as the builder reads it from z
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			pos := z.Pos()
			if z.Err() == io.EOF {
				// A tag or comment cut off by the end of input is no token,
				// but its bytes are part of the document.
				if d.archive {
					d.passPending()
					d.archiveBytes(z.Raw(), z.dpos.Offset, core.ArchiveOn(&b.top().scope))
					if d.raw != nil {
						d.raw.end(core)
					}
				}
				d.eof()
				return b, nil
			}
			d.eof()
			if errors.Is(z.Err(), html.ErrBufferExceeded) {
				return b, filter.LimitError(pos, filter.ErrTokenTooLong, maxTok)
			}
			return b, &filter.PosError{Pos: pos, Err: fmt.Errorf("reading: %w", z.Err())}
		}
		d.token(tt)
		if b.afterToken {
			if opts.afterToken != nil {
				opts.afterToken(b)
			}
			if b.depthErr {
				pos := z.Pos()
				d.eof()
				return b, filter.LimitError(pos, filter.ErrTooDeep, maxDepth)
			}
		}
	}
}

// driver feeds one token at a time to the builder and the archive copy.
type driver struct {
	b    *builder
	core *filter.Core
	z    *tokenizer
	dec  *encoding.Decoder // nil for UTF-8 input
	// fallback decodes a text token that is not valid UTF-8 in a document
	// no label declares (see openInput).
	fallback *encoding.Decoder
	utf8     bool   // neither dec nor fallback: the input is read as UTF-8
	attrs    []attr // reused from tag to tag
	archive  bool   // the archive copy is wanted
	all      bool   // it is Outputs.Source: every byte, nothing elided
	// raw, for a charset that is not ASCII-compatible, has the original
	// bytes of what the tokenizer reads decoded: the copy takes those.
	raw *rawInput
	// pendingStart and pendingEnd are the tokens to copy put off, in the
	// tokenizer's buffer (archiveRaw); pendingEnd is -1 when there are none.
	// pendingOff is where they start in the decoded input (for raw).
	pendingStart, pendingEnd int
	pendingOff               int64
	names                    nameCache    // tag names' atoms
	interned                 filter.Names // unknown elements' names
	// joinedClass and joinedRel hold a class or rel value a typographic
	// quote left open, with the tokens it took (joinQuoted).
	joinedClass, joinedRel []byte
}

func (d *driver) token(tt html.TokenType) {
	b, c := d.b, d.core
	switch tt {
	case html.TextToken:
		var data []byte
		plain := d.utf8 && d.z.textIsPlain()
		if plain {
			data = d.z.Raw() // which Text would copy
		} else {
			data, plain = d.text()
		}
		b.tok.setText(data)
		b.tok.noNUL = plain
		b.tok.utf8 = d.utf8 && d.z.tokenIsUTF8()
		b.textOn, b.textOff = false, false
		b.parseCurrentToken()
		if d.archive {
			// Where the text landed decides; text that landed nowhere
			// (whitespace the modes drop) follows the current node.
			on := b.textOn
			if b.textOff {
				on = false
			} else if !b.textOn {
				on = c.ArchiveOn(&b.top().scope)
			}
			d.archiveRaw(on)
		}
	case html.StartTagToken, html.SelfClosingTagToken:
		d.readTag(tt)
		if b.tok.atom == 0 && b.tok.name == "noindex" {
			b.flushTail()
			c.Toggle(filter.DialectYandex, "<noindex>", filter.NoIndex, 0)
		}
		b.tokNode = nil
		b.parseCurrentToken()
		if !d.archive {
			return
		}
		if b.tokNode == nil {
			d.archiveRaw(c.ArchiveOn(&b.top().scope))
			return
		}
		// A void element is off the stack, and its node perhaps free,
		// already: only an open element's end tag can follow.
		if b.tokOn {
			d.archiveRaw(true)
			b.startCopied(b.tokNode)
			return
		}
		switch parentOn := b.tokParentOn; {
		case parentOn && b.tokVoid:
			d.elide()
			d.archiveRaw(false) // a second elision writes nothing; Outputs.Source takes the bytes
		case parentOn:
			d.archiveRaw(true)
			b.startCopied(b.tokNode)
			d.elide()
		default:
			d.archiveRaw(false)
		}
	case html.EndTagToken:
		before := d.archive && c.ArchiveOn(&b.top().scope)
		d.readTag(tt)
		b.endMatched = false
		b.parseCurrentToken()
		if b.tok.atom == 0 && b.tok.name == "noindex" {
			b.flushTail()
			c.Toggle(filter.DialectYandex, "</noindex>", 0, filter.NoIndex)
		}
		if !d.archive {
			return
		}
		// An end tag goes with its start tag where a comment region
		// crosses it (leftStack).
		on := before || c.ArchiveOn(&b.top().scope) || b.endMatched && b.endStartCopied && bareEndTag(d.z.Raw())
		if !on && (b.tok.atom == a.Body || b.tok.atom == a.Html) {
			// </body> and </html> close nothing (the elements stay open to
			// the end), but they are the region's own end tags.
			on = d.ownTagArchived(b.tok.atom)
		}
		d.archiveRaw(on)
	case html.CommentToken:
		data := d.z.Text()
		b.tok.setText(data)
		b.tok.typ = tt
		b.commentTo = nil
		b.parseCurrentToken() // inserts the comment; no element opens or ends
		where := b.top()
		if b.commentTo != nil {
			where = b.commentTo
		}
		before := d.archive && c.ArchiveOn(&where.scope)
		c.MarkerComment(data, len(d.z.Raw()) > filter.MaxMarkerComment || d.z.commentPiece)
		if d.archive {
			d.archiveRaw(before || c.ArchiveOn(&where.scope))
		}
	case html.DoctypeToken:
		b.tok.setText(d.z.Text())
		b.tok.typ = tt
		b.parseCurrentToken()
		if d.archive {
			d.archiveRaw(c.ArchiveOn(&b.top().scope))
		}
	}
}

// archiveRaw passes the current token's bytes to the archive copy, or
// elides them. Tokens to copy that follow one another in the tokenizer's
// buffer are passed at once (passPending), when the core asks for them
// (before it does anything else to the copy) or the buffer moves: most
// tokens then cost the core nothing.
func (d *driver) archiveRaw(on bool) {
	if on && d.z.start == d.pendingEnd {
		d.pendingEnd += d.z.size
		return
	}
	d.archiveToken(on)
}

func (d *driver) archiveToken(on bool) {
	d.passPending()
	if on && d.z.rawStays() {
		d.pendingStart, d.pendingEnd, d.pendingOff = d.z.start, d.z.start+d.z.size, d.z.dpos.Offset
		return
	}
	d.archiveBytes(d.z.Raw(), d.z.dpos.Offset, on)
}

// passPending passes the tokens put off (buf[pendingStart:pendingEnd]).
func (d *driver) passPending() {
	if d.pendingEnd < 0 {
		return
	}
	b := d.z.buf[d.pendingStart:d.pendingEnd]
	d.pendingEnd = -1 // first: Archive calls back
	d.archiveBytes(b, d.pendingOff, true)
}

// archiveBytes passes bytes the tokenizer read, at offset off of what it
// reads (z.dpos, which only decoded input keeps), to the archive copy, or
// elides them: the original bytes where the input was decoded in front of
// the tokenizer.
func (d *driver) archiveBytes(b []byte, off int64, on bool) {
	if d.raw != nil {
		d.raw.archive(d.core, b, off, on || d.all)
		return
	}
	d.core.Archive(b, on)
}

// elide writes the ellipsis where a no-archive region starts.
func (d *driver) elide() {
	d.core.Elide()
	if d.raw != nil && !d.all {
		d.raw.elided()
	}
}

// bareEndTag reports whether an end tag holds nothing but its name: the
// "attributes" an end tag may carry are bytes of the region that crosses
// it, which a copy of the tag would let through.
func bareEndTag(raw []byte) bool {
	i := 2 // "</"
	for i < len(raw) && !tagNameEnd[raw[i]] {
		i++
	}
	for ; i < len(raw)-1; i++ {
		if c := raw[i]; c != '/' && !isTagSpace(c) {
			return false
		}
	}
	return true
}

// ownTagArchived reports whether the open body or html element's own tags
// belong in the archive: its parent, or it, is archived.
func (d *driver) ownTagArchived(x a.Atom) bool {
	b, c := d.b, d.core
	if !b.stackContains(x) {
		// None open (a frameset document has no body): no walk of the
		// whole stack for each "</body>".
		return false
	}
	for i, n := range b.oe {
		if n.atom != x || n.ns != nsHTML {
			continue
		}
		parent := b.doc.scope
		if i > 0 {
			parent = b.oe[i-1].scope
		}
		return n.startCopied || c.ArchiveOn(&parent) || c.ArchiveOn(&n.scope)
	}
	return false
}

// text returns the current text token's character data as UTF-8.
// It also reports whether that is the token's raw bytes and they are plain
// text (textIsPlain: in particular, no NUL).
func (d *driver) text() (data []byte, plain bool) {
	if d.dec == nil {
		plain := d.z.textIsPlain()
		var t []byte
		if plain {
			t = d.z.Raw() // which Text would copy
		} else {
			t = d.z.Text()
		}
		if d.fallback == nil || utf8.Valid(t) {
			return t, plain
		}
		return d.decodeRaw(d.fallback), false
	}
	return d.decodeRaw(d.dec), false
}

// decodeRaw decodes the token's own bytes, then resolves character
// references (which are Unicode, not the charset).
func (d *driver) decodeRaw(dec *encoding.Decoder) []byte {
	raw := d.z.Raw()
	out, err := dec.Bytes(raw)
	if err != nil {
		out = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	switch d.b.top().atom {
	case a.Script, a.Style, a.Xmp, a.Iframe, a.Noembed, a.Noframes, a.Noscript, a.Plaintext:
		return out
	}
	if bytes.IndexByte(out, '&') < 0 {
		return out
	}
	return []byte(html.UnescapeString(string(out)))
}

func hasHighBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// eof ends the document: the parser's end-of-file handling, then every
// element still open closes.
func (d *driver) eof() {
	b := d.b
	b.flushTail()
	b.tok = token{typ: html.ErrorToken}
	b.parseCurrentToken()
	b.popTo(0)
	for len(b.afe) > 0 {
		n := b.afe[len(b.afe)-1]
		b.afe = b.afe[:len(b.afe)-1]
		if n != scopeMarker {
			b.afeDropped(n)
		}
	}
	b.pin(&b.head, nil)
	b.pin(&b.form, nil)
	if b.afeKeyCount != 0 { // the list is empty, so the table should be
		*b.afeKeys = alikeCounts{}
	}
	alikePool.Put(b.afeKeys)
	b.afeKeys = nil
}
