package filter

import (
	"bytes"
	"strings"

	"github.com/robofilter/robofilter/internal/quote"
)

// CommentMarker is what a comment says in the comment dialects, whose
// regions cross element boundaries: Yandex's <!--noindex--> and
// <!--/noindex-->, and the Google Search Appliance's googleoff and googleon
// with their flags (index, anchor, snippet, all).
type CommentMarker struct {
	Dialect Dialects // DialectYandex or DialectGoogleOff; 0: not a marker
	Text    string   // the comment's text, trimmed: "googleoff: index"
	Off, On Switch   // what it turns off, and back on
	Unknown []string // googleoff/googleon flags that name nothing
	// NearMiss: the comment starts as a googleoff or googleon marker but
	// is none ("googleoff index", without the colon); Dialect is 0, and
	// the reader warns: its author meant a region that does not apply.
	NearMiss bool
}

// maxUnknownFlags bounds the unknown flags a marker reports (each is a
// warning), however long its comment.
const maxUnknownFlags = 10

// MaxMarkerComment is the longest comment, as written from "<!--" to
// "-->", that can be a marker: HTML passes longer comments in pieces, as
// they come, and a marker is a few words. The stages check the comment as
// written (its text can be much shorter: "&amp;" in HTML is one byte);
// ParseCommentMarker checks its text against the same bound less the
// delimiters.
const MaxMarkerComment = 1 << 10

// ParseCommentMarker reads a comment's text (between "<!--" and "-->").
// A marker whose flags are all unknown has a Dialect and no switches.
func ParseCommentMarker(data []byte) CommentMarker {
	if len(data) > MaxMarkerComment-len("<!---->") {
		return CommentMarker{}
	}
	data = bytes.TrimSpace(data)
	if len(data) < 7 {
		return CommentMarker{}
	}
	// Most comments are not markers: look before making a string. A
	// googleoff comment may be long (flags on several indented lines, a
	// note after them): it is read whole up to MaxMarkerComment, and only
	// its text in messages is clipped.
	switch data[0] | 0x20 {
	case 'n', '/':
		if len(data) > len("/noindex") {
			return CommentMarker{}
		}
	case 'g':
		if !hasPrefixFold(data, "googleoff:") && !hasPrefixFold(data, "googleon:") {
			return CommentMarker{NearMiss: nearMiss(data), Text: quote.Clip(string(data), 200)}
		}
	default:
		return CommentMarker{}
	}
	m := CommentMarker{Text: quote.Clip(string(data), 200)}
	low := strings.ToLower(string(data))
	switch low {
	case "noindex":
		m.Dialect, m.Off = DialectYandex, NoIndex
		return m
	case "/noindex":
		m.Dialect, m.On = DialectYandex, NoIndex
		return m
	}
	var on bool
	switch {
	case strings.HasPrefix(low, "googleoff:"):
		low = low[len("googleoff:"):]
	case strings.HasPrefix(low, "googleon:"):
		low, on = low[len("googleon:"):], true
	default:
		return CommentMarker{}
	}
	m.Dialect = DialectGoogleOff
	var sw Switch
	for _, f := range strings.FieldsFunc(low, func(r rune) bool {
		return r == ',' || r == '|' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
	}) {
		switch f {
		case "index":
			sw |= NoIndex
		case "anchor":
			sw |= NoAnchorText
		case "snippet":
			sw |= NoArchive
		case "all":
			sw |= NoIndex | NoAnchorText | NoArchive
		default:
			if len(m.Unknown) < maxUnknownFlags {
				m.Unknown = append(m.Unknown, quote.Clip(f, 80))
			}
		}
	}
	if on {
		m.On = sw
	} else {
		m.Off = sw
	}
	return m
}

// nearMiss: data starts with the word googleoff or googleon, not followed
// by the colon a marker has ("googleoff index", "googleon = all",
// "googleoff"), but not by more letters either ("googleoffice").
func nearMiss(data []byte) bool {
	for _, w := range [...]string{"googleoff", "googleon"} {
		if hasPrefixFold(data, w) {
			rest := data[len(w):]
			return len(rest) == 0 || !(asciiAlnum(rest[0]) || rest[0] == '_')
		}
	}
	return false
}

func asciiAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// MarkerComment applies a comment of the comment dialects (Yandex
// <!--noindex--> and <!--/noindex-->, the Google Search Appliance's
// googleoff and googleon; ParseCommentMarker reads them), warning of
// flags that name nothing: a comment means the same in HTML and XML.
// tooLong says the comment is longer than MaxMarkerComment as written.
func (c *Core) MarkerComment(data []byte, tooLong bool) {
	if tooLong {
		return // longer than MaxMarkerComment as written: no marker
	}
	m := ParseCommentMarker(data)
	if m.NearMiss && c.Dialects()&DialectGoogleOff != 0 {
		c.Warn(c.Pos(), "comment %q is no googleoff/googleon marker (they read \"googleoff: FLAGS\"); ignored", "<!--"+m.Text+"-->")
	}
	if m.Dialect == 0 {
		return
	}
	for _, f := range m.Unknown {
		c.Warn(c.Pos(), "unknown flag %q in comment %q; ignored", f, "<!--"+m.Text+"-->")
	}
	if m.Off|m.On != 0 {
		c.Toggle(m.Dialect, "<!--"+m.Text+"-->", m.Off, m.On)
	}
}
