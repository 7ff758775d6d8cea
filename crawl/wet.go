package crawl

import (
	"io"

	"github.com/robofilter/robofilter/wet"
)

// WETWriter writes Results as a WET file: a conversion record for each
// page with text, the indexable text (noindex regions out, phrase breaks
// kept); a page under a document-level noindex, one that could not be
// read, one whose AI usage preferences exclude the run's purpose
// (robofilter.Options.Purpose), and one with no text are left out and
// counted in the closing record. A page cut short by an error (XML not well-formed, a limit) has
// the text before it, with WARC-Truncated (unspecified, unless the WARC
// record said why). The warcinfo record is dated as the first page (the WET file is
// a function of its input), or opts.Date when set.
type WETWriter struct {
	w    io.Writer
	opts wet.Options
	ww   *wet.Writer
	err  error
}

// NewWETWriter writes a WET file of Results to w.
func NewWETWriter(w io.Writer, opts wet.Options) *WETWriter {
	return &WETWriter{w: w, opts: opts}
}

func (x *WETWriter) start(date string) {
	if x.ww != nil || x.err != nil {
		return
	}
	if x.opts.Date == "" {
		x.opts.Date = date
	}
	x.ww, x.err = wet.NewWriter(x.w, x.opts)
}

// Write writes a Result's page, or counts why it has none. The Result
// must hold the text output (Options.Text).
func (x *WETWriter) Write(r *Result) error {
	x.start(r.Document.Date)
	if x.err != nil {
		return x.err
	}
	switch {
	case r.Result == nil:
		x.ww.Count("pages not read", 1)
	case r.Result.Directives.NoIndex:
		x.ww.Count("pages under noindex", 1)
	case excludedForPurpose(r):
		x.ww.Count("pages whose preferences exclude the purpose", 1)
	case len(r.Text) == 0:
		x.ww.Count("pages without text", 1)
	default:
		truncated := r.Document.Truncated
		if r.Err != nil {
			// The text before the error, marked as less than the page's.
			x.ww.Count("pages cut short by an error", 1)
			if truncated == "" {
				truncated = "unspecified"
			}
		}
		x.err = x.ww.Write(wet.Page{TargetURI: r.Document.URI, Date: r.Document.Date, RefersTo: r.Document.RecordID,
			Text: r.Text, Truncated: truncated})
	}
	return x.err
}

// excludedForPurpose reports whether the document's AI usage preferences
// say no to the purpose the run was given (Options.Purpose): Process wrote
// no text for it.
func excludedForPurpose(r *Result) bool {
	ai := r.Result.Directives.AI
	return ai != nil && ai.Purpose != nil && !ai.Purpose.Allowed
}

// Close writes the closing record with the counts (and the warcinfo
// record first, for an input without pages).
func (x *WETWriter) Close() error {
	x.start("")
	if x.err != nil {
		return x.err
	}
	return x.ww.Close()
}
