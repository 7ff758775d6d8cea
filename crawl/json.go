package crawl

import (
	"encoding/json"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
)

// Object is a Result as the one-pass JSON Lines object (docs/formats.md):
// the document record's fields, and the outputs asked for.
type Object struct {
	Type            string                `json:"type"` // "document"
	File            string                `json:"file"` // the document's name: FILE, or FILE#N for a WARC record
	URI             string                `json:"uri,omitempty"`
	RecordID        string                `json:"record_id,omitempty"` // the WARC record's WARC-Record-ID
	Date            string                `json:"warc_date,omitempty"` // its WARC-Date
	HTTPStatus      int                   `json:"http_status,omitempty"`
	Truncated       string                `json:"warc_truncated,omitempty"`
	Format          string                `json:"format,omitempty"`
	Charset         string                `json:"charset,omitempty"`
	Directives      robofilter.Directives `json:"directives"`
	Text            *string               `json:"text,omitempty"`
	Links           []robofilter.Link     `json:"links,omitempty"`
	Regions         []Region              `json:"regions,omitempty"`
	Warnings        []robofilter.Warning  `json:"warnings,omitempty"`
	WarningsDropped int                   `json:"warnings_dropped,omitempty"`
	Error           string                `json:"error,omitempty"`
}

// Region is a region with the switches it turns off and on named.
type Region struct {
	robofilter.Region
	Off string `json:"off"`
	On  string `json:"on,omitempty"`
}

// Object makes the result's one-pass object. Text is present (perhaps
// empty) when the text output was asked for and the document was read.
func (r *Result) Object() Object {
	d := r.Document
	o := Object{Type: "document", File: d.Name, URI: d.URI, RecordID: d.RecordID, Date: d.Date,
		HTTPStatus: d.HTTPStatus, Truncated: d.Truncated, Links: r.Links}
	if r.withText && r.Result != nil {
		t := string(r.Text)
		o.Text = &t
	}
	for _, g := range r.Regions {
		off, on := g.Switches()
		o.Regions = append(o.Regions, Region{g, off, on})
	}
	// The reading's warnings first: they were found first, or are about
	// what holds the document; the document's past MaxWarnings were
	// counted, not kept.
	var kept filter.Result
	for _, w := range d.Warnings {
		kept.AddWarning(w)
	}
	if res := r.Result; res != nil {
		o.Format, o.Charset, o.Directives = res.Format, res.Charset, res.Directives
		for _, w := range res.Warnings {
			kept.AddWarning(w)
		}
		kept.WarningsDropped += res.WarningsDropped
	}
	o.Warnings, o.WarningsDropped = kept.Warnings, kept.WarningsDropped
	if r.Err != nil {
		o.Error = r.Err.Error()
	}
	return o
}

// MarshalJSON writes the one-pass object.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.Object()) }
