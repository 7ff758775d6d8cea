package main

import (
	"io"
	"unicode/utf8"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/urfave/cli/v2"
)

func archiveCommand() *cli.Command {
	return &cli.Command{
		Name:      "archive",
		Usage:     "print the archive-safe copy: the input bytes with no-archive content replaced by an ellipsis",
		ArgsUsage: "[FILE...]",
		Description: `Prints each document's bytes unchanged, except that the content of every
no-archive region (robots-noarchive, data-nosnippet, googleoff: snippet) is
replaced by one ellipsis, and a no-archive void element (an <img>) by the
ellipsis. Start and end tags of the region stay. A document with no such
region comes out byte for byte identical. A document that says noarchive,
nocache or nosnippet gives no copy at all, and a warning.

With --text, prints the text form of the copy instead (the indexable text
with an ellipsis where no-archive content was), for snippet makers.

With several files (or --warc), each copy comes after a line
"==> NAME <==", as head and tail set files apart; text lines start with
NAME: (--no-filename: neither).

Examples:
   robofilter archive page.html > cached.html
   robofilter archive --ellipsis '[…]' --text page.html
   robofilter archive --format jsonl page.html   (the copy in "archive" records)`,
		Flags: append(documentFlags("archive"),
			&cli.BoolFlag{Name: "text", Usage: "print the text form of the archive copy"}),
		Action: runArchive,
	}
}

// archiveChunk is the JSON Lines record of a piece of the archive copy.
type archiveChunk struct {
	Type string `json:"type"` // "archive"
	File string `json:"file"`
	Data string `json:"data,omitempty"`
	// DataBase64 carries a piece that is not valid UTF-8 (a legacy charset).
	DataBase64 []byte `json:"data_base64,omitempty"`
}

// jsonlArchive turns the archive stream into records of archivePiece
// bytes each: a piece that would end inside a UTF-8 character ends before
// it, so that a UTF-8 document's copy is all "data" records (text), never
// base64 for want of a byte. flush writes the rest at the end of the
// document.
type jsonlArchive struct {
	rc   *runConfig
	name string
	buf  []byte // the copy's bytes not yet in a record
}

func (j *jsonlArchive) Write(p []byte) (int, error) {
	n := len(p)
	j.buf = append(j.buf, p...)
	for len(j.buf) >= archivePiece {
		// A piece is archivePiece bytes, less the start of a character
		// that does not end in it: where the pieces fall depends on the
		// copy alone, not on how its writes came (the reads of the input,
		// --jobs).
		k := archivePiece - cutCharacter(j.buf[:archivePiece])
		if err := j.record(j.buf[:k]); err != nil {
			return n, err
		}
		j.buf = j.buf[:copy(j.buf, j.buf[k:])]
	}
	return n, nil
}

// maxHeldRegions bounds the region records archive --format jsonl holds
// until a document's copy is written (as check bounds what it lists).
const maxHeldRegions = maxReported

// archivePiece is the size of an archive record's piece of the copy (the
// last one of a document may be shorter).
const archivePiece = 32 << 10

func (j *jsonlArchive) flush() error {
	if len(j.buf) == 0 {
		return nil
	}
	p := j.buf
	j.buf = nil
	return j.record(p)
}

func (j *jsonlArchive) record(p []byte) error {
	rec := archiveChunk{Type: "archive", File: j.name}
	if utf8.Valid(p) {
		rec.Data = string(p)
	} else {
		rec.DataBase64 = p
	}
	return j.rc.record(rec)
}

// cutCharacter returns how many bytes at the end of p are the start of a
// UTF-8 character that does not end in p (0 when none).
func cutCharacter(p []byte) int {
	for k := 1; k <= min(len(p), utf8.UTFMax-1); k++ {
		c := p[len(p)-k]
		if c < utf8.RuneSelf {
			return 0 // ASCII: nothing is cut
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(p[len(p)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

func runArchive(c *cli.Context) error {
	rc, err := newRunConfig(c)
	if err != nil {
		return err
	}
	if rc.entries != "" {
		return rc.runFeed(c, "archive")
	}
	asText := c.Bool("text")
	return rc.forEachFile(c, func(rc *runConfig, name string, r io.Reader, warn func(filter.Warning)) (*robofilter.Result, error) {
		out := robofilter.Outputs{Warning: warn}
		var records *jsonlArchive
		switch {
		case asText && rc.jsonl:
			out.ArchiveText = rc.lineRecords(name)
		case asText:
			out.ArchiveText = rc.textWriter(name)
		case rc.jsonl:
			records = &jsonlArchive{rc: rc, name: name}
			out.Archive = records
		case rc.names:
			out.Archive = &archiveCopy{rc: rc, name: name}
		default:
			out.Archive = rc.stdout
		}
		// The copy's records come first, then the regions': where a region
		// record would fall among the copy's pieces depends on how the
		// input was read (--jobs reads a document whole), so the regions
		// are held to the document's end, the first maxHeldRegions of them
		// (past that, written as they come).
		var held []filter.Region
		if rc.jsonl {
			out.Region = func(r filter.Region) error {
				if records == nil || len(held) == maxHeldRegions {
					return rc.record(regionOf(name, r))
				}
				held = append(held, r)
				return nil
			}
		}
		res, err := robofilter.Process(r, rc.opts, out)
		if records != nil {
			if ferr := records.flush(); err == nil {
				err = ferr
			}
		}
		for _, r := range held {
			if werr := rc.record(regionOf(name, r)); err == nil {
				err = werr
			}
		}
		return res, rc.writeDocument(name, res, err)
	})
}

// archiveCopy writes one document's copy to stdout after a ==> NAME <==
// line, as head and tail set files apart (with several files, or
// --warc). The line comes with the copy's first byte (a document with no
// copy has none), on a line of its own, after an empty line when another
// copy came before.
type archiveCopy struct {
	rc      *runConfig
	name    string
	started bool
}

func (a *archiveCopy) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	rc := a.rc
	if !a.started {
		a.started = true
		head := ""
		if rc.archiveWritten {
			if !rc.archiveEndsLine {
				head = "\n"
			}
			head += "\n"
		}
		if _, err := rc.stdout.WriteString(head + "==> " + a.name + " <==\n"); err != nil {
			return 0, err
		}
	}
	rc.archiveWritten, rc.archiveEndsLine = true, p[len(p)-1] == '\n'
	return rc.stdout.Write(p)
}
