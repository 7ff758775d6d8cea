package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
	"github.com/urfave/cli/v2"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "report, for the page's author, everything robots will and will not do with the page",
		ArgsUsage: "[FILE...]",
		Description: `Prints a report: a verdict (is the page indexed, are its links followed, is it
archived, and how much of its text and how many of its links the robots
markup keeps out); the document-level directives and where each came from;
every region the robots markup makes (which dialect, which marker, the
switches it turns off or on, where it starts and ends, its size); every link
that will not be followed and why; and every warning (unknown robots- classes,
unclosed comment regions, conflicting directives, META in the body,
max-image-preview:none, which some crawlers misread as "none").

--format html writes the report as a page, the source below it with every
region marked; --format overlay draws the page itself as a browser renders
it, each region outlined, its scripts off and nothing fetched but its own
images and style sheets (from --base).

Examples:
   robofilter check page.html
   robofilter check --agent "Foo Bot" --format jsonl page.html
   robofilter check --format html page.html > check.html   (the report, and the source marked)
   robofilter check --format overlay --base https://example.com/page.html page.html > overlay.html`,
		Flags:  documentFlags("check"),
		Action: runCheck,
	}
}

// snippetEllipsis is the ellipsis of check's text form of the archive
// copy, which it only counts: a byte no text holds (the core's text is
// UTF-8), so that its count leaves the ellipses out.
const snippetEllipsis = "\xff"

func runCheck(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	overlayMode := c.String("format") == "overlay"
	var pageNames []string // the documents of a page, for its contents
	notedDocs := false
	err = rc.forEachFile(c, func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		ck := &checkDoc{name: name}
		if warn != nil {
			inner := warn
			warn = func(w filter.Warning) {
				if !archiveTextWarning(w) {
					inner(w)
				}
			}
		}
		out := robofilter.Outputs{
			Warning:      warn, // on stderr too, as every command's
			Text:         phrase.NewWriter(&ck.indexed),
			ArchiveText:  phrase.NewWriter(&ck.snippet),
			ExcludedText: phrase.NewWriter(&ck.excluded),
		}
		opts := rc.opts
		opts.Ellipsis = snippetEllipsis
		if rc.jsonl {
			// Records go out as they come (regions as they end), so that
			// memory does not grow with the document.
			out.Region = func(r filter.Region) error { ck.regionCount++; return rc.record(regionOf(name, r)) }
			out.Link = func(l filter.Link) error {
				ck.count(l)
				if l.Followed {
					return nil
				}
				return rc.record(linkRecord{Type: "link", File: name, Link: l})
			}
		} else {
			out.Region = ck.region
			out.Link = func(l filter.Link) error { ck.count(l); ck.keep(l); return nil }
		}
		var src *sourceCapture
		var ov *overlay
		switch {
		case overlayMode && rc.pageDocs > 0:
			// One page draws one document.
			if !notedDocs && !rc.quiet {
				fmt.Fprintf(rc.stderr, "robofilter: %s: note: --format overlay draws one document, the first: this one and any after it are not drawn (--format html reports them all)\n", name)
			}
			notedDocs = true
			out = robofilter.Outputs{Warning: warn}
		case overlayMode:
			br := bufio.NewReader(r)
			if opts.Format == robofilter.XML || opts.Format == robofilter.Auto && robofilter.Sniff(br) == robofilter.XML {
				// Drawn by no browser as a page: the source view instead.
				fmt.Fprintf(rc.stderr, "robofilter: %s: note: an XML document is not drawn as a page: --format overlay writes the report and the source marked (as --format html)\n", name)
				src = &sourceCapture{r: br}
				r = src
				break
			}
			r = br
			ov = newOverlay(rc.stdout, name, opts.Base)
			out.Source = ov
			// The overlay lists nothing: it counts, and draws.
			out.Region = func(r filter.Region) error { ck.regionCount++; ov.endRegion(r); return nil }
			out.Link = func(l filter.Link) error { ck.count(l); return nil }
		case rc.page:
			src = &sourceCapture{r: r}
			r = src
		}
		res, err := robofilter.Process(r, opts, out)
		if res == nil {
			return nil, err
		}
		dropArchiveTextWarnings(res)
		if overlayMode && rc.pageDocs > 0 {
			return res, err
		}
		if res.Directives.MaxImagePreview == "none" {
			w := filter.Warning{Message: "max-image-preview:none limits image previews only; some crawlers misread it as \"none\" (noindex, nofollow)"}
		sources:
			for _, src := range res.Directives.Sources {
				for _, d := range filter.ParseDirectives(src.Value) {
					if d.Name == "max-image-preview" && len(d.Value) == 4 && strings.EqualFold(d.Value, "none") {
						w.Line, w.Col = src.Line, src.Col
						break sources
					}
				}
			}
			if len(res.Warnings) < filter.MaxWarnings && warn != nil {
				warn(w) // as the core gives its own: those the Result keeps
			}
			res.AddWarning(w)
		}
		inDocumentOrder(res.Warnings)
		v := ck.verdict(res)
		if rc.jsonl {
			if werr := rc.record(v); werr != nil {
				return res, werr
			}
			return res, rc.writeDocument(name, res, err)
		}
		rep := ck.reported()
		switch {
		case ov != nil:
			ov.finish(res, v, err)
			rc.pageDocs++
		case src != nil:
			writeCheckPage(rc.stdout, rc.pageDocs, name, res, v, rep, src)
			rc.pageDocs++
			if len(pageNames) < maxContents {
				pageNames = append(pageNames, name)
			}
		default:
			writeReport(rc.stdout, name, res, v, rep)
		}
		return res, err
	})
	if rc.pageDocs > 1 && !overlayMode {
		writeContents(rc.stdout, pageNames, rc.pageDocs)
		if werr := rc.stdout.Flush(); werr != nil && err == nil {
			err = cli.Exit(fmt.Sprintf("writing output: %v", werr), exitFailure)
		}
	}
	return err
}

// archiveTextWarning reports the warning the core gives the text form of
// the archive copy when the document says noarchive: check counts that
// text only, and says so in its verdict.
func archiveTextWarning(w filter.Warning) bool {
	return strings.HasSuffix(w.Message, ": no archive copy is written")
}

func dropArchiveTextWarnings(res *robofilter.Result) {
	kept := res.Warnings[:0]
	for _, w := range res.Warnings {
		if !archiveTextWarning(w) {
			kept = append(kept, w)
		}
	}
	res.Warnings = kept
}

// checkDoc is what check gathers of one document: the regions and links
// the report lists (bounded), and the verdict's counts.
type checkDoc struct {
	name           string
	regions        regionHeap
	seq            int
	regionsDropped int
	regionCount    int // in JSON Lines, where none are kept
	links          []filter.Link
	linksDropped   int
	// notFollowed counts the links not followed by reason.
	notFollowed                map[string]int
	allLinks, followed         int
	indexed, snippet, excluded wordCounter
}

// region keeps the regions that start first: the report lists regions in
// the order they start, and it is written at the end (the directives
// come first): it keeps the first maxReported of each, and counts the
// rest.
func (ck *checkDoc) region(r filter.Region) error {
	ck.seq++
	ck.regionCount++
	heap.Push(&ck.regions, reportedRegion{r, ck.seq})
	if ck.regions.Len() > maxReported {
		heap.Pop(&ck.regions)
		ck.regionsDropped++
	}
	return nil
}

// count counts a link for the verdict.
func (ck *checkDoc) count(l filter.Link) {
	ck.allLinks++
	if l.Followed {
		ck.followed++
		return
	}
	if ck.notFollowed == nil {
		ck.notFollowed = map[string]int{}
	}
	reason := l.Reason
	if !robotsReason(reason) {
		reason = "" // not a page: counted together
	}
	if len(ck.notFollowed) < maxReasons || ck.notFollowed[reason] > 0 {
		ck.notFollowed[reason]++
	}
}

// maxReasons bounds the reasons counted apart (there are a handful).
const maxReasons = 32

// keep keeps a link not followed for the report's list.
func (ck *checkDoc) keep(l filter.Link) {
	switch {
	case l.Followed:
	case len(ck.links) < maxReported:
		ck.links = append(ck.links, l)
	default:
		ck.linksDropped++
	}
}

// robotsReason reports whether a link is not followed because of robots
// markup (the document's or a region's nofollow, a rel), rather than for
// being no page (a style sheet, an icon, mailto:, javascript:, an href
// that resolves to no URL).
func robotsReason(reason string) bool {
	switch reason {
	case "nofollow region", "document nofollow", "rel=nofollow", "rel=ugc", "rel=sponsored":
		return true
	}
	return false
}

func (ck *checkDoc) reported() reported {
	sort.Slice(ck.regions, func(i, j int) bool { return ck.regions[i].before(ck.regions[j]) })
	listed := make([]filter.Region, len(ck.regions))
	for i, r := range ck.regions {
		listed[i] = r.Region
	}
	return reported{listed, ck.regionsDropped, ck.links, ck.linksDropped}
}

// wordCounter counts the bytes of a plain text output's words: all but
// the spaces and line breaks between them, and the check's ellipsis.
type wordCounter struct{ n int64 }

func (w *wordCounter) Write(p []byte) (int, error) {
	for _, c := range p {
		if c != ' ' && c != '\n' && c != snippetEllipsis[0] {
			w.n++
		}
	}
	return len(p), nil
}

// verdict is the answer to the author's questions, first on every form
// of the report; in JSON Lines, the "page_verdict" record (allowed's
// "verdict" is another: a URL's under robots.txt).
type verdict struct {
	Type string `json:"type"` // "page_verdict"
	File string `json:"file"`
	// Indexed, Followed and Archived: the document-level rules let the
	// page be indexed, its links followed, a copy archived (and snippets
	// shown).
	Indexed  bool `json:"indexed"`
	Followed bool `json:"followed"`
	Archived bool `json:"archived"`
	// TextBytes is the page's text, indexed or not: IndexedBytes is what
	// text prints of it, SnippetBytes what archive --text prints (less
	// its ellipses); the bytes of words, without the spaces and line
	// breaks between them.
	TextBytes    int64 `json:"text_bytes"`
	IndexedBytes int64 `json:"indexed_bytes"`
	SnippetBytes int64 `json:"snippet_bytes"`
	// Links counts them all (links --all); NotFollowed, those the robots
	// markup keeps a crawler from, by reason; NotPages, those not followed
	// for being no page (resources, mailto:, javascript:, no URL).
	Links         int            `json:"links"`
	LinksFollowed int            `json:"links_followed"`
	NotFollowed   map[string]int `json:"not_followed,omitempty"`
	NotPages      int            `json:"not_pages"`
	Regions       int            `json:"regions"`
	// Leaks counts the warnings of markup that does not do what it seems
	// to (a typo in a class, a googleoff never closed): listed in the
	// document's warnings.
	Leaks int `json:"leaks"`
}

func (ck *checkDoc) verdict(res *robofilter.Result) verdict {
	d := res.Directives
	v := verdict{Type: "page_verdict", File: ck.name, Indexed: !d.NoIndex, Followed: !d.NoFollow, Archived: !d.NoArchive && !d.NoSnippet,
		IndexedBytes: ck.indexed.n, SnippetBytes: ck.snippet.n, TextBytes: ck.indexed.n + ck.excluded.n,
		Links: ck.allLinks, LinksFollowed: ck.followed, Regions: ck.regionCount}
	for reason, n := range ck.notFollowed {
		if reason == "" {
			v.NotPages = n
			continue
		}
		if v.NotFollowed == nil {
			v.NotFollowed = map[string]int{}
		}
		v.NotFollowed[reason] = n
	}
	for _, w := range res.Warnings {
		if leakWarning(w.Message) {
			v.Leaks++
		}
	}
	return v
}

// notFollowedByRobots is how many links the robots markup keeps a
// crawler from.
func (v *verdict) notFollowedByRobots() int {
	n := 0
	for _, k := range v.NotFollowed {
		n += k
	}
	return n
}

// leakWarnings are the warnings of markup that does not do what its
// author meant: content the author wanted kept out is let in (a class or
// comment with a typo, a robot never named), or a region runs further
// than meant (never closed), or rules came too late for what was written.
var leakWarnings = []string{
	"unknown Robot Exclusion Profile class",
	"unknown per-robot class",
	"is no googleoff/googleon marker",
	"unknown flag",
	"is never closed",
	"its classes are ignored",
	"after content was written",
}

func leakWarning(msg string) bool {
	for _, s := range leakWarnings {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// maxReported bounds the regions and the links not followed that the check
// report lists, as MaxWarnings bounds the warnings.
const maxReported = 10_000

// reported is what the report lists, and how many more there were.
type reported struct {
	regions        []filter.Region
	regionsDropped int
	links          []filter.Link
	linksDropped   int
}

// reportedRegion is a region and the order it was given in (seq), which
// decides between regions that start at one place (<noindex
// class="robots-nofollow"> makes two).
type reportedRegion struct {
	filter.Region
	seq int
}

func (a reportedRegion) before(b reportedRegion) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	return a.seq < b.seq
}

// regionHeap keeps the regions that start first: its top is the one that
// starts last, the one to drop when there are too many.
type regionHeap []reportedRegion

func (h regionHeap) Len() int           { return len(h) }
func (h regionHeap) Less(i, j int) bool { return h[j].before(h[i]) }
func (h regionHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *regionHeap) Push(x any)        { *h = append(*h, x.(reportedRegion)) }
func (h *regionHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// verdictLines are the verdict in words, for the plain report and the
// pages: what the document-level rules let robots do, and why not.
type verdictLines struct {
	Indexed, Followed, Archived string
	Text, Links                 string
}

func (v *verdict) words(d *filter.Directives) verdictLines {
	var l verdictLines
	l.Indexed = yesNo(v.Indexed, "indexed", "not indexed", because(d, "noindex", "none"))
	l.Followed = yesNo(v.Followed, "links followed", "links not followed", because(d, "nofollow", "none"))
	why := because(d, "noarchive", "nocache", "nosnippet", "max-snippet")
	l.Archived = yesNo(v.Archived, "archived (a copy kept, snippets shown)", "not archived", why)
	if !v.Archived && d.NoSnippet {
		l.Archived = yesNo(false, "", "no snippets and no archive copy", why)
	}
	switch {
	case v.TextBytes == 0:
		l.Text = "no text"
	default:
		l.Text = fmt.Sprintf("text: %s; not indexed: %s; not in snippets or the archive copy: %s",
			bytesOf(v.TextBytes), share(v.TextBytes-v.IndexedBytes, v.TextBytes), share(v.TextBytes-v.SnippetBytes, v.TextBytes))
	}
	l.Links = fmt.Sprintf("%s: %s followed; %s not followed because of robots markup", count(v.Links, "link"), thousands(int64(v.LinksFollowed)), thousands(int64(v.notFollowedByRobots())))
	if n := v.notFollowedByRobots(); n > 0 {
		l.Links += " (" + reasonCounts(v.NotFollowed) + ")"
	}
	if v.NotPages > 0 {
		l.Links += fmt.Sprintf("; %s not pages (style sheets, icons, mailto:, javascript: …)", thousands(int64(v.NotPages)))
	}
	return l
}

func yesNo(yes bool, y, n, why string) string {
	if yes {
		return y
	}
	if why == "" {
		return n
	}
	return n + ": " + why
}

// because names the sources of the document-level rules that say one of
// the directives: `meta robots "noindex" at line 5`, `X-Robots-Tag
// "noindex" (HTTP header)`.
func because(d *filter.Directives, names ...string) string {
	var parts []string
	srcs := sourcesSaying(d, names...)
	for _, s := range srcs {
		parts = append(parts, fmt.Sprintf("%s %q %s", s.Origin, clipText(s.Value, 80), sourceWhere(s)))
	}
	if len(srcs) == maxBecause {
		parts = append(parts, "…")
	}
	return strings.Join(parts, "; ")
}

// maxBecause bounds the sources a verdict names for one rule.
const maxBecause = 3

// sourcesSaying are the (first maxBecause) sources of the document-level
// rules that say one of the directives.
func sourcesSaying(d *filter.Directives, names ...string) []filter.DirectiveSource {
	var out []filter.DirectiveSource
	for _, s := range d.Sources {
		says := false
		for _, x := range filter.ParseDirectives(s.Value) {
			for _, n := range names {
				says = says || strings.EqualFold(x.Name, n) && (n != "max-snippet" || x.Value == "0")
			}
		}
		if says {
			out = append(out, s)
			if len(out) == maxBecause {
				break
			}
		}
	}
	return out
}

// sourceWhere says where a source of the rules is: a line of the page,
// or the HTTP header.
func sourceWhere(s filter.DirectiveSource) string {
	switch {
	case s.Line > 0:
		return fmt.Sprintf("at line %d", s.Line)
	case strings.HasPrefix(strings.ToLower(s.Origin), "x-robots-tag"):
		return "(HTTP header)"
	}
	return "(from outside the page)"
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

func reasonCounts(m map[string]int) string {
	reasons := make([]string, 0, len(m))
	for r := range m {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if m[reasons[i]] != m[reasons[j]] {
			return m[reasons[i]] > m[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	for i, r := range reasons {
		reasons[i] = fmt.Sprintf("%s %s", thousands(int64(m[r])), r)
	}
	return strings.Join(reasons, ", ")
}

// share is "N bytes (P%)" of a whole.
func share(n, of int64) string {
	if of == 0 {
		return bytesOf(n)
	}
	return fmt.Sprintf("%s (%s)", bytesOf(n), percent(n, of))
}

// count is "N things", or "1 thing".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return thousands(int64(n)) + " " + noun + "s"
}

func bytesOf(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return thousands(n) + " bytes"
}

// percent rounds a share to a whole percent, but for a small non-zero one,
// which is never "0%", and a large one short of all, never "100%".
func percent(n, of int64) string {
	switch p := float64(n) * 100 / float64(of); {
	case n == 0:
		return "0%"
	case p < 1:
		return "<1%"
	case n < of && p > 99:
		return ">99%"
	default:
		return fmt.Sprintf("%.0f%%", p)
	}
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func writeReport(w io.Writer, name string, res *robofilter.Result, v verdict, rep reported) {
	regions, links := rep.regions, rep.links
	d := res.Directives
	fmt.Fprintf(w, "%s (%s", name, res.Format)
	if res.Charset != "" {
		fmt.Fprintf(w, ", %s", res.Charset)
	}
	fmt.Fprintln(w, ")")
	words := v.words(&d)
	fmt.Fprintf(w, "  verdict: %s; %s; %s\n    %s\n    %s\n", words.Indexed, words.Followed, words.Archived, words.Text, words.Links)
	if v.Leaks > 0 {
		fmt.Fprintf(w, "    %s of markup that does not do what it seems to (below)\n", count(v.Leaks, "warning"))
	}
	fmt.Fprintf(w, "  document: %s\n", docSummary(&d))
	for _, s := range d.Sources {
		where := "given by the caller"
		if s.Line > 0 {
			where = fmt.Sprintf("at %d:%d", s.Line, s.Col)
		}
		fmt.Fprintf(w, "    %s %q %s\n", s.Origin, s.Value, where)
	}
	if d.SourcesDropped > 0 {
		fmt.Fprintf(w, "    and %d more sources, not listed\n", d.SourcesDropped)
	}
	for _, l := range aiprefSummary(d.AI) {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintf(w, "  regions: %d\n", len(regions)+rep.regionsDropped)
	for _, r := range regions {
		fmt.Fprintf(w, "    %d:%d-%d:%d  %s%s  %s  (%s, %d bytes)\n", r.Line, r.Col, r.EndLine, r.EndCol, tagOf(r), r.Marker, switchesOf(r), r.Dialect, r.Size)
	}
	if rep.regionsDropped > 0 {
		fmt.Fprintf(w, "    and %d more regions, not listed (at most %d are)\n", rep.regionsDropped, maxReported)
	}
	fmt.Fprintf(w, "  links not followed: %d\n", len(links)+rep.linksDropped)
	for _, l := range links {
		fmt.Fprintf(w, "    %d:%d  %s  %s%s\n", l.Line, l.Col, linkURL(l), l.Reason, causeOf(l))
	}
	if rep.linksDropped > 0 {
		fmt.Fprintf(w, "    and %d more, not listed (at most %d are)\n", rep.linksDropped, maxReported)
	}
	fmt.Fprintf(w, "  warnings: %d\n", len(res.Warnings)+res.WarningsDropped)
	for _, x := range res.Warnings {
		if x.Line > 0 {
			fmt.Fprintf(w, "    %d:%d  %s\n", x.Line, x.Col, x.Message)
		} else {
			fmt.Fprintf(w, "    %s\n", x.Message)
		}
	}
}

// tagOf is "<tag> " for an element's region, "" for a comment's.
func tagOf(r filter.Region) string {
	if r.Tag == "" {
		return ""
	}
	return "<" + r.Tag + "> "
}

// switchesOf names what a region turns off, then what it turns back on.
func switchesOf(r filter.Region) string {
	off, on := r.Switches()
	sw := ""
	if r.Off != 0 {
		sw = off
	}
	if on != "" {
		sw = strings.TrimPrefix(sw+","+on, ",")
	}
	return sw
}

func causeOf(l filter.Link) string {
	if l.Cause == nil {
		return ""
	}
	return fmt.Sprintf(" (%s at %d:%d)", l.Cause.Marker, l.Cause.Line, l.Cause.Col)
}

func linkURL(l filter.Link) string {
	if l.URL == "" {
		return fmt.Sprintf("<%s href=%q>", l.Tag, l.Href)
	}
	return l.URL
}

func docSummary(d *filter.Directives) string {
	parts := []string{pick(d.NoIndex, "noindex", "index"), pick(d.NoFollow, "nofollow", "follow")}
	switch {
	case d.NoArchive:
		parts = append(parts, "noarchive")
	case d.NoSnippet:
		parts = append(parts, "nosnippet (no archive copy)")
	default:
		parts = append(parts, "archive")
	}
	if d.MaxSnippet != nil {
		parts = append(parts, fmt.Sprintf("max-snippet:%d", *d.MaxSnippet))
	}
	if d.MaxImagePreview != "" {
		parts = append(parts, "max-image-preview:"+d.MaxImagePreview)
	}
	if d.MaxVideoPreview != nil {
		parts = append(parts, fmt.Sprintf("max-video-preview:%d", *d.MaxVideoPreview))
	}
	if d.UnavailableAfter != "" {
		parts = append(parts, "unavailable_after: "+d.UnavailableAfter)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{d.NoImageIndex, "noimageindex"}, {d.NoTranslate, "notranslate"}, {d.IndexIfEmbedded, "indexifembedded"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	parts = append(parts, d.Other...)
	if d.OtherDropped > 0 {
		parts = append(parts, fmt.Sprintf("and %d more unknown directives", d.OtherDropped))
	}
	return strings.Join(parts, ", ")
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}
