package filter

import (
	"errors"
	"fmt"
)

// Default limits of the format parsers. Memory is bounded by nesting depth
// times what a parser keeps per open element, plus about twice the longest
// token; both limits are configurable, and exceeding one is an error.
const (
	DefaultMaxDepth     = 250_000
	DefaultMaxTokenSize = 16 << 20
)

// TextPiece is the size past which the parsers pass a long text on in
// pieces (HTML text, raw text and comments; XML text nodes), so that text
// is not held to the token size limit maxToken: 1 MiB, or half the limit
// where that is less.
func TextPiece(maxToken int) int { return min(1<<20, maxToken/2) }

// MaxBaseLen bounds a base URL (the document's, a <base href>, an
// xml:base), as written and resolved: every relative link's URL repeats
// its base, so a long one multiplies the links output. A page of one 8 KB
// <base href> and a million <a href=#> (15 MB) gave 8 GB of links; with
// 2 KiB, the links output is at most about 140 times the input. 2,048
// bytes is the bound sitemaps put on a URL, and about what browsers and
// crawlers have long taken (2,083); no real page's base comes near it.
const MaxBaseLen = 2 << 10

// The limit errors, the same for every format; parsers return them wrapped
// in a *PosError that says where the limit was exceeded.
var (
	ErrTooDeep      = errors.New("elements nested deeper than the depth limit")
	ErrTokenTooLong = errors.New("a token (tag, text, comment, CDATA section or DOCTYPE) longer than the token size limit")
)

// LimitError is the error for a limit exceeded at pos.
func LimitError(pos Pos, err error, limit int) error {
	return &PosError{Pos: pos, Err: fmt.Errorf("%w (limit %d); output stops here", err, limit)}
}
