package filter

// The implementation of directives.go before the directives were read in
// place: the oracle that the in-place reading (directiveText, addEach)
// must agree with, on every value.

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/ascii"
	"github.com/robofilter/robofilter/internal/quote"
)

// refDirectives are the document-level robots rules in force (SPEC section 2):
// the sum of the robots META tags, X-Robots-Tag values and the XML robots PI
// that apply to the agent. A document-level "no" is absolute.
type refDirectives struct {
	NoIndex   bool `json:"noindex"`
	NoFollow  bool `json:"nofollow"`
	NoArchive bool `json:"noarchive"` // noarchive or nocache
	NoSnippet bool `json:"nosnippet"` // nosnippet or max-snippet:0

	MaxSnippet       *int   `json:"max_snippet,omitempty"`
	MaxImagePreview  string `json:"max_image_preview,omitempty"`
	MaxVideoPreview  *int   `json:"max_video_preview,omitempty"`
	UnavailableAfter string `json:"unavailable_after,omitempty"`
	NoImageIndex     bool   `json:"noimageindex,omitempty"`
	NoTranslate      bool   `json:"notranslate,omitempty"`
	IndexIfEmbedded  bool   `json:"indexifembedded,omitempty"`
	// Other holds tokens no engine we know defines, as written: the first
	// MaxListed of them (and MaxListedBytes of their text); OtherDropped
	// counts the rest.
	Other        []string `json:"other,omitempty"`
	OtherDropped int      `json:"other_dropped,omitempty"`

	// Sources says where the rules came from, in the order seen: the first
	// MaxListed sources (and MaxListedBytes of their values);
	// SourcesDropped counts the rest. The rules of every source apply,
	// listed or not.
	Sources        []DirectiveSource `json:"sources,omitempty"`
	SourcesDropped int               `json:"sources_dropped,omitempty"`

	positive    map[string]bool // index, follow, archive, all: kept to spot conflicts
	sourceBytes int             // of the listed Sources' values
	otherBytes  int             // of the listed Other tokens
}

// listed reports whether a list of n entries holding size bytes takes one
// more of add bytes; once one entry was dropped, every later one is, so
// that what is listed is always the first ones.
func refListed(n, size, add, dropped int) bool {
	return dropped == 0 && n < MaxListed && size+add <= MaxListedBytes
}

// refParseDirectives splits a robots META content attribute into directives.
// Tokens are separated by commas, with any spaces around them; a token of
// words separated by spaces or semicolons is split into them when one is a
// keyword ("noindex nofollow", "noindex;foo").
// The comma inside an RFC 850 or RFC 1123 date after unavailable_after is
// part of the date, not a separator.
func refParseDirectives(content string) []Directive {
	var out []Directive
	parts := strings.Split(content, ",")
	for i := 0; i < len(parts); i++ {
		tok := strings.TrimSpace(parts[i])
		if tok == "" {
			continue
		}
		if refStartsDate(tok) && i+1 < len(parts) {
			i++
			tok += ", " + strings.TrimSpace(parts[i])
		}
		d := refSplitDirective(tok)
		if d.Value == "" && strings.ContainsFunc(d.Name, wordSeparator) {
			// Keywords written with spaces or semicolons between them
			// still say what they say ("noindex foo" is noindex and an
			// unknown foo): a careful reader errs towards the "no".
			words := strings.FieldsFunc(d.Name, wordSeparator)
			if slices.ContainsFunc(words, func(w string) bool { return bare[w] }) {
				for _, w := range words {
					out = append(out, Directive{Name: w})
				}
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// wordSeparator: what separates words inside a directive token, the white
// space strings.TrimSpace trims around one, and ';'.

func refSplitDirective(tok string) Directive {
	name, value, found := strings.Cut(tok, ":")
	name = ascii.ToLower(strings.TrimSpace(name))
	if !found {
		return Directive{Name: name}
	}
	return Directive{Name: name, Value: strings.TrimSpace(value)}
}

// refStartsDate reports whether tok ends with "unavailable_after:" and a day
// name, the part of an RFC 850 or RFC 1123 date before its comma; the
// directive may follow an X-Robots-Tag bot name ("googlebot:
// unavailable_after: Saturday, 15-Jan-94 …").
func refStartsDate(tok string) bool {
	const key = "unavailable_after:"
	i := strings.LastIndex(ascii.ToLower(tok), key)
	return i >= 0 && refIsDayName(tok[i+len(key):])
}

func refIsDayName(s string) bool {
	switch ascii.ToLower(strings.TrimSpace(s)) {
	case "mon", "tue", "wed", "thu", "fri", "sat", "sun",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// refScopedDirectives are the directives of an X-Robots-Tag value that apply to
// one bot ("" for every bot).
type refScopedDirectives struct {
	Bot        string
	Directives []Directive
}

// refParseXRobotsTag splits an X-Robots-Tag header value. A leading `botname:`
// scopes the directives after it, up to the next such prefix;
// `unavailable_after:` and `max-…:` are directives, never bot names.
func refParseXRobotsTag(value string) []refScopedDirectives {
	var out []refScopedDirectives
	cur := refScopedDirectives{}
	for _, d := range refParseDirectives(value) {
		if d.Value != "" && !isValuedName(d.Name) && isBotName(d.Name) {
			if len(cur.Directives) > 0 || cur.Bot != "" {
				out = append(out, cur)
			}
			cur = refScopedDirectives{Bot: d.Name}
			rest := refParseDirectives(d.Value)
			cur.Directives = append(cur.Directives, rest...)
			continue
		}
		cur.Directives = append(cur.Directives, d)
	}
	if len(cur.Directives) > 0 || cur.Bot != "" {
		out = append(out, cur)
	}
	return out
}

// Add applies directives from one source. It returns a warning text for each
// conflict it resolved (always to the more restrictive rule).
// Sources and Other past their bounds are counted, not listed, with a
// warning the first time.
func (d *refDirectives) Add(src DirectiveSource, ds []Directive) []string {
	var warns []string
	if refListed(len(d.Sources), d.sourceBytes, len(src.Value), d.SourcesDropped) {
		d.Sources = append(d.Sources, src)
		d.sourceBytes += len(src.Value)
	} else if d.SourcesDropped++; d.SourcesDropped == 1 {
		warns = append(warns, fmt.Sprintf("more than %d robots directive sources (or %d bytes of their values): this one and later ones are not listed; their rules still apply", MaxListed, MaxListedBytes))
	}
	otherDropped := d.OtherDropped
	for _, x := range ds {
		if w := d.add(x); w != "" {
			warns = append(warns, w)
		}
	}
	if otherDropped == 0 && d.OtherDropped > 0 {
		warns = append(warns, fmt.Sprintf("more than %d unknown robots directives (or %d bytes of them): this one and later ones are not listed", MaxListed, MaxListedBytes))
	}
	return warns
}

// other lists a token no engine we know defines.
func (d *refDirectives) other(x Directive) {
	size := len(x.Name) // of x.String(), which a dropped token need not make
	if x.Value != "" {
		size += 1 + len(x.Value)
	}
	if !refListed(len(d.Other), d.otherBytes, size, d.OtherDropped) {
		d.OtherDropped++
		return
	}
	d.Other = append(d.Other, x.String())
	d.otherBytes += size
}

func (d *refDirectives) add(x Directive) string {
	switch x.Name {
	case "noindex":
		d.NoIndex = true
		return d.conflict("noindex", "index", "all")
	case "nofollow":
		d.NoFollow = true
		return d.conflict("nofollow", "follow", "all")
	case "noarchive", "nocache":
		d.NoArchive = true
		return d.conflict(x.Name, "archive")
	case "nosnippet":
		d.NoSnippet = true
	case "none":
		d.NoIndex, d.NoFollow = true, true
		return d.conflict("none", "index", "follow", "all")
	case "index", "follow", "archive", "all":
		d.note(x.Name)
		switch {
		case x.Name == "index" && d.NoIndex, x.Name == "follow" && d.NoFollow,
			x.Name == "archive" && d.NoArchive, x.Name == "all" && (d.NoIndex || d.NoFollow):
			return fmt.Sprintf("conflicting robots directives: %q and a negative rule seen before; the more restrictive rule applies", x.Name)
		}
	case "max-snippet":
		n, w, ok := d.limit(&d.MaxSnippet, x)
		if ok && n == 0 {
			d.NoSnippet = true
		}
		return w
	case "max-video-preview":
		_, w, _ := d.limit(&d.MaxVideoPreview, x)
		return w
	case "max-image-preview":
		v := ascii.ToLower(x.Value)
		if refImagePreviewRank(v) < 0 {
			d.other(x)
			return fmt.Sprintf("max-image-preview value %q is not none, standard or large; ignored", x.Value)
		}
		if d.MaxImagePreview != "" && d.MaxImagePreview != v {
			w := fmt.Sprintf("conflicting max-image-preview values %s and %s; the smaller applies", d.MaxImagePreview, v)
			if refImagePreviewRank(v) < refImagePreviewRank(d.MaxImagePreview) {
				d.MaxImagePreview = v
			}
			return w
		}
		d.MaxImagePreview = v
	case "unavailable_after":
		return d.unavailableAfter(x.Value)
	case "noimageindex":
		d.NoImageIndex = true
	case "notranslate":
		d.NoTranslate = true
	case "indexifembedded":
		d.IndexIfEmbedded = true
	default:
		d.other(x)
	}
	return ""
}

// unavailableAfter takes an unavailable_after date. Of two that differ the
// earlier stays (the page is unavailable sooner: the more restrictive
// rule), with a warning; when either is in a form parseUnavailableAfter
// does not read, the first stays, with a warning that says so.
func (d *refDirectives) unavailableAfter(v string) string {
	cur := d.UnavailableAfter
	if cur == "" {
		d.UnavailableAfter = v
		return ""
	}
	if cur == v {
		return ""
	}
	t0, ok0 := parseUnavailableAfter(cur)
	t1, ok1 := parseUnavailableAfter(v)
	switch {
	case !ok0 || !ok1:
		return fmt.Sprintf("conflicting unavailable_after values %q and %q, not both dates in a known form; the first applies", cur, v)
	case t1.Equal(t0):
		return ""
	case t1.Before(t0):
		d.UnavailableAfter = v
	}
	return fmt.Sprintf("conflicting unavailable_after values %q and %q; the earlier applies", cur, v)
}

// limit reads the numeric limit x (max-snippet, max-video-preview; -1: no
// limit) into *cur. Of two values that differ the smaller stays, with a
// warning; a value that is not a number goes to Other, with a warning.
func (d *refDirectives) limit(cur **int, x Directive) (n int, warning string, ok bool) {
	n, err := strconv.Atoi(x.Value)
	if err != nil {
		d.other(x)
		return 0, fmt.Sprintf("%s value %q is not a number; ignored", x.Name, x.Value), false
	}
	if *cur != nil && **cur != n {
		w := fmt.Sprintf("conflicting %s values %d and %d; the smaller applies", x.Name, **cur, n)
		if refRestrictiveSnippet(n, **cur) {
			*cur = &n
		}
		return n, w, true
	}
	*cur = &n
	return n, "", true
}

// refRestrictiveSnippet: -1 means "no limit", so any other value is smaller.
func refRestrictiveSnippet(n, than int) bool {
	if n < 0 {
		return false
	}
	return than < 0 || n < than
}

func refImagePreviewRank(v string) int {
	switch v {
	case "none":
		return 0
	case "standard":
		return 1
	case "large":
		return 2
	}
	return -1
}

func (d *refDirectives) note(positive string) {
	if d.positive == nil {
		d.positive = map[string]bool{}
	}
	d.positive[positive] = true
}

func (d *refDirectives) conflict(neg string, positives ...string) string {
	for _, p := range positives {
		if d.positive[p] {
			return fmt.Sprintf("conflicting robots directives %q and %q; the more restrictive %q applies", p, neg, neg)
		}
	}
	return ""
}

// directiveValues are values of every shape the parsers know: scopes,
// dates with and without their comma, words, conflicts, numbers, case,
// white space of every kind around commas and colons, empty tokens.
var directiveValues = []string{
	"", ",", " , ,", "noindex", "NoIndex, NoFollow", "noindex nofollow", "noindex;foo", "a b c", "noindex\u00a0nofollow",
	"noarchive, googlebot: noindex, nofollow, otherbot: none, unavailable_after: 25 Jun 2010 15:00:00 PST, max-snippet: 3",
	"max-foo-preview: 3, noindex", "googlebot: unavailable_after: Saturday, 15-Jan-94 10:00:00 GMT, nofollow",
	"unavailable_after: Sunday, 25-Jun-10 15:00:00 GMT", "unavailable_after: Sunday ,  25-Jun-10 15:00:00 GMT",
	"unavailable_after: Monday,", "unavailable_after: Monday, ,x", "unavailable_after: Monday", "UNAVAILABLE_AFTER: MONDAY, 1 Jan 2001",
	"xunavailable_after: Monday, 1 Jan 2001", "googlebot: xunavailable_after: Mon, 1, 2",
	"unavailable_after: 25 Jun 2010, unavailable_after: 24 Jun 2010", "unavailable_after: soon, unavailable_after: later",
	"index, noindex, max-snippet:50, max-snippet:10, max-image-preview:large, max-image-preview:standard",
	"all, none, follow, nofollow, archive, noarchive, nocache, index", "max-snippet:0", "max-snippet:-1, max-snippet:5",
	"max-snippet:+7, max-snippet:x, max-snippet:, max-snippet:99999999999999999999999, max-video-preview:-1",
	"max-image-preview:LARGE, max-image-preview:Large, max-image-preview:huge", ":,:", "a:b:c, :x, x:",
	"GoogleBot: NoIndex, BingBot: nofollow, FooBot: noarchive, foobot/1.0: nosnippet", "foobot: , noindex",
	"googlebot:noindex,googlebot:nofollow", "noimageindex, notranslate, indexifembedded, noodp, noydir, unknown, other:value",
	"\tnoindex\n,\rnofollow\v", "noindex;;nofollow", "a;b", "é, É:x, noindex",
}

// publicDirectives is what a caller sees of d: its exported fields.
func publicDirectives(d Directives) Directives {
	d.positive, d.sourceBytes, d.otherBytes = nil, 0, 0
	return d
}

func fromReference(r refDirectives) Directives {
	return Directives{NoIndex: r.NoIndex, NoFollow: r.NoFollow, NoArchive: r.NoArchive, NoSnippet: r.NoSnippet,
		MaxSnippet: r.MaxSnippet, MaxImagePreview: r.MaxImagePreview, MaxVideoPreview: r.MaxVideoPreview,
		UnavailableAfter: r.UnavailableAfter, NoImageIndex: r.NoImageIndex, NoTranslate: r.NoTranslate,
		IndexIfEmbedded: r.IndexIfEmbedded, Other: r.Other, OtherDropped: r.OtherDropped,
		Sources: r.Sources, SourcesDropped: r.SourcesDropped}
}

// checkAgainstReference checks that the directives read in place are the
// reference's: the parsers' lists, Add's directives and warnings, and a
// run's (X-Robots-Tag values and robots META tags, for several agents).
func checkAgainstReference(t *testing.T, v string) {
	t.Helper()
	if got, want := ParseDirectives(v), refParseDirectives(v); !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseDirectives(%q) = %q, the reference %q", v, got, want)
	}
	got, want := ParseXRobotsTag(v), refParseXRobotsTag(v)
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		same = got[i].Bot == want[i].Bot && reflect.DeepEqual(got[i].Directives, want[i].Directives)
	}
	if !same {
		t.Fatalf("ParseXRobotsTag(%q) = %q, the reference %q", v, got, want)
	}
	var d Directives
	var r refDirectives
	src := DirectiveSource{Origin: "meta robots", Value: v}
	if got, want := d.Add(src, ParseDirectives(v)), r.Add(src, refParseDirectives(v)); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: Add warns %q, the reference %q", v, got, want)
	}
	if got, want := publicDirectives(d), fromReference(r); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: Add makes %+v, the reference %+v", v, got, want)
	}
	for _, agent := range []string{"", "googlebot", "FooBot/1.0"} {
		// The reference: every scope that applies, as the core applied
		// them, twice, then the value as two robots META tags.
		var r refDirectives
		var warns []string
		for range 2 {
			for _, sd := range refParseXRobotsTag(v) {
				if sd.Bot != "" && !AgentMatches(sd.Bot, agent) {
					continue
				}
				origin := "x-robots-tag"
				if sd.Bot != "" {
					origin += " " + sd.Bot
				}
				warns = append(warns, r.Add(DirectiveSource{Origin: origin, Value: v}, sd.Directives)...)
			}
		}
		var viaAdd Directives
		var addWarns []string
		for range 2 {
			viaAdd.AddXRobotsTag(v, agent, func(w string) { addWarns = append(addWarns, w) })
		}
		if !reflect.DeepEqual(addWarns, warns) || !reflect.DeepEqual(publicDirectives(viaAdd), fromReference(r)) {
			t.Fatalf("%q, agent %q: AddXRobotsTag makes %+v warning %q; the reference %+v warning %q", v, agent, publicDirectives(viaAdd), addWarns, fromReference(r), warns)
		}
		for line := 1; line <= 2; line++ {
			warns = append(warns, r.Add(DirectiveSource{Origin: "meta robots", Value: v, Line: line, Col: 3}, refParseDirectives(v))...)
		}
		c, err := NewCore(Options{Agent: agent, XRobotsTag: []string{v, v}}, Outputs{})
		if err != nil {
			t.Fatal(err)
		}
		var metaSays []Directive
		for line := 1; line <= 2; line++ {
			for x := range c.Meta([]byte("robots"), []byte(v), Pos{Line: line, Col: 3}, true) {
				metaSays = append(metaSays, x)
			}
		}
		res, err := c.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if want := append(refParseDirectives(v), refParseDirectives(v)...); !reflect.DeepEqual(metaSays, want) && len(metaSays)+len(want) > 0 {
			t.Fatalf("%q: Meta gives %q, the reference %q", v, metaSays, want)
		}
		var msgs []string
		for _, w := range res.Warnings {
			msgs = append(msgs, w.Message)
		}
		if len(warns) > MaxWarnings {
			warns = warns[:MaxWarnings]
		}
		for i := range warns {
			warns[i] = quote.Clip(warns[i], MaxWarningBytes)
		}
		if !reflect.DeepEqual(msgs, warns) && len(msgs)+len(warns) > 0 {
			t.Fatalf("%q, agent %q: a run warns %q, the reference %q", v, agent, msgs, warns)
		}
		if got, want := publicDirectives(res.Directives), fromReference(r); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q, agent %q: a run makes %+v, the reference %+v", v, agent, got, want)
		}
	}
}

// For normal values, reading in place changes nothing: the lists, the
// directives and the warnings are the reference's.
func TestDirectivesAgreeWithTheReference(t *testing.T) {
	for _, v := range directiveValues {
		checkAgainstReference(t, v)
	}
	// And values past the bounds: more than MaxListed unknown tokens and
	// sources, and more than MaxWarnings conflicts.
	checkAgainstReference(t, strings.Repeat("x, ", 3*MaxListed))
	checkAgainstReference(t, strings.Repeat("noindex, index, ", MaxWarnings))
	checkAgainstReference(t, strings.Repeat("foobot: x, ", 2*MaxListed))
}
