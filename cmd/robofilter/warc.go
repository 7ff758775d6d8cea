package main

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input/warc"
	"github.com/robofilter/robofilter/weburl"
	"github.com/urfave/cli/v2"
)

// warcDocuments processes every response and resource record of a WARC
// file (--warc) that holds a page (HTML or XML by its media type, or none
// given) as a document named NAME#N (N: the record's number in the
// file, from 1), with its links resolved against its WARC-Target-URI
// (--base for a record without a usable one). Other records (request,
// warcinfo, metadata, revisit …) are skipped; so is a response record
// without a Content-Type whose block is no HTTP response, said once. What
// the reader skips (bytes that are no record, a record it cannot read, a
// header line) is a warning, and a warc_warning record in JSON Lines. A
// record cut short by the file's end ends it, reported. It reports false
// when any document or the file failed.
func (rc *runConfig) warcDocuments(name string, r io.Reader, fn documentFunc) (bool, error) {
	wr, err := warc.NewReader(r)
	if err != nil {
		return false, rc.unprocessed(name, err)
	}
	warnings := warcWarnings{rc: rc, name: name}
	wr.Warn = warnings.warn
	defer warnings.done()
	ok, notedNoType := true, false
	for n := 1; ; n++ {
		rec, err := wr.Next()
		if warnings.err != nil {
			return false, cli.Exit(fmt.Sprintf("writing output: %v", warnings.err), exitFailure)
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
		isHTTP := rec.IsHTTPResponse()
		if !isHTTP && rec.Type() == "response" && strings.TrimSpace(rec.Header.Get("Content-Type")) == "" {
			if !notedNoType && !rc.quiet {
				fmt.Fprintf(rc.stderr, "robofilter: %s: note: a response record without a Content-Type whose block does not start with an HTTP status line: skipped (and any more in this file)\n", docName(name, n))
			}
			notedNoType = true
			continue
		}
		if !isHTTP && (rec.Type() != "resource" || !isPage(rec.Header.Get("Content-Type"))) {
			continue // a resource that is no page (an image, a crawler's log) is no document either
		}
		opts := rc.flagOpts
		uri := rec.TargetURI()
		if _, err := weburl.ParseBase(uri); uri != "" && err == nil {
			opts.Base = uri
		}
		body := rec.Block
		if !isHTTP {
			// A resource record's block is the document itself, its
			// media type the record's Content-Type; with no coding to
			// undo, FromResponse has no error to give.
			resp := &http.Response{Header: http.Header{"Content-Type": {rec.Header.Get("Content-Type")}}, Body: io.NopCloser(body)}
			body, opts, _ = robofilter.FromResponse(resp, opts)
		}
		rc.docURI, rc.docTruncated = uri, rec.Header.Get("WARC-Truncated")
		docOK, werr := rc.document(docName(name, n), body, opts, isHTTP, fn)
		rc.docURI, rc.docTruncated = "", ""
		if werr != nil {
			return false, werr
		}
		ok = ok && docOK
	}
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

// warcWarningRecord is the JSON Lines record of a WARC file's warning.
type warcWarningRecord struct {
	Type     string `json:"type"` // "warc_warning"
	File     string `json:"file"`
	Offset   int64  `json:"offset"`                // the file's bytes before it, or before its gzip member
	Gzip     bool   `json:"gzip_member,omitempty"` // in a gzip member
	InMember int64  `json:"in_member,omitempty"`   // the member's decompressed bytes before it
	Skipped  int64  `json:"skipped,omitempty"`     // bytes skipped, counted as the offset counts
	Message  string `json:"message"`
}

func (w *warcWarnings) warn(ww warc.Warning) {
	if w.n++; w.n > filter.MaxWarnings {
		return
	}
	if !w.rc.quiet {
		fmt.Fprintf(w.rc.stderr, "robofilter: %s: warning: %v\n", w.name, ww)
	}
	if w.rc.jsonl && w.err == nil {
		w.err = w.rc.record(warcWarningRecord{Type: "warc_warning", File: w.name, Offset: ww.Offset, Gzip: ww.Compressed,
			InMember: ww.InMember, Skipped: ww.Skipped, Message: ww.Message})
	}
}

func (w *warcWarnings) done() {
	if more := w.n - filter.MaxWarnings; more > 0 && !w.rc.quiet {
		fmt.Fprintf(w.rc.stderr, "robofilter: %s: note: %d more WARC warnings not shown (at most %d per file)\n", w.name, more, filter.MaxWarnings)
	}
}

// docName names the n-th record of a WARC file.
func docName(file string, n int) string { return file + "#" + strconv.Itoa(n) }
