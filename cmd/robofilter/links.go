package main

import (
	"fmt"
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/weburl"
	"github.com/urfave/cli/v2"
)

func linksCommand() *cli.Command {
	return &cli.Command{
		Name:      "links",
		Usage:     "print the links a crawler may follow, one absolute URL per line",
		ArgsUsage: "[FILE...]",
		Description: `Prints the document's followable links in document order: a, area and link
(not stylesheets, icons, preloads) with href, frame and iframe with src; in
XML, XLink, Atom, RSS and sitemap links. URLs are resolved against --base,
then <base href> (or xml:base). Links in a nofollow region, with a nofollow,
ugc or sponsored rel, or in a nofollow document are left out, and so are
javascript: and empty hrefs.

A link that stays relative (no --base, and no absolute <base href>) is
printed as written, and a warning per document says how many there were.
With several files (or --warc), each line starts with the document's name
and a colon, as grep's do (--no-filename: not).

With --all, the links that are not followed are printed too, each followed by
a tab and the reason; in JSON Lines every link carries its anchor text, rel,
tag, position and, when not followed, the reason and the marker that caused it.

Examples:
   robofilter links --base https://example.com/dir/page.html page.html
   robofilter links --xml feed.xml
   robofilter links --all --format jsonl page.html
   curl -siL https://example.com/ | robofilter links --http --base https://example.com/`,
		Flags: append(documentFlags("links"),
			&cli.BoolFlag{Name: "all", Usage: "also list the links that are not followed, with the reason"}),
		Action: runLinks,
	}
}

func runLinks(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	if rc.entries != "" {
		return rc.runFeed(c, "links")
	}
	all := c.Bool("all")
	return rc.forEachFile(c, func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		prefix := ""
		if rc.names {
			prefix = name + ":"
		}
		relative := 0
		out := robofilter.Outputs{Warning: warn}
		out.Link = func(l filter.Link) error {
			if !l.Followed && !all {
				return nil
			}
			if l.URL != "" && weburl.SchemeEnd(l.URL) < 0 {
				relative++
			}
			switch {
			case rc.jsonl:
				return rc.record(linkRecord{Type: "link", File: name, Link: l})
			case l.Followed:
				_, err := fmt.Fprintf(rc.stdout, "%s%s\n", prefix, l.URL)
				return err
			default:
				_, err := fmt.Fprintf(rc.stdout, "%s%s\tnot followed: %s\n", prefix, l.URL, l.Reason)
				return err
			}
		}
		res, err := robofilter.Process(r, rc.opts, out)
		if res != nil && relative > 0 {
			relativeLinksWarning(res, relative, warn)
		}
		return res, rc.writeDocument(name, res, err)
	})
}

// relativeLinksWarning says, once per document, that links were listed
// relative: with no absolute base (--base, <base href>, xml:base, a
// WARC-Target-URI) a relative href stays as written, which the plain
// format's reader would take for an absolute URL. It is about no place
// in the document: at 0:0.
func relativeLinksWarning(res *robofilter.Result, n int, warn func(filter.Warning)) {
	what := "1 link is relative"
	if n > 1 {
		what = fmt.Sprintf("%d links are relative", n)
	}
	w := filter.Warning{Message: what + ", as written: the document has no absolute base; give its URL with --base to resolve them"}
	if len(res.Warnings) < filter.MaxWarnings && warn != nil {
		warn(w)
	}
	res.AddWarning(w)
}
