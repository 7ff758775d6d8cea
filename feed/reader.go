package feed

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// The feed reader. xmlquery's stream parser runs encoding/xml, which
// reports a well-formedness error with a line only, reads undeclared
// entities through its Entity map, and leaves out checks the XML stage
// makes. feedReader stands between the document (decoded to UTF-8) and
// the decoder, and:
//
//   - bounds what is read between two entries (MaxEntryTags,
//     MaxEntryBytes);
//   - keeps the last bytes it handed out, and their position, so that the
//     line and column of the point where the decoder stopped can be
//     computed (feedReader.failure);
//   - follows the document's tokens as encoding/xml draws them, and stops
//     the decoder with a positioned error where the XML stage finds an
//     error encoding/xml finds late or not at all: an illegal character or
//     invalid UTF-8 in text, an attribute value or a CDATA section (at the
//     character, where encoding/xml reports the token's end), an illegal
//     character reference, text outside the root element, a second root
//     element, no root element, a DOCTYPE after another or after the root,
//     another markup declaration outside the internal subset;
//   - keeps the robots PIs, wherever they are, with their position
//     (records_pi.go);
//   - reads the DOCTYPE's internal subset and the XML declaration, and
//     fills the decoder's Entity map before each entity reference is read,
//     as the XML stage reads entities (feedEntities), noting references to
//     entities with markup, which read as nothing, for the warnings of the
//     entry that holds them (feedReader.note).
//
// The decoder reads the bytes handed out before an error first: the entries
// that end before it are returned, then the error.
type feedReader struct {
	r    io.Reader
	ents *feedEntities
	win  posWindow
	off  int64  // bytes handed out
	held []byte // bytes scanned and not handed out yet: a character's first bytes
	err  error  // once set, every Read returns it

	// The entries bound: where each tag read since the last entry's end
	// starts (entryDone keeps those past it: the reader hands out bytes
	// past an entry's end before the parser returns the entry; at most
	// MaxEntryTags and a read's more, then Read stops), the bytes read
	// since, the offset of the first byte past the limit (valid once the
	// count is past it), and the entries so far.
	tagAt     []int64
	bytes     int
	bytesOver int64
	entries   int

	notes    []feedNote // references to entities with markup, not yet in a entry
	notesMax int        // how many notes before they are thinned

	// Robots PIs (records_pi.go): those read and not yet in a entry, the
	// one being read (while its target may be robots), and what the first
	// legal one said; the DOCTYPE's position, for those of its internal
	// subset.
	pis          []feedPI
	piText       []byte
	piOn         bool
	piRun        int // white space bytes ending piText
	robots       robotsPIs
	doctypePos   filter.Pos
	placeDoctype bool // doctypePos is still to be placed

	maxToken int

	// The tokenizer: where encoding/xml's tokens start and end, as much as
	// the checks above need.
	st        feedState
	back      feedState // the state a reference returns to
	depth     int
	rootSeen  bool
	rootDone  bool
	doctype   bool // a DOCTYPE was read
	textStart int64
	tagStart  int64
	slash     bool    // the last byte of a start tag was '/'
	quote     byte    // the quote of the attribute value being read
	prev      [2]byte // the last bytes of a comment, PI or CDATA section
	match     int     // bytes of "-" or "CDATA[" matched after "<!"
	dirQuote  byte    // encoding/xml's directive: the open quote,
	dirDepth  int     // the depth of '<' in it,
	dirLT     int     // and the bytes of "!--" matched after a '<'
	name      []byte  // a start tag's name or a directive's first word (clipped)
	capture   []byte  // a PI (the XML declaration or another) or the DOCTYPE, as read
	capturing bool
	// markupSeen: a tag, comment, PI or declaration has started; the XML
	// declaration may follow only white space (xmlstream.ProcInstError).
	markupSeen, piFirst bool
	// split: encoding/xml ended the DOCTYPE inside its internal subset (at
	// a '>' in a PI there): what follows up to the root element is kept
	// with it, and read as the DOCTYPE when the root starts; the checks
	// of the prolog are off meanwhile.
	split        bool
	doctypeStart int64
	refStart     int64
	ref          []byte
	refLong      bool
	runeBuf      [utf8.UTFMax]byte
	runeN        int
	runeNeed     int
	runeStart    int64
}

type feedState uint8

const (
	fsText       feedState = iota // character data (and between tokens)
	fsLT                          // after '<'
	fsStartName                   // a start tag's name
	fsStartTag                    // the rest of a start tag
	fsAttrValue                   // a quoted attribute value
	fsEndTag                      // after "</"
	fsPI                          // after "<?"
	fsBang                        // after "<!"
	fsBangDash                    // after "<!-"
	fsCDATAOpen                   // after "<![", matching "CDATA["
	fsCDATA                       // a CDATA section's text
	fsComment                     // after "<!--"
	fsDirective                   // a markup declaration (the DOCTYPE)
	fsDirFirst                    // its first word
	fsDirComment                  // a comment inside it
	fsRef                         // after '&'
	fsRefName                     // an entity reference's name
	fsCharRef                     // after "&#"
	fsDone                        // encoding/xml reports an error here: nothing more is checked
)

// feedBufSize is the size of the buffer xmlquery reads through: its
// default, so that it takes Process' reader as it is.
const feedBufSize = 4096

// feedRead is the most a feedReader hands out at once, so that what the
// parser's buffer holds ahead of the parser (and is counted too early by
// the entry bounds) stays small.
const feedRead = 512

// feedNameMax bounds the names kept for messages and entity references.
const feedNameMax = 256

func newFeedReader(r io.Reader, charset string, bom int, opts robofilter.Options) *feedReader {
	maxToken := opts.MaxTokenSize
	if maxToken <= 0 {
		maxToken = filter.DefaultMaxTokenSize
	}
	f := &feedReader{r: r, maxToken: maxToken, ents: newFeedEntities(min(maxToken, xmlstream.MaxEntityExpansion))}
	f.win.u, f.win.hold = newFeedUnits(charset), math.MaxInt64
	f.win.pos = filter.Pos{Offset: int64(bom), Line: 1, Col: 1 + bom}
	return f
}

func (f *feedReader) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if len(f.tagAt) > MaxEntryTags || f.bytes > MaxEntryBytes {
		// The decoder read everything handed out without completing a
		// entry (else Process would have reset the counts).
		f.err = f.tooLarge()
		return 0, f.err
	}
	if len(p) > feedRead {
		p = p[:feedRead]
	}
	// First the bytes held back (scanned already), then new ones.
	h := copy(p, f.held)
	f.held = append(f.held[:0], f.held[h:]...)
	var n int
	var err error
	if len(f.held) == 0 {
		n, err = f.r.Read(p[h:])
	}
	k, fe := f.scan(p[h:h+n], f.off+int64(h))
	end := h + k
	if fe == nil && err == io.EOF {
		fe = f.atEOF(f.off + int64(end))
	}
	// A multi-byte character is handed out whole, or not at all when it
	// is the error: before an error the decoder checks the text it holds,
	// and would find a cut character invalid (and report that instead).
	if f.runeN > 0 && f.st != fsDone && f.runeStart >= f.off && (fe != nil || err == nil && len(p) > utf8.UTFMax) {
		cut := int(f.runeStart - f.off)
		if fe == nil {
			f.held = append(f.held, p[cut:end]...)
		}
		end = min(end, cut)
	}
	f.win.add(p[:end])
	f.placeNotes()
	f.placePIs()
	if f.bytes <= MaxEntryBytes && f.bytes+end > MaxEntryBytes {
		f.bytesOver = f.off + int64(MaxEntryBytes-f.bytes)
	}
	f.bytes += end
	f.off += int64(end)
	switch {
	case fe != nil:
		f.err = &filter.PosError{Pos: f.pos(fe), Err: fe.err}
		return end, f.err
	case err != nil && err != io.EOF:
		f.err = err // a read error: returned as it is
	case len(f.held) > 0:
		return end, nil // the end of the input, if it comes, after them
	}
	return end, err
}

// entryDone starts the entries bound's counts afresh from stop, where the
// entry the stream parser returned ends: what was handed out after it
// counts towards the next. Where the bound was passed before stop, the
// entry is no entry to return (read in smaller reads, the error would
// have come before it): it returns the bound's error.
func (f *feedReader) entryDone(stop int64) error {
	if len(f.tagAt) > MaxEntryTags && f.tagAt[MaxEntryTags] < stop || f.bytes > MaxEntryBytes && f.bytesOver < stop {
		f.err = f.tooLarge()
		return f.err
	}
	k := 0
	for k < len(f.tagAt) && f.tagAt[k] < stop {
		k++
	}
	f.tagAt = f.tagAt[:copy(f.tagAt, f.tagAt[k:])]
	f.bytes = int(f.off - stop)
	f.entries++
	return nil
}

// tooLarge is the entries bound's error, at the first tag or byte past
// the limit (whichever came first).
func (f *feedReader) tooLarge() error {
	tags := len(f.tagAt)
	at := int64(math.MaxInt64)
	if tags > MaxEntryTags {
		at = f.tagAt[MaxEntryTags]
	}
	what := fmt.Sprintf("more than %d tags", MaxEntryTags)
	if f.bytes > MaxEntryBytes && (tags <= MaxEntryTags || f.bytesOver < at) {
		what, at = fmt.Sprintf("more than %d bytes", MaxEntryBytes), f.bytesOver
	}
	since, done := "since the start of the document", "before any record"
	if f.entries > 0 {
		since, done = fmt.Sprintf("since record %d ended", f.entries), fmt.Sprintf("after record %d", f.entries)
	}
	return &filter.PosError{Pos: f.win.at(at), Err: fmt.Errorf(
		"%w: %s read %s (the limits between two records are %d tags and %d bytes; an XPath that matches no records reads the whole document as one); output stops here, %s",
		ErrEntryTooLarge, what, since, MaxEntryTags, MaxEntryBytes, done)}
}

// headBytes reads through and keeps the first bytes of the document, for
// its byte order mark.
type headBytes struct {
	r    io.Reader
	head []byte
}

func (h *headBytes) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if len(h.head) < 3 {
		h.head = append(h.head, p[:min(n, 3-len(h.head))]...)
	}
	return n, err
}

// bom is the length of the byte order mark the document starts with, in
// the charset chosen (UTF8Reader drops it).
func (h *headBytes) bom(charset string) int {
	switch {
	case charset == "utf-8" && bytes.HasPrefix(h.head, []byte("\xEF\xBB\xBF")):
		return 3
	case charset == "utf-16le" && bytes.HasPrefix(h.head, []byte("\xFF\xFE")),
		charset == "utf-16be" && bytes.HasPrefix(h.head, []byte("\xFE\xFF")):
		return 2
	}
	return 0
}
