package beamcrawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/robofilter/robofilter/crawl"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/wet"
	"github.com/xitongsys/parquet-go-source/local"
	"github.com/xitongsys/parquet-go/reader"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

// The pipeline's tests run on Prism, in this process (loopback: the test
// binary is the worker). WET files of inputs without a dated page are
// dated by SOURCE_DATE_EPOCH, not the clock, so that two runs compare
// the same bytes.
func TestMain(m *testing.M) {
	os.Setenv("SOURCE_DATE_EPOCH", "1764374400")
	ptest.MainWithDefault(m, "prism")
}

// runPipeline runs the pipeline of cfg and returns its counters.
func runPipeline(t testing.TB, cfg Config) (map[string]int64, error) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if _, err := Build(s, cfg); err != nil {
		t.Fatal(err)
	}
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		return nil, err
	}
	counts := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Key.Namespace == MetricsNamespace {
			counts[c.Key.Name] += c.Result()
		}
	}
	return counts, nil
}

// testCrawl is a few WARC files as a crawl ships them, with a paths list:
// a plain file, a gzip one in a folder of its own, a gzip one cut short in
// a page's body, and one the list names that is not there.
type testCrawl struct {
	in, paths string
	files     map[string][]byte // by name (relative path)
	names     []string          // the paths list's order
	want      map[string]Row    // what the rows must say (counts known by construction)
}

const (
	page1 = `<html><head><title>Cats</title></head><body><p>Cats purr. <a href="/dogs">Dogs</a> and <a rel="nofollow" href="https://ads.example/">an ad</a>.</p></body></html>`
	page2 = `<meta name="robots" content="noindex"><p>Not for the index. <a href="/x">x</a>`
	page3 = `<meta name="robots" content="nofollow, noarchive"><p>Indexed, not archived. <a href="/y">y</a>`
	page4 = `<p>The header says noarchive. <a href="https://b.example/z">z</a>`
	page5 = `<p class="robots-noidnex">A typo leaks this.</p><p>Fine.`
	page6 = `<p>Before the break. <a href="/next">next</a>`
	page7 = `<p>` + "Long text before the file is cut. " + `</p>`
)

func newTestCrawl(t *testing.T) *testCrawl {
	c := &testCrawl{in: t.TempDir(), files: map[string][]byte{}, want: map[string]Row{}}
	c.files["a.warc"] = warcFile(false, concat(
		[][]byte{warcinfo(1)},
		crawlPage(10, "https://a.example/", "text/html", page1),
		crawlPage(20, "https://a.example/img.png", "image/png", "\x89PNG\r\n\x1a\nnot a page"),
		crawlPage(30, "https://a.example/hidden", "text/html", page2),
		crawlPage(40, "https://a.example/plain", "text/html; charset=utf-8", page3),
	)...)
	c.want["a.warc"] = Row{WARC: "a.warc", Documents: 3, Bytes: int64(len(page1) + len(page2) + len(page3)),
		NoIndex: 1, NoFollow: 1, NoArchive: 1, WARCBytes: int64(len(c.files["a.warc"]))}

	c.files["sub/b.warc.gz"] = warcFile(true, concat(
		[][]byte{warcinfo(1)},
		crawlPage(10, "https://b.example/", "text/html", page4, "X-Robots-Tag: noarchive"),
		crawlPage(20, "https://b.example/typo", "text/html", page5),
	)...)
	c.want["sub/b.warc.gz"] = Row{WARC: "sub/b.warc.gz", Documents: 2, Bytes: int64(len(page4) + len(page5)),
		NoArchive: 1, Warnings: 1, WARCBytes: int64(len(c.files["sub/b.warc.gz"]))}

	// The last page's response member is cut in its body: the page is a
	// document cut short, then the file ends with an error.
	var long strings.Builder
	long.WriteString(page7)
	for i := range 2000 {
		fmt.Fprintf(&long, "<p>line %d of the page: %x</p>\n", i, i*7919)
	}
	before := warcFile(true, concat([][]byte{warcinfo(1)}, crawlPage(10, "https://c.example/", "text/html", page6))...)
	last := crawlPage(20, "https://c.example/long", "text/html", long.String())
	request, response := warcFile(true, last[0]), warcFile(true, last[1])
	broken := slices.Concat(before, request, response, warcFile(true, last[2]))
	cut := len(before) + len(request) + len(response)/2
	c.files["c.warc.gz"] = broken[:cut]
	c.want["c.warc.gz"] = Row{WARC: "c.warc.gz", Documents: 2, Failed: 1, WARCBytes: int64(cut)}

	c.want["missing.warc.gz"] = Row{WARC: "missing.warc.gz"}

	for name, b := range c.files {
		p := filepath.Join(c.in, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c.names = []string{"a.warc", "sub/b.warc.gz", "c.warc.gz", "missing.warc.gz"}
	c.paths = filepath.Join(c.in, "warc.paths.gz")
	writeGzip(t, c.paths, strings.Join(c.names, "\n")+"\n")
	return c
}

func writeGzip(t *testing.T, name, s string) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gunzip(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cliWETFields are the warcinfo fields the CLI's WET files have (but its
// software field's version).
var cliWETFields = map[string]string{"description": "the indexable text of each page: robots-excluded regions out, phrase breaks as empty lines"}

// library runs a WARC file through the library, as the pipeline should:
// crawl.Run's results as JSON Lines, the WET file of them, the summary.
func library(t *testing.T, name string, warcBytes []byte, set Settings) (jsonl, wetFile []byte, sum crawl.Summary, err error) {
	t.Helper()
	opts, copts, oerr := set.Options()
	if oerr != nil {
		t.Fatal(oerr)
	}
	var lines, w bytes.Buffer
	wetw := crawl.NewWETWriter(&w, wet.Options{Gzip: true, Filename: path.Base(OutputsFor("", name).WET), Fields: cliWETFields})
	sum, err = crawl.Run(input.NewReader(name, bytes.NewReader(warcBytes), input.WARC, opts), copts, func(r *crawl.Result) error {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		lines.Write(append(b, '\n'))
		return wetw.Write(r)
	})
	if cerr := wetw.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	return lines.Bytes(), w.Bytes(), sum, err
}

// snapshot is every file under a folder, with its time of change.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() {
			return nil
		}
		info, _ := d.Info()
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = info.ModTime().Format(time.RFC3339Nano) + " " + string(b)
		return nil
	})
	return files
}

func byName(rows []Row) map[string]Row {
	m := map[string]Row{}
	for _, r := range rows {
		m[r.WARC] = r
	}
	return m
}

func readParquet(t *testing.T, name string) []Row {
	t.Helper()
	fr, err := local.NewLocalFileReader(name)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	pr, err := reader.NewParquetReader(fr, new(Row), 1)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]Row, pr.GetNumRows())
	if err := pr.Read(&rows); err != nil {
		t.Fatal(err)
	}
	pr.ReadStop()
	return rows
}

// The whole pipeline on Prism: each WARC file's JSON Lines are crawl.Run's
// results record for record, its WET file the library's, the summary's
// counts those built into the files, the broken and the missing file rows
// with their error; a second run with Resume does nothing.
func TestPipelineOnPrism(t *testing.T) {
	c := newTestCrawl(t)
	out := t.TempDir()
	cfg := Config{Paths: c.paths, InputBase: c.in + "/", Output: out}
	counts, err := runPipeline(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if counts[MetricProcessed] != 4 || counts[MetricSkipped] != 0 || counts[MetricFailed] != 2 {
		t.Errorf("counters %v: want 4 files worked on, 2 with an error", counts)
	}

	rows, err := ReadSummary(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(c.names) {
		t.Fatalf("%d summary rows, want %d: %+v", len(rows), len(c.names), rows)
	}
	for _, row := range rows {
		want, ok := c.want[row.WARC]
		if !ok {
			t.Errorf("a row for %q, which the list does not name", row.WARC)
			continue
		}
		if row.Seconds <= 0 {
			t.Errorf("%s: %v seconds", row.WARC, row.Seconds)
		}
		got := row
		got.Seconds, got.Error = 0, ""
		if row.WARC == "c.warc.gz" {
			got.Bytes = 0 // checked against the library's below
		}
		if got != want {
			t.Errorf("row\n%+v\nwant\n%+v", got, want)
		}
		switch hasError := row.Error != ""; {
		case row.WARC == "c.warc.gz" || row.WARC == "missing.warc.gz":
			if !hasError || (row.WARC == "c.warc.gz") != strings.Contains(row.Error, "cut short") {
				t.Errorf("%s: error %q", row.WARC, row.Error)
			}
		case hasError:
			t.Errorf("%s: error %q", row.WARC, row.Error)
		}
		outs := OutputsFor(out, row.WARC)
		var stored Row
		if b, err := os.ReadFile(outs.Summary); err != nil || json.Unmarshal(b, &stored) != nil || stored != row {
			t.Errorf("%s: its summary row file says %+v (%v), the summary %+v", row.WARC, stored, err, row)
		}

		// The outputs against the library's, record for record.
		wantLines, wantWET, sum, runErr := library(t, row.WARC, c.files[row.WARC], cfg.Settings)
		if row.WARC == "missing.warc.gz" {
			wantLines = []byte(`{"type":"document","file":"missing.warc.gz","directives":{"noindex":false,"nofollow":false,"noarchive":false,"nosnippet":false},"error":"no such file or directory"}` + "\n")
			var w bytes.Buffer
			crawl.NewWETWriter(&w, wet.Options{Gzip: true, Filename: "missing.warc.wet.gz", Fields: cliWETFields}).Close()
			wantWET = w.Bytes()
		} else {
			if (runErr != nil) != (row.Error != "") || (runErr != nil && runErr.Error() != row.Error) {
				t.Errorf("%s: the library's error %v, the row's %q", row.WARC, runErr, row.Error)
			}
			if sum.Documents != int(row.Documents) || sum.Bytes != row.Bytes || sum.Failed != int(row.Failed) || sum.Warnings != int(row.Warnings) {
				t.Errorf("%s: the library's summary %+v, the row %+v", row.WARC, sum, row)
			}
		}
		gotLines := gunzip(t, outs.JSONL)
		docLines := gotLines
		if runErr != nil {
			// The file's own error record last (checked below, and against
			// extract's in TestJSONLinesAreTheCLIsExtract).
			docLines = docLines[:bytes.LastIndexByte(docLines[:len(docLines)-1], '\n')+1]
		}
		if !bytes.Equal(docLines, wantLines) {
			g, w := strings.Split(string(docLines), "\n"), strings.Split(string(wantLines), "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Errorf("%s: JSON Lines record %d:\n%s\nthe library's:\n%s", row.WARC, i+1, g[i], w[i])
					break
				}
			}
			t.Errorf("%s: %d JSON Lines records, the library %d", row.WARC, len(g)-1, len(w)-1)
		}
		// A record per document, and one more for a file that ends in an
		// error.
		if n, want := bytes.Count(gotLines, []byte("\n")), row.Documents; row.Error != "" && int64(n) != want+1 || row.Error == "" && int64(n) != want {
			t.Errorf("%s: %d records for %d documents (error %q)", row.WARC, n, row.Documents, row.Error)
		}
		if gotWET, err := os.ReadFile(outs.WET); err != nil || !bytes.Equal(gotWET, wantWET) {
			t.Errorf("%s: the WET file (%d bytes, %v) is not the library's (%d bytes)", row.WARC, len(gotWET), err, len(wantWET))
		}
	}
	// What the records say, for the oracle: the broken file's second page
	// is cut short, with the text before the break; then a record named
	// by the file says it ends in an error, the row's.
	broken := strings.Split(strings.TrimSpace(string(gunzip(t, OutputsFor(out, "c.warc.gz").JSONL))), "\n")
	var cut, end crawl.Object
	if err := json.Unmarshal([]byte(broken[len(broken)-2]), &cut); err != nil || cut.File != "c.warc.gz#6" ||
		cut.Error == "" || cut.Text == nil || !strings.Contains(*cut.Text, "Long text before the file is cut.") {
		t.Errorf("the cut page's record: %+v (%v)", cut, err)
	}
	if err := json.Unmarshal([]byte(broken[len(broken)-1]), &end); err != nil || end.File != "c.warc.gz" ||
		!strings.Contains(end.Error, "cut short") || end.Error != byName(rows)["c.warc.gz"].Error {
		t.Errorf("the cut file's last record: %+v (%v)", end, err)
	}

	var report strings.Builder
	if failed, err := Report(context.Background(), out, &report); err != nil || failed != 2 ||
		!strings.Contains(report.String(), "4 WARC files (") ||
		!strings.Contains(report.String(), ": 7 documents (") ||
		!strings.Contains(report.String(), "\n  c.warc.gz: ") || !strings.Contains(report.String(), "\n  missing.warc.gz: open ") {
		t.Errorf("report (%d failed, %v):\n%s", failed, err, report.String())
	}

	parquetRows := readParquet(t, filepath.Join(out, SummaryParquet))
	if len(parquetRows) != len(rows) {
		t.Fatalf("%d Parquet rows, %d JSON rows", len(parquetRows), len(rows))
	}
	for _, r := range parquetRows {
		if byName(rows)[r.WARC] != r {
			t.Errorf("Parquet row %+v, JSON row %+v", r, byName(rows)[r.WARC])
		}
	}
	before := snapshot(t, out)
	for name := range before {
		if strings.Contains(name, ".tmp-") {
			t.Errorf("a temporary file left: %s", name)
		}
	}

	// Again, resuming: nothing is worked on, no file changes (the summary
	// tables are written again, with the same rows).
	cfg.Resume = true
	counts, err = runPipeline(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if counts[MetricProcessed] != 0 || counts[MetricSkipped] != 4 {
		t.Errorf("resuming: counters %v: want 0 files worked on, 4 skipped", counts)
	}
	after := snapshot(t, out)
	for name, was := range before {
		if name == SummaryJSONL || name == SummaryParquet {
			if strings.SplitN(after[name], " ", 2)[1] != strings.SplitN(was, " ", 2)[1] && name == SummaryJSONL {
				t.Errorf("resuming changed %s", name)
			}
			continue
		}
		if after[name] != was {
			t.Errorf("resuming wrote %s again", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("resuming: %d files, %d before", len(after), len(before))
	}
	if got := readParquet(t, filepath.Join(out, SummaryParquet)); len(got) != len(rows) {
		t.Errorf("resuming: %d Parquet rows, want %d", len(got), len(rows))
	}

	// Retrying the failed: the two files with an error are worked on
	// again, the others are not.
	cfg.RetryFailed = true
	counts, err = runPipeline(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if counts[MetricProcessed] != 2 || counts[MetricSkipped] != 2 {
		t.Errorf("retrying the failed: counters %v: want 2 files worked on, 2 skipped", counts)
	}
	again := snapshot(t, out)
	for _, name := range []string{"a.warc.extract.jsonl.gz", "sub/b.warc.wet.gz"} {
		if again[name] != before[name] {
			t.Errorf("retrying the failed wrote %s again", name)
		}
	}
	if again["c.warc.summary.json"] == before["c.warc.summary.json"] {
		t.Errorf("retrying the failed did not work on c.warc.gz again")
	}
}

// A glob names the files from its folder on.
func TestPipelineGlob(t *testing.T) {
	c := newTestCrawl(t)
	out := t.TempDir()
	if _, err := runPipeline(t, Config{Input: filepath.Join(c.in, "*.warc*"), Output: out}); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadSummary(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.WARC)
	}
	if got := strings.Join(names, " "); got != "a.warc c.warc.gz" {
		t.Errorf("the glob's files: %s", got)
	}
	if lines := gunzip(t, OutputsFor(out, "a.warc").JSONL); !bytes.HasPrefix(lines, []byte(`{"type":"document","file":"a.warc#3",`)) {
		t.Errorf("a.warc's first record: %.80s", lines)
	}
}

// A paths list cut short fails the job, before any file is worked on.
func TestPipelineFailsOnAShortList(t *testing.T) {
	c := newTestCrawl(t)
	b, _ := os.ReadFile(c.paths)
	os.WriteFile(c.paths, b[:len(b)-5], 0o644)
	out := t.TempDir()
	if _, err := runPipeline(t, Config{Paths: c.paths, InputBase: c.in, Output: out}); err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Fatalf("a paths list cut short: the job's error is %v", err)
	}
	if files := snapshot(t, out); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

// A plain paths list read short (fewer bytes than its file's size) is an
// error.
func TestPlainPathsListReadShort(t *testing.T) {
	dir := t.TempDir()
	text, want := pathsList(100)
	name := "testfs://" + filepath.Join(dir, "list.short")
	if err := os.WriteFile(localName(name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadPathsList(context.Background(), name); err != nil || len(got) != len(want) {
		t.Fatalf("%d of %d paths, %v", len(got), len(want), err)
	}
	setFaults(".short", "", false)
	defer setFaults("", "", false)
	if got, err := ReadPathsList(context.Background(), name); err == nil || !strings.Contains(err.Error(), "bytes of") {
		t.Errorf("read short: %d of %d paths, %v", len(got), len(want), err)
	}
}

// An output that cannot be written fails its file's bundle and leaves
// nothing under its name, not half a file, whether the worker cleans up
// (its temporary files are removed) or not (killed: they stay, under their
// temporary names); a run again (resuming) writes it whole.
func TestOutputWholeOrAbsent(t *testing.T) {
	c := newTestCrawl(t)
	defer setFaults("", "", false)
	for _, killed := range []bool{false, true} {
		dir := t.TempDir()
		cfg := Config{Paths: c.paths, InputBase: c.in, Output: "testfs://" + dir}
		setFaults("", "b.warc.wet.gz.tmp-", killed)
		if _, err := runPipeline(t, cfg); err == nil || !strings.Contains(err.Error(), "no space left on device (testfs)") {
			t.Fatalf("a write failing: the job's error is %v", err)
		}
		if faults.failures != 1 {
			t.Fatalf("%d writes failed, want 1", faults.failures)
		}
		temps := 0
		for name := range snapshot(t, dir) {
			switch {
			case strings.Contains(name, ".tmp-"):
				temps++
			case strings.HasPrefix(name, "sub/"):
				t.Errorf("killed %v: after the failure: %s", killed, name)
			}
		}
		if (temps > 0) != killed {
			t.Errorf("killed %v: %d temporary files left", killed, temps)
		}
		if !killed {
			continue
		}
		setFaults("", "", false)
		cfg.Resume = true
		if _, err := runPipeline(t, cfg); err != nil {
			t.Fatal(err)
		}
		outs := OutputsFor(dir, "sub/b.warc.gz")
		wantLines, wantWET, _, _ := library(t, "sub/b.warc.gz", c.files["sub/b.warc.gz"], cfg.Settings)
		gotWET, _ := os.ReadFile(outs.WET)
		if !bytes.Equal(gunzip(t, outs.JSONL), wantLines) || !bytes.Equal(gotWET, wantWET) {
			t.Errorf("after the run again, b.warc.gz's outputs are not the library's")
		}
	}
}

// The summary tables are written whole or not at all: a write that fails,
// or a Close that fails (where a cloud store completes an upload), fails
// the job and leaves no file under the table's name.
func TestSummaryWholeOrAbsent(t *testing.T) {
	c := newTestCrawl(t)
	defer setFaults("", "", false)
	for _, table := range []string{SummaryParquet, SummaryJSONL} {
		for _, atClose := range []bool{false, true} {
			dir := t.TempDir()
			if atClose {
				setFaults("", "", false)
				setFailClose(table)
			} else {
				setFaults("", table, false)
			}
			_, err := runPipeline(t, Config{Paths: c.paths, InputBase: c.in, Output: "testfs://" + dir})
			if err == nil || !strings.Contains(err.Error(), "(testfs)") {
				t.Errorf("%s, failing at close %v: the job's error is %v", table, atClose, err)
			}
			if faults.failures != 1 {
				t.Errorf("%s, failing at close %v: %d writes failed, want 1", table, atClose, faults.failures)
			}
			if _, err := os.Stat(filepath.Join(dir, table)); err == nil {
				t.Errorf("%s, failing at close %v: written under its name", table, atClose)
			}
		}
	}
}

// A WARC file whose reading fails (an I/O error) or panics costs that
// file's row, not the job: its outputs hold the documents before, then its
// error record, as extract writes it (the error without the file's
// path, which the record names); the other files are worked on.
func TestABadFileIsItsRow(t *testing.T) {
	c := newTestCrawl(t)
	defer setFaults("", "", false)
	setFaults("", "", false)
	setBadReads("b.warc.gz", "a.warc")
	out := t.TempDir()
	counts, err := runPipeline(t, Config{Paths: c.paths, InputBase: "testfs://" + c.in, Output: out})
	if err != nil {
		t.Fatalf("the job failed: %v", err)
	}
	if counts[MetricProcessed] != 4 || counts[MetricFailed] != 4 {
		t.Errorf("counters %v: want 4 files worked on, 4 with an error", counts)
	}
	rows, err := ReadSummary(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.warc": "panic", "sub/b.warc.gz": ": input/output error"} {
		row := byName(rows)[name]
		lines := strings.Split(strings.TrimSuffix(string(gunzip(t, OutputsFor(out, name).JSONL)), "\n"), "\n")
		var last crawl.Object
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(row.Error, want) || last.File != name || last.Error != row.Error || strings.Contains(last.Error, c.in) {
			t.Errorf("%s: row error %q, last record %+v", name, row.Error, last)
		}
		switch {
		case name == "a.warc":
			// A panic leaves crawl.Run's counts unknown; the row says so.
			if row.Documents != 0 || !strings.Contains(row.Error, "after a.warc#3") || !strings.Contains(row.Error, "the counts are not known") || len(lines) != 2 {
				t.Errorf("%s: %d records; row %+v", name, len(lines), row)
			}
		case row.Documents == 0 || int64(len(lines)) != row.Documents+1:
			t.Errorf("%s: %d records for %d documents before the error", name, len(lines), row.Documents)
		}
	}
}

// Every output is synced to the disk before it is renamed to its name:
// after a crash, a file of an output's name is whole, as --resume takes
// it to be.
func TestOutputsSyncedBeforeTheirRename(t *testing.T) {
	c := newTestCrawl(t)
	defer setFaults("", "", false)
	setFaults("", "", false)
	if _, err := runPipeline(t, Config{Paths: c.paths, InputBase: c.in, Output: "testfs://" + t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	// 3 outputs for each of the 4 files, and the 2 tables.
	if faults.renames != 14 || len(faults.renamedUnsynced) > 0 {
		t.Errorf("%d renames; renamed before they were synced: %q", faults.renames, faults.renamedUnsynced)
	}
}
