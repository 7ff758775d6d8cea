package robofilter

import (
	"io"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/xmlstream"
)

// The XML pipeline: Process hands XML input (sniffed, or asked for) to
// xmlstream, with the limits and charset of the run.
func init() {
	xmlRunner = func(r io.Reader, core *filter.Core, opts Options) error {
		return xmlstream.Run(r, core, xmlstream.Options{
			MaxDepth:     opts.MaxDepth,
			MaxTokenSize: opts.MaxTokenSize,
			Charset:      opts.Charset,
		})
	}
}
