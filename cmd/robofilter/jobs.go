package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/input/warc"
	"github.com/robofilter/robofilter/pipeline"
	"github.com/urfave/cli/v2"
)

// With --jobs N (N > 1), documents are processed on N goroutines, across
// the files and across the records of a WARC file: one goroutine reads
// the inputs in order (the sources: package input), the workers process
// documents into buffers of their own (a child runConfig each), and the
// buffers are written out in input order (package pipeline), so that
// standard output and standard error are those of --jobs 1, byte for
// byte. What the reading says before a document (a WARC file's warnings,
// notes) is buffered with it too. With --output-dir, several files are
// read at once, each as here (lanes.go).

// child is a runConfig for one document on a worker, or for what comes
// before one: its output goes to buffers that take writes out. rc is the
// run's configuration as it was when the run started (forEachFileInParallel
// keeps a copy): nothing the run changes as it goes is shared.
func (rc *runConfig) child() *runConfig {
	c := *rc
	c.outBuf, c.errBuf = new(bytes.Buffer), new(bytes.Buffer)
	c.stdout = bufio.NewWriterSize(c.outBuf, 4<<10)
	c.stderr = c.errBuf
	c.textWritten, c.archiveWritten, c.archiveEndsLine = false, false, false
	c.doc, c.progress = nil, nil
	c.wetPending = wetPages{}
	return &c
}

// take writes what a child wrote, in order: its standard error, then its
// standard output, after what separates it from the output before (an
// empty line between documents' texts, as a document's own writer would
// have put it).
func (rc *runConfig) take(c *runConfig) error {
	if err := c.stdout.Flush(); err != nil {
		return err
	}
	if c.errBuf.Len() > 0 {
		if _, err := rc.stderr.Write(c.errBuf.Bytes()); err != nil {
			return err
		}
	}
	if c.textWritten {
		if rc.textWritten {
			if err := rc.stdout.WriteByte('\n'); err != nil {
				return err
			}
		}
		rc.textWritten = true
	}
	if c.archiveWritten {
		if rc.archiveWritten {
			sep := "\n"
			if !rc.archiveEndsLine {
				sep = "\n\n"
			}
			if _, err := rc.stdout.WriteString(sep); err != nil {
				return err
			}
		}
		rc.archiveWritten, rc.archiveEndsLine = true, c.archiveEndsLine
	}
	if _, err := rc.stdout.Write(c.outBuf.Bytes()); err != nil {
		return err
	}
	if rc.wet != nil {
		return rc.writeWET(&c.wetPending)
	}
	return nil
}

// job is a unit of the parallel run: a source to process (or none), with
// what comes before it in input order.
type job struct {
	before *runConfig    // buffers of what the reading said before it
	src    *input.Source // nil: nothing to process
	keep   bool          // the site files apply to it (siteOf)
	failed bool          // a file failed before it (reported in before)
	fn     documentFunc
	// output, with --output-dir: the input's output file, begun before
	// this job is written out; endOutput: the input ended with this job.
	output    *outFile
	endOutput bool
}

// jobDone is a job's outcome: the buffers of its document.
type jobDone struct {
	job
	doc *runConfig // nil: no document after all
	ok  bool
}

// forEachFileInParallel is forEachFile with --jobs N > 1.
func (rc *runConfig) forEachFileInParallel(c *cli.Context, names []string, fn documentFunc) error {
	proto := *rc // what children start from (child)
	return rc.runSources(&fileSources{rc: rc, proto: &proto, c: c, names: names, fn: fn})
}

// runSources processes what files gives, on rc.jobs workers.
func (rc *runConfig) runSources(files *fileSources) error {
	defer files.close()
	failed := false
	var writeErr error
	begun := 0 // outputs begun
	err := pipeline.Run(rc.jobs, files.next, files.work, func(d *jobDone) error {
		if d.output != nil {
			rc.beginOutput(d.output)
			begun++
		}
		if err := rc.take(d.before); err != nil {
			writeErr = err
			return err
		}
		failed = failed || d.failed
		if d.doc != nil {
			if err := rc.take(d.doc); err != nil {
				writeErr = err
				return err
			}
			rc.progress.document()
			failed = failed || !d.ok
		}
		if d.endOutput {
			return rc.endOutput()
		}
		return nil
	})
	if err != nil {
		// The run ends at an output: those made for the inputs read
		// ahead of it are not left, as --jobs 1 would not have made them.
		for _, of := range files.created[begun:] {
			of.file.Close()
			os.Remove(of.temp)
		}
	} else {
		err = rc.stdout.Flush()
		if err != nil {
			writeErr = err
		}
	}
	if writeErr != nil {
		return cli.Exit(fmt.Sprintf("writing output: %v", writeErr), exitFailure)
	}
	if err != nil {
		return err
	}
	if failed {
		return cli.Exit("", exitFailure)
	}
	return nil
}

// work processes a job's document on a worker, into a child's buffers.
func (f *fileSources) work(j *job) *jobDone {
	rc := f.proto
	d := &jobDone{job: *j}
	if j.src == nil {
		return d
	}
	defer j.src.Release()
	doc, ok := j.src.Open()
	if !ok {
		return d
	}
	child := rc.child()
	d.doc = child
	var warnings *stderrWarnings
	if !rc.quiet {
		warnings = &stderrWarnings{w: child.stderr, name: doc.Name}
		// The head's warnings came while the source was opened; those
		// about the body come while it is read (DocumentWarning).
		for _, w := range doc.Warnings {
			warnings.warn(w)
		}
		docWarnings.Store(doc, warnings)
		defer docWarnings.Delete(doc)
	}
	if !j.keep {
		doc.Options.RobotsTxt, doc.Options.TDMRep = nil, nil
	}
	child.siteDecided = true
	d.ok, _ = child.document(doc, warnings, j.fn)
	return d
}

// docWarnings finds the stderrWarnings of a document being processed on
// a worker, for the warnings its reading finds while its body is read.
var docWarnings sync.Map // *input.Document → *stderrWarnings

// fileSources reads the inputs in order, a source at a time, for the
// parallel run: what the sequential run does around documents (opening
// files, a WARC file's warnings and notes, errors of the input) goes into
// each job's before buffers.
type fileSources struct {
	rc    *runConfig // the run's: next decides what depends on input order with it
	proto *runConfig // the run's at its start: children copy it
	c     *cli.Context
	names []string
	fn    documentFunc

	i       int           // the next name
	name    string        // the input being read
	closer  io.Closer     // its file
	in      *input.Reader // its documents
	before  *runConfig    // the next job's before buffers
	ww      *warcWarnings // the WARC file's warnings
	skipped bool          // the file's skip note was given
	output  *outFile      // the input's output, for its first job
	created []*outFile    // the outputs made, in input order
	opened  *openedInput  // in a lane: its input, opened already
	stopped *atomic.Bool  // in a lane: set, the lane stops reading
}

// newJob makes the next job, with what came before it (and the input's
// output file, for its first).
func (f *fileSources) newJob() *job {
	j := &job{before: f.before, output: f.output}
	f.before, f.output = nil, nil
	return j
}

func (f *fileSources) close() {
	if f.closer != nil {
		f.closer.Close()
		f.closer = nil
	}
}

// next gives the next job: a source with what came before it, or, at an
// input's end, the end's messages alone.
func (f *fileSources) next() (*job, bool, error) {
	rc := f.rc
	for {
		if f.stopped != nil && f.stopped.Load() {
			return nil, false, io.EOF
		}
		if f.before == nil {
			f.before = f.proto.child()
			if f.ww != nil {
				f.ww.rc = f.before
			}
		}
		if f.in == nil {
			if f.i == len(f.names) {
				if f.before.outBuf.Len() > 0 || f.before.errBuf.Len() > 0 {
					return f.newJob(), false, nil
				}
				return nil, false, io.EOF
			}
			if failed := f.open(); failed {
				j := f.newJob()
				j.failed = true
				return j, false, nil
			}
			continue
		}
		src, err := f.in.NextSource()
		if err != nil {
			if err != io.EOF {
				f.before.unprocessed(f.name, err)
			}
			f.endInput()
			j := f.newJob()
			j.failed = err != io.EOF
			j.endOutput = rc.outputs != nil
			return j, false, nil
		}
		j := f.newJob()
		j.src, j.fn, j.keep = src, f.fn, rc.siteOf(src.Name, src.Base(), j.before.stderr)
		return j, !src.Detach(crawl.DefaultMaxDetached), nil
	}
}

// open opens the next input, as forEachFile and documents do (or takes
// the one a lane was given, opened already); it reports whether it failed
// (reported in the before buffers).
func (f *fileSources) open() bool {
	name := f.names[f.i]
	f.i++
	oi := f.opened
	f.opened = nil
	if oi == nil {
		var failed bool
		if oi, failed = f.rc.openNext(f.c, name, f.before); failed {
			return true
		}
		if oi == nil {
			return false
		}
	}
	f.start(oi)
	return false
}

// openedInput is an input opened for reading, with its output file (with
// --output-dir).
type openedInput struct {
	name   string    // as messages name it
	r      io.Reader // its bytes
	closer io.Closer // its file (nil: standard input)
	output *outFile
}

// testInputReader, when a test sets it, is given every input file as it
// is opened, and gives the reader to read it with.
var testInputReader func(name string, r io.Reader) io.Reader

// openNext opens an input, saying on msgs what goes wrong: nil and
// false when it is passed over because its output exists (--resume,
// said so), nil and true when it failed (reported). What it does depends
// on the inputs before (the outputs' names): inputs are opened in input
// order.
func (rc *runConfig) openNext(c *cli.Context, name string, msgs *runConfig) (*openedInput, bool) {
	if rc.outputs != nil && rc.outputs.done(name, msgs.stderr, rc.quiet) {
		return nil, false
	}
	oi := &openedInput{name: name}
	if name == "-" {
		oi.r = input.BareReadErrors(c.App.Reader)
		oi.name = rc.stdinName
	} else {
		file, err := openInput(name)
		if err != nil {
			msgs.unprocessed(name, err)
			return nil, true
		}
		oi.closer, oi.r = file, input.BareReadErrors(file)
		if testInputReader != nil {
			oi.r = testInputReader(name, oi.r)
		}
	}
	if rc.outputs != nil {
		of, err := rc.outputs.create(oi.name)
		if err != nil {
			msgs.reportError(oi.name, err)
			if oi.closer != nil {
				oi.closer.Close()
			}
			return nil, true
		}
		oi.output = of
	}
	return oi, false
}

// start begins reading an opened input.
func (f *fileSources) start(oi *openedInput) {
	rc, name, r := f.rc, oi.name, oi.r
	f.closer, f.output = oi.closer, oi.output
	if oi.output != nil {
		f.created = append(f.created, oi.output)
	}
	if rc.progress != nil {
		r = progressReader{r, rc.progress}
	}
	if rc.kind == input.Plain {
		r = f.before.containerHint(name, r)
	}
	f.name = name
	f.in = input.NewReader(name, r, rc.kind, rc.flagOpts)
	f.skipped = false
	if rc.kind == input.WARC {
		f.ww = &warcWarnings{rc: f.before, name: name}
		f.in.WARCWarning = func(w warc.Warning) { f.ww.warn(w) }
	}
	f.in.Skipped = func(doc, why string) {
		if !f.skipped && !rc.quiet {
			fmt.Fprintf(f.before.stderr, "robofilter: %s: note: %s: skipped (and any more in this file)\n", doc, why)
		}
		f.skipped = true
	}
	f.in.DocumentWarning = func(doc *input.Document, w filter.Warning) {
		if s, ok := docWarnings.Load(doc); ok {
			s.(*stderrWarnings).warn(w)
		}
	}
}

// endInput ends the input being read: its WARC warnings' count, its file.
func (f *fileSources) endInput() {
	if f.ww != nil {
		f.ww.rc = f.before
		f.ww.done()
		f.ww = nil
	}
	f.close()
	f.in = nil
}
