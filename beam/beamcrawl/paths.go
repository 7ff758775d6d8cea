package beamcrawl

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/klauspost/compress/gzip"
)

// ReadPathsList reads a list of WARC files as Common Crawl publishes them
// (warc.paths.gz: one path a line, relative to the crawl's base), gzip or
// plain, told by its first bytes. It reads the list in full and checks it:
// a gzip stream cut short or whose CRC or length does not match, a plain
// list shorter than the size its file system gives, an empty list and a
// path given twice (two units of work would write the same outputs) are
// errors, never a shorter list. Empty lines are ignored; "\r\n" ends a line
// too. The count is the number of paths, for the caller to report.
func ReadPathsList(ctx context.Context, name string) ([]string, error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("paths list %s: %w", name, err)
	}
	defer rc.Close()
	raw := &countingReader{r: rc}
	br := bufio.NewReader(raw)
	var r io.Reader = br
	compressed := false
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("paths list %s: %w", name, err)
		}
		r, compressed = zr, true
	}
	paths, err := readPaths(r)
	if err != nil {
		return nil, fmt.Errorf("paths list %s: %w", name, err)
	}
	if !compressed {
		// A plain list has no length of its own: compare what was read
		// with the size of the file.
		if size, err := fs.Size(ctx, name); err == nil && size >= 0 && size != raw.n {
			return nil, fmt.Errorf("paths list %s: read %d bytes of %d", name, raw.n, size)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("paths list %s: no paths", name)
	}
	return paths, nil
}

// readPaths reads one path a line until EOF, any read error an error.
func readPaths(r io.Reader) ([]string, error) {
	var paths []string
	seen := map[string]int{}
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		s, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		p := strings.TrimRight(s, "\r\n")
		if strings.TrimSpace(p) != "" {
			if first, ok := seen[p]; ok {
				return nil, fmt.Errorf("line %d repeats line %d: %s", line, first, p)
			}
			if slices.Contains(strings.Split(p, "/"), "..") {
				return nil, fmt.Errorf("line %d: %s: a path with .. would put outputs outside the output prefix", line, p)
			}
			seen[p] = line
			paths = append(paths, p)
		}
		if err == io.EOF {
			return paths, nil
		}
	}
}

// ExpandGlob lists the files a glob matches, each as its base (the glob's
// folder, up to its first pattern character) and the rest.
func ExpandGlob(ctx context.Context, glob string) (base string, rel []string, err error) {
	base = globBase(glob)
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return "", nil, err
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", glob, err)
	}
	bucket := ""
	if strings.HasPrefix(glob, "s3://") {
		// Beam's s3 List gives keys, without the bucket.
		bucket = glob[:len("s3://")+strings.IndexByte(glob[len("s3://"):]+"/", '/')+1]
	}
	for _, f := range files {
		if bucket != "" && !strings.HasPrefix(f, "s3://") {
			f = bucket + f
		}
		if !strings.HasPrefix(f, base) {
			return "", nil, fmt.Errorf("%s: %s is not under %s", glob, f, base)
		}
		rel = append(rel, f[len(base):])
	}
	if len(rel) == 0 {
		return "", nil, fmt.Errorf("%s matches no file", glob)
	}
	return base, rel, nil
}

// globBase is a glob's part before the folder holding its first pattern
// character, with its slash.
func globBase(glob string) string {
	i := strings.IndexAny(glob, "*?[\\")
	if i < 0 {
		i = len(glob)
	}
	return glob[:strings.LastIndexByte(glob[:i], '/')+1]
}

// Join puts a relative path under a base: a folder, a URL prefix (with or
// without its slash), or "" for the working folder.
func Join(base, rel string) string {
	if base == "" || strings.HasSuffix(base, "/") {
		return base + rel
	}
	return base + "/" + rel
}

// Outputs are the names of what the pipeline writes for one WARC file,
// next to each other under the output prefix: the WARC file's relative
// path, a final .gz dropped, with each output's extension, as the CLI's
// --output-dir names its outputs (CC-MAIN-…-00000.warc.gz gives
// CC-MAIN-…-00000.warc.wet.gz, as Common Crawl names its WET files).
type Outputs struct {
	JSONL   string // the one-pass JSON Lines, gzip: NAME.extract.jsonl.gz
	WET     string // the WET file: NAME.wet.gz
	Summary string // the file's summary row, written last: NAME.summary.json
}

// OutputsFor names the outputs of the WARC file at rel under output.
func OutputsFor(output, rel string) Outputs {
	stem := Join(output, strings.TrimSuffix(strings.TrimSuffix(rel, ".gz"), ".zst"))
	return Outputs{JSONL: stem + ".extract.jsonl.gz", WET: stem + ".wet.gz", Summary: stem + ".summary.json"}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
