package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/antchfx/xpath"
	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input/httpresp"
	"github.com/robofilter/robofilter/phrase"
	"github.com/urfave/cli/v2"
	htmlcharset "golang.org/x/net/html/charset"
)

// documentFlags are the flags every document command takes.
func documentFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "plain", Usage: "output format: plain or jsonl"},
		&cli.StringFlag{Name: "agent", Usage: "robot name: agent-specific META and X-Robots-Tag rules and per-robot classes apply"},
		&cli.StringFlag{Name: "base", Usage: "the document's URL, to resolve relative links"},
		&cli.BoolFlag{Name: "require-profile", Usage: "honour robots- classes only when <head profile> names the Robot Exclusion Profile"},
		&cli.StringFlag{Name: "ellipsis", Value: "…", Usage: "what replaces no-archive content"},
		&cli.StringSliceFlag{Name: "x-robots-tag", Usage: "an X-Robots-Tag header value (repeatable)"},
		&cli.StringFlag{Name: "dialects", Value: "all", Usage: "in-page dialects honoured: all, or a list of " + filter.DialectNames()},
		&cli.StringFlag{Name: "charset", Usage: "the input's charset, overriding detection (e.g. windows-1252)"},
		&cli.BoolFlag{Name: "xml", Usage: "read the input as XML"},
		&cli.BoolFlag{Name: "html", Usage: "read the input as HTML"},
		&cli.IntFlag{Name: "max-depth", Usage: "nesting limit (0: default 250000)"},
		&cli.IntFlag{Name: "max-token", Usage: "longest token in bytes (0: default 16 MiB)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "do not print warnings"},
		&cli.BoolFlag{Name: "http", Usage: "each input is an HTTP response as sent (curl -si saves one): its X-Robots-Tag, Content-Type and Content-Encoding (gzip, deflate, br, zstd) headers apply"},
		&cli.BoolFlag{Name: "warc", Usage: "each input is a WARC file (gzipped or not): every response and resource record is a document, its links resolved against its WARC-Target-URI"},
		&cli.StringFlag{Name: "records", Usage: "XML feeds and sitemaps: process each element the `XPATH` selects (//entry, /rss/channel/item) as its own document, its escaped HTML through the HTML pipeline; one JSON Lines record per entry"},
	}
}

// recordRecord is the JSON Lines record of one feed entry (--records).
type recordRecord struct {
	Type     string           `json:"type"` // "record"
	File     string           `json:"file"`
	Index    int              `json:"index"`
	ID       string           `json:"id,omitempty"`
	Title    string           `json:"title,omitempty"`
	Link     string           `json:"link,omitempty"`
	Text     *string          `json:"text,omitempty"`    // text: the entry's indexable text, plain format
	Archive  *string          `json:"archive,omitempty"` // archive: the entry's archive-safe HTML
	Links    []filter.Link    `json:"links,omitempty"`   // links: the entry's links (followed, or all with --all)
	Warnings []filter.Warning `json:"warnings,omitempty"`
	// WarningsDropped counts the warnings past filter.MaxWarnings.
	WarningsDropped int `json:"warnings_dropped,omitempty"`
}

// runRecords processes a feed entry by entry; output says which output of
// each entry's Document the command prints. Records mode writes JSON Lines
// whatever --format says: each file's records end with its document
// record, as in the JSON Lines format (the feed's directives, and its
// error when it failed: a pipeline reading only stdout can tell a feed cut
// short). Its warnings are the records'.
func (rc *runConfig) runRecords(c *cli.Context, output string) error {
	xpath, all := c.String("records"), c.Bool("all")
	rc.jsonl = true // an unreadable file has its document record too
	return rc.forEachFile(c, func(name string, r io.Reader, _ func(filter.Warning)) (*robofilter.Result, error) {
		res, err := feed.Process(r, xpath, rc.opts, func(rec feed.Entry) error {
			out := recordRecord{Type: "record", File: name, Index: rec.Index, ID: rec.ID, Title: rec.Title, Link: rec.Link}
			if d := rec.Doc; d != nil {
				switch output {
				case "text":
					out.Text = &d.Text
				case "archive":
					s := string(d.Archive)
					out.Archive = &s
				case "links":
					for _, l := range d.Links {
						if l.Followed || all {
							out.Links = append(out.Links, l)
						}
					}
				}
			}
			if !rc.quiet {
				// The feed's warnings, then the entry's, kept as a
				// document's are: the first filter.MaxWarnings.
				var kept filter.Result
				for _, w := range rec.Warnings {
					kept.AddWarning(w)
				}
				if d := rec.Doc; d != nil && d.Result != nil {
					for _, w := range d.Result.Warnings {
						kept.AddWarning(w)
					}
					kept.WarningsDropped += d.Result.WarningsDropped
				}
				out.Warnings, out.WarningsDropped = kept.Warnings, kept.WarningsDropped
			}
			return rc.record(out)
		})
		// nil: warnings.done has nothing to add, the records held them.
		return nil, rc.writeDocument(name, res, err)
	})
}

// runConfig is what a document command needs from its flags.
type runConfig struct {
	// opts are the options of the document being processed: flagOpts,
	// with what its HTTP response's head says (--http).
	opts, flagOpts robofilter.Options
	http, warc     bool
	httpStatus     int    // the response's status (--http, --warc), for the document record
	docURI         string // the record's WARC-Target-URI (--warc), for the document record
	docTruncated   string // the record's WARC-Truncated reason (--warc), for the document record
	jsonl          bool
	page           bool // check --format html
	pageDocs       int  // the documents on the page so far
	quiet          bool
	stdout         *bufio.Writer
	stderr         io.Writer
	// textWritten: a document's plain text went to stdout (textWriter).
	textWritten bool
	// httpWarnings are what reading the document's HTTP response warned
	// of (--http, --warc), for its document record.
	httpWarnings []filter.Warning
}

// textWriter is the plain text format of one document on stdout. After
// another document's text, its first word comes after an empty line: the
// documents are different phrases.
func (rc *runConfig) textWriter() *phrase.Writer {
	return phrase.NewWriter(&documentText{rc: rc, separate: rc.textWritten})
}

// documentText writes one document's text to stdout, after an empty line
// if separate says another document's text came before.
type documentText struct {
	rc       *runConfig
	separate bool
}

func (w *documentText) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if w.separate {
		w.separate = false
		if err := w.rc.stdout.WriteByte('\n'); err != nil {
			return 0, err
		}
	}
	w.rc.textWritten = true
	return w.rc.stdout.Write(p)
}

func newRunConfig(c *cli.Context) (*runConfig, error) {
	rc := &runConfig{quiet: c.Bool("quiet"), stderr: c.App.ErrWriter}
	switch c.String("format") {
	case "plain":
	case "jsonl":
		rc.jsonl = true
	case "html":
		if c.Command.Name != "check" {
			return nil, cli.Exit("--format html is for check only (a page showing the regions)", exitUsage)
		}
		rc.page = true
	default:
		return nil, cli.Exit(fmt.Sprintf("--format must be plain or jsonl (or html for check), not %q", c.String("format")), exitUsage)
	}
	o := &rc.opts
	o.Agent = c.String("agent")
	o.Base = c.String("base")
	o.RequireProfile = c.Bool("require-profile")
	o.Ellipsis = c.String("ellipsis")
	if c.IsSet("ellipsis") && o.Ellipsis == "" {
		// An elided region leaves a mark (SPEC section 5): never nothing.
		return nil, cli.Exit("--ellipsis must not be empty", exitUsage)
	}
	o.XRobotsTag = c.StringSlice("x-robots-tag")
	o.Charset = c.String("charset")
	o.MaxDepth = c.Int("max-depth")
	o.MaxTokenSize = c.Int("max-token")
	d, err := filter.ParseDialects(c.String("dialects"))
	if err == nil && d == 0 {
		err = fmt.Errorf("name at least one dialect (known: all, %s)", filter.DialectNames())
	}
	if err != nil {
		return nil, cli.Exit("--dialects: "+err.Error(), exitUsage)
	}
	if label := c.String("charset"); label != "" {
		if enc, _ := htmlcharset.Lookup(label); enc == nil {
			return nil, cli.Exit(fmt.Sprintf("--charset: unknown charset %q", label), exitUsage)
		}
	}
	o.Dialects = d
	switch {
	case c.Bool("xml") && c.Bool("html"):
		return nil, cli.Exit("--xml and --html exclude each other", exitUsage)
	case c.Bool("xml"):
		o.Format = robofilter.XML
	case c.Bool("html"):
		o.Format = robofilter.HTML
	}
	if o.Base != "" {
		if _, err := filter.NewCore(filter.Options{Base: o.Base}, filter.Outputs{}); err != nil {
			return nil, cli.Exit("--base: "+err.Error(), exitUsage)
		}
	}
	if xp := c.String("records"); xp != "" {
		if _, err := xpath.Compile(xp); err != nil {
			return nil, cli.Exit(fmt.Sprintf("--records: %q is not an XPath: %v", xp, err), exitUsage)
		}
		if c.Command.Name == "check" {
			return nil, cli.Exit("--records works with text, archive and links", exitUsage)
		}
	}
	if o.MaxDepth < 0 || o.MaxTokenSize < 0 {
		return nil, cli.Exit("--max-depth and --max-token must not be negative", exitUsage)
	}
	rc.http, rc.warc, rc.flagOpts = c.Bool("http"), c.Bool("warc"), rc.opts
	if rc.http && rc.warc {
		return nil, cli.Exit("--http and --warc exclude each other (a WARC file's response records are HTTP responses already)", exitUsage)
	}
	rc.stdout = bufio.NewWriterSize(c.App.Writer, 64<<10)
	return rc, nil
}

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
		var ok bool
		var err error
		if rc.warc {
			ok, err = rc.warcDocuments(name, r, fn)
		} else {
			ok, err = rc.document(name, r, rc.flagOpts, rc.http, fn)
		}
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

// document processes one document, named name in messages and records,
// with opts (and, when isHTTP, what its HTTP response's head says). It
// reports false when the document failed (reported); a non-nil error ends
// the command (the output could not be written).
func (rc *runConfig) document(name string, r io.Reader, opts robofilter.Options, isHTTP bool, fn documentFunc) (bool, error) {
	rc.opts, rc.httpStatus = opts, 0
	defer func() { rc.httpWarnings = nil }()
	var warn func(filter.Warning)
	var warnings *stderrWarnings
	if !rc.quiet {
		warnings = &stderrWarnings{w: rc.stderr, name: name}
		warn = warnings.warn
	}
	if isHTTP {
		end := "the input"
		if rc.warc {
			end = "the WARC record"
		}
		// What the response's reading says is about no place in the
		// document: at 0:0, before the document's own warnings in its
		// record (writeDocument), on stderr as it is found; the head's
		// once the response is known to be a document.
		held := true
		resp, err := httpresp.ReadSaved(r, end, func(msg string) {
			w := filter.Warning{Message: msg}
			rc.httpWarnings = append(rc.httpWarnings, w)
			if warn != nil && !held {
				warn(w)
			}
		})
		if err == nil && rc.warc && !isPage(resp.Header.Get("Content-Type")) {
			return true, nil // an image, a script, a style sheet …: no document to warn of
		}
		held = false
		if warn != nil {
			for _, w := range rc.httpWarnings {
				warn(w)
			}
		}
		if err != nil {
			return false, rc.unprocessed(name, err)
		}
		if rc.docTruncated != "" {
			// The record holds less than the response: what it holds is
			// the document, not an error.
			resp.Body = io.NopCloser(cutShortIsEnd{resp.Body})
			if !rc.quiet {
				fmt.Fprintf(rc.stderr, "robofilter: %s: note: the WARC record is truncated (WARC-Truncated: %s): the document is what it holds\n", name, rc.docTruncated)
			}
		}
		body, opts, err := robofilter.FromResponse(resp, opts)
		if err != nil {
			return false, rc.unprocessed(name, err)
		}
		if rc.docTruncated != "" {
			body = cutShortIsEnd{body} // a coding cut short with the record
		}
		r, rc.opts, rc.httpStatus = body, opts, resp.StatusCode
	}
	res, err := fn(name, r, warn)
	if err != nil {
		// What came before the error is written first, so that with
		// stderr on the same terminal it reads in document order.
		rc.stdout.Flush()
	}
	warnings.done(res)
	if err != nil {
		rc.reportError(name, err)
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
	werr := rc.record(documentRecord{Type: "document", File: name, Error: err.Error(), URI: rc.docURI, Warnings: rc.httpWarnings})
	if werr == nil {
		werr = rc.stdout.Flush()
	}
	if werr != nil {
		return cli.Exit(fmt.Sprintf("writing output: %v", werr), exitFailure)
	}
	return nil
}

// cutShortIsEnd reads a body a WARC record holds only in part
// (WARC-Truncated): its end before the length or the chunks the response
// announced is its end.
type cutShortIsEnd struct{ r io.Reader }

func (c cutShortIsEnd) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}

// isPage reports whether a document of that Content-Type is a page
// (HTML, XML) or may be one (no type: sniffed).
func isPage(contentType string) bool {
	return strings.TrimSpace(contentType) == "" || robofilter.MediaTypeFormat(contentType) != robofilter.Auto
}

// errIsDir is the error of a file argument that is a directory.
var errIsDir = errors.New("is a directory")

// openInput opens a file named on the command line; a directory is
// refused here, as reading it would fail. Its error is the system's
// without the "open NAME: " os puts before it: every error line about a
// file starts with the file's name (robofilter: NAME: error: no such file
// or directory).
func openInput(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, bareError(err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, errIsDir
	}
	return f, nil
}

// bareError drops the "op NAME: " of an error about a file (fs.PathError).
func bareError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// bareReadErrors reads a file (or stdin) whose read errors are reported
// after its name, without the "read NAME: " os puts before them.
type bareReadErrors struct{ io.Reader }

func (r bareReadErrors) Read(p []byte) (int, error) {
	n, err := r.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = bareError(err)
	}
	return n, err
}

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

// record writes one JSON Lines record.
func (rc *runConfig) record(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = rc.stdout.Write(b)
	return err
}

// Records of the JSON Lines format (documented in the README).
type lineRecord struct {
	Type   string `json:"type"` // "line"
	File   string `json:"file"`
	Phrase int    `json:"phrase"`
	Line   int    `json:"line"`
	Text   string `json:"text"`
}

type linkRecord struct {
	Type string `json:"type"` // "link"
	File string `json:"file"`
	filter.Link
}

type regionRecord struct {
	Type string `json:"type"` // "region"
	File string `json:"file"`
	filter.Region
	Off string `json:"off"`
	On  string `json:"on,omitempty"`
}

type documentRecord struct {
	Type            string            `json:"type"` // "document"
	File            string            `json:"file"`
	Format          string            `json:"format,omitempty"`
	Charset         string            `json:"charset,omitempty"`
	Directives      filter.Directives `json:"directives"`
	Warnings        []filter.Warning  `json:"warnings,omitempty"`
	WarningsDropped int               `json:"warnings_dropped,omitempty"`
	Error           string            `json:"error,omitempty"`
	HTTPStatus      int               `json:"http_status,omitempty"`    // --http, --warc: the response's status
	URI             string            `json:"uri,omitempty"`            // --warc: the record's WARC-Target-URI
	Truncated       string            `json:"warc_truncated,omitempty"` // --warc: why the record holds less than the response
}

// documentRecord ends every file's records in JSON Lines.
func (rc *runConfig) writeDocument(name string, res *robofilter.Result, err error) error {
	if !rc.jsonl || res == nil {
		return err
	}
	d := documentRecord{Type: "document", File: name, Format: res.Format, Charset: res.Charset,
		Directives: res.Directives, Warnings: res.Warnings, WarningsDropped: res.WarningsDropped, HTTPStatus: rc.httpStatus, URI: rc.docURI, Truncated: rc.docTruncated}
	if len(rc.httpWarnings) > 0 {
		// The HTTP response's warnings first: they were found first, or
		// are about what holds the document. The document's past
		// filter.MaxWarnings were counted, not kept.
		var kept filter.Result
		for _, w := range rc.httpWarnings {
			kept.AddWarning(w)
		}
		for _, w := range res.Warnings {
			kept.AddWarning(w)
		}
		d.Warnings, d.WarningsDropped = kept.Warnings, kept.WarningsDropped+res.WarningsDropped
	}
	if err != nil {
		d.Error = err.Error()
	}
	if werr := rc.record(d); werr != nil {
		return werr
	}
	return err
}

func regionOf(name string, r filter.Region) regionRecord {
	off, on := r.Switches()
	return regionRecord{Type: "region", File: name, Region: r, Off: off, On: on}
}
