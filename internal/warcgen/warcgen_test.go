package warcgen_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/input/warc"
	"github.com/robofilter/robofilter/internal/warcgen"
)

// The file reads as a crawl: every record, no warning, a document for
// every response but the images; and the same options give the same
// bytes.
func TestGeneratedWARCReads(t *testing.T) {
	for _, gz := range []bool{false, true} {
		var b bytes.Buffer
		responses, err := warcgen.Write(&b, warcgen.Options{Bytes: 3 << 20, Gzip: gz, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		var again bytes.Buffer
		warcgen.Write(&again, warcgen.Options{Bytes: 3 << 20, Gzip: gz, Seed: 7})
		if !bytes.Equal(b.Bytes(), again.Bytes()) {
			t.Error("the same options gave different bytes")
		}
		in := input.NewReader("gen", &b, input.WARC, robofilter.Options{})
		warnings := 0
		in.WARCWarning = func(warc.Warning) { warnings++ }
		docs, truncated := 0, 0
		for {
			doc, err := in.Next()
			if err == io.EOF {
				break
			}
			if err != nil || doc.Err != nil {
				t.Fatalf("%v %v", err, doc.Err)
			}
			if _, err := robofilter.Process(doc.Body, doc.Options, robofilter.Outputs{}); err != nil {
				t.Fatalf("%s: %v", doc.Name, err)
			}
			docs++
			if doc.Truncated != "" {
				truncated++
			}
		}
		if docs < responses*85/100 || docs == responses || truncated == 0 || warnings != 0 {
			t.Errorf("gzip %v: %d responses, %d documents, %d truncated, %d warnings", gz, responses, docs, truncated, warnings)
		}
	}
}

// WriteSize's count is the file's size decompressed.
func TestWriteSizeIsTheDecompressedSize(t *testing.T) {
	var gz, plain bytes.Buffer
	_, n, err := warcgen.WriteSize(&gz, warcgen.Options{Bytes: 1 << 20, Gzip: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := warcgen.Write(&plain, warcgen.Options{Bytes: 1 << 20, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if n != int64(plain.Len()) {
		t.Errorf("WriteSize says %d bytes, the file decompressed has %d", n, plain.Len())
	}
}
