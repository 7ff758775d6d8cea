// Package beamcrawl runs robofilter over a crawl's WARC files on Apache
// Beam: in-process on Prism, or on Dataflow, Flink or Spark. Each WARC
// file is a unit of work: a DoFn streams its documents through
// crawl.Run, as the CLI does, and writes its outputs next to each other
// under the output prefix (the one-pass JSON Lines, the WET file, its
// summary row); a summary table of every file comes last, as Parquet and
// as JSON Lines. Per-document records never go through a shuffle: only
// the paths and the summary rows do. docs/beam.md says how to run it.
package beamcrawl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/xitongsys/parquet-go/writer"
)

// Config says what the pipeline reads, writes, and how.
type Config struct {
	// Paths is a paths list (warc.paths.gz, or plain): one WARC file a
	// line, relative to InputBase. Input is a glob instead; one of the two.
	Paths     string
	InputBase string
	Input     string
	// Output is the prefix the outputs go under: a folder, or a gs://,
	// s3:// URL.
	Output string
	// Resume skips the WARC files whose outputs a run before wrote (their
	// summary rows are read back into the summary); RetryFailed, with
	// Resume, works again on those whose row has an error.
	Resume, RetryFailed bool
	Settings
}

// Summary tables' names under the output prefix.
const (
	SummaryParquet = "summary.parquet"
	SummaryJSONL   = "summary.jsonl"
)

// Metrics' namespace and names (counters).
const (
	MetricsNamespace = "robofilter"
	MetricProcessed  = "warc_files_processed" // worked on in this run
	MetricSkipped    = "warc_files_skipped"   // done before (Resume)
	MetricFailed     = "warc_files_with_error"
	MetricDocuments  = "documents"
)

func init() {
	register.DoFn3x1[context.Context, []byte, func(File), error](&listFn{})
	register.Emitter1[File]()
	register.DoFn3x1[context.Context, File, func(Row), error](&warcFn{})
	register.Emitter1[Row]()
	register.DoFn3x1[context.Context, int, func(*Row) bool, error](&summaryFn{})
	register.Iter1[Row]()
	beam.RegisterType(reflect.TypeFor[Row]())
	beam.RegisterType(reflect.TypeFor[File]())
}

// File is one WARC file to work on: where it is, and its name, the path
// relative to the input base, which names its documents and outputs.
type File struct {
	URL  string
	Name string
}

// Check reports what is wrong with a configuration before a pipeline is
// built from it.
func (c Config) Check() error {
	switch {
	case (c.Paths == "") == (c.Input == ""):
		return errors.New("give either a paths list (--paths) or a glob of WARC files (--input)")
	case c.Input != "" && c.InputBase != "":
		return errors.New("--input-base is for a paths list; a glob's files are named from its folder on")
	case c.Output == "":
		return errors.New("give an output prefix (--output)")
	case c.RetryFailed && !c.Resume:
		return errors.New("--retry-failed goes with --resume")
	}
	if _, _, err := c.Settings.Options(); err != nil {
		return err
	}
	for _, name := range []string{c.Paths, c.InputBase, c.Input, c.Output} {
		if name == "" {
			continue
		}
		if err := schemeRegistered(name); err != nil {
			return err
		}
	}
	return nil
}

func schemeRegistered(name string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	filesystem.ValidateScheme(name)
	return nil
}

// Build adds the pipeline to s: the list of WARC files read (in full, on
// one worker) and reshuffled, so that each file is a unit of work of its
// own on Dataflow, Flink and Spark rather than fused into the list's one
// bundle; a DoFn per file writing its outputs; the summary table of their
// rows. It returns the rows.
func Build(s beam.Scope, cfg Config) (beam.PCollection, error) {
	if err := cfg.Check(); err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("robofilter")
	files := beam.ParDo(s.Scope("ListWARCFiles"), &listFn{Cfg: cfg}, beam.Impulse(s))
	files = beam.Reshuffle(s, files)
	rows := beam.ParDo(s.Scope("ProcessWARCFile"), &warcFn{Cfg: cfg}, files)
	WriteSummary(s, cfg.Output, rows)
	return rows, nil
}

// WriteSummary writes the rows, sorted by WARC file, as SummaryJSONL and
// SummaryParquet under the output prefix, on one worker (a row is about
// 200 bytes: a monthly crawl's 90,000 are 18 MB). Not through Beam's
// parquetio.Write: it writes the table under its name directly and does
// not check Close's error, where a cloud store's upload fails, so that a
// failed write could leave a short table, or a job that succeeds without
// one.
func WriteSummary(s beam.Scope, output string, rows beam.PCollection) {
	s = s.Scope("Summary")
	beam.ParDo0(s, &summaryFn{Output: output}, beam.GroupByKey(s, beam.AddFixedKey(s, rows)))
}

// listFn reads the paths list, or expands the glob, into the files.
type listFn struct {
	Cfg Config
}

func (f *listFn) ProcessElement(ctx context.Context, _ []byte, emit func(File)) error {
	files, err := Files(ctx, f.Cfg)
	if err != nil {
		return err
	}
	log.Infof(ctx, "%d WARC files to work on", len(files))
	for _, file := range files {
		emit(file)
	}
	return nil
}

// Files reads the paths list, or expands the glob, into the WARC files to
// work on. Two files whose outputs would have the same names (a.warc and
// a.warc.gz) are an error.
func Files(ctx context.Context, cfg Config) ([]File, error) {
	base, names := cfg.InputBase, []string(nil)
	var err error
	if cfg.Paths != "" {
		names, err = ReadPathsList(ctx, cfg.Paths)
	} else {
		base, names, err = ExpandGlob(ctx, cfg.Input)
	}
	if err != nil {
		return nil, err
	}
	files := make([]File, len(names))
	outputs := make(map[string]string, len(names))
	for i, name := range names {
		out := OutputsFor("", name).Summary
		if other, ok := outputs[out]; ok {
			return nil, fmt.Errorf("%s and %s would have the same outputs (%s …)", other, name, strings.TrimSuffix(out, ".summary.json"))
		}
		outputs[out] = name
		files[i] = File{URL: Join(base, name), Name: name}
	}
	return files, nil
}

// warcFn works on one WARC file.
type warcFn struct {
	Cfg Config

	processed, skipped, failed, documents beam.Counter
}

func (f *warcFn) Setup() {
	f.processed = beam.NewCounter(MetricsNamespace, MetricProcessed)
	f.skipped = beam.NewCounter(MetricsNamespace, MetricSkipped)
	f.failed = beam.NewCounter(MetricsNamespace, MetricFailed)
	f.documents = beam.NewCounter(MetricsNamespace, MetricDocuments)
}

func (f *warcFn) ProcessElement(ctx context.Context, file File, emit func(Row)) error {
	outs := OutputsFor(f.Cfg.Output, file.Name)
	if f.Cfg.Resume {
		if row, ok := Done(ctx, file.Name, outs); ok && (row.Error == "" || !f.Cfg.RetryFailed) {
			f.skipped.Inc(ctx, 1)
			log.Infof(ctx, "%s: skipped: its outputs exist (--resume)", file.Name)
			emit(row)
			return nil
		}
	}
	row, err := ProcessFile(ctx, file.URL, file.Name, outs, f.Cfg.Settings)
	if err != nil {
		return err
	}
	f.processed.Inc(ctx, 1)
	f.documents.Inc(ctx, row.Documents)
	if row.Error != "" {
		f.failed.Inc(ctx, 1)
	}
	emit(row)
	return nil
}

// summaryFn writes the summary tables, one row a WARC file in the order of
// their names, each under a temporary name then renamed.
type summaryFn struct {
	Output string
}

func (f *summaryFn) ProcessElement(ctx context.Context, _ int, iter func(*Row) bool) error {
	var rows []Row
	var row Row
	for iter(&row) {
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b Row) int { return strings.Compare(a.WARC, b.WARC) })
	if err := writeTable(ctx, Join(f.Output, SummaryJSONL), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	return writeTable(ctx, Join(f.Output, SummaryParquet), func(w io.Writer) error {
		pw, err := writer.NewParquetWriterFromWriter(w, new(Row), 1)
		if err != nil {
			return err
		}
		for i := range rows {
			if err := pw.Write(&rows[i]); err != nil {
				return err
			}
		}
		return pw.WriteStop()
	})
}

// writeTable writes a file under a temporary name with write, and renames
// it when it is whole.
func writeTable(ctx context.Context, name string, write func(io.Writer) error) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	t, err := createTemp(ctx, fs, name)
	if err != nil {
		return err
	}
	defer t.abort(ctx)
	if err := write(t.buf); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := t.close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return t.commit(ctx)
}

// ReadSummary reads the JSON Lines summary a run wrote under the output
// prefix.
func ReadSummary(ctx context.Context, output string) ([]Row, error) {
	name := Join(output, SummaryJSONL)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	b, err := filesystem.Read(ctx, fs, name)
	if err != nil {
		return nil, err
	}
	var rows []Row
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var r Row
		if err := dec.Decode(&r); err == io.EOF {
			return rows, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, r)
	}
}

// Report reads the summary a run wrote under the output prefix and tells
// w what it holds: the totals, and each WARC file that could not be read
// to its end (the first 20). It returns how many could not be.
func Report(ctx context.Context, output string, w io.Writer) (int, error) {
	rows, err := ReadSummary(ctx, output)
	if err != nil {
		return 0, err
	}
	var total Row
	var failed []Row
	for _, r := range rows {
		total.Documents += r.Documents
		total.Bytes += r.Bytes
		total.WARCBytes += r.WARCBytes
		total.Failed += r.Failed
		if r.Error != "" {
			failed = append(failed, r)
		}
	}
	fmt.Fprintf(w, "robofilter-beam: %d WARC files (%d bytes): %d documents (%d bytes, %d with an error); summary in %s and %s\n",
		len(rows), total.WARCBytes, total.Documents, total.Bytes, total.Failed, Join(output, SummaryJSONL), Join(output, SummaryParquet))
	if len(failed) > 0 {
		fmt.Fprintf(w, "robofilter-beam: %d WARC files could not be read to their end:\n", len(failed))
	}
	for i, r := range failed {
		if i == 20 {
			fmt.Fprintf(w, "  … and %d more (the summary's rows with an error)\n", len(failed)-i)
			break
		}
		fmt.Fprintf(w, "  %s: %s\n", r.WARC, strings.ReplaceAll(r.Error, "\n", " "))
	}
	return len(failed), nil
}
