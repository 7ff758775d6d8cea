package beamcrawl

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime/debug"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/klauspost/compress/gzip"
	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/aipref"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/input/warc"
	"github.com/robofilter/robofilter/wet"
)

// Settings say how each document is read, as the CLI's flags of the same
// names do (docs/commands.md).
type Settings struct {
	Agent          string // --agent
	Dialects       string // --dialects: "all" or a comma-separated list ("": all)
	RequireProfile bool   // --require-profile
	MaxDepth       int    // --max-depth (0: the default)
	MaxTokenSize   int    // --max-token (0: the default)
	// Purpose is --purpose: a label of the AI Preferences vocabulary
	// (train-ai, ai-use, search, all); a document whose stated
	// preferences disallow it gets no text (docs/aipref.md).
	Purpose string
	// Regions adds the excluded regions to each JSON Lines record.
	Regions bool
	// Jobs is how many documents of one WARC file are processed at once
	// (crawl.Options.Workers; 0 or 1: in turn, as they stream). The
	// runner already works on several WARC files at once, one per bundle.
	Jobs int
}

// Options are the library's options the settings stand for.
func (s Settings) Options() (robofilter.Options, crawl.Options, error) {
	list := s.Dialects
	if list == "" {
		list = "all"
	}
	d, err := filter.ParseDialects(list)
	if err == nil && d == 0 {
		err = fmt.Errorf("name at least one dialect (known: all, %s)", filter.DialectNames())
	}
	if err != nil {
		return robofilter.Options{}, crawl.Options{}, fmt.Errorf("dialects: %w", err)
	}
	if _, _, err := aipref.ParsePurpose(s.Purpose); err != nil {
		return robofilter.Options{}, crawl.Options{}, fmt.Errorf("purpose: %w", err)
	}
	if s.MaxDepth < 0 || s.MaxTokenSize < 0 || s.Jobs < 0 {
		return robofilter.Options{}, crawl.Options{}, errors.New("max depth, max token size and jobs must not be negative")
	}
	jobs := s.Jobs
	if jobs == 0 {
		jobs = 1
	}
	return robofilter.Options{Agent: s.Agent, Dialects: d, RequireProfile: s.RequireProfile,
			MaxDepth: s.MaxDepth, MaxTokenSize: s.MaxTokenSize, Purpose: s.Purpose},
		crawl.Options{Workers: jobs, Text: true, Links: true, Regions: s.Regions}, nil
}

// Row is one WARC file's line of the summary table.
type Row struct {
	// WARC is the file's path as the paths list gives it (relative to the
	// input base); its documents are named WARC#N.
	WARC string `json:"warc" parquet:"name=warc, type=BYTE_ARRAY, convertedtype=UTF8"`
	// Documents … Warnings are crawl.Summary's: the WARC file's documents
	// (its pages' response and resource records), those with an error,
	// the bytes of their bodies, those whose directives say noindex,
	// nofollow, noarchive (or nosnippet), and their warnings.
	Documents int64 `json:"documents" parquet:"name=documents, type=INT64"`
	Failed    int64 `json:"failed" parquet:"name=failed, type=INT64"`
	Bytes     int64 `json:"bytes" parquet:"name=bytes, type=INT64"`
	NoIndex   int64 `json:"noindex" parquet:"name=noindex, type=INT64"`
	NoFollow  int64 `json:"nofollow" parquet:"name=nofollow, type=INT64"`
	NoArchive int64 `json:"noarchive" parquet:"name=noarchive, type=INT64"`
	Warnings  int64 `json:"warnings" parquet:"name=warnings, type=INT64"`
	// WARCBytes is how many bytes of the WARC file were read, as stored
	// (compressed).
	WARCBytes int64 `json:"warc_bytes" parquet:"name=warc_bytes, type=INT64"`
	// WARCWarnings counts what the WARC reader skipped or repaired (bytes
	// that are no record, a malformed header line).
	WARCWarnings int64 `json:"warc_warnings" parquet:"name=warc_warnings, type=INT64"`
	// Error says why the file could not be read, or was read only in part
	// (its outputs hold the documents before it); "" when it was read to
	// its end.
	Error string `json:"error" parquet:"name=error, type=BYTE_ARRAY, convertedtype=UTF8"`
	// Seconds is the time the file took, from opening it to its outputs'
	// renaming.
	Seconds float64 `json:"seconds" parquet:"name=seconds, type=DOUBLE"`
}

// outputError is an error writing the outputs, which fails the bundle (a
// runner retries it), unlike an error reading the input, which is the
// file's row.
type outputError struct{ err error }

func (e outputError) Error() string { return e.err.Error() }
func (e outputError) Unwrap() error { return e.err }

// wetFields are the WET files' warcinfo fields besides the format's own:
// the CLI's description of the text (its software field names its version
// too).
var wetFields = map[string]string{"description": "the indexable text of each page: robots-excluded regions out, phrase breaks as empty lines"}

// maxWARCWarningsLogged bounds the WARC reader's warnings logged for one
// file; they are all counted.
const maxWARCWarningsLogged = 10

// ProcessFile streams the WARC file src through robofilter and writes its
// outputs: the one-pass JSON Lines (gzip), one object per document, as
// json.Marshal of crawl.Run's results (what `robofilter extract --warc`
// writes); the WET file; last, the summary row. Each is written to a
// temporary name and renamed, so that a name is either absent or the
// whole file. A WARC file that cannot be opened, or that ends with an
// error, is told in its row and in a last JSON Lines object named by the
// file, as extract tells it (after the outputs of the documents before
// the error), not by ProcessFile's error: that is for failing to write the
// outputs, which the runner retries.
func ProcessFile(ctx context.Context, src, name string, outs Outputs, set Settings) (Row, error) {
	start := time.Now()
	opts, copts, err := set.Options()
	if err != nil {
		return Row{}, err
	}
	ofs, err := filesystem.New(ctx, outs.JSONL)
	if err != nil {
		return Row{}, err
	}
	defer ofs.Close()
	jsonl, err := createTemp(ctx, ofs, outs.JSONL)
	if err != nil {
		return Row{}, err
	}
	defer jsonl.abort(ctx)
	wetFile, err := createTemp(ctx, ofs, outs.WET)
	if err != nil {
		return Row{}, err
	}
	defer wetFile.abort(ctx)

	gz := gzip.NewWriter(jsonl.buf)
	lines := bufio.NewWriterSize(gz, 64<<10)
	wetw := crawl.NewWETWriter(wetFile.buf, wet.Options{Gzip: true, Filename: path.Base(outs.WET), Fields: wetFields})
	deliver := func(r *crawl.Result) error {
		b, err := json.Marshal(r)
		if err != nil {
			return outputError{err}
		}
		b = append(b, '\n')
		if _, err := lines.Write(b); err != nil {
			return outputError{err}
		}
		if err := wetw.Write(r); err != nil {
			return outputError{err}
		}
		return nil
	}

	row := Row{WARC: name}
	if err := readWARC(ctx, src, name, opts, copts, &row, deliver); err != nil {
		var oerr outputError
		if errors.As(err, &oerr) {
			return Row{}, fmt.Errorf("%s: writing its outputs: %w", name, oerr.err)
		}
		row.Error = err.Error()
		log.Warnf(ctx, "%s: %v", name, err)
		// As extract writes it: after the documents read, a record named
		// by the file says why there are no more, for whoever reads only
		// the JSON Lines.
		b, merr := json.Marshal(crawl.Object{Type: "document", File: name, Error: input.BareError(err).Error()})
		if merr == nil {
			_, merr = lines.Write(append(b, '\n'))
		}
		if merr != nil {
			return Row{}, fmt.Errorf("%s: writing its outputs: %w", name, merr)
		}
	}

	for _, err := range []error{lines.Flush(), gz.Close(), jsonl.close(), wetw.Close(), wetFile.close()} {
		if err != nil {
			return Row{}, fmt.Errorf("%s: writing its outputs: %w", name, err)
		}
	}
	if err := jsonl.commit(ctx); err != nil {
		return Row{}, err
	}
	if err := wetFile.commit(ctx); err != nil {
		return Row{}, err
	}
	row.Seconds = time.Since(start).Seconds()
	if err := writeRow(ctx, ofs, outs.Summary, row); err != nil {
		return Row{}, err
	}
	return row, nil
}

// readWARC opens the WARC file and runs its documents through crawl.Run,
// counting into row. Its error is the input's (the file could not be
// opened, ended early, or processing it panicked) or an outputError.
func readWARC(ctx context.Context, src, name string, opts robofilter.Options, copts crawl.Options, row *Row, deliver func(*crawl.Result) error) (err error) {
	fs, err := filesystem.New(ctx, src)
	if err != nil {
		return err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, src)
	if err != nil {
		return err
	}
	defer rc.Close()
	counted := &countingReader{r: input.BareReadErrors(rc)}
	defer func() { row.WARCBytes = counted.n }()

	in := input.NewReader(name, counted, input.WARC, opts)
	in.WARCWarning = func(w warc.Warning) {
		row.WARCWarnings++
		if row.WARCWarnings <= maxWARCWarningsLogged {
			log.Warnf(ctx, "%s: %v", name, w)
		}
	}
	last := "its start"
	defer func() {
		// One page must never stop a run: a panic (on this goroutine, as
		// with Jobs 1) is the file's error, after the documents before it.
		if p := recover(); p != nil {
			log.Errorf(ctx, "%s: panic: %v\n%s", name, p, debug.Stack())
			err = fmt.Errorf("panic processing the document after %s: %v (the counts are not known)", last, p)
		}
	}()
	sum, err := crawl.Run(in, copts, func(r *crawl.Result) error {
		last = r.Document.Name
		return deliver(r)
	})
	row.Documents, row.Failed, row.Bytes = int64(sum.Documents), int64(sum.Failed), sum.Bytes
	row.NoIndex, row.NoFollow, row.NoArchive = int64(sum.NoIndex), int64(sum.NoFollow), int64(sum.NoArchive)
	row.Warnings = int64(sum.Warnings)
	return err
}

// tempFile is an output being written under a temporary name, unique to
// this attempt, so that a retried bundle (or a second worker on the same
// file) never writes into it.
type tempFile struct {
	fs          filesystem.Interface
	name, final string
	w           io.WriteCloser
	buf         *bufio.Writer
	closed      bool
	committed   bool
}

func createTemp(ctx context.Context, fs filesystem.Interface, final string) (*tempFile, error) {
	var id [8]byte
	rand.Read(id[:])
	name := final + ".tmp-" + hex.EncodeToString(id[:])
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return nil, outputError{err}
	}
	return &tempFile{fs: fs, name: name, final: final, w: w, buf: bufio.NewWriterSize(w, 1<<20)}, nil
}

func (t *tempFile) close() error {
	t.closed = true
	err := t.buf.Flush()
	if s, ok := t.w.(interface{ Sync() error }); ok && err == nil {
		// A local file is on the disk before it has its name: after a
		// crash, a file of an output's name is whole, as --resume takes
		// it to be. (A cloud store's object exists once Close returns.)
		err = s.Sync()
	}
	if cerr := t.w.Close(); err == nil {
		err = cerr
	}
	return err
}

func (t *tempFile) commit(ctx context.Context) error {
	if err := filesystem.Rename(ctx, t.fs, t.name, t.final); err != nil {
		return fmt.Errorf("renaming %s to %s: %w", t.name, t.final, err)
	}
	t.committed = true
	return nil
}

// abort removes the temporary file unless it was renamed.
func (t *tempFile) abort(ctx context.Context) {
	if t.committed {
		return
	}
	if !t.closed {
		t.w.Close()
	}
	if rm, ok := t.fs.(filesystem.Remover); ok {
		rm.Remove(ctx, t.name)
	}
}

// writeRow writes a file's summary row, the mark that its outputs are
// complete.
func writeRow(ctx context.Context, fs filesystem.Interface, name string, row Row) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	t, err := createTemp(ctx, fs, name)
	if err != nil {
		return err
	}
	defer t.abort(ctx)
	t.buf.Write(append(b, '\n'))
	if err := t.close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return t.commit(ctx)
}

// Done reads the summary row a finished run left for a WARC file, and
// reports whether its outputs are all there: the row parses, names the
// file, and the JSON Lines and WET files exist.
func Done(ctx context.Context, name string, outs Outputs) (Row, bool) {
	fs, err := filesystem.New(ctx, outs.Summary)
	if err != nil {
		return Row{}, false
	}
	defer fs.Close()
	b, err := filesystem.Read(ctx, fs, outs.Summary)
	if err != nil {
		return Row{}, false
	}
	var row Row
	if json.Unmarshal(b, &row) != nil || row.WARC != name {
		return Row{}, false
	}
	for _, f := range []string{outs.JSONL, outs.WET} {
		if _, err := fs.Size(ctx, f); err != nil {
			return Row{}, false
		}
	}
	return row, true
}
