package filter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
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
}

// ParseDirectives splits a robots META content attribute into directives.
// Tokens are separated by commas, with any spaces around them; a token of
// words separated by spaces or semicolons is split into them when one is a
// keyword ("noindex nofollow", "noindex;foo").
// The comma inside an RFC 850 or RFC 1123 date after unavailable_after is
// part of the date, not a separator.
func ParseDirectives(content string) []Directive {
	var out []Directive
	parts := strings.Split(content, ",")
	for i := 0; i < len(parts); i++ {
		tok := strings.TrimSpace(parts[i])
		if tok == "" {
			continue
		}
		if startsDate(tok) && i+1 < len(parts) {
			i++
			tok += ", " + strings.TrimSpace(parts[i])
		}
		d := splitDirective(tok)
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
func wordSeparator(r rune) bool { return unicode.IsSpace(r) || r == ';' }

func splitDirective(tok string) Directive {
	name, value, found := strings.Cut(tok, ":")
	name = asciiLower(strings.TrimSpace(name))
	if !found {
		return Directive{Name: name}
	}
	return Directive{Name: name, Value: strings.TrimSpace(value)}
}

// startsDate reports whether tok ends with "unavailable_after:" and a day
// name, the part of an RFC 850 or RFC 1123 date before its comma; the
// directive may follow an X-Robots-Tag bot name ("googlebot:
// unavailable_after: Saturday, 15-Jan-94 …").
func startsDate(tok string) bool {
	const key = "unavailable_after:"
	i := strings.LastIndex(asciiLower(tok), key)
	return i >= 0 && isDayName(tok[i+len(key):])
}

func isDayName(s string) bool {
	switch asciiLower(strings.TrimSpace(s)) {
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
	cur := ScopedDirectives{}
	for _, d := range ParseDirectives(value) {
		if d.Value != "" && !isValuedName(d.Name) && isBotName(d.Name) {
			if len(cur.Directives) > 0 || cur.Bot != "" {
				out = append(out, cur)
			}
			cur = ScopedDirectives{Bot: d.Name}
			rest := ParseDirectives(d.Value)
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
	return equalFoldASCII(name, product) || equalFoldASCII(name, strings.TrimSpace(agent))
}

// Add applies directives from one source. It returns a warning text for each
// conflict it resolved (always to the more restrictive rule).
// Sources and Other past their bounds are counted, not listed, with a
// warning the first time.
func (d *Directives) Add(src DirectiveSource, ds []Directive) []string {
	var warns []string
	if listed(len(d.Sources), d.sourceBytes, len(src.Value), d.SourcesDropped) {
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
func (d *Directives) other(x Directive) {
	size := len(x.Name) // of x.String(), which a dropped token need not make
	if x.Value != "" {
		size += 1 + len(x.Value)
	}
	if !listed(len(d.Other), d.otherBytes, size, d.OtherDropped) {
		d.OtherDropped++
		return
	}
	d.Other = append(d.Other, x.String())
	d.otherBytes += size
}

func (d *Directives) add(x Directive) string {
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
		v := asciiLower(x.Value)
		if imagePreviewRank(v) < 0 {
			d.other(x)
			return fmt.Sprintf("max-image-preview value %q is not none, standard or large; ignored", x.Value)
		}
		if d.MaxImagePreview != "" && d.MaxImagePreview != v {
			w := fmt.Sprintf("conflicting max-image-preview values %s and %s; the smaller applies", d.MaxImagePreview, v)
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
	default:
		d.other(x)
	}
	return ""
}

// unavailableAfter takes an unavailable_after date. Of two that differ the
// earlier stays (the page is unavailable sooner: the more restrictive
// rule), with a warning; when either is in a form parseUnavailableAfter
// does not read, the first stays, with a warning that says so.
func (d *Directives) unavailableAfter(v string) string {
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
func (d *Directives) limit(cur **int, x Directive) (n int, warning string, ok bool) {
	n, err := strconv.Atoi(x.Value)
	if err != nil {
		d.other(x)
		return 0, fmt.Sprintf("%s value %q is not a number; ignored", x.Name, x.Value), false
	}
	if *cur != nil && **cur != n {
		w := fmt.Sprintf("conflicting %s values %d and %d; the smaller applies", x.Name, **cur, n)
		if restrictiveSnippet(n, **cur) {
			*cur = &n
		}
		return n, w, true
	}
	*cur = &n
	return n, "", true
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

func (d *Directives) note(positive string) {
	if d.positive == nil {
		d.positive = map[string]bool{}
	}
	d.positive[positive] = true
}

func (d *Directives) conflict(neg string, positives ...string) string {
	for _, p := range positives {
		if d.positive[p] {
			return fmt.Sprintf("conflicting robots directives %q and %q; the more restrictive %q applies", p, neg, neg)
		}
	}
	return ""
}
