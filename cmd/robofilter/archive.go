package main

import (
	"io"
	"unicode/utf8"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
	"github.com/urfave/cli/v2"
)

func archiveCommand() *cli.Command {
	return &cli.Command{
		Name:      "archive",
		Usage:     "print the archive-safe copy: the input bytes with no-archive content replaced by an ellipsis",
		ArgsUsage: "[FILE...]",
		Description: `Prints each document's bytes unchanged, except that the content of every
no-archive region (robots-noarchive, data-nosnippet, googleoff: snippet) is
replaced by one ellipsis, and a no-archive void element (an <img>) by the
ellipsis. Start and end tags of the region stay. A document with no such
region comes out byte for byte identical. A document that says noarchive,
nocache or nosnippet gives no copy at all, and a warning.

With --text, prints the text form of the copy instead (the indexable text
with an ellipsis where no-archive content was), for snippet makers.

Examples:
   robofilter archive page.html > cached.html
   robofilter archive --ellipsis '[…]' --text page.html
   robofilter archive --format jsonl page.html   (the copy in "archive" records)`,
		Flags: append(documentFlags(),
			&cli.BoolFlag{Name: "text", Usage: "print the text form of the archive copy"}),
		Action: runArchive,
	}
}

// archiveChunk is the JSON Lines record of a piece of the archive copy.
type archiveChunk struct {
	Type string `json:"type"` // "archive"
	File string `json:"file"`
	Data string `json:"data,omitempty"`
	// DataBase64 carries a piece that is not valid UTF-8 (a legacy charset).
	DataBase64 []byte `json:"data_base64,omitempty"`
}

// jsonlArchive turns the archive stream into records.
type jsonlArchive struct {
	rc   *runConfig
	name string
}

func (j jsonlArchive) Write(p []byte) (int, error) {
	rec := archiveChunk{Type: "archive", File: j.name}
	if utf8.Valid(p) {
		rec.Data = string(p)
	} else {
		rec.DataBase64 = p
	}
	return len(p), j.rc.record(rec)
}

func runArchive(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	if c.String("records") != "" {
		return rc.runRecords(c, "archive")
	}
	asText := c.Bool("text")
	return rc.forEachFile(c, func(name string, r io.Reader) error {
		out := robofilter.Outputs{Warning: rc.warner(name)}
		switch {
		case asText && rc.jsonl:
			out.ArchiveText = phrase.NewLineWriter(func(l phrase.Line) error {
				return rc.record(lineRecord{Type: "line", File: name, Phrase: l.Phrase, Line: l.Number, Text: string(l.Text)})
			})
		case asText:
			out.ArchiveText = phrase.NewWriter(rc.stdout)
		case rc.jsonl:
			out.Archive = jsonlArchive{rc: rc, name: name}
		default:
			out.Archive = rc.stdout
		}
		if rc.jsonl {
			out.Region = func(r filter.Region) error { return rc.record(regionOf(name, r)) }
		}
		res, err := robofilter.Process(r, rc.opts, out)
		return rc.writeDocument(name, res, err)
	})
}
