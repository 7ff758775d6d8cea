package robofilter

import (
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/robofilter/robofilter/input/httpresp"
)

// FromResponse prepares a document served over HTTP for Process: it
// returns the body to read, decoded from the response's Content-Encoding
// (gzip, x-gzip, deflate, br, zstd and identity, in the order they were
// applied),
// and opts with what the response's head says of the document:
//   - every X-Robots-Tag header line appended to opts.XRobotsTag (a server
//     may send several; each may hold several directives);
//   - every Content-Usage, tdm-reservation and tdm-policy header line
//     appended to opts.ContentUsage, TDMReservation and TDMPolicy (AI usage
//     preferences, docs/aipref.md);
//   - its Content-Type as opts.ContentType, for the charset it names (a
//     byte order mark outranks it, and opts.Charset outranks both);
//   - where opts.Format is Auto, the format its media type names: HTML for
//     text/html, XML for text/xml, application/xml and the +xml types
//     (XHTML, Atom, RSS, SVG …); other types are left to Sniff.
//
// An encoding robofilter cannot decode (compress, …) is an error: its
// bytes are no document; so are more than maxContentCodings codings (curl
// refuses them too: each layer costs a decoder's memory). An empty body
// is an empty document whatever its coding, as browsers show it. A coded
// body that is cut short or corrupt fails the read with a *CodingError,
// which says where. The
// status is the caller's to judge (a crawler indexes few pages that came
// with a 404); FromResponse reads at most the first bytes of the body (a
// coding's header), and the caller still closes it.
func FromResponse(resp *http.Response, opts Options) (io.Reader, Options, error) {
	if values := resp.Header.Values("X-Robots-Tag"); len(values) > 0 {
		// A copy: opts.XRobotsTag may be the caller's, shared by documents.
		opts.XRobotsTag = append(append([]string(nil), opts.XRobotsTag...), values...)
	}
	for _, h := range []struct {
		name string
		to   *[]string
	}{{"Content-Usage", &opts.ContentUsage}, {"Tdm-Reservation", &opts.TDMReservation}, {"Tdm-Policy", &opts.TDMPolicy}} {
		if values := resp.Header.Values(h.name); len(values) > 0 {
			*h.to = append(append([]string(nil), *h.to...), values...)
		}
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		opts.ContentType = ct
		if opts.Format == Auto {
			opts.Format = MediaTypeFormat(ct)
		}
	}
	body, err := httpresp.Decode(resp.Body, resp.Header.Values("Content-Encoding"))
	return body, opts, err
}

// ProcessResponse is Process over a document served over HTTP
// (FromResponse). It does not close resp.Body.
func ProcessResponse(resp *http.Response, opts Options, out Outputs) (*Result, error) {
	body, opts, err := FromResponse(resp, opts)
	if err != nil {
		return nil, err
	}
	return Process(body, opts, out)
}

// MediaTypeFormat is the format a Content-Type names: HTML for text/html,
// XML for text/xml, application/xml and the +xml types, Auto for others
// (no page, or one to sniff).
func MediaTypeFormat(ct string) Format {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		// A broken parameter list still leaves a media type before it.
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	switch {
	case mt == "text/html":
		return HTML
	case mt == "text/xml" || mt == "application/xml" || strings.HasSuffix(mt, "+xml"):
		return XML
	}
	return Auto
}
