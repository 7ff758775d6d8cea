package filter

import (
	"io"
	"strings"

	"github.com/robofilter/robofilter/aipref"

	"github.com/robofilter/robofilter/phrase"
)

// Options configure one run. The zero value honours every dialect, with no
// agent, no base URL and the default ellipsis.
type Options struct {
	Agent          string   // --agent: robot name for agent-specific META and per-robot classes
	RequireProfile bool     // honour profile classes only with the profile URI in <head profile>
	Ellipsis       string   // replaces no-archive content; "" means "…"
	XRobotsTag     []string // X-Robots-Tag values from the HTTP response or the caller
	Dialects       Dialects // 0 means AllDialects
	Base           string   // the document's URL, for resolving links

	// AI usage preferences from outside the document (docs/aipref.md):
	// Content-Usage header values (combined into one field value, as RFC
	// 9651 combines field lines), tdm-reservation and tdm-policy header
	// values, and the statements of the site's files (robots.txt lines,
	// a tdmrep.json rule) that apply to the document's URL.
	ContentUsage   []string
	TDMReservation []string
	TDMPolicy      []string
	SiteStatements []aipref.Statement
	// Purpose is the use the caller has in mind: when the preferences
	// disallow it, the Text and ArchiveText outputs carry nothing, and
	// the Result's Directives.AI says why. The zero Purpose changes
	// nothing.
	Purpose aipref.Purpose
}

// Outputs say where results go. A nil output is not produced and costs
// nothing; every output is fed by the same pass.
type Outputs struct {
	Text        *phrase.Writer     // indexable text
	ArchiveText *phrase.Writer     // text of the archive copy: indexable text with ellipses
	Archive     io.Writer          // archive-safe copy of the input bytes
	Link        func(Link) error   // every link, followed or not, in document order
	Region      func(Region) error // every excluded region, when it ends
	// Warning is given each warning the Result keeps (the first
	// MaxWarnings) as it is found; later ones are only counted, in
	// Result.WarningsDropped, at no cost in formatting.
	Warning func(Warning)
	// ExcludedText is given the text that noindex (the document's or a
	// region's) keeps out of Text, with the layout's spaces and line
	// breaks as Text would have them: with Text, all the page's text, so
	// that a report can say how much of it is not indexed.
	ExcludedText *phrase.Writer
	// Source is given the document's own bytes, every one of them in
	// order, and told where each region and link starts: what a view of
	// the page with its regions drawn on it needs (robofilter check
	// --format overlay). The HTML stage writes it; Archive and Source
	// exclude each other (they take one path).
	Source Source
}

// Source is the output of a document's own bytes (Outputs.Source). The
// StartRegion and StartLink calls come between the writes, where the
// token that opens the region or link starts: every byte before it has
// been written, none of it. A region or link of an element the parser
// makes without a tag of its own (a formatting element it re-creates,
// <b> after misnested markup) starts before whatever token made it. The
// html element's classes, which count once a later <head profile> names
// the profile (RequireProfile), start a region at its tag, told when the
// head starts. A document in the replacement encoding, which browsers
// read as one U+FFFD, gives no bytes, as it gives no archive copy.
type Source interface {
	io.Writer
	// Charset is told, before any byte is written, the charset the
	// document is read in (its WHATWG name): the bytes are in it.
	Charset(name string)
	// StartRegion is told where a region starts; Outputs.Region, where
	// it ends.
	StartRegion(Region)
	// StartLink is told where a link's element starts, and whether it is
	// followed as far as is known there; its URL, Href, Rel and Text are
	// not known yet. Outputs.Link tells the rest, when the link ends: a
	// robots META in the head after a link, or an href that resolves to
	// no URL, or to one of no web page's scheme, can still make a link
	// not followed.
	StartLink(Link)
}

// Region is one place where the author turned switches off (or back on):
// an element with robots markup, or a comment- or tag-delimited span.
type Region struct {
	Dialect string `json:"dialect"` // profile, robotN, nocontent, nosnippet, yandex, googleoff
	Marker  string `json:"marker"`  // the markup that made it, e.g. class="robots-noindex"
	Tag     string `json:"tag,omitempty"`
	Off     Switch `json:"-"`
	On      Switch `json:"-"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	EndLine int    `json:"end_line,omitempty"`
	EndCol  int    `json:"end_col,omitempty"`
	Offset  int64  `json:"offset"`         // bytes before the region's start in the input
	Size    int64  `json:"size,omitempty"` // bytes from the region's start to its end
	start   Pos
}

// Switches names the switches the region turns off and on, for reports.
func (r *Region) Switches() (off, on string) {
	off, on = r.Off.String(), ""
	if r.On != 0 {
		for _, n := range switchNames {
			if r.On&n.bit != 0 {
				on += "," + n.on
			}
		}
		on = strings.TrimPrefix(on, ",")
	}
	return off, on
}

// Result is what a run found about the document besides its outputs.
type Result struct {
	Directives Directives `json:"directives"`
	Warnings   []Warning  `json:"warnings,omitempty"`
	// WarningsDropped counts warnings past MaxWarnings (reported but not kept).
	WarningsDropped int    `json:"warnings_dropped,omitempty"`
	Charset         string `json:"charset,omitempty"`
	Format          string `json:"format,omitempty"`
}

// MaxWarnings bounds the warnings a Result keeps, and those the Warning
// output is given; the rest are counted (Result.WarningsDropped).
const MaxWarnings = 1000

// MaxWarningBytes bounds a warning's message: one that quotes a value of
// the input whole (a class, a META content) is cut there, with an
// ellipsis, so that warnings take no more than MaxWarnings times this.
const MaxWarningBytes = 1 << 10

// AddWarning keeps w, or counts it in WarningsDropped once MaxWarnings
// are kept.
func (r *Result) AddWarning(w Warning) {
	if len(r.Warnings) < MaxWarnings {
		r.Warnings = append(r.Warnings, w)
	} else {
		r.WarningsDropped++
	}
}
