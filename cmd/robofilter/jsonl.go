package main

import (
	"encoding/json"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
)

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

// Records of the JSON Lines format (documented in docs/formats.md).
type lineRecord struct {
	Type   string `json:"type"` // "line"
	File   string `json:"file"`
	Phrase int    `json:"phrase"`
	// Number is the line's number in the output, from 1. Line is the
	// same number under its old name, kept for the scripts written for it
	// (in every other record "line" is a line of the input): it will go.
	Number int    `json:"number"`
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
		Directives: res.Directives, Warnings: res.Warnings, WarningsDropped: res.WarningsDropped}
	var httpWarnings []filter.Warning
	if rc.doc != nil {
		d.HTTPStatus, d.URI, d.Truncated, httpWarnings = rc.doc.HTTPStatus, rc.doc.URI, rc.doc.Truncated, rc.doc.Warnings
	}
	if len(httpWarnings) > 0 {
		// The HTTP response's warnings first: they were found first, or
		// are about what holds the document. The document's past
		// filter.MaxWarnings were counted, not kept.
		var kept filter.Result
		for _, w := range httpWarnings {
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
	inDocumentOrder(d.Warnings)
	if werr := rc.record(d); werr != nil {
		return werr
	}
	return err
}

func regionOf(name string, r filter.Region) regionRecord {
	off, on := r.Switches()
	return regionRecord{Type: "region", File: name, Region: r, Off: off, On: on}
}

// warcWarningRecord is the JSON Lines record of a WARC file's warning.
type warcWarningRecord struct {
	Type     string `json:"type"` // "warc_warning"
	File     string `json:"file"`
	Offset   int64  `json:"offset"`                // the file's bytes before it, or before its gzip member
	Gzip     bool   `json:"gzip_member,omitempty"` // in a gzip member
	InMember int64  `json:"in_member,omitempty"`   // the member's decompressed bytes before it
	Zstd     bool   `json:"zstd,omitempty"`        // a .warc.zst file: offset counts its decompressed bytes
	Skipped  int64  `json:"skipped,omitempty"`     // bytes skipped, counted as the offset counts
	Message  string `json:"message"`
}
