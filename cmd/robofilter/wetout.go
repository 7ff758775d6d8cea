package main

import (
	"bytes"
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/wet"
)

// text --format wet writes a WET file, as Common Crawl publishes a crawl's
// text: a conversion record per page (package wet). A document's record
// (gzip-compressed with --gzip) is made where the document is processed,
// on a worker with --jobs, into wetPages; the output's writer (wetOut)
// writes the warcinfo record before the first page, the pages in input
// order, and the counts of what was left out at the end of the output
// (the run, or each file of --output-dir).

// wetOut is one WET output's writer: standard output, or a file of
// --output-dir.
type wetOut struct {
	w        io.Writer
	gzip     bool
	filename string
	ww       *wet.Writer // nil until the first page (or the end)
	err      error
	// counts held until the writer starts (dates come with the first
	// page).
	counts map[string]int64
	order  []string
	// date is the first document's WARC-Date: the warcinfo record's, as
	// crawl.WETWriter dates it, whether that document has text or not.
	date string
}

// wetPages is what one document (or a child's documents) gives the
// output: encoded records, how many pages they are, what was counted, and
// the first page's date (the warcinfo record's).
type wetPages struct {
	records []byte
	pages   int
	counts  map[string]int64
	order   []string
	date    string
}

func (p *wetPages) count(name string) {
	if p.counts == nil {
		p.counts = map[string]int64{}
	}
	if _, ok := p.counts[name]; !ok {
		p.order = append(p.order, name)
	}
	p.counts[name]++
}

// wetDocument makes a processed document's contribution: its record, or
// why it has none (crawl.WETPage decides, as for crawl.WETWriter).
func (rc *runConfig) wetDocument(res *robofilter.Result, err error, text []byte) {
	p := &rc.wetPending
	doc := rc.doc
	if p.date == "" && doc != nil {
		p.date = doc.Date
	}
	page, none, cutShort := crawl.WETPage(doc, res, err, text)
	if none != "" {
		p.count(none)
		return
	}
	if cutShort {
		p.count(crawl.WETCutShort)
	}
	p.records = wet.AppendPage(p.records, page, rc.wetGzip)
	p.pages++
}

// writeWET writes what documents gave to the output, in order, and
// clears it.
func (rc *runConfig) writeWET(p *wetPages) error {
	o := rc.wet
	if o.date == "" {
		o.date = p.date
	}
	if p.pages == 0 && len(p.order) == 0 {
		return o.err
	}
	if o.ww == nil && p.pages > 0 {
		o.start()
	}
	for _, name := range p.order {
		o.count(name, p.counts[name])
	}
	if p.pages > 0 && o.err == nil {
		o.err = o.ww.WriteEncoded(p.records, p.pages)
	}
	*p = wetPages{}
	return o.err
}

func (o *wetOut) start() {
	if o.ww != nil || o.err != nil {
		return
	}
	o.ww, o.err = wet.NewWriter(o.w, wet.Options{Gzip: o.gzip, Filename: o.filename, Date: o.date,
		Fields: map[string]string{"software": "robofilter " + version,
			"description": "the indexable text of each page: robots-excluded regions out, phrase breaks as empty lines"}})
	for _, name := range o.order {
		o.ww.Count(name, o.counts[name])
	}
	o.counts, o.order = nil, nil
}

func (o *wetOut) count(name string, n int64) {
	if o.ww != nil {
		o.ww.Count(name, n)
		return
	}
	if o.counts == nil {
		o.counts = map[string]int64{}
	}
	if _, ok := o.counts[name]; !ok {
		o.order = append(o.order, name)
	}
	o.counts[name] += n
}

// finish ends the WET output: the warcinfo record if no page came, and
// the counts.
func (o *wetOut) finish() error {
	o.start()
	if o.err == nil {
		o.err = o.ww.Close()
	}
	return o.err
}

// runWETText is text --format wet's documentFunc.
func runWETText(rc *runConfig, name string, r io.Reader, warn func(robofilter.Warning)) (*robofilter.Result, error) {
	var text bytes.Buffer
	res, err := robofilter.Process(r, rc.opts, robofilter.Outputs{Text: robofilter.NewTextWriter(&text), Warning: warn})
	rc.wetDocument(res, err, text.Bytes())
	return res, err
}
