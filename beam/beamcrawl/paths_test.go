package beamcrawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// A paths list as Common Crawl's: a thousand lines, gzip.
func pathsList(n int) (string, []string) {
	var paths []string
	for i := range n {
		paths = append(paths, fmt.Sprintf("crawl-data/CC-MAIN-2026-44/segments/1761234567890.%d/warc/CC-MAIN-20261101000000-20261101010000-%05d.warc.gz", i%100, i))
	}
	return strings.Join(paths, "\n") + "\n", paths
}

func gz(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

func TestReadPathsList(t *testing.T) {
	dir := t.TempDir()
	text, want := pathsList(1000)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"warc.paths.gz", gz(text)},
		{"warc.paths", []byte(text)},
		{"crlf.paths", []byte(strings.ReplaceAll(text, "\n", "\r\n"))},
		{"no-last-newline.paths", []byte(strings.TrimSuffix(text, "\n"))},
		{"blank-lines.paths", []byte("\n" + strings.ReplaceAll(text, "\n", "\n\n"))},
		// Two gzip members (cat a.gz b.gz): both read.
		{"two-members.paths.gz", append(gz(text[:len(text)/2+7]), gz(text[len(text)/2+7:])...)},
	} {
		got, err := ReadPathsList(ctx, write(tc.name, tc.file))
		if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: %d paths (%v), want %d", tc.name, len(got), err, len(want))
		}
	}

	// Whatever is wrong with a list, it is an error, never fewer paths.
	whole := gz(text)
	corrupt := bytes.Clone(whole)
	corrupt[len(corrupt)-6] ^= 1 // the CRC-32
	for _, tc := range []struct {
		name string
		file []byte
		err  string
	}{
		{"cut.paths.gz", whole[:len(whole)/2], "unexpected EOF"},
		{"cut-trailer.paths.gz", whole[:len(whole)-4], "unexpected EOF"},
		{"crc.paths.gz", corrupt, "checksum"},
		{"empty.paths", nil, "no paths"},
		{"empty.paths.gz", gz(""), "no paths"},
		{"twice.paths", []byte("a.warc.gz\nb.warc.gz\na.warc.gz\n"), "line 3 repeats line 1"},
		{"up.paths", []byte("a.warc.gz\nx/../../b.warc.gz\n"), "line 2"},
	} {
		got, err := ReadPathsList(ctx, write(tc.name, tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %d paths, error %v: want an error saying %q", tc.name, len(got), err, tc.err)
		}
	}
	if _, err := ReadPathsList(ctx, filepath.Join(dir, "absent.paths.gz")); err == nil {
		t.Error("no error for a list that is not there")
	}
}

// readPaths reads the same paths at every chunking of its input.
func TestReadPathsChunked(t *testing.T) {
	text, want := pathsList(50)
	text = strings.ReplaceAll(text, "00.warc.gz\n", "00.warc.gz\r\n\n")
	for size := 1; size <= 1000; size++ {
		for _, r := range []io.Reader{
			&chunkReader{s: text, n: size},
			iotest.HalfReader(strings.NewReader(text)),
			iotest.DataErrReader(strings.NewReader(text)),
		} {
			got, err := readPaths(r)
			if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("chunks of %d (%T): %d paths, %v", size, r, len(got), err)
			}
		}
	}
	// A read error is the list's error, wherever it comes.
	for cut := 0; cut < len(text); cut += 97 {
		r := io.MultiReader(strings.NewReader(text[:cut]), iotest.ErrReader(errors.New("connection reset")))
		if got, err := readPaths(r); err == nil || !strings.Contains(err.Error(), "connection reset") {
			t.Fatalf("a read error after %d bytes: %d paths, %v", cut, len(got), err)
		}
	}
}

// chunkReader gives s n bytes at a time.
type chunkReader struct {
	s string
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[n:]
	return n, nil
}

func TestGlobBaseAndOutputs(t *testing.T) {
	for glob, want := range map[string]string{
		"/data/cc/*.warc.gz":          "/data/cc/",
		"/data/cc/seg-*/warc/*.gz":    "/data/cc/",
		"gs://bucket/crawl/*.warc.gz": "gs://bucket/crawl/",
		"*.warc.gz":                   "",
		"in/a.warc.gz":                "in/",
	} {
		if got := globBase(glob); got != want {
			t.Errorf("globBase(%q) = %q, want %q", glob, got, want)
		}
	}
	outs := OutputsFor("gs://b/out", "crawl-data/CC-MAIN-2026-44/segments/1/warc/CC-MAIN-1-00000.warc.gz")
	if outs.JSONL != "gs://b/out/crawl-data/CC-MAIN-2026-44/segments/1/warc/CC-MAIN-1-00000.warc.extract.jsonl.gz" ||
		outs.WET != "gs://b/out/crawl-data/CC-MAIN-2026-44/segments/1/warc/CC-MAIN-1-00000.warc.wet.gz" ||
		outs.Summary != "gs://b/out/crawl-data/CC-MAIN-2026-44/segments/1/warc/CC-MAIN-1-00000.warc.summary.json" {
		t.Errorf("outputs: %+v", outs)
	}
	// As the CLI's --output-dir names them: a plain WARC file and an ARC
	// file of the same stem have outputs of their own.
	for rel, want := range map[string]string{"x.arc.gz": "out/x.arc.wet.gz", "x.warc": "out/x.warc.wet.gz", "x.arc": "out/x.arc.wet.gz"} {
		if got := OutputsFor("out/", rel).WET; got != want {
			t.Errorf("the WET file of %s: %s, want %s", rel, got, want)
		}
	}
}

// Two files of a list whose outputs would be the same are an error.
func TestFilesWithTheSameOutputs(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list")
	os.WriteFile(list, []byte("a.warc\nb.warc.gz\na.warc.gz\n"), 0o644)
	_, err := Files(context.Background(), Config{Paths: list, Output: dir})
	if err == nil || !strings.Contains(err.Error(), "a.warc and a.warc.gz") {
		t.Errorf("error %v", err)
	}
}
