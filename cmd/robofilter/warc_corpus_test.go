package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robofilter/robofilter/input/warc"
	"github.com/robofilter/robofilter/internal/warcio"
)

// The outside WARC files (the shared corpus's warc/: the test files of
// warcio, warcio.js, pywb, gowarc and resiliparse, several malformed on
// purpose) against an independent reader, the npm package warcio (the
// version .ci/run installs): the same records, in the same order, at the
// same offsets, or a difference this table explains; and each response
// record's text, read from the WARC file, is the text of its block alone
// (warcio's block) read as an HTTP response.

// warcioDifference is a file that robofilter and warcio read differently,
// and why: the numbers of records (warcio -1: warcio does not finish), or
// the blocks of response records (blocks says why, when they differ).
type warcioDifference struct {
	robofilter, warcio int
	reason             string
	blocks             string
}

// warcioDifferences is every file of the corpus that robofilter and warcio
// read differently (docs/inputs.md gives the same reasons).
// Where the blocks differ, the text check reads robofilter's block alone.
var warcioDifferences = map[string]warcioDifference{
	"warcio/example-wrong-chunks.warc.gz": {robofilter: 2, warcio: 1, reason: "the response record spans three gzip " +
		"members and the request record starts inside the third: warcio.js takes a member's end for a record's end " +
		"and loses the request; robofilter reads the decompressed members as one stream"},
	"resiliparse/clipped.warc.gz": {robofilter: 1, warcio: 1, blocks: "the file ends inside its only gzip member, " +
		"in the 88,275-byte block of its record: robofilter decompresses 75,206 bytes of it before the cut, " +
		"warcio.js (pako) 65,086; robofilter reports the file cut short (`warcio index` does not finish on it)"},
	"pywb/missing-status-text.warc": {robofilter: 1, warcio: 1, blocks: "its WARC header lines end in CR CR LF: " +
		"warcio.js finds no CRLF CRLF to end the header, so its record has no Content-Length and an empty block; " +
		"robofilter takes the CR CR LF line for the header's end (with a warning) and reads the 107-byte block"},
}

// warcioBudget is how long warcio may take over a file.
const warcioBudget = 60 * time.Second

func TestWARCCorpusAgainstWarcio(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "warc")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipping: the shared corpus is not at %s (it lives beside the checkout): %v", dir, err)
	}
	oracle := warcio.Find(t)
	var files []string
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Name() != "README.md" {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no files in %s", dir)
	}
	var warcFiles []string
	for _, f := range files {
		if !isARC(f) { // the npm warcio does not read ARC
			warcFiles = append(warcFiles, f)
		}
	}
	theirs := readWithWarcio(t, oracle, dir, warcFiles)
	var table strings.Builder
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			path := filepath.Join(dir, filepath.FromSlash(f))
			ours := readWARCRecords(t, path)
			if isARC(f) {
				fmt.Fprintf(&table, "%s\t%d\tARC\n", f, len(ours.records))
				checkARC(t, f, path, ours)
				return
			}
			their := theirs[f]
			theirCount := len(their.Records)
			if their.End == "timeout" {
				theirCount = -1
			} else if their.End != "done" {
				t.Fatalf("warcio: %s", their.End)
			}
			fmt.Fprintf(&table, "%s\t%d\t%d\n", f, len(ours.records), theirCount)
			diff, explained := warcioDifferences[f]
			switch {
			case explained && (len(ours.records) != diff.robofilter || theirCount != diff.warcio):
				t.Errorf("robofilter reads %d records, warcio %d; the table says %d and %d (%s)", len(ours.records), theirCount, diff.robofilter, diff.warcio, diff.reason)
			case !explained && len(ours.records) != theirCount:
				t.Errorf("robofilter reads %d records, warcio %d, and the table does not say why (warnings %q, end %v)", len(ours.records), theirCount, ours.warnings, ours.err)
			}
			pairs := pairRecords(t, ours.records, their.Records)
			differ := 0
			for _, p := range pairs {
				if p.theirs.Type == "response" && base64.StdEncoding.EncodeToString(p.ours.block) != p.theirs.Block {
					differ++
				}
			}
			switch {
			case diff.blocks == "" && differ > 0:
				t.Errorf("%d response blocks differ from warcio's, and the table does not say why", differ)
			case diff.blocks != "" && differ == 0:
				t.Errorf("the blocks are warcio's, yet the table says they differ: %s", diff.blocks)
			}
			compareTexts(t, path, pairs, diff.blocks != "")
		})
	}
	t.Logf("records read (file, robofilter, warcio):\n%s", table.String())
}

// isARC tells an ARC file (the format before WARC) by its name.
func isARC(name string) bool { return strings.Contains(name, ".arc") }

// arcRecords is what robofilter reads of each ARC file of the corpus, as
// record types (an ARC record read as the WARC record it would be). The
// npm warcio does not read ARC; the counts are those of the Python
// warcio's own tests of these files (test_archiveiterator.py: example.arc
// and example.arc.gz two records, bad.arc four), the types its arc2warc
// gives but for a record with no HTTP response in its block, which
// robofilter reads as a resource record of the ARC line's content type
// where warcio says response.
var arcRecords = map[string][]string{
	"pywb/bad.arc":                    {"warcinfo", "resource", "resource", "resource"},
	"pywb/example.arc":                {"warcinfo", "response"},
	"pywb/example.arc.gz":             {"warcinfo", "response"},
	"warcio/bad.arc":                  {"warcinfo", "resource", "resource", "resource"},
	"warcio/example.arc":              {"warcinfo", "response"},
	"warcio/example.arc.gz":           {"warcinfo", "response"},
	"warcio/example-space-in-url.arc": {"warcinfo", "response"},
}

// checkARC checks an ARC file's records against arcRecords, and the text
// of each response record against its block read as an HTTP response.
func checkARC(t *testing.T, name, path string, ours warcFileRead) {
	t.Helper()
	want, ok := arcRecords[name]
	if !ok {
		t.Fatalf("an ARC file arcRecords does not list: robofilter reads %d records (warnings %q, end %v)", len(ours.records), ours.warnings, ours.err)
	}
	var got []string
	var pairs []recordPair
	for _, r := range ours.records {
		got = append(got, r.typ)
		pairs = append(pairs, recordPair{r, warcio.Record{Type: r.typ, URI: r.uri}})
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("robofilter reads %v, the table says %v (warnings %q, end %v)", got, want, ours.warnings, ours.err)
	}
	compareTexts(t, path, pairs, true)
}

// warcRecordRead is a record robofilter's reader reads.
type warcRecordRead struct {
	n        int // its number in the file, from 1 (FILE#N)
	typ, uri string
	at       warc.Position
	block    []byte // a response record's, as far as it could be read
}

type warcFileRead struct {
	records  []warcRecordRead
	warnings []string
	err      error
}

func readWARCRecords(t *testing.T, path string) warcFileRead {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var res warcFileRead
	wr, err := warc.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	wr.Warn = func(w warc.Warning) { res.warnings = append(res.warnings, w.String()) }
	for n := 1; ; n++ {
		rec, err := wr.Next()
		if err != nil {
			if err != io.EOF {
				res.err = err
			}
			return res
		}
		r := warcRecordRead{n: n, typ: rec.Type(), uri: rec.TargetURI(), at: rec.Position}
		if r.typ == "response" {
			r.block, _ = io.ReadAll(rec.Block)
		}
		res.records = append(res.records, r)
	}
}

type recordPair struct {
	ours   warcRecordRead
	theirs warcio.Record
}

// pairRecords matches warcio's records with robofilter's, in order, by
// type and target URI (robofilter may read more, as the table says), and
// checks the offsets where both mean the same: a record that starts the
// file's bytes or a gzip member of its own.
func pairRecords(t *testing.T, ours []warcRecordRead, theirs []warcio.Record) []recordPair {
	t.Helper()
	var pairs []recordPair
	i := 0
	for _, th := range theirs {
		for i < len(ours) && (ours[i].typ != th.Type || ours[i].uri != th.URI) {
			i++
		}
		if i == len(ours) {
			t.Errorf("warcio's %s record of %s at %d: robofilter reads none in its place", th.Type, th.URI, th.Offset)
			return pairs
		}
		if o := ours[i]; o.at.InMember == 0 && o.at.Offset != th.Offset {
			t.Errorf("record %d (%s %s): robofilter has it at %v, warcio at %d", o.n, o.typ, o.uri, o.at, th.Offset)
		}
		pairs = append(pairs, recordPair{ours[i], th})
		i++
	}
	return pairs
}

// compareTexts checks each response record robofilter reads as a document
// (text --warc) against its block alone, as warcio gives it (robofilter's,
// ownBlocks, where the table says warcio's differ), read with text --http:
// the same lines and the same document record, but for its name and its
// WARC fields, and for the error of a record whose block is cut short (the
// lines up to the cut are the same; --http of the cut block alone may not
// see the cut, as an HTTP body ends where its bytes do)
// or that is WARC-Truncated (--warc reads what it holds).
func compareTexts(t *testing.T, path string, pairs []recordPair, ownBlocks bool) {
	t.Helper()
	out, _, _ := runCLI(t, "", "text", "--warc", "--format", "jsonl", path)
	docs := jsonlDocuments(t, out)
	compared := 0
	for _, p := range pairs {
		if p.theirs.Type != "response" {
			continue
		}
		name := path + "#" + strconv.Itoa(p.ours.n) // as the CLI names a record's document
		fromWARC, ok := docs[name]
		if !ok {
			continue // not a page: skipped
		}
		block, err := base64.StdEncoding.DecodeString(p.theirs.Block)
		if err != nil {
			t.Fatal(err)
		}
		if ownBlocks {
			block = p.ours.block
		}
		httpOut, _, _ := runCLI(t, string(block), "text", "--http", "--format", "jsonl", "-")
		fromHTTP := jsonlDocuments(t, httpOut)["-"]
		if fromHTTP == nil {
			t.Fatalf("%s: text --http of its block gives no document: %s", name, httpOut)
		}
		errWARC, _ := fromWARC.document["error"].(string)
		if fromWARC.document["warc_truncated"] != nil || strings.Contains(errWARC, "the record's block is cut short") {
			delete(fromWARC.document, "error")
			delete(fromHTTP.document, "error")
			// The block alone ends where its bytes do, so its body may be
			// longer than its Content-Length (example-space-in-url.arc's
			// is, by a byte): --warc reports the cut instead.
			dropWarnings(fromHTTP.document, "longer than its Content-Length")
		}
		for _, field := range []string{"file", "uri", "warc_truncated"} {
			delete(fromWARC.document, field)
			delete(fromHTTP.document, field)
		}
		// A body longer than its Content-Length is read to the end of what
		// holds it, which the warning names: the record, or the input.
		got := strings.ReplaceAll(fmt.Sprint(fromWARC.lines, fromWARC.document), "read to the end of the WARC record", "read to the end of the input")
		if want := fmt.Sprint(fromHTTP.lines, fromHTTP.document); got != want {
			t.Errorf("%s (%s): text --warc differs from text --http of its block:\n%s\n%s", name, p.ours.uri, got, want)
		}
		compared++
	}
	t.Logf("%d response records' text compared", compared)
}

// dropWarnings removes from a document record the warnings whose message
// holds what.
func dropWarnings(document map[string]any, what string) {
	ws, _ := document["warnings"].([]any)
	var kept []any
	for _, w := range ws {
		if m, _ := w.(map[string]any); m == nil || !strings.Contains(fmt.Sprint(m["message"]), what) {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		delete(document, "warnings")
	} else {
		document["warnings"] = kept
	}
}

// jsonlDoc is one document's records in JSON Lines: its line records
// (without the file) and its document record.
type jsonlDoc struct {
	lines    []string
	document map[string]any
}

func jsonlDocuments(t *testing.T, out string) map[string]*jsonlDoc {
	t.Helper()
	docs := map[string]*jsonlDoc{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		file, _ := rec["file"].(string)
		d := docs[file]
		if d == nil {
			d = &jsonlDoc{}
			docs[file] = d
		}
		switch rec["type"] {
		case "line":
			d.lines = append(d.lines, fmt.Sprint(rec["phrase"], rec["line"], rec["text"]))
		case "document":
			d.document = rec
		}
	}
	for name, d := range docs {
		if d.document == nil {
			delete(docs, name) // warc_warning records only
		}
	}
	return docs
}

// readWithWarcio reads the files (named relative to dir) with warcio,
// giving the response records' blocks, keyed by the names as given.
func readWithWarcio(t *testing.T, oracle warcio.Oracle, dir string, files []string) map[string]warcio.File {
	t.Helper()
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(dir, filepath.FromSlash(f))
	}
	read := oracle.Read(t, warcioBudget, "response", paths...)
	got := make(map[string]warcio.File, len(files))
	for i, f := range files {
		got[f] = read[paths[i]]
	}
	return got
}
