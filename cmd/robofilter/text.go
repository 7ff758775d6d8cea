package main

import (
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
	"github.com/urfave/cli/v2"
)

func textCommand() *cli.Command {
	return &cli.Command{
		Name:      "text",
		Usage:     "print the indexable text, with an empty line (phrase break) where excluded regions were",
		ArgsUsage: "[FILE...]",
		Description: `Reads each FILE (or standard input, or "-") once and prints the text a search
engine may index: blocks on lines, whitespace collapsed, and an empty line
wherever robots markup excluded a region (an empty region too), so no phrase
spans it. Nothing is printed for a document that says noindex.

Examples:
   cat page.html | robofilter text
   robofilter text --agent Googlebot --x-robots-tag "googlebot: noindex" page.html
   robofilter text --format jsonl page.html     (one record per line of text)
   curl -si https://example.com/ | robofilter text --http   (X-Robots-Tag and charset from the headers)`,
		Flags:  documentFlags(),
		Action: runText,
	}
}

func runText(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	if c.String("records") != "" {
		return rc.runFeed(c, "text")
	}
	return rc.forEachFile(c, func(name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		out := robofilter.Outputs{Warning: warn}
		if rc.jsonl {
			out.Text = phrase.NewLineWriter(func(l phrase.Line) error {
				return rc.record(lineRecord{Type: "line", File: name, Phrase: l.Phrase, Line: l.Number, Text: string(l.Text)})
			})
		} else {
			out.Text = rc.textWriter()
		}
		if rc.jsonl {
			out.Region = func(r filter.Region) error { return rc.record(regionOf(name, r)) }
		}
		res, err := robofilter.Process(r, rc.opts, out)
		return res, rc.writeDocument(name, res, err)
	})
}

// textWriter is the plain text format of one document on stdout. After
// another document's text, its first word comes after an empty line: the
// documents are different phrases.
func (rc *runConfig) textWriter() *phrase.Writer {
	return phrase.NewWriter(&documentText{rc: rc, separate: rc.textWritten})
}

// documentText writes one document's text to stdout, after an empty line
// if separate says another document's text came before.
type documentText struct {
	rc       *runConfig
	separate bool
}

func (w *documentText) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if w.separate {
		w.separate = false
		if err := w.rc.stdout.WriteByte('\n'); err != nil {
			return 0, err
		}
	}
	w.rc.textWritten = true
	return w.rc.stdout.Write(p)
}
