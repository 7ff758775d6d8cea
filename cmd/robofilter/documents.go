package main

import (
	"fmt"
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input"
	"github.com/urfave/cli/v2"
)

// forEachFile runs fn on every file argument ("-" or none: standard input),
// with the function that prints the document's warnings (nil with
// --quiet). An unreadable file is reported by name and the others are
// still processed; the status is 1 if any file failed.
func (rc *runConfig) forEachFile(c *cli.Context, fn documentFunc) error {
	names := c.Args().Slice()
	if len(names) == 0 {
		names = []string{"-"}
	}
	failed := false
	for _, name := range names {
		var r io.Reader
		if name == "-" {
			r = bareReadErrors{c.App.Reader}
		} else {
			f, err := openInput(name)
			if err != nil {
				if werr := rc.unprocessed(name, err); werr != nil {
					return werr
				}
				failed = true
				continue
			}
			r = bareReadErrors{f}
			defer f.Close()
		}
		ok, err := rc.documents(name, r, fn)
		if err != nil {
			return err
		}
		failed = failed || !ok
	}
	if failed {
		return cli.Exit("", exitFailure)
	}
	return nil
}

// documentFunc processes one document with rc.opts, printing its warnings
// with warn (nil with --quiet).
type documentFunc func(name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error)

// documents processes every document of one input (one, or a WARC
// file's). It reports false when any document or the input failed
// (reported); a non-nil error ends the command (the output could not be
// written).
func (rc *runConfig) documents(name string, r io.Reader, fn documentFunc) (bool, error) {
	in := input.NewReader(name, r, rc.kind, rc.flagOpts)
	var containerWarnings *warcWarnings
	if rc.kind == input.WARC {
		containerWarnings = &warcWarnings{rc: rc, name: name}
		in.WARCWarning = containerWarnings.warn
		defer containerWarnings.done()
	}
	notedSkip := false
	in.Skipped = func(doc, why string) {
		if !notedSkip && !rc.quiet {
			fmt.Fprintf(rc.stderr, "robofilter: %s: note: %s: skipped (and any more in this file)\n", doc, why)
		}
		notedSkip = true
	}
	// What reading a document's HTTP response says is about no place in
	// the document: at 0:0, on stderr as it is found, and before the
	// document's own warnings in its record (writeDocument).
	var warnings *stderrWarnings
	in.DocumentWarning = func(doc *input.Document, w filter.Warning) {
		if rc.quiet {
			return
		}
		if warnings == nil || warnings.name != doc.Name {
			warnings = &stderrWarnings{w: rc.stderr, name: doc.Name}
		}
		warnings.warn(w)
	}
	ok := true
	for {
		doc, err := in.Next()
		if containerWarnings != nil && containerWarnings.err != nil {
			return false, cli.Exit(fmt.Sprintf("writing output: %v", containerWarnings.err), exitFailure)
		}
		if err == io.EOF {
			// Warnings after the last document are in no document's flush.
			if werr := rc.stdout.Flush(); werr != nil {
				return false, cli.Exit(fmt.Sprintf("writing output: %v", werr), exitFailure)
			}
			return ok, nil
		}
		if err != nil {
			return false, rc.unprocessed(name, err)
		}
		if !rc.quiet && (warnings == nil || warnings.name != doc.Name) {
			warnings = &stderrWarnings{w: rc.stderr, name: doc.Name}
		}
		docOK, werr := rc.document(doc, warnings, fn)
		if werr != nil {
			return false, werr
		}
		ok = ok && docOK
	}
}

// document processes one document, its warnings printed to warnings (nil
// with --quiet). It reports false when the document failed (reported); a
// non-nil error ends the command (the output could not be written).
func (rc *runConfig) document(doc *input.Document, warnings *stderrWarnings, fn documentFunc) (bool, error) {
	rc.opts, rc.doc = doc.Options, doc
	defer func() { rc.doc = nil }()
	rc.siteFiles(doc)
	if doc.Truncated != "" && !rc.quiet {
		fmt.Fprintf(rc.stderr, "robofilter: %s: note: the WARC record is truncated (WARC-Truncated: %s): the document is what it holds\n", doc.Name, doc.Truncated)
	}
	if doc.Err != nil {
		return false, rc.unprocessed(doc.Name, doc.Err)
	}
	var warn func(filter.Warning)
	if warnings != nil {
		warn = warnings.warn
	}
	res, err := fn(doc.Name, doc.Body, warn)
	rc.purposeNote(doc.Name, res)
	if err != nil {
		// What came before the error is written first, so that with
		// stderr on the same terminal it reads in document order.
		rc.stdout.Flush()
	}
	warnings.done(res)
	if err != nil {
		rc.reportError(doc.Name, err)
	}
	if werr := rc.stdout.Flush(); werr != nil {
		return false, cli.Exit(fmt.Sprintf("writing output: %v", werr), exitFailure)
	}
	return err == nil, nil
}

// unprocessed reports a file that could not be processed at all (it could
// not be opened, or its HTTP response's head not read); in JSON Lines, as
// for a file that fails while it is read, a document record says so, for
// a pipeline reading only the records. A non-nil result is the error that
// ends the command (the output could not be written).
func (rc *runConfig) unprocessed(name string, err error) error {
	rc.reportError(name, err)
	if !rc.jsonl {
		return nil
	}
	d := documentRecord{Type: "document", File: name, Error: err.Error()}
	if rc.doc != nil {
		d.URI, d.Warnings = rc.doc.URI, rc.doc.Warnings
	}
	werr := rc.record(d)
	if werr == nil {
		werr = rc.stdout.Flush()
	}
	if werr != nil {
		return cli.Exit(fmt.Sprintf("writing output: %v", werr), exitFailure)
	}
	return nil
}
