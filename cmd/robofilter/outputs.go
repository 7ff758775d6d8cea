package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/robofilter/robofilter/input"
	"github.com/urfave/cli/v2"
)

// A crawl's files: --files-from names the inputs (as Common Crawl's
// warc.paths.gz lists a crawl's WARC files), --output-dir gives each input
// an output file of its own, written under a temporary name and renamed
// when complete, and --resume skips the inputs whose output exists.

// readFileList reads the paths --files-from names: one a line (a .gz list
// read whole), relative ones under base. A list that cannot be read to
// its end (a gzip file cut short) is an error: never fewer paths than the
// list holds.
func readFileList(list, base string, stdin io.Reader) ([]string, error) {
	var r io.Reader = stdin
	if list != "-" {
		f, err := os.Open(list)
		if err != nil {
			return nil, input.BareError(err)
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(r)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1F && head[1] == 0x8B {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("the gzip list: %w", err)
		}
		r = zr // multistream: a list in several members is read whole
	} else {
		r = br
	}
	all, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading the list to its end: %w (nothing is processed)", err)
	}
	var paths []string
	for _, line := range strings.Split(string(all), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if base != "" && !filepath.IsAbs(line) {
			line = filepath.Join(base, line)
		}
		paths = append(paths, line)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("the list names no file")
	}
	return paths, nil
}

// outputs is where --output-dir puts each input's output.
type outputs struct {
	dir    string
	ext    string // the outputs' extension: .text.txt, .wet, .extract.jsonl …
	gzip   bool   // compressed (a WET file's records each a gzip member)
	resume bool
	names  map[string]string // output → the input that has it
	// created: the outputs made in this run. Each gets its name when
	// complete, or the run ends there: --resume takes one as done for a
	// later input of the same output name, as if it had its name already
	// (lanes.go opens an input before those before it are done).
	created map[string]bool
}

// outFile is one input's output file, written under a temporary name.
type outFile struct {
	input, temp, final string
	file               *os.File
	gz                 *gzip.Writer
}

// outputName is where an input's output goes: its path as given (relative
// ones kept, absolute ones by their base name), a final .gz or .zst
// dropped, with the outputs' extension.
func (o *outputs) outputName(input string) string {
	name := filepath.Clean(input)
	if filepath.IsAbs(name) || strings.HasPrefix(name, "..") {
		name = filepath.Base(name)
	}
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst") + o.ext
	if o.gzip {
		name += ".gz"
	}
	return filepath.Join(o.dir, name)
}

// done reports whether an input's output exists (--resume), saying so on
// w.
func (o *outputs) done(input string, w io.Writer, quiet bool) bool {
	if !o.resume {
		return false
	}
	if _, err := os.Stat(o.outputName(input)); err != nil && !o.created[o.outputName(input)] {
		return false
	}
	if !quiet {
		fmt.Fprintf(w, "robofilter: %s: note: skipped: its output %s exists (--resume)\n", input, o.outputName(input))
	}
	return true
}

// create makes an input's output file, under its temporary name (a
// hidden .NAME.partial beside it: an interrupted run leaves no file of
// the output's name, and --resume does it again).
func (o *outputs) create(name string) (*outFile, error) {
	final := o.outputName(name)
	if other, ok := o.names[final]; ok {
		return nil, fmt.Errorf("its output %s would be %s's too: give inputs whose names differ", final, other)
	}
	o.names[final] = name
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return nil, input.BareError(err)
	}
	temp := filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".partial")
	f, err := os.Create(temp)
	if err != nil {
		return nil, input.BareError(err)
	}
	o.created[final] = true
	return &outFile{input: name, temp: temp, final: final, file: f}, nil
}

// beginOutput makes rc write to an input's output file.
func (rc *runConfig) beginOutput(of *outFile) {
	o := rc.outputs
	rc.outFile = of
	var w io.Writer = of.file
	if o.gzip && rc.wet == nil {
		of.gz, _ = gzip.NewWriterLevel(of.file, gzip.DefaultCompression)
		w = of.gz
	}
	rc.stdout = bufio.NewWriterSize(w, 64<<10)
	rc.textWritten, rc.archiveWritten, rc.archiveEndsLine = false, false, false
	if rc.wet != nil {
		rc.wet = &wetOut{w: rc.stdout, gzip: rc.wetGzip, filename: filepath.Base(of.final)}
	}
}

// endOutput completes the output being written: its last records (a WET
// file's counts), then the file, renamed to its name (in a lane, the
// file is renamed when the files before it are done: renameOutput).
func (rc *runConfig) endOutput() error {
	of := rc.outFile
	if of == nil {
		return nil
	}
	rc.outFile = nil
	var err error
	if rc.wet != nil {
		err = rc.wet.finish()
	}
	if ferr := rc.stdout.Flush(); err == nil {
		err = ferr
	}
	if of.gz != nil {
		if gerr := of.gz.Close(); err == nil {
			err = gerr
		}
	}
	if err == nil {
		// On the disk before it has its name: after a crash, a file of
		// the output's name is complete (--resume trusts it).
		err = of.file.Sync()
	}
	if cerr := of.file.Close(); err == nil {
		err = cerr
	}
	if err == nil && !rc.inLane {
		err = os.Rename(of.temp, of.final)
	}
	// Between outputs, nothing goes to standard output.
	rc.stdout = bufio.NewWriter(io.Discard)
	if err != nil {
		return cli.Exit(fmt.Sprintf("writing %s: %v", of.final, err), exitFailure)
	}
	return nil
}

// renameOutput gives a complete output, written in a lane, its name.
func renameOutput(of *outFile) error {
	if err := os.Rename(of.temp, of.final); err != nil {
		return cli.Exit(fmt.Sprintf("writing %s: %v", of.final, err), exitFailure)
	}
	return nil
}

// outputExt is the extension of a command's outputs in a format.
func outputExt(command, format string) string {
	switch format {
	case "wet":
		return ".wet"
	case "html":
		return "." + command + ".html"
	case "jsonl":
		return "." + command + ".jsonl"
	}
	return "." + command + ".txt"
}
