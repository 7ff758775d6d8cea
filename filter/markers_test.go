package filter

import (
	"fmt"
	"strings"
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
		// A long marker is read whole: its flags count, the rest is unknown.
		{"googleoff:\n" + strings.Repeat(" ", 56) + "index\n", CommentMarker{Dialect: DialectGoogleOff, Text: "googleoff:\n" + strings.Repeat(" ", 56) + "index", Off: NoIndex}},
		{"googleoff: index, snippet (keep the navigation out of search)", CommentMarker{Dialect: DialectGoogleOff,
			Text: "googleoff: index, snippet (keep the navigation out of search)", Off: NoIndex | NoArchive,
			Unknown: []string{"(keep", "the", "navigation", "out", "of", "search)"}}},
		{"noindexes", CommentMarker{}},
		// Near misses are no markers, but say so (the reader warns).
		{"googleoff index", CommentMarker{Text: "googleoff index", NearMiss: true}},
		{"GoogleOn = all", CommentMarker{Text: "GoogleOn = all", NearMiss: true}},
		{"googleoff", CommentMarker{Text: "googleoff", NearMiss: true}},
		{"googleoffice party", CommentMarker{Text: "googleoffice party"}},
		{"google analytics", CommentMarker{Text: "google analytics"}},
	} {
		if got := ParseCommentMarker([]byte(tc.comment)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q: %+v, want %+v", tc.comment, got, tc.want)
		}
	}
}
