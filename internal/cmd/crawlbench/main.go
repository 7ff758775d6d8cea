// Command crawlbench makes the inputs and runs the floors of the crawl
// benchmark (scripts/bench-crawl, docs/crawl.md):
//
//	crawlbench gen -bytes N [-pages DIR] [-seed S] FILE
//	    writes a Common Crawl-shaped .warc.gz (internal/warcgen) of about
//	    N bytes of records, the HTML pages of DIR as its pages (the
//	    generated ones without it), and prints its decompressed size
//	crawlbench gunzip -impl std|klauspost FILE
//	    decompresses a multi-member gzip file to nothing: the floor that
//	    every reading of the file pays
package main

import (
	"bufio"
	stdgzip "compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/klauspost/compress/gzip"
	"github.com/robofilter/robofilter/internal/warcgen"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "gunzip":
		err = gunzip(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "crawlbench: %v\n", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: crawlbench gen -bytes N [-pages DIR] [-seed S] FILE | crawlbench gunzip -impl std|klauspost FILE")
	os.Exit(2)
}

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	size := fs.Int64("bytes", 500<<20, "about how many bytes of records (decompressed)")
	dir := fs.String("pages", "", "a directory of HTML pages to serve (its *.html files)")
	seed := fs.Int64("seed", 1, "the seed that chooses pages, types and URLs")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	opts := warcgen.Options{Bytes: *size, Gzip: true, Seed: *seed}
	if *dir != "" {
		names, err := filepath.Glob(filepath.Join(*dir, "*.html"))
		if err != nil {
			return err
		}
		sort.Strings(names)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			opts.Pages = append(opts.Pages, b)
		}
		if len(opts.Pages) == 0 {
			return fmt.Errorf("no *.html file in %s", *dir)
		}
	}
	f, err := os.Create(fs.Arg(0))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	responses, raw, err := warcgen.WriteSize(w, opts)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d responses, %d bytes decompressed\n", fs.Arg(0), responses, raw)
	return nil
}

func gunzip(args []string) error {
	fs := flag.NewFlagSet("gunzip", flag.ExitOnError)
	impl := fs.String("impl", "klauspost", "std (compress/gzip) or klauspost (github.com/klauspost/compress/gzip)")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	// The reading robofilter does: a buffered file, every member in turn.
	in := bufio.NewReaderSize(f, 64<<10)
	var zr io.Reader
	switch *impl {
	case "std":
		zr, err = stdgzip.NewReader(in)
	case "klauspost":
		zr, err = gzip.NewReader(in)
	default:
		usage()
	}
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, zr)
	return err
}
