package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/antchfx/xpath"
	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/internal/quote"
	"github.com/robofilter/robofilter/weburl"
	"github.com/urfave/cli/v2"
	htmlcharset "golang.org/x/net/html/charset"
)

// documentFlags are the flags of the document command cmd (text,
// archive, links, check, extract): each shows only those that mean
// something to it.
func documentFlags(cmd string) []cli.Flag {
	formats := "plain or jsonl"
	switch cmd {
	case "check":
		formats = "plain, jsonl, html (the report and the source marked) or overlay (the page itself, its regions outlined)"
	case "text":
		formats = "plain, jsonl or wet (a WET file, as Common Crawl's)"
	}
	var flags []cli.Flag
	if cmd != "extract" { // extract writes JSON Lines only
		flags = append(flags, &cli.StringFlag{Name: "format", Value: "plain", Usage: "output `FORMAT`: " + formats})
	}
	flags = append(flags,
		&cli.StringFlag{Name: "agent", Usage: "the robot's `NAME`: agent-specific META and X-Robots-Tag rules and per-robot classes apply"},
		&cli.StringFlag{Name: "base", Usage: "the document's absolute `URL`, to resolve relative links"},
		&cli.BoolFlag{Name: "require-profile", Usage: "honour robots- classes only when <head profile> names the Robot Exclusion Profile"},
	)
	if cmd == "text" {
		flags = append(flags, &cli.BoolFlag{Name: "gzip", Usage: "with --format wet: each record a gzip member (a .warc.wet.gz file); with --output-dir: compress each output file"})
	}
	if cmd == "archive" {
		flags = append(flags, &cli.StringFlag{Name: "ellipsis", Value: "…", Usage: "what replaces no-archive content (`TEXT`)"})
	}
	flags = append(flags,
		&cli.StringSliceFlag{Name: "x-robots-tag", Usage: "an X-Robots-Tag header `VALUE` (repeatable)"},
		&cli.StringFlag{Name: "dialects", Value: "all", Usage: "in-page dialects honoured: all, or a comma-separated `LIST` of " + filter.DialectNames()},
		&cli.StringFlag{Name: "charset", Usage: "the input's charset `LABEL`, overriding detection (e.g. windows-1252)"},
		&cli.BoolFlag{Name: "xml", Usage: "read the input as XML"},
		&cli.BoolFlag{Name: "html", Usage: "read the input as HTML"},
		&cli.IntFlag{Name: "max-depth", Usage: "nesting limit in `LEVELS` (default 250000)"},
		&cli.IntFlag{Name: "max-token", Usage: "longest token in `BYTES` (default 16 MiB)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no warnings and no progress"},
		&cli.BoolFlag{Name: "http", Usage: "each input is an HTTP response as sent (curl -si saves one): its X-Robots-Tag, Content-Type and Content-Encoding (gzip, deflate, br, zstd) headers apply"},
		&cli.BoolFlag{Name: "warc", Usage: "each input is a WARC file, or an ARC file (gzipped or not): every response and resource record is a document, its links resolved against its WARC-Target-URI"},
		&cli.StringFlag{Name: "stdin-name", Usage: "the `NAME` (or URL) of the document on standard input, in messages and records; an absolute URL is also its base when --base is not given"},
	)
	if cmd != "check" && cmd != "extract" {
		flags = append(flags,
			&cli.StringFlag{Name: "entries", Usage: "XML feeds and sitemaps: process each element the `XPATH` selects (//entry, /rss/channel/item) as its own document, its escaped HTML through the HTML pipeline; one JSON Lines record per entry"},
			// The old name of --entries: its records keep their old type.
			&cli.StringFlag{Name: "records", Usage: "the old name of --entries (`XPATH`)", Hidden: true},
			&cli.BoolFlag{Name: "with-filename", Aliases: []string{"H"}, Usage: "start each output line with its document's name (the default with several files, or --warc)"},
			&cli.BoolFlag{Name: "no-filename", Aliases: []string{"I"}, Usage: "never start output lines with the document's name"},
		)
	}
	flags = append(flags,
		&cli.StringFlag{Name: "files-from", Usage: "read the inputs' paths from `LIST`, one a line (- for standard input; a .gz list is read whole, as Common Crawl's warc.paths.gz)"},
		&cli.StringFlag{Name: "input-base", Usage: "the `DIR` the relative paths of --files-from are under"},
		&cli.StringFlag{Name: "output-dir", Usage: "write each input's output to a file of its own under `DIR` (the input's path, its output's extension), complete or not at all"},
		&cli.BoolFlag{Name: "resume", Usage: "with --output-dir: skip the inputs whose output exists"},
	)
	if cmd != "text" {
		flags = append(flags, &cli.BoolFlag{Name: "gzip", Usage: "with --output-dir: compress each output file with gzip"})
	}
	flags = append(flags, &cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "process `N` documents at once, across files and a WARC file's records (default: one per CPU; 1: one at a time, as they stream); the output is the same"})
	flags = append(flags, aiprefDocumentFlags()...)
	return flags
}

// runConfig is what a document command needs from its flags.
type runConfig struct {
	// opts are the options of the document being processed: flagOpts,
	// with what its HTTP response's head says (--http).
	opts, flagOpts robofilter.Options
	kind           input.Kind // how each input holds its documents (--http, --warc)
	// doc is the document being processed, for its document record (nil
	// for a file that could not be opened).
	doc      *input.Document
	jsonl    bool
	page     bool // check --format html or overlay
	pageDocs int  // the documents on the page so far
	quiet    bool
	stdout   *bufio.Writer
	stderr   io.Writer
	// textWritten: a document's plain text went to stdout (textWriter).
	textWritten bool
	// names: plain output lines start with the document's name (NAME:),
	// as grep's do with several files; archive copies get a ==> NAME <==
	// line before them instead.
	names bool
	// archiveWritten: an archive copy went to stdout; archiveEndsLine: it
	// ended with a line end (for the ==> NAME <== lines).
	archiveWritten, archiveEndsLine bool
	// stdinName names the document on standard input (--stdin-name).
	stdinName string
	// entries is the --entries (or --records) XPath, entryType the JSON
	// type of an entry's record ("entry"; "record" under --records).
	entries, entryType string
	progress           *progress    // nil: none shown
	aipref             aiprefConfig // AI usage preferences (aipref.go)
	// jobs is how many documents are processed at once (--jobs; jobs.go).
	jobs int
	// wet is the WET output (text --format wet; wetout.go), nil for other
	// formats; wetGzip writes its records as gzip members (--gzip);
	// wetPending is what the documents processed so far gave it.
	wet        *wetOut
	wetGzip    bool
	wetPending wetPages
	// onePass is extract's outputs: its documents are one-pass objects
	// (crawl.Result), those that cannot be read too (unprocessed).
	onePass *crawl.Options
	// inputs are the files named, and those --files-from lists (outputs.go).
	inputs []string
	// outputs, with --output-dir, is where each input's output goes;
	// outFile is the output being written (beginOutput); inLane: the run
	// is one input's in a lane (lanes.go), whose output is renamed to its
	// name by the run's, in input order.
	outputs *outputs
	outFile *outFile
	inLane  bool
	// outBuf and errBuf hold a child's output (jobs.go); siteDecided says
	// the site files' decision was made as the sources were read.
	outBuf, errBuf *bytes.Buffer
	siteDecided    bool
}

func newRunConfig(c *cli.Context) (*runConfig, error) {
	rc := &runConfig{quiet: c.Bool("quiet"), stderr: c.App.ErrWriter}
	rc.entries, rc.entryType = c.String("entries"), "entry"
	if xp := c.String("records"); xp != "" {
		if rc.entries != "" {
			return nil, cli.Exit("--records is the old name of --entries: give one of them", exitUsage)
		}
		rc.entries, rc.entryType = xp, "record"
	}
	entriesFlag := "--entries"
	if rc.entryType == "record" {
		entriesFlag = "--records"
	}
	format := c.String("format")
	if rc.entries != "" {
		// An entry has fields (id, title, link) besides its output: its
		// records are JSON Lines, whatever the command.
		if c.IsSet("format") && format != "jsonl" {
			return nil, cli.Exit(fmt.Sprintf("%s writes JSON Lines only (an entry's id, title and link with its output), not --format %s: leave --format out, and pipe to jq -r .text (or .archive, .links[].url) for plain output", entriesFlag, format), exitUsage)
		}
		format = "jsonl"
	}
	if c.Command.Name == "extract" {
		// One object per document: JSON Lines whatever --format says.
		if c.IsSet("format") && format != "jsonl" {
			return nil, cli.Exit(fmt.Sprintf("extract writes JSON Lines only (one object per document), not --format %s", format), exitUsage)
		}
		format = "jsonl"
	}
	switch format {
	case "plain":
	case "jsonl":
		rc.jsonl = true
	case "wet":
		if c.Command.Name != "text" {
			return nil, cli.Exit("--format wet is for text only (a WET file holds pages' text)", exitUsage)
		}
		rc.wetGzip = c.Bool("gzip")
		rc.wet = &wetOut{gzip: rc.wetGzip}
	case "html", "overlay":
		if c.Command.Name != "check" {
			return nil, cli.Exit(fmt.Sprintf("--format %s is for check only (a page showing the regions)", c.String("format")), exitUsage)
		}
		rc.page = true
	default:
		switch c.Command.Name {
		case "check":
			return nil, cli.Exit(fmt.Sprintf("--format must be plain, jsonl, html or overlay, not %q", format), exitUsage)
		case "text":
			return nil, cli.Exit(fmt.Sprintf("--format must be plain, jsonl or wet, not %q", format), exitUsage)
		}
		return nil, cli.Exit(fmt.Sprintf("--format must be plain or jsonl, not %q", format), exitUsage)
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
	if c.IsSet("base") {
		if err := checkBase(o.Base); err != nil {
			return nil, cli.Exit("--base "+err.Error(), exitUsage)
		}
	}
	rc.stdinName = "-"
	if name := c.String("stdin-name"); c.IsSet("stdin-name") {
		if name == "" {
			return nil, cli.Exit("--stdin-name must not be empty", exitUsage)
		}
		rc.stdinName = name
		if checkBase(name) == nil && o.Base == "" {
			// The document's URL is its base: curl URL | robofilter
			// links --stdin-name URL resolves as --base URL would.
			o.Base = name
		}
	}
	if rc.entries != "" {
		if _, err := xpath.Compile(rc.entries); err != nil {
			return nil, cli.Exit(fmt.Sprintf("%s: %q is not an XPath: %v", entriesFlag, rc.entries, err), exitUsage)
		}
	}
	if o.MaxDepth < 0 || o.MaxTokenSize < 0 {
		return nil, cli.Exit("--max-depth and --max-token must not be negative", exitUsage)
	}
	if err := rc.aiprefOptions(c); err != nil {
		return nil, err
	}
	rc.flagOpts = rc.opts
	switch {
	case c.Bool("http") && c.Bool("warc"):
		return nil, cli.Exit("--http and --warc exclude each other (a WARC file's response records are HTTP responses already)", exitUsage)
	case c.Bool("http"):
		rc.kind = input.HTTP
	case c.Bool("warc"):
		rc.kind = input.WARC
	}
	switch {
	case c.Bool("with-filename") && c.Bool("no-filename"):
		return nil, cli.Exit("--with-filename and --no-filename exclude each other", exitUsage)
	case c.Bool("with-filename"):
		rc.names = true
	case c.Bool("no-filename"):
	default:
		// As grep and rg: names when the output mixes documents.
		rc.names = rc.kind == input.WARC
	}
	if err := rc.inputsAndOutputs(c, format); err != nil {
		return nil, err
	}
	if !c.Bool("with-filename") && !c.Bool("no-filename") && len(rc.inputs) > 1 && rc.outputs == nil {
		rc.names = true
	}
	rc.jobs = c.Int("jobs")
	switch {
	case rc.jobs < 0:
		return nil, cli.Exit("--jobs must not be negative", exitUsage)
	case rc.jobs == 0:
		rc.jobs = runtime.NumCPU()
	}
	rc.stdout = bufio.NewWriterSize(c.App.Writer, 64<<10)
	if rc.wet != nil {
		rc.wet.w = rc.stdout
	} else if c.Bool("gzip") && rc.outputs == nil {
		return nil, cli.Exit("--gzip is for --format wet and --output-dir (pipe standard output to gzip)", exitUsage)
	}
	if rc.outputs != nil {
		rc.stdout = bufio.NewWriter(io.Discard) // each input's output goes to its file
	}
	return rc, nil
}

// checkBase says why a --base (or --stdin-name taken for one) is no
// document URL: it must be absolute, with a scheme and, for a scheme that
// has hosts, a host. The error follows the flag's name.
func checkBase(base string) error {
	u, err := weburl.ResolveBase(nil, base)
	if err != nil {
		return fmt.Errorf("%q %w", quote.Clip(base, 80), err)
	}
	switch {
	case weburl.SchemeEnd(strings.TrimSpace(base)) < 0:
		hint := ""
		if !strings.ContainsAny(strings.TrimSpace(base), " \t") {
			hint = fmt.Sprintf(": write it with its scheme, as https://%s", strings.TrimLeft(strings.TrimSpace(base), "/"))
		}
		return fmt.Errorf("%q is not an absolute URL (it has no scheme)%s", quote.Clip(base, 80), hint)
	case u.Opaque != "" || u.Host == "" && u.Scheme != "file":
		return fmt.Errorf("%q is not a document's URL (it has no host)", quote.Clip(base, 80))
	}
	return nil
}

// inputsAndOutputs reads the inputs (the files named, those --files-from
// lists) and --output-dir's settings.
func (rc *runConfig) inputsAndOutputs(c *cli.Context, format string) error {
	rc.inputs = c.Args().Slice()
	if list := c.String("files-from"); list != "" {
		paths, err := readFileList(list, c.String("input-base"), c.App.Reader)
		if err != nil {
			return cli.Exit(fmt.Sprintf("--files-from %s: %v", list, err), exitFailure)
		}
		rc.inputs = append(rc.inputs, paths...)
	} else if c.String("input-base") != "" {
		return cli.Exit("--input-base is for the paths of --files-from", exitUsage)
	}
	if len(rc.inputs) == 0 {
		rc.inputs = []string{"-"}
	}
	dir := c.String("output-dir")
	switch {
	case dir == "":
		if c.Bool("resume") {
			return cli.Exit("--resume is for --output-dir", exitUsage)
		}
		return nil
	case rc.page:
		// A page of every document: one output (and check --format html
		// keeps the documents on one page).
		return cli.Exit("--output-dir does not take check --format html (one page of every document): write it to a file", exitUsage)
	case rc.entries != "":
		return cli.Exit("--output-dir does not take --entries yet", exitUsage)
	case slices.Contains(rc.inputs, "-"):
		return cli.Exit("--output-dir writes an output per input file: name the files (standard input has no name to give its output)", exitUsage)
	}
	rc.outputs = &outputs{dir: dir, ext: outputExt(c.Command.Name, format), gzip: c.Bool("gzip"), resume: c.Bool("resume"), names: map[string]string{}, created: map[string]bool{}}
	return nil
}
