package main

import (
	"bytes"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/internal/warcio"
	"github.com/robofilter/robofilter/wet"
)

// The WET files of the shared corpus's WARC files and of a generated
// crawl are read by warcio, every record with a valid digest, and each
// page's text is what robofilter gives for its response.
func TestWETReadByWarcio(t *testing.T) {
	oracle := warcio.Find(t)
	dir := t.TempDir()
	gen := generatedCrawl(t, dir, 2<<20, 9)
	warcs := append([]string{gen}, sharedWARCs()...)
	var wets []string
	for i, w := range warcs {
		out, errOut, code := runCLI(t, "", "text", "--warc", "--format", "wet", "--gzip", w)
		if code > 1 || !strings.HasPrefix(out, "\x1f\x8b") {
			t.Fatalf("%s: status %d: %s", w, code, errOut)
		}
		name := filepath.Join(dir, strings.ReplaceAll(filepath.Base(w), ".", "_")+"-"+string(rune('a'+i%26))+".warc.wet.gz")
		if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		wets = append(wets, name)
	}
	read := oracle.Read(t, 60*time.Second, "all", wets...)
	pages := 0
	for i, w := range warcs {
		want := textsByRecord(t, w)
		got := read[wets[i]]
		if got.End != "done" || len(got.Records) < 2 || got.Records[0].Type != "warcinfo" || got.Records[len(got.Records)-1].Type != "metadata" {
			t.Fatalf("%s: warcio read %d records, ending %q", w, len(got.Records), got.End)
		}
		for _, rec := range got.Records {
			block, err := base64.StdEncoding.DecodeString(rec.Block)
			if err != nil {
				t.Fatal(err)
			}
			if d := rec.Header("WARC-Block-Digest"); (d != "" || rec.Type == "conversion") && d != wet.BlockDigest(block) {
				t.Errorf("%s: record %s: digest %s, the block's %s", w, rec.URI, d, wet.BlockDigest(block))
			}
			if rec.Type != "conversion" {
				continue
			}
			pages++
			key := rec.Header("WARC-Refers-To") + " " + rec.URI
			if text, ok := want[key]; !ok || text != string(block) {
				t.Errorf("%s: the page %s is %q, robofilter's text of its response %q (found: %v)", w, key, block, text, ok)
			}
			delete(want, key)
		}
		for key, text := range want {
			if text != "" {
				t.Errorf("%s: the page %s, with text, is not in the WET file", w, key)
			}
		}
	}
	if pages < 100 {
		t.Errorf("only %d pages compared", pages)
	}
}

// textsByRecord is each page's text in a WARC file, by its record's ID and
// URI (empty for a page under noindex or that fails: the WET file leaves
// it out).
func textsByRecord(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := input.NewReader(file, f, input.WARC, robofilter.Options{})
	texts := map[string]string{}
	for {
		doc, err := in.Next()
		if err != nil {
			if err != io.EOF {
				t.Logf("%s: %v", file, err)
			}
			return texts
		}
		if doc.Err != nil {
			continue
		}
		var text bytes.Buffer
		res, err := robofilter.Process(doc.Body, doc.Options, robofilter.Outputs{Text: robofilter.NewTextWriter(&text)})
		if res != nil && !res.Directives.NoIndex {
			texts[doc.RecordID+" "+doc.URI] = text.String()
		}
		_ = err
	}
}
