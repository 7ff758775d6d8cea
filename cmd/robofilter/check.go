package main

import (
	"container/heap"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/urfave/cli/v2"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "report, for the page's author, everything robots will and will not do with the page",
		ArgsUsage: "[FILE...]",
		Description: `Prints a report: the document-level directives and where each came from;
every region the robots markup makes (which dialect, which marker, the
switches it turns off or on, where it starts and ends, its size); every link
that will not be followed and why; and every warning (unknown robots- classes,
unclosed comment regions, conflicting directives, META in the body,
max-image-preview:none, which some crawlers misread as "none").

Examples:
   robofilter check page.html
   robofilter check --agent "Foo Bot" --format jsonl page.html
   robofilter check --format html page.html > check.html   (the source, regions marked)`,
		Flags:  documentFlags("check"),
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	return rc.forEachFile(c, func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		var regions regionHeap
		seq := 0
		var links []filter.Link
		regionsDropped, linksDropped := 0, 0
		out := robofilter.Outputs{Warning: warn} // on stderr too, as every command's
		if rc.jsonl {
			// Records go out as they come (regions as they end), so that
			// memory does not grow with the document.
			out.Region = func(r filter.Region) error { return rc.record(regionOf(name, r)) }
			out.Link = func(l filter.Link) error {
				if l.Followed {
					return nil
				}
				return rc.record(linkRecord{Type: "link", File: name, Link: l})
			}
		} else {
			// The report lists regions in the order they start, and it is
			// written at the end (the directives come first): it keeps the
			// first maxReported of each, and counts the rest.
			out.Region = func(r filter.Region) error {
				seq++
				heap.Push(&regions, reportedRegion{r, seq})
				if regions.Len() > maxReported {
					heap.Pop(&regions)
					regionsDropped++
				}
				return nil
			}
			out.Link = func(l filter.Link) error {
				switch {
				case l.Followed:
				case len(links) < maxReported:
					links = append(links, l)
				default:
					linksDropped++
				}
				return nil
			}
		}
		var src *sourceCapture
		if rc.page {
			src = &sourceCapture{r: r}
			r = src
		}
		res, err := robofilter.Process(r, rc.opts, out)
		if res == nil {
			return nil, err
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
		if rc.jsonl {
			return res, rc.writeDocument(name, res, err)
		}
		sort.Slice(regions, func(i, j int) bool { return regions[i].before(regions[j]) })
		listed := make([]filter.Region, len(regions))
		for i, r := range regions {
			listed[i] = r.Region
		}
		inDocumentOrder(res.Warnings)
		rep := reported{listed, regionsDropped, links, linksDropped}
		if rc.page {
			writeCheckPage(rc.stdout, rc.pageDocs, name, res, rep, src)
			rc.pageDocs++
		} else {
			writeReport(rc.stdout, name, res, rep)
		}
		return res, err
	})
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

func writeReport(w io.Writer, name string, res *robofilter.Result, rep reported) {
	regions, links := rep.regions, rep.links
	d := res.Directives
	fmt.Fprintf(w, "%s (%s", name, res.Format)
	if res.Charset != "" {
		fmt.Fprintf(w, ", %s", res.Charset)
	}
	fmt.Fprintln(w, ")")
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
		off, on := r.Switches()
		sw := ""
		if r.Off != 0 {
			sw = off
		}
		if on != "" {
			sw = strings.TrimPrefix(sw+","+on, ",")
		}
		tag := ""
		if r.Tag != "" {
			tag = "<" + r.Tag + "> "
		}
		fmt.Fprintf(w, "    %d:%d-%d:%d  %s%s  %s  (%s, %d bytes)\n", r.Line, r.Col, r.EndLine, r.EndCol, tag, r.Marker, sw, r.Dialect, r.Size)
	}
	if rep.regionsDropped > 0 {
		fmt.Fprintf(w, "    and %d more regions, not listed (at most %d are)\n", rep.regionsDropped, maxReported)
	}
	fmt.Fprintf(w, "  links not followed: %d\n", len(links)+rep.linksDropped)
	for _, l := range links {
		cause := ""
		if l.Cause != nil {
			cause = fmt.Sprintf(" (%s at %d:%d)", l.Cause.Marker, l.Cause.Line, l.Cause.Col)
		}
		url := l.URL
		if url == "" {
			url = fmt.Sprintf("<%s href=%q>", l.Tag, l.Href)
		}
		fmt.Fprintf(w, "    %d:%d  %s  %s%s\n", l.Line, l.Col, url, l.Reason, cause)
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
