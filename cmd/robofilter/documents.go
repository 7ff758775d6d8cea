package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input"
	"github.com/urfave/cli/v2"
)

// forEachFile runs fn on every file argument ("-" or none: standard input),
// with the function that prints the document's warnings (nil with
// --quiet). An unreadable file is reported by name and the others are
// still processed; the status is 1 if any file failed.
func (rc *runConfig) forEachFile(c *cli.Context, fn documentFunc) error {
	names := rc.inputs
	rc.startProgress(c, names)
	defer rc.progress.done()
	if rc.jobs > 1 && rc.lanes(names) > 1 {
		return rc.endOutputs(rc.forEachFileInLanes(c, names, fn))
	}
	if rc.jobs > 1 && !rc.page && rc.entries == "" {
		return rc.endOutputs(rc.forEachFileInParallel(c, names, fn))
	}
	return rc.endOutputs(rc.forEachFileInTurn(c, names, fn))
}

// endOutputs ends what the outputs write at the end of a run (a WET
// file's counts), after the run's error, which it returns (or the
// output's).
func (rc *runConfig) endOutputs(err error) error {
	if rc.wet == nil || rc.outputs != nil {
		return err // with --output-dir, each output ended with its input
	}
	werr := rc.wet.finish()
	if werr == nil {
		werr = rc.stdout.Flush()
	}
	if werr != nil && (err == nil || isExitStatus(err, exitFailure)) {
		return cli.Exit(fmt.Sprintf("writing output: %v", werr), exitFailure)
	}
	return err
}

// forEachFileInTurn is forEachFile with --jobs 1: one document at a
// time, as it streams.
func (rc *runConfig) forEachFileInTurn(c *cli.Context, names []string, fn documentFunc) error {
	failed := false
	for _, name := range names {
		if rc.outputs != nil && rc.outputs.done(name, rc.stderr, rc.quiet) {
			continue
		}
		var r io.Reader
		if name == "-" {
			r = input.BareReadErrors(c.App.Reader)
			name = rc.stdinName
		} else {
			f, err := openInput(name)
			if err != nil {
				if werr := rc.unprocessed(name, err); werr != nil {
					return werr
				}
				failed = true
				continue
			}
			r = input.BareReadErrors(f)
			defer f.Close()
		}
		if rc.outputs != nil {
			of, err := rc.outputs.create(name)
			if err != nil {
				rc.reportError(name, err)
				failed = true
				continue
			}
			rc.beginOutput(of)
		}
		if rc.progress != nil {
			r = progressReader{r, rc.progress}
		}
		ok, err := rc.documents(name, r, fn)
		if err != nil {
			return err
		}
		if rc.outputs != nil {
			if err := rc.endOutput(); err != nil {
				return err
			}
		}
		failed = failed || !ok
	}
	if failed {
		return cli.Exit("", exitFailure)
	}
	return nil
}

// startProgress shows progress on standard error for a run over a WARC
// file or several files, when standard error is a terminal and standard
// output is not (as curl's progress meter: on a terminal the output is
// what the user watches), unless --quiet.
func (rc *runConfig) startProgress(c *cli.Context, names []string) {
	terminal, _ := c.App.Metadata["terminal"].(isTerminal)
	if rc.quiet || terminal == nil || rc.page || !(rc.kind == input.WARC || len(names) > 1) ||
		!terminal(c.App.ErrWriter) || terminal(c.App.Writer) {
		return
	}
	rc.progress = newProgress(c.App.ErrWriter, inputsSize(names))
	rc.stderr = progressWriter{c.App.ErrWriter, rc.progress}
}

// documentFunc processes one document with rc.opts, printing its warnings
// with warn (nil with --quiet). rc is the document's own (with --jobs, a
// child writing to buffers: runConfig.child); a documentFunc writes only
// through it.
type documentFunc func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error)

// documents processes every document of one input (one, or a WARC
// file's). It reports false when any document or the input failed
// (reported); a non-nil error ends the command (the output could not be
// written).
func (rc *runConfig) documents(name string, r io.Reader, fn documentFunc) (bool, error) {
	if rc.kind == input.Plain {
		r = rc.containerHint(name, r)
	}
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
		rc.progress.document()
		ok = ok && docOK
	}
}

// document processes one document, its warnings printed to warnings (nil
// with --quiet). It reports false when the document failed (reported); a
// non-nil error ends the command (the output could not be written).
func (rc *runConfig) document(doc *input.Document, warnings *stderrWarnings, fn documentFunc) (bool, error) {
	rc.opts, rc.doc = doc.Options, doc
	defer func() { rc.doc = nil }()
	if !rc.siteDecided {
		rc.siteFiles(doc)
	}
	if doc.Truncated != "" && !rc.quiet {
		fmt.Fprintf(rc.stderr, "robofilter: %s: note: the WARC record is truncated (WARC-Truncated: %s): the document is what it holds\n", doc.Name, doc.Truncated)
	}
	if doc.Err != nil {
		if rc.wet != nil {
			rc.wetPending.count("pages not read")
			if err := rc.flushWET(); err != nil {
				return false, err
			}
		}
		return false, rc.unprocessed(doc.Name, doc.Err)
	}
	var warn func(filter.Warning)
	if warnings != nil {
		warn = warnings.warn
	}
	res, err := fn(rc, doc.Name, doc.Body, warn)
	rc.purposeNote(doc.Name, res)
	if werr := rc.flushWET(); werr != nil {
		return false, werr
	}
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

// flushWET writes what the document gave the WET output, in turn (a
// child keeps it for take: jobs.go).
func (rc *runConfig) flushWET() error {
	if rc.wet == nil || rc.outBuf != nil {
		return nil
	}
	if err := rc.writeWET(&rc.wetPending); err != nil {
		return cli.Exit(fmt.Sprintf("writing output: %v", err), exitFailure)
	}
	return nil
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
	if rc.onePass != nil && rc.doc != nil {
		// A document of an input that cannot be read: its one-pass object.
		if werr := rc.onePassObject(crawl.Process(rc.doc, *rc.onePass)); werr != nil {
			return cli.Exit(fmt.Sprintf("writing output: %v", werr), exitFailure)
		}
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

// containerHint notes, unless --quiet, an input given as a document that
// starts as a container robofilter reads with a flag: a gzip file (a
// .warc.gz, or a response saved coded), a WARC or ARC file, an HTTP
// response.
// The document is still what it is taken for (a gzip file is no text:
// Process says so and writes nothing).
func (rc *runConfig) containerHint(name string, r io.Reader) io.Reader {
	if rc.quiet {
		return r
	}
	br := bufio.NewReader(r)
	head, _ := br.Peek(16)
	var hint string
	switch {
	case bytes.HasPrefix(head, []byte("\x1F\x8B")):
		hint = "a gzip file: give --warc for a WARC or ARC file (.warc.gz, .arc.gz), --http for a saved HTTP response; gunzip a document first"
	case bytes.HasPrefix(head, []byte("\x28\xB5\x2F\xFD")), bytes.HasPrefix(head, []byte("\x5D\x2A\x4D\x18")):
		hint = "a zstd file: give --warc for a WARC file (.warc.zst); unzstd a document first"
	case bytes.HasPrefix(head, []byte("WARC/")):
		hint = "a WARC file: give --warc to read its records as documents"
	case bytes.HasPrefix(head, []byte("filedesc://")):
		hint = "an ARC file: give --warc to read its records as documents"
	case bytes.HasPrefix(head, []byte("HTTP/")) && len(head) > 5 && (head[5] >= '0' && head[5] <= '9'):
		hint = "an HTTP response: give --http to read its body with its headers applied"
	}
	if hint != "" {
		fmt.Fprintf(rc.stderr, "robofilter: %s: note: %s\n", name, hint)
	}
	return br
}

// isExitStatus reports whether err ends the command with that status and
// nothing more to say (a failed file was reported already).
func isExitStatus(err error, status int) bool {
	var coder cli.ExitCoder
	return errors.As(err, &coder) && coder.ExitCode() == status && coder.Error() == ""
}
