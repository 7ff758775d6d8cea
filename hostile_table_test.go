package robofilter_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/internal/hostile"
)

// The matrix's table (docs/hostile.md): every shape in its own mode and
// the floors, at -hostile.size bytes, read once in this process (MB/s of
// the thread's CPU time) and once by the CLI under /usr/bin/time -v (its
// peak RSS). Run by hand:
//
//	go build -o /tmp/robofilter ./cmd/robofilter
//	go test -run TestHostileMatrixTable -timeout 2h -hostile.size 16000000 \
//	    -hostile.table /tmp/hostile-table.md -hostile.cli /tmp/robofilter .
var (
	hostileTable = flag.String("hostile.table", "", "write the matrix's table (MB/s, peak RSS of the CLI) to this file")
	hostileCLI   = flag.String("hostile.cli", "", "the robofilter binary the table's peak RSS is measured with")
)

// cliArgs are the CLI's arguments that read a file in a cell's mode.
func cliArgs(m hostile.Mode, file string) []string {
	switch m {
	case hostile.XML:
		return []string{"text", "-q", "--xml", file}
	case hostile.Records:
		return []string{"text", "-q", "--records", "//item", file}
	case hostile.HTTP:
		return []string{"text", "-q", "--http", file}
	case hostile.WARC:
		return []string{"text", "-q", "--warc", file}
	}
	return []string{"text", "-q", "--html", file}
}

// peakRSS runs the CLI under /usr/bin/time -v and returns its peak RSS in
// bytes and its exit status.
func peakRSS(t *testing.T, args []string) (int64, int) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", *hostileCLI}, args...)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`).FindSubmatch(stderr.Bytes())
	if m == nil {
		t.Fatalf("no peak RSS in /usr/bin/time's report:\n%s", stderr.Bytes())
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	m = regexp.MustCompile(`Exit status: (\d+)`).FindSubmatch(stderr.Bytes())
	if m != nil {
		status, _ = strconv.Atoi(string(m[1]))
	}
	return kb << 10, status
}

// A tableRow is a cell's figures.
type tableRow struct {
	cell    matrixCell
	size    int
	read    int     // bytes of the input read: fewer where an error stopped the reading
	stopped bool    // an error stopped the reading before the input's end
	mbps    float64 // MB/s of the bytes read, by the thread's CPU time
	rss     int64
	status  int
}

// countingReader counts the bytes read.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += k
	return k, err
}

func TestHostileMatrixTable(t *testing.T) {
	if *hostileTable == "" || *hostileCLI == "" {
		t.Skip("writes the matrix's table with -hostile.table and -hostile.cli")
	}
	dir := t.TempDir()
	var cells []matrixCell
	cells = append(cells, floorCells()...)
	for _, s := range hostile.Floors() {
		if s.Mode == hostile.HTML {
			cells = append(cells, matrixCell{s, hostile.WARC})
		}
	}
	for _, s := range hostile.Shapes() {
		cells = append(cells, matrixCell{s, s.Mode})
	}
	if *hostileCells != "" {
		cells = selectCells(t, cells, *hostileCells)
	}
	var rows []tableRow
	for i, c := range cells {
		size := *hostileSize
		if c.shape.Heavy {
			size /= 16
		}
		in := c.input(size)
		file := filepath.Join(dir, "in")
		if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.LockOSThread()
		cr := &countingReader{r: strings.NewReader(in)}
		start := threadCPU()
		err := c.run(cr, robofilter.Options{}, true)
		cpu := threadCPU() - start
		runtime.UnlockOSThread()
		rss, status := peakRSS(t, cliArgs(c.mode, file))
		row := tableRow{cell: c, size: len(in), read: cr.n, stopped: err != nil && cr.n < len(in)-64<<10,
			mbps: float64(cr.n) / 1e6 / max(cpu.Seconds(), 1e-6), rss: rss, status: status}
		rows = append(rows, row)
		if testing.Verbose() {
			t.Logf("%d/%d %s: %d bytes, %d read, %v, %.1f MB/s, %.1f MB peak RSS, status %d, %v", i+1, len(cells), c, len(in), cr.n,
				cpu.Round(time.Millisecond), row.mbps, float64(rss)/1e6, status, err)
		}
	}
	if err := os.WriteFile(*hostileTable, []byte(renderTable(rows)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// renderTable writes the rows as Markdown: the floors and the shapes one
// a row, but the runs of one context, which are a row each context (the
// slowest class and the largest peak RSS among them).
func renderTable(rows []tableRow) string {
	type group struct {
		name, mode      string
		size            int
		slowest         float64
		slowestClass    string
		rss             int64
		rssClass        string
		members, failed int
		stopped         int
		stoppedAt       int
		heavy           bool
	}
	var order []string
	groups := map[string]*group{}
	for _, r := range rows {
		name, class := r.cell.shape.Name, ""
		if parts := strings.Split(name, "/"); (parts[0] == "run" || parts[0] == "token") && len(parts) == 4 {
			name, class = parts[0]+"/"+parts[1], parts[2]+" "+strings.TrimPrefix(parts[3], "ended=")
			class = strings.NewReplacer(" true", ", ended", " false", ", not ended").Replace(class)
		}
		key := r.cell.mode.String() + " " + name
		g := groups[key]
		if g == nil {
			g = &group{name: name, mode: r.cell.mode.String(), size: r.size, slowest: r.mbps, slowestClass: class, heavy: r.cell.shape.Heavy}
			groups[key] = g
			order = append(order, key)
		}
		g.members++
		if r.status != 0 {
			g.failed++
		}
		if r.stopped {
			g.stopped++
			g.stoppedAt = r.read
		}
		if r.mbps < g.slowest {
			g.slowest, g.slowestClass = r.mbps, class
		}
		if r.rss > g.rss {
			g.rss, g.rssClass = r.rss, class
		}
		g.size = max(g.size, r.size)
	}
	var b strings.Builder
	b.WriteString("| mode | shape | MB | MB/s | peak RSS (MB) | CLI status ≠ 0 | stops early |\n|---|---|--:|--:|--:|--:|--:|\n")
	for _, key := range order {
		g := groups[key]
		name := strings.ReplaceAll(g.name, "|", `\|`)
		name = strings.ReplaceAll(name, "<", "&lt;")
		speed := fmt.Sprintf("%.1f", g.slowest)
		rss := fmt.Sprintf("%.0f", float64(g.rss)/1e6)
		if g.members > 1 {
			speed += " (" + esc(g.slowestClass) + ")"
			rss += " (" + esc(g.rssClass) + ")"
			name += fmt.Sprintf(" (%d runs)", g.members)
		}
		failed, stopped := fmt.Sprint(g.failed), fmt.Sprint(g.stopped)
		if g.members == 1 {
			failed = map[bool]string{true: "yes", false: ""}[g.failed > 0]
			stopped = ""
			if g.stopped > 0 {
				stopped = fmt.Sprintf("at %.2f MB", float64(g.stoppedAt)/1e6)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f | %s | %s | %s | %s |\n", g.mode, name, float64(g.size)/1e6, speed, rss, failed, stopped)
	}
	return b.String()
}

// esc makes a class's name safe in a Markdown table.
func esc(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", "&", "&amp;", "\r", `\r`).Replace(s)
}
