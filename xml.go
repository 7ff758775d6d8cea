package robofilter

import (
	"io"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// The XML pipeline: Process hands XML input (sniffed, or asked for) to
// xmlstream, with the limits and charset of the run.
func init() {
	xmlKnowsCharset = xmlstream.KnownCharset
	xmlRunner = func(r io.Reader, core *filter.Core, opts Options) error {
		return xmlstream.Run(r, core, xmlstream.Options{
			MaxDepth:     opts.MaxDepth,
			MaxTokenSize: opts.MaxTokenSize,
			Charset:      xmlCharset(opts),
		})
	}
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
