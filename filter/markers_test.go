package filter

import (
	"fmt"
	"testing"
)

func TestParseCommentMarkerReadsTheCommentDialects(t *testing.T) {
	for _, tc := range []struct {
		comment string
		want    CommentMarker
	}{
		{" noindex ", CommentMarker{Dialect: DialectYandex, Text: "noindex", Off: NoIndex}},
		{"/NoIndex", CommentMarker{Dialect: DialectYandex, Text: "/NoIndex", On: NoIndex}},
		{"googleoff: index", CommentMarker{Dialect: DialectGoogleOff, Text: "googleoff: index", Off: NoIndex}},
		{"GoogleOn: index,anchor|snippet", CommentMarker{Dialect: DialectGoogleOff, Text: "GoogleOn: index,anchor|snippet", On: NoIndex | NoAnchorText | NoArchive}},
		{"googleoff: all", CommentMarker{Dialect: DialectGoogleOff, Text: "googleoff: all", Off: NoIndex | NoAnchorText | NoArchive}},
		{"googleoff: frobnicate index", CommentMarker{Dialect: DialectGoogleOff, Text: "googleoff: frobnicate index", Off: NoIndex, Unknown: []string{"frobnicate"}}},
		{"googleoff:", CommentMarker{Dialect: DialectGoogleOff, Text: "googleoff:"}},
		{"noindex please", CommentMarker{}},
		{"a comment", CommentMarker{}},
		{"googleoff: index " + string(make([]byte, 60)), CommentMarker{}}, // longer than any marker
	} {
		if got := ParseCommentMarker([]byte(tc.comment)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q: %+v, want %+v", tc.comment, got, tc.want)
		}
	}
}
