package filter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/robofilter/robofilter/aipref"
	"github.com/robofilter/robofilter/internal/ascii"
)

// Directives are the document-level robots rules in force (SPEC section 2):
// the sum of the robots META tags, X-Robots-Tag values and the XML robots PI
// that apply to the agent. A document-level "no" is absolute.
type Directives struct {
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
	// NoAI and NoImageAI are the noai and noimageai tokens: no use of the
	// page (noai) or of its images (noimageai) in AI datasets. They are
	// AI usage preferences, not switches: AI lists what they mean in the
	// vocabulary's terms (docs/aipref.md).
	NoAI      bool `json:"noai,omitempty"`
	NoImageAI bool `json:"noimageai,omitempty"`
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

	// AI are the document's AI usage preferences: every statement that
	// applies to it (noai, TDMRep's META and headers, Content-Usage
	// headers, and the robots.txt and tdmrep.json lines the caller gave),
	// their combination, and the decision for Options.Purpose. nil when
	// there is none and no purpose.
	AI *aipref.Report `json:"ai_preferences,omitempty"`

	positive    map[string]bool // index, follow, archive, all: kept to spot conflicts
	sourceBytes int             // of the listed Sources' values
	otherBytes  int             // of the listed Other tokens
}

// What Directives list (Sources, Other) is bounded, so that a page of
// repeated robots META tags takes no more memory than one: past these
// bounds a source or token still counts for the rules but is not listed.
const (
	MaxListed      = 100     // entries of Sources, and of Other
	MaxListedBytes = 1 << 20 // bytes of the Sources' values, and of the Other tokens
)

// listed reports whether a list of n entries holding size bytes takes one
// more of add bytes; once one entry was dropped, every later one is, so
// that what is listed is always the first ones.
func listed(n, size, add, dropped int) bool {
	return dropped == 0 && n < MaxListed && size+add <= MaxListedBytes
}

// DirectiveSource is one robots META tag, X-Robots-Tag value or robots PI.
type DirectiveSource struct {
	Origin string `json:"origin"` // "meta robots", "meta googlebot", "x-robots-tag", "robots PI"
	Value  string `json:"value"`
	Line   int    `json:"line,omitempty"` // 0 when it did not come from the document
	Col    int    `json:"col,omitempty"`
}

// Switches returns the switches the directives turn off for the whole document.
func (d *Directives) Switches() Switch {
	var s Switch
	if d.NoIndex {
		s |= NoIndex
	}
	if d.NoFollow {
		s |= NoFollow
	}
	if d.NoArchive || d.NoSnippet {
		s |= NoArchive
	}
	return s
}

// Directive is one parsed token of a robots META content or X-Robots-Tag
// value: Name is its lower-cased keyword, Value what followed a colon.
type Directive struct {
	Name  string
	Value string
}

func (d Directive) String() string {
	if d.Value == "" {
		return d.Name
	}
	return d.Name + ":" + d.Value
}

// valued directives take a value after a colon; their names are never bot names.
var valued = map[string]bool{
	"max-snippet": true, "max-image-preview": true, "max-video-preview": true, "unavailable_after": true,
}

// isValuedName reports whether name is a valued directive's: one of
// valued, or any "max-…" (SPEC section 2: never a bot name, known or not).
func isValuedName(name string) bool {
	return valued[name] || strings.HasPrefix(name, "max-")
}

var bare = map[string]bool{
	"noindex": true, "nofollow": true, "noarchive": true, "nocache": true, "nosnippet": true,
	"none": true, "all": true, "index": true, "follow": true, "archive": true,
	"noimageindex": true, "notranslate": true, "indexifembedded": true, "noodp": true, "noydir": true,
	"noai": true, "noimageai": true,
}

// ParseDirectives splits a robots META content attribute into directives.
// Tokens are separated by commas, with any spaces around them; a token of
// words separated by spaces or semicolons is split into them when one is a
// keyword ("noindex nofollow", "noindex;foo").
// The comma inside an RFC 850 or RFC 1123 date after unavailable_after is
// part of the date, not a separator.
func ParseDirectives(content string) []Directive {
	var out []Directive
	t := newDirectiveText(content)
	t.each(0, len(content), func(d Directive) bool {
		out = append(out, d)
		return true
	})
	return out
}

// directiveText is a robots META content or X-Robots-Tag value read in
// place, so that reading it makes no list of its tokens: a value of
// millions of tokens costs what the directives keep (Directives.addEach).
// lower is s with its ASCII letters lower-cased (s itself when it has
// none), at the same offsets: names are cut from it, values from s.
type directiveText struct{ s, lower string }

func newDirectiveText(s string) directiveText { return directiveText{s, ascii.ToLower(s)} }

// directiveToken is one comma-separated token of a directiveText, before
// the words of a token are split (directiveText.each).
type directiveToken struct {
	Directive
	start, next int // the token's first byte; where the next one is looked for
	// value is where the text after the colon starts and ends (from ==
	// to: no colon): for a token that names a bot, its first directives.
	valueFrom, valueTo int
}

// eachToken calls fn with each token of s[from:to], as strings.Split on
// commas and strings.TrimSpace would make them, a day name's comma in an
// unavailable_after date kept (startsDate); it stops when fn returns false,
// and reports whether it went to the end.
func (t directiveText) eachToken(from, to int, fn func(directiveToken) bool) bool {
	s := t.s
	for i := from; i <= to; {
		j := commaOrEnd(s, i, to)
		a, b := trimmedSpan(s, i, j)
		next := j + 1
		if a == b {
			i = next
			continue
		}
		tok := directiveToken{start: a}
		// The part after the comma, when a date's day name is joined
		// with it: "unavailable_after: Monday" ", 1 Jan 2001".
		joined, a2, b2, k := false, 0, 0, 0
		if j < to && startsDate(t.lower[a:b]) {
			joined = true
			k = commaOrEnd(s, j+1, to)
			a2, b2 = trimmedSpan(s, j+1, k)
			next = k + 1
		}
		tok.next = min(next, to)
		colon := strings.IndexByte(s[a:b], ':')
		if colon < 0 {
			// No colon: not joined either (startsDate needs one).
			tok.Name = t.lower[a:b]
		} else {
			na, nb := trimmedSpan(s, a, a+colon)
			tok.Name = t.lower[na:nb]
			va, vb := trimmedSpan(s, a+colon+1, b)
			tok.Value = s[va:vb]
			tok.valueFrom, tok.valueTo = a+colon+1, b
			if joined {
				tok.Value = joinedDate(s, va, vb, j, a2, b2)
				tok.valueTo = k
			}
		}
		if !fn(tok) {
			return false
		}
		i = next
	}
	return true
}

// joinedDate is a date value whose comma was read as a separator: its
// first part s[va:vb] (up to the comma at j) and what follows the comma,
// s[a2:b2], joined by ", " as ParseDirectives has always written it. It
// is the text itself when that is how it is written, so that only a date
// spaced otherwise is a new string.
func joinedDate(s string, va, vb, j, a2, b2 int) string {
	switch {
	case a2 == b2 && vb == j:
		return s[va : j+1] // "Monday,": nothing after the comma
	case a2 == b2:
		return s[va:vb] + ","
	case s[vb:a2] == ", ":
		return s[va:b2]
	}
	return s[va:vb] + ", " + s[a2:b2]
}

// commaOrEnd is the index of the first ',' in s[i:to], or to.
func commaOrEnd(s string, i, to int) int {
	if k := strings.IndexByte(s[i:to], ','); k >= 0 {
		return i + k
	}
	return to
}

// trimmedSpan is s[i:j] with strings.TrimSpace's white space taken off its
// ends, as offsets in s.
func trimmedSpan(s string, i, j int) (int, int) {
	for i < j && trimSpaceByte[s[i]] {
		i++
	}
	for j > i && trimSpaceByte[s[j-1]] {
		j--
	}
	if i < j && (s[i] >= utf8.RuneSelf || s[j-1] >= utf8.RuneSelf) {
		// Unicode white space (U+0085, U+00A0 …), as TrimSpace trims it.
		t := strings.TrimLeftFunc(s[i:j], unicode.IsSpace)
		i = j - len(t)
		j = i + len(strings.TrimRightFunc(t, unicode.IsSpace))
	}
	return i, j
}

// trimSpaceByte marks the ASCII white space unicode.IsSpace reports.
var trimSpaceByte = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// each calls fn with each directive of s[from:to]: the tokens, a token of
// words with a keyword among them split into its words. It stops when fn
// returns false, and reports whether it went to the end.
func (t directiveText) each(from, to int, fn func(Directive) bool) bool {
	return t.eachToken(from, to, func(tok directiveToken) bool {
		if tok.Value == "" && strings.ContainsFunc(tok.Name, wordSeparator) && !eachWord(tok.Name, func(w string) bool { return !bare[w] }) {
			// Keywords written with spaces or semicolons between them
			// still say what they say ("noindex foo" is noindex and an
			// unknown foo): a careful reader errs towards the "no".
			return eachWord(tok.Name, func(w string) bool { return fn(Directive{Name: w}) })
		}
		return fn(tok.Directive)
	})
}

// eachWord calls fn with each word of s, as strings.FieldsFunc(s,
// wordSeparator) lists them, until fn returns false; it reports whether it
// went to the end.
func eachWord(s string, fn func(string) bool) bool {
	start := -1
	for i, r := range s {
		switch {
		case !wordSeparator(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			if !fn(s[start:i]) {
				return false
			}
			start = -1
		}
	}
	return start < 0 || fn(s[start:])
}

// wordSeparator: what separates words inside a directive token, the white
// space strings.TrimSpace trims around one, and ';'.
func wordSeparator(r rune) bool { return unicode.IsSpace(r) || r == ';' }

// startsDate reports whether tok ends with "unavailable_after:" and a day
// name, the part of an RFC 850 or RFC 1123 date before its comma; the
// directive may follow an X-Robots-Tag bot name ("googlebot:
// unavailable_after: Saturday, 15-Jan-94 …"). tok is lower-case.
func startsDate(tok string) bool {
	const key = "unavailable_after:"
	i := strings.LastIndex(tok, key)
	return i >= 0 && isDayName(strings.TrimSpace(tok[i+len(key):]))
}

func isDayName(s string) bool {
	switch s {
	case "mon", "tue", "wed", "thu", "fri", "sat", "sun",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// ScopedDirectives are the directives of an X-Robots-Tag value that apply to
// one bot ("" for every bot).
type ScopedDirectives struct {
	Bot        string
	Directives []Directive
}

// ParseXRobotsTag splits an X-Robots-Tag header value. A leading `botname:`
// scopes the directives after it, up to the next such prefix;
// `unavailable_after:` and `max-…:` are directives, never bot names.
func ParseXRobotsTag(value string) []ScopedDirectives {
	var out []ScopedDirectives
	newDirectiveText(value).eachScope(func(sc directiveScope) bool {
		sd := ScopedDirectives{Bot: sc.bot}
		sc.each(func(d Directive) bool {
			sd.Directives = append(sd.Directives, d)
			return true
		})
		out = append(out, sd)
		return true
	})
	return out
}

// directiveScope is one scope of an X-Robots-Tag value (ParseXRobotsTag),
// read in place: the directives after the bot name's colon, then those of
// the tokens up to the next bot name.
type directiveScope struct {
	text             directiveText
	bot              string
	botFrom, botTo   int
	restFrom, restTo int
}

// each calls fn with each directive of the scope, until fn returns false.
func (sc *directiveScope) each(fn func(Directive) bool) bool {
	return sc.text.each(sc.botFrom, sc.botTo, fn) && sc.text.each(sc.restFrom, sc.restTo, fn)
}

// eachScope calls fn with each scope of an X-Robots-Tag value, in order,
// until fn returns false: a scope for every bot when the value starts with
// directives, and one for each bot name.
func (t directiveText) eachScope(fn func(directiveScope) bool) {
	sc := directiveScope{text: t}
	some := false // directives in the scope, besides the bot name's
	ok := t.eachToken(0, len(t.s), func(tok directiveToken) bool {
		if tok.Value == "" || isValuedName(tok.Name) || !isBotName(tok.Name) {
			some = true
			return true
		}
		if some || sc.bot != "" {
			sc.restTo = tok.start
			if !fn(sc) {
				return false
			}
		}
		sc = directiveScope{text: t, bot: tok.Name, botFrom: tok.valueFrom, botTo: tok.valueTo, restFrom: tok.next}
		some = false
		return true
	})
	if ok && (some || sc.bot != "") {
		sc.restTo = len(t.s)
		fn(sc)
	}
}

func isBotName(s string) bool {
	if s == "" || bare[s] {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// AgentMatches reports whether a robots META name or X-Robots-Tag bot name
// addresses the agent: the name equals the agent's product token (the part
// before any '/' or space) or the whole agent string, ignoring case.
func AgentMatches(name, agent string) bool {
	if name == "" || agent == "" {
		return false
	}
	product := agent
	if i := strings.IndexAny(product, "/ \t"); i >= 0 {
		product = product[:i]
	}
	return ascii.EqualFold(name, product) || ascii.EqualFold(name, strings.TrimSpace(agent))
}

// Add applies directives from one source. It returns a warning text for each
// conflict it resolved (always to the more restrictive rule).
// Sources and Other past their bounds are counted, not listed, with a
// warning the first time.
func (d *Directives) Add(src DirectiveSource, ds []Directive) []string {
	var warns []string
	warn := func(w directiveWarning) { warns = append(warns, w.String()) }
	dropped := d.startSource(src, warn)
	for _, x := range ds {
		d.take(x, warn)
	}
	d.endSource(dropped, warn)
	return warns
}

// AddXRobotsTag applies an X-Robots-Tag value as a run does: the
// directives for every bot, and those scoped to a bot name that agent
// matches (AgentMatches), each scope a source ("x-robots-tag", or
// "x-robots-tag " and the bot's name) whose Value is value. warn, when not
// nil, is given each warning Add would return. Unlike ParseXRobotsTag and
// Add, it makes no list of the value's directives: what it allocates is
// bounded by what d keeps, whatever the value's length.
func (d *Directives) AddXRobotsTag(value, agent string, warn func(string)) {
	w := func(w directiveWarning) {
		if warn != nil {
			warn(w.String())
		}
	}
	var origins xRobotsTagOrigins
	newDirectiveText(value).eachScope(func(sc directiveScope) bool {
		if sc.bot != "" && !AgentMatches(sc.bot, agent) {
			return true
		}
		dropped := d.startSource(DirectiveSource{Origin: origins.of(sc.bot), Value: value}, w)
		sc.each(func(x Directive) bool {
			d.take(x, w)
			return true
		})
		d.endSource(dropped, w)
		return true
	})
}

// xRobotsTagOrigins makes the Origin of an X-Robots-Tag scope's source.
// The bot names a value's scopes apply under are the agent's product
// token and the agent string (AgentMatches), lower-cased: two at most, so
// that it keeps two and makes each once, not once a scope.
type xRobotsTagOrigins struct {
	bots, origins [2]string
	n             int
}

func (o *xRobotsTagOrigins) of(bot string) string {
	if bot == "" {
		return "x-robots-tag"
	}
	for i, b := range o.bots {
		if b == bot && o.origins[i] != "" {
			return o.origins[i]
		}
	}
	i := o.n % len(o.bots)
	o.n++
	o.bots[i], o.origins[i] = bot, "x-robots-tag "+bot
	return o.origins[i]
}

// startSource, take and endSource are Add in parts, for directives read
// in place one at a time (directiveText): startSource lists the source
// and gives what endSource needs; take applies one directive. Each
// warning goes to warn as it is found, to be made into text only if
// someone reads it: a value of millions of conflicting tokens costs the
// warnings kept, not one string a token. (Called directly, not through
// an iterator, so that warn and the functions around them need no
// allocation.)
func (d *Directives) startSource(src DirectiveSource, warn func(directiveWarning)) (otherDropped int) {
	if listed(len(d.Sources), d.sourceBytes, len(src.Value), d.SourcesDropped) {
		d.Sources = append(d.Sources, src)
		d.sourceBytes += len(src.Value)
	} else if d.SourcesDropped++; d.SourcesDropped == 1 {
		warn(directiveWarning{kind: warnSourcesDropped})
	}
	return d.OtherDropped
}

func (d *Directives) take(x Directive, warn func(directiveWarning)) {
	if w := d.add(x); w.kind != warnNone {
		warn(w)
	}
}

func (d *Directives) endSource(otherDropped int, warn func(directiveWarning)) {
	if otherDropped == 0 && d.OtherDropped > 0 {
		warn(directiveWarning{kind: warnOtherDropped})
	}
}

// directiveWarning is a warning of Directives.add, made into text
// (String) only when someone reads it.
type directiveWarning struct {
	kind       warningKind
	a, b, name string
	m, n       int
}

type warningKind uint8

const (
	warnNone warningKind = iota
	warnSourcesDropped
	warnOtherDropped
	warnConflict         // a positive (a) after negative (b)
	warnConflictPositive // a positive (a) after a negative rule
	warnImagePreviewValue
	warnImagePreviewConflict
	warnDatesUnknownForm
	warnDatesConflict
	warnNotANumber
	warnLimitConflict
)

func (w directiveWarning) String() string {
	switch w.kind {
	case warnSourcesDropped:
		return fmt.Sprintf("more than %d robots directive sources (or %d bytes of their values): this one and later ones are not listed; their rules still apply", MaxListed, MaxListedBytes)
	case warnOtherDropped:
		return fmt.Sprintf("more than %d unknown robots directives (or %d bytes of them): this one and later ones are not listed", MaxListed, MaxListedBytes)
	case warnConflict:
		return fmt.Sprintf("conflicting robots directives %q and %q; the more restrictive %q applies", w.a, w.b, w.b)
	case warnConflictPositive:
		return fmt.Sprintf("conflicting robots directives: %q and a negative rule seen before; the more restrictive rule applies", w.a)
	case warnImagePreviewValue:
		return fmt.Sprintf("max-image-preview value %q is not none, standard or large; ignored", w.a)
	case warnImagePreviewConflict:
		return fmt.Sprintf("conflicting max-image-preview values %s and %s; the smaller applies", w.a, w.b)
	case warnDatesUnknownForm:
		return fmt.Sprintf("conflicting unavailable_after values %q and %q, not both dates in a known form; the first applies", w.a, w.b)
	case warnDatesConflict:
		return fmt.Sprintf("conflicting unavailable_after values %q and %q; the earlier applies", w.a, w.b)
	case warnNotANumber:
		return fmt.Sprintf("%s value %q is not a number; ignored", w.name, w.a)
	case warnLimitConflict:
		return fmt.Sprintf("conflicting %s values %d and %d; the smaller applies", w.name, w.m, w.n)
	}
	return ""
}

// other lists a token no engine we know defines: a copy, as the token is
// part of a value that need not be kept.
func (d *Directives) other(x Directive) {
	size := len(x.Name) // of x.String(), which a dropped token need not make
	if x.Value != "" {
		size += 1 + len(x.Value)
	}
	if !listed(len(d.Other), d.otherBytes, size, d.OtherDropped) {
		d.OtherDropped++
		return
	}
	text := x.String()
	if x.Value == "" {
		text = strings.Clone(text)
	}
	d.Other = append(d.Other, text)
	d.otherBytes += size
}

func (d *Directives) add(x Directive) directiveWarning {
	switch x.Name {
	case "noindex":
		d.NoIndex = true
		return d.conflict("noindex", "index", "all")
	case "nofollow":
		d.NoFollow = true
		return d.conflict("nofollow", "follow", "all")
	case "noarchive":
		d.NoArchive = true
		return d.conflict("noarchive", "archive")
	case "nocache":
		d.NoArchive = true
		return d.conflict("nocache", "archive")
	case "nosnippet":
		d.NoSnippet = true
	case "none":
		d.NoIndex, d.NoFollow = true, true
		return d.conflict("none", "index", "follow", "all")
	case "index", "follow", "archive", "all":
		name := d.note(x.Name)
		switch {
		case name == "index" && d.NoIndex, name == "follow" && d.NoFollow,
			name == "archive" && d.NoArchive, name == "all" && (d.NoIndex || d.NoFollow):
			return directiveWarning{kind: warnConflictPositive, a: name}
		}
	case "max-snippet":
		n, w, ok := d.limit(&d.MaxSnippet, "max-snippet", x)
		if ok && n == 0 {
			d.NoSnippet = true
		}
		return w
	case "max-video-preview":
		_, w, _ := d.limit(&d.MaxVideoPreview, "max-video-preview", x)
		return w
	case "max-image-preview":
		v := imagePreviewName(x.Value)
		if v == "" {
			d.other(x)
			return directiveWarning{kind: warnImagePreviewValue, a: x.Value}
		}
		if d.MaxImagePreview != "" && d.MaxImagePreview != v {
			w := directiveWarning{kind: warnImagePreviewConflict, a: d.MaxImagePreview, b: v}
			if imagePreviewRank(v) < imagePreviewRank(d.MaxImagePreview) {
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
	case "noai":
		d.NoAI = true
	case "noimageai":
		d.NoImageAI = true
	default:
		d.other(x)
	}
	return directiveWarning{}
}

// unavailableAfter takes an unavailable_after date. Of two that differ the
// earlier stays (the page is unavailable sooner: the more restrictive
// rule), with a warning; when either is in a form parseUnavailableAfter
// does not read, the first stays, with a warning that says so. The date
// kept is a copy, as it is part of a value that need not be kept.
func (d *Directives) unavailableAfter(v string) directiveWarning {
	cur := d.UnavailableAfter
	if cur == "" {
		d.UnavailableAfter = strings.Clone(v)
		return directiveWarning{}
	}
	if cur == v {
		return directiveWarning{}
	}
	t0, ok0 := parseUnavailableAfter(cur)
	t1, ok1 := parseUnavailableAfter(v)
	switch {
	case !ok0 || !ok1:
		return directiveWarning{kind: warnDatesUnknownForm, a: cur, b: v}
	case t1.Equal(t0):
		return directiveWarning{}
	case t1.Before(t0):
		d.UnavailableAfter = strings.Clone(v)
	}
	return directiveWarning{kind: warnDatesConflict, a: cur, b: v}
}

// limit reads the numeric limit x (max-snippet, max-video-preview, named
// name; -1: no limit) into *cur. Of two values that differ the smaller
// stays, with a warning; a value that is not a number goes to Other, with
// a warning. *cur is allocated once and then changed in place.
func (d *Directives) limit(cur **int, name string, x Directive) (n int, w directiveWarning, ok bool) {
	n, ok = parseInt(x.Value)
	if !ok {
		d.other(x)
		return 0, directiveWarning{kind: warnNotANumber, name: name, a: x.Value}, false
	}
	if *cur == nil {
		*cur = new(int)
		**cur = n
		return n, directiveWarning{}, true
	}
	if **cur != n {
		w = directiveWarning{kind: warnLimitConflict, name: name, m: **cur, n: n}
		if restrictiveSnippet(n, **cur) {
			**cur = n
		}
	}
	return n, w, true
}

// parseInt reads a decimal int as strconv.Atoi does (a sign, digits, in
// range), without the error value Atoi allocates for what it refuses.
func parseInt(s string) (int, bool) {
	digits := s
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		digits = s[1:]
	}
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s) // in range unless it fails here, rarely
	return n, err == nil
}

// restrictiveSnippet: -1 means "no limit", so any other value is smaller.
func restrictiveSnippet(n, than int) bool {
	if n < 0 {
		return false
	}
	return than < 0 || n < than
}

func imagePreviewRank(v string) int {
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

// imagePreviewName is a max-image-preview value, any case, as one of
// none, standard and large ("" for another).
func imagePreviewName(v string) string {
	for _, name := range [...]string{"none", "standard", "large"} {
		if ascii.EqualFold(v, name) {
			return name
		}
	}
	return ""
}

// note records a positive directive seen, and gives its name as a
// constant (the one in the note, not a part of the value read).
func (d *Directives) note(positive string) string {
	if d.positive == nil {
		d.positive = map[string]bool{}
	}
	for _, p := range [...]string{"index", "follow", "archive", "all"} {
		if p == positive {
			d.positive[p] = true
			return p
		}
	}
	return positive
}

func (d *Directives) conflict(neg string, positives ...string) directiveWarning {
	for _, p := range positives {
		if d.positive[p] {
			return directiveWarning{kind: warnConflict, a: p, b: neg}
		}
	}
	return directiveWarning{}
}
