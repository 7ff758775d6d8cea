package feed

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// Errors in entries mode: where encoding/xml's errors are placed, and the
// errors the feed reader finds itself, at the XML stage's positions.

// feedError is an error the tokenizer found, at a decoded offset.
type feedError struct {
	off int64
	err error
	// inDoctype: off is in the DOCTYPE, whose bytes the feed reader holds
	// (capture): it is placed from the DOCTYPE's start, which the window
	// of positions may no longer hold.
	inDoctype bool
}

func notWellFormedAt(off int64, format string, args ...any) *feedError {
	return &feedError{off: off, err: fmt.Errorf("%w: %s", xmlstream.ErrNotWellFormed, fmt.Sprintf(format, args...))}
}

// pos is where an error stands; the bytes up to it were handed out and
// placed (placePIs).
func (f *feedReader) pos(fe *feedError) filter.Pos {
	if fe.inDoctype {
		return f.win.u.advance(f.doctypePos, f.capture[:fe.off-f.doctypeStart], f.doctypeStart)
	}
	return f.win.at(fe.off)
}

// failure is the error Process returns for err, which the stream
// parser returned when buffered bytes handed out were still unread.
func (f *feedReader) failure(err error, buffered int) error {
	if f.err != nil && err == f.err {
		return err // the feed reader's own, positioned already (or a bound)
	}
	stop := f.off - int64(buffered) // the decoder read everything before
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return &filter.PosError{Pos: f.syntaxErrorPos(se.Msg, stop), Err: fmt.Errorf("%w: %s", xmlstream.ErrNotWellFormed, se.Msg)}
	}
	// xmlquery's own (a namespace prefix nobody declared, found at the end
	// of a start tag) and the decoder's others (an XML version it does not
	// know): at the markup that holds it.
	return &filter.PosError{Pos: f.win.at(f.win.lastIndex(stop, "<", stop-1)), Err: fmt.Errorf("records: %w", err)}
}

// syntaxErrorPos places an encoding/xml syntax error, given where the
// decoder stopped (stop: it read everything before). encoding/xml stops
// right after the byte that is wrong (a byte it put back counts as read):
// the error is at that byte, except where it is about something the
// decoder read earlier, or about the end of the input.
func (f *feedReader) syntaxErrorPos(msg string, stop int64) filter.Pos {
	last := max(stop-1, 0)
	var at int64
	switch {
	case strings.HasPrefix(msg, "unexpected EOF"):
		at = stop // the end of the input
	case strings.Contains(msg, " closed by </"), strings.HasPrefix(msg, "unexpected end element </"):
		at = f.win.lastIndex(stop, "<", last) // the end tag (it holds no '<')
	case strings.HasPrefix(msg, "invalid character entity "):
		ref := strings.TrimSuffix(strings.TrimPrefix(msg, "invalid character entity "), " (no semicolon)")
		at = f.win.lastIndex(stop, ref, last)
	case msg == `invalid sequence "--" not allowed in comments`, msg == "unescaped ]]> not in CDATA section":
		at = max(stop-3, 0) // the "--" or the "]]>"
	case strings.HasPrefix(msg, "invalid XML name: "):
		// The name ended at the byte put back.
		at = max(last-int64(len(msg)-len("invalid XML name: ")), 0)
	default:
		at = last
	}
	return f.win.at(at)
}

// atEOF checks the end of the input, at decoded offset end.
func (f *feedReader) atEOF(end int64) *feedError {
	if f.st == fsText && !f.rootSeen {
		return notWellFormedAt(end, "no root element")
	}
	return nil
}
