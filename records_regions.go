package robofilter

import (
	"bytes"
	"strings"

	"github.com/robofilter/robofilter/filter"
)

// The comment dialects (Yandex <!--noindex--> … <!--/noindex-->,
// googleoff/googleon) open regions in document order, across element
// boundaries. Inside a record's field, an XML comment is one of the feed's
// comments: flatState follows what they say, so that the field's run reads
// them where they stand (records_fields.go).

// flatState is the state of the comment dialects at a point.
type flatState struct {
	google filter.Switch // what googleoff turned off (index, anchor, snippet)
	yandex bool          // inside a Yandex region
}

// off is what the state turns off.
func (s flatState) off() filter.Switch {
	if s.yandex {
		return s.google | filter.NoIndex
	}
	return s.google
}

// comments are the comments that put a run in this state at its start.
func (s flatState) comments() string {
	var b strings.Builder
	if s.google != 0 {
		b.WriteString("<!--googleoff:")
		for _, f := range []struct {
			bit  filter.Switch
			name string
		}{{filter.NoIndex, "index"}, {filter.NoAnchorText, "anchor"}, {filter.NoArchive, "snippet"}} {
			if s.google&f.bit != 0 {
				b.WriteString(" " + f.name)
			}
		}
		b.WriteString("-->")
	}
	if s.yandex {
		b.WriteString("<!--noindex-->")
	}
	return b.String()
}

// comment applies a comment's text, as htmlstream.CommentMarker reads it
// (the XML stage's reading too); marker reports whether it is one of the
// dialects' markers (enabled or not).
func (s *flatState) comment(data string, dialects filter.Dialects) (marker bool) {
	data = string(bytes.TrimSpace([]byte(data)))
	if len(data) > 64 || len(data) < 7 {
		return false
	}
	switch data[0] | 0x20 {
	case 'n', 'g', '/':
	default:
		return false
	}
	low := strings.ToLower(data)
	switch low {
	case "noindex", "/noindex":
		if dialects&filter.DialectYandex != 0 {
			s.yandex = low == "noindex"
		}
		return true
	}
	var on bool
	switch {
	case strings.HasPrefix(low, "googleoff:"):
		low = low[len("googleoff:"):]
	case strings.HasPrefix(low, "googleon:"):
		low, on = low[len("googleon:"):], true
	default:
		return false
	}
	var sw filter.Switch
	for _, f := range strings.FieldsFunc(low, func(r rune) bool {
		return r == ',' || r == '|' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
	}) {
		switch f {
		case "index":
			sw |= filter.NoIndex
		case "anchor":
			sw |= filter.NoAnchorText
		case "snippet":
			sw |= filter.NoArchive
		case "all":
			sw |= filter.NoIndex | filter.NoAnchorText | filter.NoArchive
		}
	}
	if dialects&filter.DialectGoogleOff == 0 {
		return true
	}
	if on {
		s.google &^= sw
	} else {
		s.google |= sw
	}
	return true
}
