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
