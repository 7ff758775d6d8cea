package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"sync/atomic"

	"github.com/urfave/cli/v2"
)

// Lanes: with --output-dir, --jobs N over several files reads several
// files at once. forEachFileInParallel reads the inputs on one goroutine,
// and reading a WARC file (gzip, its framing, copying a record out) goes
// at about 1.3 times the rate one worker processes documents (320 and 240
// MB/s of WARC for text, on the 2-core VM): one reading goroutine keeps
// two or three cores busy, whatever N is. So the run has L = ceil(N/3)
// lanes (a reading goroutine takes about 3.1 s of CPU per GB of WARC, the
// text output 4.2 s more: a lane keeps about 2.4 cores busy), each of
// which runs a file as forEachFileInParallel does, on a
// reading goroutine of its own and N/L workers (at least one), its output
// written to the file's output file as it comes, in the file's input order.
//
// What the files' outputs do not hold is kept to give standard error and
// the outputs' names in input order: each file's standard error is held
// (heldStderr) until every file before it is done, then written out, and
// its output, complete, is renamed to its name then, so that a run that
// ends at a file (an output that cannot be written) leaves what --jobs 1
// leaves. The inputs are opened (and passed over for --resume, their
// outputs made) in input order, on one goroutine: the outputs' names
// depend on the inputs before.
//
// Memory: a lane's pipeline has at most its N/L workers' sources in
// flight (and as many results waiting), each detached up to
// crawl.DefaultMaxDetached, so L lanes hold about what one pipeline of N
// workers holds: N × DefaultMaxDetached, twice that with the results
// waiting. At most 2L files are begun and not yet written out (the L
// being read, and L done waiting for one before them), each holding its
// standard error: up to heldInMemory bytes of it in memory, the rest in
// a temporary file. (A file far longer than those after it holds the
// lanes back once 2L files are begun: memory is bounded before speed.)
//
// Without --output-dir, the files' outputs go to one stream, in input
// order: a second file read at once would have its whole output held
// until the first ends (or its reading stopped), so there is one reading
// goroutine (forEachFileInParallel). So too with --robots or --tdmrep,
// whose site is named by the first document of the run with a URL
// (siteOf): that decision is made in input order, as the sources are
// read.

// lanes is how many files the run reads at once: 1 when lanes do not
// apply.
func (rc *runConfig) lanes(names []string) int {
	if rc.outputs == nil || len(names) < 2 || rc.page || rc.entries != "" ||
		rc.opts.RobotsTxt != nil || rc.opts.TDMRep != nil {
		return 1
	}
	return min((rc.jobs+2)/3, len(names))
}

// laneFile is one input of a run in lanes.
type laneFile struct {
	rc     *runConfig // its own: output to its output file, stderr held
	held   *heldStderr
	output *outFile // renamed to its name when it is written out
	failed bool     // the file failed (reported)
	err    error    // the run ends at this file (an output not written)
	done   chan struct{}
}

// forEachFileInLanes is forEachFile with lanes (rc.lanes > 1).
func (rc *runConfig) forEachFileInLanes(c *cli.Context, names []string, fn documentFunc) error {
	lanes := rc.lanes(names)
	workers := max(rc.jobs/lanes, 1)
	files := make(chan *laneFile, 2*lanes) // begun, in input order
	reading := make(chan struct{}, lanes)  // a token per file being read
	begun := make(chan struct{}, 2*lanes)  // a token per file begun, not written out
	var stopped atomic.Bool                // the run ends: begin no more
	go func() {
		defer close(files)
		for _, name := range names {
			begun <- struct{}{}
			if stopped.Load() {
				<-begun
				return
			}
			f := rc.laneFile(workers)
			files <- f
			oi, failed := rc.openNext(c, name, f.rc)
			if oi == nil {
				f.failed = failed
				close(f.done)
				continue
			}
			f.output = oi.output
			reading <- struct{}{}
			go func() {
				defer close(f.done)
				defer func() { <-reading }()
				err := f.rc.runLane(c, name, oi, fn, &stopped)
				if isExitStatus(err, exitFailure) {
					f.failed = true
				} else if err != nil {
					f.err = err
				}
			}()
		}
	}()
	failed := false
	var runErr error
	for f := range files {
		<-f.done
		if runErr == nil {
			f.held.writeTo(rc.stderr)
			if f.err == nil && f.output != nil {
				f.err = renameOutput(f.output)
			}
			failed = failed || f.failed
			if f.err != nil {
				runErr = f.err
				stopped.Store(true)
			}
		} else if f.output != nil {
			// Begun after the file the run ended at: --jobs 1 would not
			// have made its output.
			os.Remove(f.output.temp)
		}
		f.held.close()
		<-begun
	}
	if runErr != nil {
		return runErr
	}
	if failed {
		return cli.Exit("", exitFailure)
	}
	return nil
}

// laneFile makes an input's laneFile: its runConfig is the run's, its
// output its own and its standard error held.
func (rc *runConfig) laneFile(workers int) *laneFile {
	f := &laneFile{held: &heldStderr{}, done: make(chan struct{})}
	lrc := *rc
	lrc.stdout = bufio.NewWriter(io.Discard)
	lrc.stderr = f.held
	lrc.jobs = workers
	lrc.inLane = true
	lrc.outFile = nil
	if rc.wet != nil {
		wet := *rc.wet // beginOutput gives the lane's output its own
		lrc.wet = &wet
	}
	f.rc = &lrc
	return f
}

// runLane runs one input, opened, as forEachFileInParallel does; its
// reading stops early when stopped is set (the run ended at a file
// before it: what it gives then is dropped).
func (rc *runConfig) runLane(c *cli.Context, name string, oi *openedInput, fn documentFunc, stopped *atomic.Bool) error {
	proto := *rc
	err := rc.runSources(&fileSources{rc: rc, proto: &proto, c: c, names: []string{name}, fn: fn, opened: oi, stopped: stopped})
	// Closed already unless the lane stopped before its end, or its
	// output could not be written (its temporary file stays, as with
	// --jobs 1).
	if oi.closer != nil {
		oi.closer.Close()
	}
	if oi.output != nil {
		oi.output.file.Close()
	}
	return err
}

// heldInMemory is how much of a file's standard error heldStderr keeps in
// memory; the rest goes to a temporary file. A file's messages are its
// own: its documents' warnings (at most filter.MaxWarnings each, and a
// note), its WARC warnings (as many, for the file), notes and errors, so
// a WARC file of many documents with warnings has megabytes of them.
const heldInMemory = 1 << 20

// heldStderr holds a file's standard error until it can be written out,
// in order: the first heldInMemory bytes in memory, the rest in a
// temporary file (removed at once where the system allows it, at close
// otherwise), and what could not be written to that file in memory
// after it. One goroutine writes to it at a time (the dispatcher's
// opening, then the lane's delivering), and it is written out after the
// lane is done.
type heldStderr struct {
	head    bytes.Buffer
	spilled bool     // head is full: the rest goes to file, then tail
	file    *os.File // nil: it could not be made
	tail    bytes.Buffer
}

func (h *heldStderr) Write(p []byte) (int, error) {
	n := len(p)
	if !h.spilled && h.head.Len()+len(p) > heldInMemory {
		h.spilled = true
		if f, err := os.CreateTemp("", "robofilter-stderr-*"); err == nil {
			h.file = f
			os.Remove(f.Name()) // unlinked while open: nothing is left behind
		}
	}
	if !h.spilled {
		return h.head.Write(p)
	}
	if h.file != nil && h.tail.Len() == 0 {
		k, err := h.file.Write(p)
		if err == nil {
			return n, nil
		}
		p = p[k:] // the rest, and all after it, stays in memory
	}
	h.tail.Write(p)
	return n, nil
}

// writeTo writes what is held to w, in the order it came.
func (h *heldStderr) writeTo(w io.Writer) {
	w.Write(h.head.Bytes())
	if h.file != nil {
		if _, err := h.file.Seek(0, io.SeekStart); err == nil {
			io.Copy(w, h.file)
		}
	}
	w.Write(h.tail.Bytes())
}

func (h *heldStderr) close() {
	if h.file != nil {
		h.file.Close()
		os.Remove(h.file.Name())
		h.file = nil
	}
	h.head, h.tail = bytes.Buffer{}, bytes.Buffer{}
}
