package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/input"
)

// extract writes, for each document, the object crawl.Run gives through
// the library (what the Beam pipeline writes): line for line, over the
// shared corpus's WARC files and a generated crawl. A file that ends in
// an error has one more line, its document record with the error.
func TestExtractWritesTheLibrarysObjects(t *testing.T) {
	dir := t.TempDir()
	gen := generatedCrawl(t, dir, 1<<20, 11)
	warcs := append([]string{gen}, sharedWARCs()...)
	for _, w := range warcs {
		out, _, _ := runCLI(t, "", "extract", "-q", "--warc", "--outputs", "text,links,regions", w)
		var want bytes.Buffer
		file, err := os.Open(w)
		if err != nil {
			t.Fatal(err)
		}
		_, runErr := crawl.Run(input.NewReader(w, file, input.WARC, robofilter.Options{}), crawl.Options{Workers: 1, Text: true, Links: true, Regions: true},
			func(r *crawl.Result) error {
				b, err := json.Marshal(r)
				want.Write(b)
				want.WriteByte('\n')
				return err
			})
		file.Close()
		got := out
		if runErr != nil {
			// The file's own error, after its documents.
			i := strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n") + 1
			if last := got[i:]; !strings.Contains(last, `"error"`) || strings.Contains(last, "#") {
				t.Errorf("%s: the last line is not the file's error (%v): %s", w, runErr, last)
			}
			got = got[:i]
		}
		if got != want.String() {
			t.Errorf("%s: extract's objects differ from crawl.Run's\n%.600s\nwant\n%.600s", w, got, want.String())
		}
	}
}
