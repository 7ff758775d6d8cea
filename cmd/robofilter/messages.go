package main

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input/warc"
)

// reportError prints a file's error after its name, with the position in
// the document when it has one: robofilter: NAME[:LINE:COL]: error: ….
func (rc *runConfig) reportError(name string, err error) {
	var pe *filter.PosError
	if errors.As(err, &pe) {
		fmt.Fprintf(rc.stderr, "robofilter: %s:%d:%d: error: %v\n", name, pe.Pos.Line, pe.Pos.Col, pe.Err)
		return
	}
	fmt.Fprintf(rc.stderr, "robofilter: %s: error: %v\n", name, err)
}

// stderrWarnings prints one document's warnings on standard error as they
// are found, in the SPEC's form: the Warning output is given the first
// filter.MaxWarnings of them, the ones the document's Result keeps (its
// JSON Lines record lists them); done then says in one note how many more
// there were, which the core counted without making them.
type stderrWarnings struct {
	w    io.Writer
	name string
}

// A warning about something from outside the document (an X-Robots-Tag
// value) has no place in it: it is printed at 0:0, so that every warning
// line has the SPEC's form.
func (s *stderrWarnings) warn(w filter.Warning) {
	fmt.Fprintf(s.w, "robofilter: %s:%d:%d: warning: %s\n", s.name, w.Line, w.Col, w.Message)
}

// done ends the document's warnings (nothing to do with --quiet, where
// there is no stderrWarnings).
func (s *stderrWarnings) done(res *robofilter.Result) {
	if s == nil || res == nil || res.WarningsDropped == 0 {
		return
	}
	noun := "warnings"
	if res.WarningsDropped == 1 {
		noun = "warning"
	}
	fmt.Fprintf(s.w, "robofilter: %s: note: %d more %s not shown (at most %d per document)\n", s.name, res.WarningsDropped, noun, filter.MaxWarnings)
}

// warcWarnings prints a WARC file's warnings (unless --quiet) as
// robofilter: FILE: warning: at POSITION: …, and writes them as
// warc_warning records in JSON Lines: the first filter.MaxWarnings of
// them, then a note of how many more there were.
type warcWarnings struct {
	rc   *runConfig
	name string
	n    int
	err  error // writing a record failed
}

func (w *warcWarnings) warn(ww warc.Warning) {
	if w.n++; w.n > filter.MaxWarnings {
		return
	}
	if !w.rc.quiet {
		fmt.Fprintf(w.rc.stderr, "robofilter: %s: warning: %v\n", w.name, ww)
	}
	if w.rc.jsonl && w.rc.onePass == nil && w.err == nil { // extract: documents only
		w.err = w.rc.record(warcWarningRecord{Type: "warc_warning", File: w.name, Offset: ww.Offset, Gzip: ww.Compressed,
			InMember: ww.InMember, Zstd: ww.Zstd, Skipped: ww.Skipped, Message: ww.Message})
	}
}

func (w *warcWarnings) done() {
	if more := w.n - filter.MaxWarnings; more > 0 && !w.rc.quiet {
		fmt.Fprintf(w.rc.stderr, "robofilter: %s: note: %d more WARC warnings not shown (at most %d per file)\n", w.name, more, filter.MaxWarnings)
	}
}

// inDocumentOrder sorts warnings by their place in the document, those
// about no place (0:0) first: a report or record lists them so, though
// some are found after others that come later in the document (a <base>
// that comes too late, what the head held). Standard error has them as
// they are found.
func inDocumentOrder(ws []filter.Warning) {
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].Line != ws[j].Line {
			return ws[i].Line < ws[j].Line
		}
		return ws[i].Col < ws[j].Col
	})
}
