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

// MaxBaseLen bounds a base URL (the document's, a <base href>, an
// xml:base), as written and resolved: every relative link's URL repeats
// its base, so a long one would multiply the links output (a 350 KB page
// with one long base gave 2 GB of links). Browsers and crawlers take far
// shorter URLs (sitemaps: 2,048 characters).
const MaxBaseLen = 8 << 10

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
