package filter

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
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
		{"a keyword among unknown words still counts", "noindex foo", []Directive{{Name: "noindex"}, {Name: "foo"}}},
		{"semicolons separate keywords", "noindex;nofollow", []Directive{{Name: "noindex"}, {Name: "nofollow"}}},
		{"semicolons and spaces", "NOINDEX ; foo", []Directive{{Name: "noindex"}, {Name: "foo"}}},
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

// SPEC section 2: "max-…:" is never a bot name, whatever follows max-.
func TestParseXRobotsTagUnknownMaxDirectiveIsNoBotName(t *testing.T) {
	got := ParseXRobotsTag("max-foo-preview: 3, noindex")
	want := []ScopedDirectives{{Bot: "", Directives: []Directive{{Name: "max-foo-preview", Value: "3"}, {Name: "noindex"}}}}
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

// Of two unavailable_after dates the earlier applies, with a warning,
// whatever forms they are written in and whichever comes first; dates in
// a form we do not read keep the first, with a warning; the same instant
// twice says nothing.
func TestUnavailableAfterConflictsResolveToTheEarlierWithAWarning(t *testing.T) {
	for _, tc := range []struct {
		name, first, second, want, warning string
	}{
		{"ISO dates, later first", "2030-01-01", "2000-01-01", "2000-01-01", "the earlier applies"},
		{"ISO dates, earlier first", "2000-01-01", "2030-01-01", "2000-01-01", "the earlier applies"},
		{"Google's form against RFC 850", "25-Jun-2030 15:00:00 PST", "Sunday, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "the earlier applies"},
		{"RFC 1123 against ISO 8601", "Wed, 01 Jan 2031 00:00:00 GMT", "2030-12-31T23:00:00Z", "2030-12-31T23:00:00Z", "the earlier applies"},
		{"zone abbreviations count", "25 Jun 2030 15:00:00 PST", "25 Jun 2030 22:00:00 GMT", "25 Jun 2030 22:00:00 GMT", "the earlier applies"},
		{"the same instant in two zones", "25 Jun 2030 15:00:00 PST", "25 Jun 2030 23:00:00 GMT", "25 Jun 2030 15:00:00 PST", ""},
		{"lower-case zone abbreviations count", "25-jun-2030 15:00:00 pst", "25 Jun 2030 22:00:00 GMT", "25 Jun 2030 22:00:00 GMT", "the earlier applies"},
		{"RFC 822's UT", "Wed, 25 Jun 2030 15:00:00 UT", "25 Jun 2030 14:00:00 GMT", "25 Jun 2030 14:00:00 GMT", "the earlier applies"},
		{"ISO 8601 with an offset and no seconds", "2030-06-25T15:00+02:00", "2030-06-25T14:00Z", "2030-06-25T15:00+02:00", "the earlier applies"},
		{"a form not read", "next tuesday", "2000-01-01", "next tuesday", "not both dates in a known form"},
		{"the same value", "2030-01-01", "2030-01-01", "2030-01-01", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d Directives
			warns := d.Add(DirectiveSource{}, []Directive{{Name: "unavailable_after", Value: tc.first}, {Name: "unavailable_after", Value: tc.second}})
			if d.UnavailableAfter != tc.want {
				t.Errorf("unavailable_after %q, want %q", d.UnavailableAfter, tc.want)
			}
			switch {
			case tc.warning == "" && len(warns) != 0:
				t.Errorf("warnings %q, want none", warns)
			case tc.warning != "" && (len(warns) != 1 || !strings.Contains(warns[0], tc.warning)):
				t.Errorf("warnings %q, want one saying %q", warns, tc.warning)
			}
		})
	}
}

// The machine's zone does not change what a zone abbreviation means: CST
// is RFC 822's (UTC-6) under a local zone that calls UTC+8 CST too.
func TestUnavailableAfterZonesDoNotDependOnTheMachine(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skipf("no zone database: %v", err)
	}
	local := time.Local
	time.Local = shanghai
	defer func() { time.Local = local }()
	var d Directives
	d.Add(DirectiveSource{}, []Directive{{Name: "unavailable_after", Value: "25-Jun-2010 15:00:00 CST"}, {Name: "unavailable_after", Value: "25-Jun-2010 12:00:00 GMT"}})
	if want := "25-Jun-2010 12:00:00 GMT"; d.UnavailableAfter != want { // 15:00 CST is 21:00 GMT
		t.Errorf("unavailable_after %q, want %q", d.UnavailableAfter, want)
	}
}

// A page of repeated robots META tags must not take memory by the tag:
// Sources and Other list the first MaxListed entries and count the rest,
// with one warning each when the bound is first passed, while the rules
// of every tag still apply.
func TestDirectiveSourcesAndOtherAreBoundedButEveryRuleApplies(t *testing.T) {
	c, err := NewCore(Options{}, Outputs{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3 * MaxListed
	for i := 0; i < n; i++ {
		c.Meta([]byte("robots"), []byte(fmt.Sprintf("noindex, unknown%d", i)), Pos{Line: 1, Col: 1 + 40*i}, true)
	}
	c.Meta([]byte("robots"), []byte("nofollow, max-snippet:0"), Pos{Line: 2, Col: 1}, true)
	res, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	d := res.Directives
	if !d.NoIndex || !d.NoFollow || !d.NoSnippet || d.MaxSnippet == nil || *d.MaxSnippet != 0 {
		t.Errorf("the rules of the tags past the bound are lost: %+v", d)
	}
	if len(d.Sources) != MaxListed || d.SourcesDropped != n+1-MaxListed {
		t.Errorf("%d sources listed, %d dropped; want %d and %d", len(d.Sources), d.SourcesDropped, MaxListed, n+1-MaxListed)
	}
	if last := d.Sources[MaxListed-1]; last.Value != fmt.Sprintf("noindex, unknown%d", MaxListed-1) || last.Col != 1+40*(MaxListed-1) {
		t.Errorf("the last source listed is %+v, want the %dth tag", last, MaxListed)
	}
	if len(d.Other) != MaxListed || d.Other[0] != "unknown0" || d.OtherDropped != n-MaxListed {
		t.Errorf("%d other tokens listed (first %q), %d dropped; want %d from unknown0 and %d", len(d.Other), d.Other[0], d.OtherDropped, MaxListed, n-MaxListed)
	}
	var notListed []string
	for _, w := range res.Warnings {
		if strings.Contains(w.Message, "not listed") {
			notListed = append(notListed, fmt.Sprintf("%d:%d %s", w.Line, w.Col, w.Message))
		}
	}
	if len(notListed) != 2 || !strings.Contains(notListed[0], "sources") || !strings.Contains(notListed[1], "unknown robots directives") ||
		!strings.HasPrefix(notListed[0], fmt.Sprintf("1:%d ", 1+40*MaxListed)) {
		t.Errorf("warnings about what is not listed: %q; want one for the sources and one for the other tokens, at tag %d", notListed, MaxListed+1)
	}
}

// The values listed are bounded in bytes too: a value that would pass
// MaxListedBytes is not listed, and neither is any later one, so that
// what is listed is always the first sources.
func TestDirectiveSourcesListedUpToTheByteBound(t *testing.T) {
	var d Directives
	d.Add(DirectiveSource{Value: "noarchive"}, ParseDirectives("noarchive"))
	big := "noindex," + strings.Repeat(" ", MaxListedBytes)
	warns := d.Add(DirectiveSource{Value: big}, ParseDirectives(big))
	d.Add(DirectiveSource{Value: "nofollow"}, ParseDirectives("nofollow"))
	if len(d.Sources) != 1 || d.SourcesDropped != 2 || len(warns) != 1 {
		t.Errorf("%d listed, %d dropped, warnings %q; want 1, 2 and one warning", len(d.Sources), d.SourcesDropped, warns)
	}
	if !d.NoArchive || !d.NoIndex || !d.NoFollow {
		t.Errorf("rules lost: %+v", d)
	}
}

// noai and noimageai are directives of their own, never unknown tokens
// and never bot names; they turn no switch.
func TestNoAIDirectives(t *testing.T) {
	var d Directives
	d.Add(DirectiveSource{Origin: "meta robots", Value: "noai noimageai"}, ParseDirectives("noai noimageai"))
	if !d.NoAI || !d.NoImageAI || len(d.Other) > 0 || d.Switches() != 0 {
		t.Errorf("%+v", d)
	}
	var x Directives
	x.AddXRobotsTag("noai: noindex", "", nil)
	if !x.NoAI {
		t.Errorf("noai: is not a bot name: %+v", x)
	}
}
