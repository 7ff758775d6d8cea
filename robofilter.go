// Package robofilter reads an HTML or XML document once, as a stream, and
// produces what a web indexing pipeline needs, honouring every way authors
// tell robots what to skip: the indexable text (with phrase breaks where
// excluded regions were), an archive-safe copy (with ellipses where
// no-archive regions were) and the followable links.
//
// Process feeds any subset of the outputs from one pass over an io.Reader;
// Filter is the convenience that collects all of them in memory. The
// behaviour contract is SPEC.md in the project's shared documents; the
// docs/behaviour.md says where the project chose for itself.
package robofilter

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime"

	"github.com/robofilter/robofilter/aipref"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/htmlstream"
	"github.com/robofilter/robofilter/phrase"
	"github.com/robofilter/robofilter/robotstxt"
	"github.com/robofilter/robofilter/weburl"
	"github.com/robofilter/robofilter/xmlstream"
	htmlcharset "golang.org/x/net/html/charset"
)

// Format is the input format.
type Format int

const (
	Auto Format = iota // XML by its declaration or its root element (Sniff), else HTML
	HTML               // read as HTML, whatever it starts with
	XML                // read as XML, whatever it starts with
)

// Options configure a run: which robot reads the document and how, and
// what is known of the input. The zero value reads any document as a
// generic robot would, with every dialect honoured.
type Options struct {
	// Agent is the robot's name (--agent): META tags named for it
	// (googlebot), "botname:" X-Robots-Tag rules and robotN- classes whose
	// RobotExclusion.RobotNameN it contains apply too.
	Agent string
	// Base is the document's URL, for resolving relative links ("": links
	// are resolved against the document's own base only).
	Base string
	// XRobotsTag holds X-Robots-Tag header values (a server may send
	// several; each may hold several directives).
	XRobotsTag []string
	// Dialects are the in-page dialects honoured (0: AllDialects).
	Dialects Dialects
	// RequireProfile honours the Robot Exclusion Profile's classes only
	// when <head profile> names the profile.
	RequireProfile bool
	// Ellipsis replaces no-archive content in the archive copy ("": "…").
	Ellipsis string

	Format      Format
	Charset     string // overrides charset detection
	ContentType string // an HTTP Content-Type header, for its charset (HTML and XML; Charset outranks it)
	// MaxDepth and MaxTokenSize are the limits (0: the defaults, 250,000
	// levels and 16 MiB).
	MaxDepth     int
	MaxTokenSize int

	// Purpose is the use the caller has in mind, a label of the AI
	// Preferences vocabulary (draft-ietf-aipref-vocab-08): "train-ai",
	// "ai-use", "search", or "all" (aipref.ParsePurpose). When the
	// document's stated preferences disallow it, the Text and ArchiveText
	// outputs carry nothing (links and the archive copy are as they
	// were) and Result.Directives.AI.Purpose says why. "": no purpose,
	// nothing withheld. docs/aipref.md says how the statements combine.
	Purpose string
	// ContentUsage, TDMReservation and TDMPolicy hold the values of the
	// Content-Usage (draft-ietf-aipref-attach-05), tdm-reservation and
	// tdm-policy (TDMRep) header fields of the document's HTTP response
	// (FromResponse fills them).
	ContentUsage   []string
	TDMReservation []string
	TDMPolicy      []string
	// RobotsTxt and TDMRep are the site's robots.txt and
	// /.well-known/tdmrep.json: their Content-Usage and Content-Signal
	// lines for Agent, and their rule, that match Base apply to the
	// document. They need Base: without it they are not applied, with a
	// warning.
	RobotsTxt *robotstxt.Robots
	TDMRep    *aipref.TDMRepFile
}

// CoreOptions are the options of the format-neutral core (filter.Core)
// for a run with o: what a driver of its own passes to filter.NewCore.
// Options.Purpose must be a label aipref.ParsePurpose reads (Process
// checks it; here an unknown one is no purpose), and the site's
// statements are those of RobotsTxt and TDMRep that apply to Base
// (SiteStatements).
func (o Options) CoreOptions() filter.Options {
	purpose, _, _ := aipref.ParsePurpose(o.Purpose)
	return filter.Options{Agent: o.Agent, RequireProfile: o.RequireProfile, Ellipsis: o.Ellipsis,
		XRobotsTag: o.XRobotsTag, Dialects: o.Dialects, Base: o.Base,
		ContentUsage: o.ContentUsage, TDMReservation: o.TDMReservation, TDMPolicy: o.TDMPolicy,
		SiteStatements: o.SiteStatements(), Purpose: purpose}
}

// SiteStatements are the statements of preference of the site's files
// (RobotsTxt, TDMRep) that apply to the document at Base, for Agent: the
// deciding Content-Usage and Content-Signal lines, and the first
// tdmrep.json rule whose location matches. None without Base. Base is
// matched as the URL standard spells it ("/a/../b" is "/b"), as links
// are resolved against it.
func (o Options) SiteStatements() []aipref.Statement {
	if o.Base == "" || o.RobotsTxt == nil && o.TDMRep == nil {
		return nil
	}
	base := o.Base
	if u, err := weburl.ParseBase(base); err == nil {
		base = u.String()
	}
	var sts []aipref.Statement
	if o.RobotsTxt != nil {
		sts = append(sts, o.RobotsTxt.ForAgent(o.Agent).Usage(base).Statements()...)
	}
	if rule, ok := o.TDMRep.Match(base); ok {
		sts = append(sts, rule.Statement())
	}
	return sts
}

// The types of the outputs and results, from the packages that make them,
// so that one import serves the common case.
type (
	// Outputs say where each result goes; nil fields are not produced.
	Outputs = filter.Outputs
	// Result is what a run found besides its outputs: directives and
	// warnings.
	Result = filter.Result
	// Link is a hyperlink, followed or not, with its anchor text and why.
	Link = filter.Link
	// Region is a place where the author turned robots switches off (or
	// back on).
	Region = filter.Region
	// Warning is something in the document a user should hear of, with
	// its position.
	Warning = filter.Warning
	// Directives are the document-level robots rules in force.
	Directives = filter.Directives
	// PosError is an error at a place in the document (XML that is not
	// well-formed, a limit exceeded).
	PosError = filter.PosError
	// Dialects is a set of in-page dialects (Options.Dialects).
	Dialects = filter.Dialects
	// TextWriter writes the plain text format (Outputs.Text and
	// ArchiveText): lines, and an empty line at each phrase break.
	TextWriter = phrase.Writer
)

// The in-page dialects (SPEC section 4), for Options.Dialects.
const (
	DialectProfile   = filter.DialectProfile   // the Robot Exclusion Profile's classes
	DialectNoContent = filter.DialectNoContent // Yahoo's robots-nocontent
	DialectYandex    = filter.DialectYandex    // <noindex> and <!--noindex-->
	DialectGoogleOff = filter.DialectGoogleOff // googleoff/googleon comments
	DialectNoSnippet = filter.DialectNoSnippet // data-nosnippet
	DialectRel       = filter.DialectRel       // rel=nofollow, ugc, sponsored
	AllDialects      = filter.AllDialects      // every dialect (what 0 means)
)

// NewTextWriter returns a writer of the plain text format to w, for
// Outputs.Text or ArchiveText; Process flushes it at the end.
func NewTextWriter(w io.Writer) *TextWriter { return phrase.NewWriter(w) }

// Process reads the document from r once and feeds every output in out.
// The error is non-nil for unreadable input, exceeded limits and XML that
// is not well-formed; everything before the failure has been written, and
// the Result is returned in every case where the run started. An output
// that fails (a Write or a callback that returns an error) does not stop
// the pass: the input is read to its end and the first such error is
// returned. At the end Process flushes the phrase writers of out.Text,
// out.ArchiveText and out.ExcludedText (a second Flush does nothing).
// out.Source is written for HTML documents only: an XML document gives
// it nothing (not even its charset).
//
// A document that is no text (an image, an archive, an executable: see
// NotText) is not read: nothing is written, Result.Format is empty and
// Result.Warnings says what it is.
func Process(r io.Reader, opts Options, out Outputs) (*Result, error) {
	if opts.Format != Auto && opts.Format != HTML && opts.Format != XML {
		return nil, fmt.Errorf("unknown format %d in Options.Format", opts.Format)
	}
	if _, _, err := aipref.ParsePurpose(opts.Purpose); err != nil {
		return nil, fmt.Errorf("Options.Purpose: %v", err)
	}
	br := bufio.NewReaderSize(r, SniffLimit) // enough for Sniff; longer reads pass through
	format := opts.Format
	if format == Auto {
		format = Sniff(br)
	}
	if format == XML && out.Source != nil {
		// The XML stage holds and drops bytes of the copy in ways the
		// HTML stage does not (entity expansions, held tags): it writes
		// no source.
		if out.Archive != nil {
			return nil, fmt.Errorf("Outputs.Archive and Outputs.Source exclude each other")
		}
		out.Source = nil
	}
	core, err := filter.NewCore(opts.CoreOptions(), out)
	if err != nil {
		return nil, err
	}
	if opts.Base == "" && (opts.RobotsTxt != nil || opts.TDMRep != nil) {
		core.Warn(filter.Pos{}, "the document has no URL (no base): the preferences of robots.txt and tdmrep.json, which apply by path, are not applied to it")
	}
	charset := opts.Charset
	if charset == "" {
		charset = opts.ContentType
	}
	if head, _ := br.Peek(notTextPeek); len(head) > 0 {
		if what := NotText(head, charset); what != "" {
			// Decoded as text, an image or an archive would give pages of
			// control characters: nothing is written, and the warning says
			// why (Result.Format stays empty).
			core.Warn(filter.Pos{Line: 1, Col: 1}, "not a text document (%s): nothing written", what)
			return core.Finish()
		}
	}
	if label := contentTypeCharset(opts); label != "" && !knownCharset(format, label) {
		// A header from outside the document: its warning is at 0:0.
		core.Warn(filter.Pos{}, "the Content-Type's charset %q is not known: ignored", label)
		opts.ContentType = ""
	}
	switch format {
	case XML:
		err = xmlstream.Run(br, core, xmlstream.Options{
			MaxDepth: opts.MaxDepth, MaxTokenSize: opts.MaxTokenSize,
			Charset: xmlCharset(opts),
		})
	default:
		err = htmlstream.Run(br, core, htmlstream.Options{
			MaxDepth: opts.MaxDepth, MaxTokenSize: opts.MaxTokenSize,
			Charset: opts.Charset, ContentType: opts.ContentType,
		})
	}
	res, ferr := core.Finish()
	if err == nil {
		err = ferr
	}
	return res, err
}

// contentTypeCharset is the charset the run's Content-Type names, where
// no Charset outranks it.
func contentTypeCharset(opts Options) string {
	if opts.Charset != "" || opts.ContentType == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(opts.ContentType); err == nil {
		return params["charset"]
	}
	return ""
}

// xmlCharset is the charset a run names for XML: Charset, else the
// Content-Type's charset parameter, which outranks the XML declaration
// (RFC 7303 section 8.3), as Charset does.
func xmlCharset(opts Options) string {
	if opts.Charset != "" {
		return opts.Charset
	}
	return contentTypeCharset(opts)
}

// knownCharset reports whether the pipeline of a format reads a charset.
func knownCharset(format Format, label string) bool {
	if format == XML {
		return xmlstream.KnownCharset(label)
	}
	e, _ := htmlcharset.Lookup(label)
	return e != nil
}

// Document is every output of one run, in memory.
type Document struct {
	Text        string // indexable text, plain format
	ArchiveText string // text of the archive copy, with ellipses
	Archive     []byte // archive-safe copy
	Links       []Link // every link, followed or not
	Regions     []Region
	Result      *Result
}

// Filter runs all outputs over r in one pass and returns them. For large
// inputs, prefer Process with writers: Filter holds every output in memory.
func Filter(r io.Reader, opts Options) (*Document, error) {
	var text, snip, archive bytes.Buffer
	doc := &Document{}
	out := Outputs{
		Text:        phrase.NewWriter(&text),
		ArchiveText: phrase.NewWriter(&snip),
		Archive:     &archive,
		Link:        func(l Link) error { doc.Links = append(doc.Links, l); return nil },
		Region:      func(r Region) error { doc.Regions = append(doc.Regions, r); return nil },
	}
	res, err := Process(r, opts, out)
	doc.Text, doc.ArchiveText, doc.Archive, doc.Result = text.String(), snip.String(), archive.Bytes(), res
	return doc, err
}
