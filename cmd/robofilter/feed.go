package main

import (
	"io"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/filter"
	"github.com/urfave/cli/v2"
)

// entryRecord is the JSON Lines record of one feed entry (--entries).
type entryRecord struct {
	Type     string           `json:"type"` // "entry" ("record" under --records, its old name)
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

// runFeed processes a feed entry by entry; output says which output of
// each entry's Document the command prints. Entries mode writes JSON
// Lines (--format plain is a usage error): each file's records end with its document
// record, as in the JSON Lines format (the feed's directives, and its
// error when it failed: a pipeline reading only stdout can tell a feed cut
// short). Its warnings are the records'.
func (rc *runConfig) runFeed(c *cli.Context, output string) error {
	xpath, all := rc.entries, c.Bool("all")
	rc.jsonl = true // an unreadable file has its document record too
	return rc.forEachFile(c, func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		res, err := feed.Process(r, xpath, rc.opts, func(rec feed.Entry) error {
			out := entryRecord{Type: rc.entryType, File: name, Index: rec.Index, ID: rec.ID, Title: rec.Title, Link: rec.Link}
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
		if res != nil && res.Format == "" {
			// No text (a gzip file): no entry to hold the warning that
			// says so; the document's record and stderr have it.
			if warn != nil {
				for _, w := range res.Warnings {
					warn(w)
				}
			}
			return res, rc.writeDocument(name, res, err)
		}
		// nil: warnings.done has nothing to add, the records held them.
		return nil, rc.writeDocument(name, res, err)
	})
}
