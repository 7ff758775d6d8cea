package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/antchfx/xpath"
	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input"
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
}

func newRunConfig(c *cli.Context) (*runConfig, error) {
	rc := &runConfig{quiet: c.Bool("quiet"), stderr: c.App.ErrWriter}
	switch c.String("format") {
	case "plain":
	case "jsonl":
		rc.jsonl = true
	case "html", "overlay":
		if c.Command.Name != "check" {
			return nil, cli.Exit(fmt.Sprintf("--format %s is for check only (a page showing the regions)", c.String("format")), exitUsage)
		}
		rc.page = true
	default:
		return nil, cli.Exit(fmt.Sprintf("--format must be plain or jsonl (or html or overlay for check), not %q", c.String("format")), exitUsage)
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
	rc.flagOpts = rc.opts
	switch {
	case c.Bool("http") && c.Bool("warc"):
		return nil, cli.Exit("--http and --warc exclude each other (a WARC file's response records are HTTP responses already)", exitUsage)
	case c.Bool("http"):
		rc.kind = input.HTTP
	case c.Bool("warc"):
		rc.kind = input.WARC
	}
	rc.stdout = bufio.NewWriterSize(c.App.Writer, 64<<10)
	return rc, nil
}
