package crawl

import (
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input"
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
	page, none, cutShort := WETPage(r.Document, r.Result, r.Err, r.Text)
	if none != "" {
		x.ww.Count(none, 1)
		return nil
	}
	if cutShort {
		x.ww.Count(WETCutShort, 1)
	}
	x.err = x.ww.Write(page)
	return x.err
}

// WETCutShort is the closing record's count of the pages written with
// the text before an error (WETPage's cutShort).
const WETCutShort = "pages cut short by an error"

// WETPage decides what a processed document gives a WET file: its page,
// or, when it gives none, why, as the closing record counts it ("pages
// not read", "pages under noindex", "pages whose preferences exclude the
// purpose", "pages without text"). A page whose text stops at an error
// (XML not well-formed, a limit) is cutShort: WARC-Truncated says so
// (unspecified, unless the WARC record said why). res is Process's (nil:
// the document was not read), err the error that stopped it, text the
// indexable text. crawl.WETWriter and the CLI, which makes each page's
// record on the worker that processed it, decide alike with it.
func WETPage(doc *input.Document, res *robofilter.Result, err error, text []byte) (page wet.Page, none string, cutShort bool) {
	switch {
	case res == nil:
		return page, "pages not read", false
	case res.Directives.NoIndex:
		return page, "pages under noindex", false
	case excludedForPurpose(res):
		return page, "pages whose preferences exclude the purpose", false
	case len(text) == 0:
		return page, "pages without text", false
	}
	page.Text = text
	if doc != nil {
		page.TargetURI, page.Date, page.RefersTo, page.Truncated = doc.URI, doc.Date, doc.RecordID, doc.Truncated
		if page.TargetURI == "" {
			page.TargetURI = doc.Options.Base
		}
	}
	if err != nil && page.Truncated == "" {
		page.Truncated = "unspecified"
	}
	return page, "", err != nil
}

// excludedForPurpose reports whether the document's AI usage preferences
// say no to the purpose the run was given (Options.Purpose): Process wrote
// no text for it.
func excludedForPurpose(res *robofilter.Result) bool {
	ai := res.Directives.AI
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
