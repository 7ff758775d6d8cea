// Package crawl processes a crawl's documents: every document of an
// input (a WARC file, a saved response, a page) through every output the
// caller asks for, in one pass each, on as many goroutines as it is given,
// with the results handed back in input order. It is what the CLI's
// --jobs runs and what the Beam pipeline runs per WARC file, so the two
// write the same records.
//
// A Result is one document's outputs and what its reading said; as JSON it
// is the one-pass object of the JSON Lines format (docs/formats.md). A
// Summary counts what one input held.
package crawl

import (
	"bytes"
	"io"
	"runtime"
	"time"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/pipeline"
)

// Options say how to process an input's documents.
type Options struct {
	// Workers is how many documents are processed at once; 0: one per
	// CPU. With 1, documents are processed in turn as they stream out of
	// the input, as robofilter always did.
	Workers int
	// Text, Links and Regions choose the outputs a Result carries.
	Text, Links, Regions bool
	// Warning, when set, is given each document's warnings as they are
	// found (robofilter.Outputs.Warning), on the goroutine that processes
	// it.
	Warning func(robofilter.Warning)
	// MaxDetached bounds the bytes of a document read out of its input
	// before it is processed on a worker (0: DefaultMaxDetached); a larger
	// document is processed in turn, as it streams.
	MaxDetached int64
}

// DefaultMaxDetached is how much of one document may be read out of its
// input ahead of processing: a run holds at most pipeline.Ahead×Workers
// documents read out, so at most about that many times this, plus the
// outputs. A larger document is processed as it streams, in turn (Common
// Crawl cuts pages at 1 MiB; few others are larger).
const DefaultMaxDetached = 8 << 20

// Result is one document's outputs, from one pass.
type Result struct {
	// Document is the document as its input gave it (name, URI, record
	// ID and date, HTTP status, WARC-Truncated; its Warnings are the
	// reading's, also in Warnings below). Its Body has been read.
	Document *input.Document
	// Result is Process's (directives, charset, format, warnings); nil
	// when the document could not be read (Err).
	Result *robofilter.Result
	// Text is the indexable text in the plain format (Options.Text).
	Text []byte
	// Links are every link, followed or not (Options.Links).
	Links []robofilter.Link
	// Regions are the excluded regions (Options.Regions).
	Regions []robofilter.Region
	// Err is why the document could not be read or was cut short
	// (Document.Err, or Process's error): the outputs hold what came
	// before it.
	Err error

	read     int64 // bytes of the body read
	withText bool  // the text output was asked for
}

// Summary counts what one input held and what became of it.
type Summary struct {
	Documents int   // documents processed (a WARC file's pages)
	Failed    int   // documents with an error
	Bytes     int64 // bytes of the documents' bodies read
	NoIndex   int   // documents whose directives say noindex
	NoFollow  int   // … nofollow
	NoArchive int   // … noarchive (or nosnippet)
	Warnings  int   // warnings, kept or counted, of all documents
	Seconds   float64
}

// Run processes every document of in and hands each Result to deliver,
// in input order, on one goroutine. It returns the input's Summary, and
// the error that ended the input (a WARC file cut short; not io.EOF), or
// deliver's.
func Run(in *input.Reader, opts Options, deliver func(*Result) error) (Summary, error) {
	start := time.Now()
	var sum Summary
	count := func(r *Result) error {
		sum.add(r)
		return deliver(r)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var err error
	if workers == 1 {
		for {
			doc, nerr := in.Next()
			if nerr != nil {
				if nerr != io.EOF {
					err = nerr
				}
				break
			}
			if err = count(Process(doc, opts)); err != nil {
				break
			}
		}
	} else {
		limit := opts.MaxDetached
		if limit <= 0 {
			limit = DefaultMaxDetached
		}
		err = pipeline.Run(workers, func() (*input.Source, bool, error) {
			src, err := in.NextSource()
			if err != nil {
				return nil, false, err
			}
			return src, !src.Detach(limit), nil
		}, func(src *input.Source) *Result {
			defer src.Release()
			doc, ok := src.Open()
			if !ok {
				return nil
			}
			return Process(doc, opts)
		}, func(r *Result) error {
			if r == nil {
				return nil // no document after all
			}
			return count(r)
		})
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, err
}

// Process processes one document with the outputs opts asks for.
func Process(doc *input.Document, opts Options) *Result {
	r := &Result{Document: doc, withText: opts.Text}
	if doc.Err != nil {
		r.Err = doc.Err
		return r
	}
	var text bytes.Buffer
	out := robofilter.Outputs{Warning: opts.Warning}
	if opts.Text {
		out.Text = robofilter.NewTextWriter(&text)
	}
	if opts.Links {
		out.Link = func(l robofilter.Link) error { r.Links = append(r.Links, l); return nil }
	}
	if opts.Regions {
		out.Region = func(g robofilter.Region) error { r.Regions = append(r.Regions, g); return nil }
	}
	counted := &countingReader{r: doc.Body}
	r.Result, r.Err = robofilter.Process(counted, doc.Options, out)
	r.Text = text.Bytes()
	r.read = counted.n
	return r
}

func (s *Summary) add(r *Result) {
	s.Documents++
	s.Bytes += r.read
	s.Warnings += len(r.Document.Warnings)
	if r.Err != nil {
		s.Failed++
	}
	if res := r.Result; res != nil {
		d := res.Directives
		if d.NoIndex {
			s.NoIndex++
		}
		if d.NoFollow {
			s.NoFollow++
		}
		if d.NoArchive || d.NoSnippet {
			s.NoArchive++
		}
		s.Warnings += len(res.Warnings) + res.WarningsDropped
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
