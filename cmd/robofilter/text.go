package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

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
spans it. Nothing is printed for a document that says noindex (a warning says so).
With several files (or --warc), each line starts with the document's name
and a colon, as grep's do (--no-filename: not).

Examples:
   cat page.html | robofilter text
   robofilter text --agent Googlebot --x-robots-tag "googlebot: noindex" page.html
   robofilter text --format jsonl page.html     (one record per line of text)
   curl -si https://example.com/ | robofilter text --http   (X-Robots-Tag and charset from the headers)`,
		Flags:  documentFlags("text"),
		Action: runText,
	}
}

func runText(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	if rc.entries != "" {
		return rc.runFeed(c, "text")
	}
	if rc.wet != nil {
		return rc.forEachFile(c, runWETText)
	}
	return rc.forEachFile(c, func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		out := robofilter.Outputs{Warning: warn}
		if rc.jsonl {
			out.Text = rc.lineRecords(name)
		} else {
			out.Text = rc.textWriter(name)
		}
		if rc.jsonl {
			out.Region = func(r filter.Region) error { return rc.record(regionOf(name, r)) }
		}
		res, err := robofilter.Process(r, rc.opts, out)
		if res != nil && res.Directives.NoIndex {
			noIndexWarning(res, warn)
		}
		return res, rc.writeDocument(name, res, err)
	})
}

// noIndexWarning says that a document gives no text because it says
// noindex (archive says so of noarchive): where it says so, in the
// Result and through warn.
func noIndexWarning(res *robofilter.Result, warn func(filter.Warning)) {
	w := filter.Warning{Message: "the document says noindex: no text is written"}
sources:
	for _, src := range res.Directives.Sources {
		says := strings.Contains(strings.ToLower(src.Value), `index="no"`) // the XML robots PI
		for _, d := range filter.ParseDirectives(src.Value) {
			says = says || strings.EqualFold(d.Name, "noindex") || strings.EqualFold(d.Name, "none")
		}
		if says {
			w.Line, w.Col = src.Line, src.Col
			w.Message = fmt.Sprintf("%s %q says noindex: no text is written", src.Origin, src.Value)
			break sources
		}
	}
	if len(res.Warnings) < filter.MaxWarnings && warn != nil {
		warn(w) // as the core gives its own: those the Result keeps
	}
	res.AddWarning(w)
}

// lineRecords writes a document's text as line records.
func (rc *runConfig) lineRecords(name string) *phrase.Writer {
	return phrase.NewLineWriter(func(l phrase.Line) error {
		return rc.record(lineRecord{Type: "line", File: name, Phrase: l.Phrase, Number: l.Number, Line: l.Number, Text: string(l.Text)})
	})
}

// textWriter is the plain text format of one document on stdout. With
// names (several documents), every line starts with NAME: as grep's do;
// without, after another document's text, its first word comes after an
// empty line: the documents are different phrases.
func (rc *runConfig) textWriter(name string) *phrase.Writer {
	if rc.names {
		return phrase.NewWriter(&prefixedLines{w: rc.stdout, prefix: name + ":", atStart: true})
	}
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

// prefixedLines writes lines with prefix before each (an empty line
// too: it is the prefix alone).
type prefixedLines struct {
	w       *bufio.Writer
	prefix  string
	atStart bool // the next byte starts a line
}

func (l *prefixedLines) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if l.atStart {
			if _, err := l.w.WriteString(l.prefix); err != nil {
				return 0, err
			}
			l.atStart = false
		}
		line := p
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			line, l.atStart = p[:i+1], true
		}
		if _, err := l.w.Write(line); err != nil {
			return 0, err
		}
		p = p[len(line):]
	}
	return n, nil
}
