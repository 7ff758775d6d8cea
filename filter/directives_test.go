package filter

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDirectivesSplitsOnCommasAndKeepsDateCommas(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Directive
	}{
		{"commas with spaces", " noindex ,NoFollow", []Directive{{Name: "noindex"}, {Name: "nofollow"}}},
		{"space separated keywords", "noindex nofollow", []Directive{{Name: "noindex"}, {Name: "nofollow"}}},
		{"valued directive", "max-snippet: 20", []Directive{{Name: "max-snippet", Value: "20"}}},
		{"rfc850 date keeps its comma", "unavailable_after: Sunday, 25-Jun-10 15:00:00 GMT, noindex",
			[]Directive{{Name: "unavailable_after", Value: "Sunday, 25-Jun-10 15:00:00 GMT"}, {Name: "noindex"}}},
		{"rfc1123 date keeps its comma", "unavailable_after: Sun, 25 Jun 2010 15:00:00 GMT",
			[]Directive{{Name: "unavailable_after", Value: "Sun, 25 Jun 2010 15:00:00 GMT"}}},
		{"image preview none is one token", "max-image-preview:none", []Directive{{Name: "max-image-preview", Value: "none"}}},
		{"empty tokens skipped", ",,noarchive,", []Directive{{Name: "noarchive"}}},
		{"unknown words with spaces stay one token", "foo bar", []Directive{{Name: "foo bar"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ParseDirectives(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseDirectives(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseXRobotsTagScopesBotPrefixes(t *testing.T) {
	got := ParseXRobotsTag("noarchive, googlebot: noindex, nofollow, otherbot: none, unavailable_after: 25 Jun 2010 15:00:00 PST, max-snippet: 3")
	want := []ScopedDirectives{
		{Bot: "", Directives: []Directive{{Name: "noarchive"}}},
		{Bot: "googlebot", Directives: []Directive{{Name: "noindex"}, {Name: "nofollow"}}},
		{Bot: "otherbot", Directives: []Directive{{Name: "none"}, {Name: "unavailable_after", Value: "25 Jun 2010 15:00:00 PST"}, {Name: "max-snippet", Value: "3"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestDirectivesMapToSwitches(t *testing.T) {
	tests := []struct {
		content string
		want    Switch
	}{
		{"none", NoIndex | NoFollow},
		{"noarchive", NoArchive},
		{"nocache", NoArchive},
		{"nosnippet", NoArchive},
		{"max-snippet:0", NoArchive},
		{"max-snippet:10", 0},
		{"max-image-preview:none", 0},
		{"all, index, follow, archive", 0},
		{"noimageindex, notranslate, indexifembedded", 0},
	}
	for _, tc := range tests {
		var d Directives
		d.Add(DirectiveSource{}, ParseDirectives(tc.content))
		if got := d.Switches(); got != tc.want {
			t.Errorf("%q: switches %v, want %v", tc.content, got, tc.want)
		}
	}
}

func TestConflictingDirectivesResolveToTheMoreRestrictive(t *testing.T) {
	var d Directives
	w := d.Add(DirectiveSource{}, ParseDirectives("index, noindex, max-snippet:50, max-snippet:10, max-image-preview:large, max-image-preview:standard"))
	if !d.NoIndex || *d.MaxSnippet != 10 || d.MaxImagePreview != "standard" {
		t.Errorf("got %+v", d)
	}
	if len(w) != 3 {
		t.Errorf("warnings %q, want one for index/noindex, max-snippet and max-image-preview each", w)
	}
}

func TestAgentMatchesProductTokenIgnoringCase(t *testing.T) {
	for _, tc := range []struct {
		name, agent string
		want        bool
	}{
		{"googlebot", "Googlebot/2.1 (+http://www.google.com/bot.html)", true},
		{"googlebot", "Googlebot", true},
		{"googlebot", "Googlebot-News", false},
		{"googlebot", "", false},
		{"foo bot", "Foo Bot", true},
	} {
		if got := AgentMatches(tc.name, tc.agent); got != tc.want {
			t.Errorf("AgentMatches(%q, %q) = %v", tc.name, tc.agent, got)
		}
	}
}

func TestPositionsCountCRLFAndLoneCRAsLineEnds(t *testing.T) {
	p := StartPos.Advance([]byte("a\r\nb\rc\n"))
	p = p.Advance([]byte("d\r"))
	p = p.Advance([]byte("\ne"))
	if p.Line != 5 || p.Col != 2 {
		t.Errorf("got %d:%d, want 5:2", p.Line, p.Col)
	}
}

func TestXRobotsTagDateRightAfterBotNameKeepsItsComma(t *testing.T) {
	for _, v := range []string{
		"googlebot: unavailable_after: Saturday, 15-Jan-94 12:00:00 GMT",
		"googlebot: UNAVAILABLE_AFTER: Sat, 15 Jan 1994 12:00:00 GMT",
	} {
		got := ParseXRobotsTag(v + ", noarchive")
		_, date, _ := strings.Cut(v, "AFTER: ")
		if date == "" {
			_, date, _ = strings.Cut(v, "after: ")
		}
		want := []ScopedDirectives{{Bot: "googlebot", Directives: []Directive{{Name: "unavailable_after", Value: date}, {Name: "noarchive"}}}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", v, got, want)
		}
	}
}

func TestPreviewConflictsResolveToTheSmallerWithAWarning(t *testing.T) {
	for _, tc := range []struct {
		content string
		check   func(d Directives) bool
	}{
		{"max-image-preview:large, max-image-preview:standard", func(d Directives) bool { return d.MaxImagePreview == "standard" }},
		{"max-image-preview:none, max-image-preview:LARGE", func(d Directives) bool { return d.MaxImagePreview == "none" }},
		{"max-video-preview:-1, max-video-preview:0", func(d Directives) bool { return d.MaxVideoPreview != nil && *d.MaxVideoPreview == 0 }},
		{"max-video-preview:5, max-video-preview:10", func(d Directives) bool { return d.MaxVideoPreview != nil && *d.MaxVideoPreview == 5 }},
	} {
		var d Directives
		warns := d.Add(DirectiveSource{}, ParseDirectives(tc.content))
		if !tc.check(d) || len(warns) != 1 || !strings.Contains(warns[0], "conflicting") {
			t.Errorf("%s: %+v, warnings %q", tc.content, d, warns)
		}
	}
	var d Directives
	if warns := d.Add(DirectiveSource{}, ParseDirectives("max-image-preview:large, max-image-preview:Large")); len(warns) != 0 {
		t.Errorf("the same value twice: %q", warns)
	}
}
