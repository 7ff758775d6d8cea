package main

import (
	"fmt"
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
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

With --all, the links that are not followed are printed too, each followed by
a tab and the reason; in JSON Lines every link carries its anchor text, rel,
tag, position and, when not followed, the reason and the marker that caused it.

Examples:
   robofilter links --base https://example.com/dir/page.html page.html
   robofilter links --xml feed.xml
   robofilter links --all --format jsonl page.html
   curl -siL https://example.com/ | robofilter links --http --base https://example.com/`,
		Flags: append(documentFlags(),
			&cli.BoolFlag{Name: "all", Usage: "also list the links that are not followed, with the reason"}),
		Action: runLinks,
	}
}

func runLinks(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	if c.String("records") != "" {
		return rc.runFeed(c, "links")
	}
	all := c.Bool("all")
	return rc.forEachFile(c, func(name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		out := robofilter.Outputs{Warning: warn}
		out.Link = func(l filter.Link) error {
			switch {
			case !l.Followed && !all:
				return nil
			case rc.jsonl:
				return rc.record(linkRecord{Type: "link", File: name, Link: l})
			case l.Followed:
				_, err := fmt.Fprintln(rc.stdout, l.URL)
				return err
			default:
				_, err := fmt.Fprintf(rc.stdout, "%s\tnot followed: %s\n", l.URL, l.Reason)
				return err
			}
		}
		res, err := robofilter.Process(r, rc.opts, out)
		return res, rc.writeDocument(name, res, err)
	})
}
