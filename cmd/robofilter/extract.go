package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/filter"
	"github.com/urfave/cli/v2"
)

func extractCommand() *cli.Command {
	return &cli.Command{
		Name:      "extract",
		Usage:     "every output of each document from one pass, as one JSON Lines object per document",
		ArgsUsage: "[FILE...]",
		Description: `Reads each FILE (or standard input) once and writes, for each document (a
page, each page of a WARC file with --warc), one JSON object with its text,
its links (followed or not, with anchor text and why), its excluded regions
(with --outputs regions), its directives and warnings, and where it came
from (uri, record_id, warc_date, http_status). This is the object the Beam
pipeline writes per document too (docs/formats.md).

Examples:
   robofilter extract --warc crawl.warc.gz > crawl.jsonl
   robofilter extract --warc --outputs text,links,regions --jobs 16 crawl.warc.gz
   robofilter extract --base https://example.com/ page.html | jq .links[].url`,
		Flags: append(documentFlags("extract"),
			&cli.StringFlag{Name: "outputs", Value: "text,links", Usage: "the outputs each object carries: a comma-separated `LIST` of text, links, regions"}),
		Action: runExtract,
	}
}

func runExtract(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	opts := crawl.Options{}
	for _, o := range strings.Split(c.String("outputs"), ",") {
		switch strings.TrimSpace(o) {
		case "text":
			opts.Text = true
		case "links":
			opts.Links = true
		case "regions":
			opts.Regions = true
		case "":
		default:
			return cli.Exit(fmt.Sprintf("--outputs: unknown output %q (known: text, links, regions)", o), exitUsage)
		}
	}
	rc.onePass = &opts
	return rc.forEachFile(c, func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		o := opts
		o.Warning = warn
		// The document itself, not a copy: its reading's warnings about
		// the body are added to it as the body is read.
		doc := rc.doc
		doc.Body, doc.Options = r, rc.opts
		res := crawl.Process(doc, o)
		if err := rc.onePassObject(res); err != nil {
			return res.Result, err
		}
		return res.Result, res.Err
	})
}

// onePassObject writes a document's one-pass object.
func (rc *runConfig) onePassObject(res *crawl.Result) error {
	// The Object, not the Result: encoding/json checks and compacts
	// again what a MarshalJSON method returns, which cost twice the
	// encoding itself (a sixth of extract's CPU time). The bytes are the
	// same.
	return json.NewEncoder(rc.stdout).Encode(res.Object())
}
