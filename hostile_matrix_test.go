package robofilter_test

import (
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/feed"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/internal/hostile"
)

// The hostile-shape matrix (issue 24, docs/hostile.md): every shape of
// internal/hostile in every mode that reads it, at two sizes. Doubling
// the input must not much more than double the work, and the memory held
// while it is read must be what the documented limits allow
// (docs/limits.md): a constant, or a token, the open elements or a
// records-mode entry.

var (
	hostileSize  = flag.Int("hostile.size", 1<<20, "bytes per shape in BenchmarkHostileMatrix")
	hostileCells = flag.String("hostile.cells", "", "only the matrix's cells whose name (mode/shape) matches this regular expression (every cell of every shape, in the test)")
)

// A matrixCell is a shape read in a mode.
type matrixCell struct {
	shape hostile.Shape
	mode  hostile.Mode
}

func (c matrixCell) String() string { return c.mode.String() + "/" + c.shape.Name }

// matrixCells are every shape in every mode that reads it: HTML and XML
// documents as they are, as saved HTTP responses and in WARC files; feeds
// in records mode; HTTP and WARC framing as what they are.
func matrixCells() []matrixCell {
	var cells []matrixCell
	for _, s := range hostile.Shapes() {
		cells = append(cells, matrixCell{s, s.Mode})
		if s.Mode == hostile.HTML || s.Mode == hostile.XML {
			cells = append(cells, matrixCell{s, hostile.HTTP}, matrixCell{s, hostile.WARC})
		}
	}
	return cells
}

// testedCells are the cells TestHostileMatrix reads: every shape in its
// own mode, and as a saved HTTP response and in a WARC file every shape
// but the long runs and tokens, of which one in eight (their body is
// framed alike whatever its bytes; the framing's own shapes are cells of
// their own). With the race detector, which makes the matrix ten times
// slower and can find nothing in it (one goroutine), a sample: one run in
// 32, one other shape in 6, and one in 24 of those framed.
func testedCells() []matrixCell {
	var cells []matrixCell
	for k, s := range hostile.Shapes() {
		run := strings.HasPrefix(s.Name, "run/") || strings.HasPrefix(s.Name, "token/")
		every, framed := 1, 8
		switch {
		case raceDetector && run:
			every, framed = 32, 1<<30
		case raceDetector:
			every, framed = 6, 24
		case !run:
			framed = 1
		}
		if k%every != 0 {
			continue
		}
		cells = append(cells, matrixCell{s, s.Mode})
		if (s.Mode == hostile.HTML || s.Mode == hostile.XML) && k%framed == 0 {
			cells = append(cells, matrixCell{s, hostile.HTTP}, matrixCell{s, hostile.WARC})
		}
	}
	return cells
}

// input is the cell's input of about n bytes.
func (c matrixCell) input(n int) string {
	if c.mode == c.shape.Mode {
		return c.shape.Make(n)
	}
	return hostile.Wrap(c.shape.Make(n), c.shape.Mode, c.mode)
}

// discard are outputs that go nowhere: every output is made, or every
// one but the archive copy.
func discard(archive bool) robofilter.Outputs {
	out := robofilter.Outputs{
		Text:        robofilter.NewTextWriter(io.Discard),
		ArchiveText: robofilter.NewTextWriter(io.Discard),
		Link:        func(robofilter.Link) error { return nil },
		Region:      func(robofilter.Region) error { return nil },
	}
	if archive {
		out.Archive = io.Discard
	}
	return out
}

// run reads r as the cell's mode does, every output made and dropped.
// The error is the document's (or the input's), which many shapes have: a
// limit, XML that is not well-formed.
func (c matrixCell) run(r io.Reader, opts robofilter.Options, archive bool) error {
	opts.Base = "http://e.example/dir/"
	switch c.mode {
	case hostile.HTML, hostile.XML:
		opts.Format = robofilter.HTML
		if c.mode == hostile.XML {
			opts.Format = robofilter.XML
		}
		_, err := robofilter.Process(r, opts, discard(archive))
		return err
	case hostile.Records:
		_, err := feed.Process(r, "//item", opts, func(feed.Entry) error { return nil })
		return err
	}
	kind := input.HTTP
	if c.mode == hostile.WARC {
		kind = input.WARC
	}
	in := input.NewReader("in", r, kind, opts)
	var first error
	for {
		doc, err := in.Next()
		if err == io.EOF {
			return first
		}
		if err != nil {
			return err
		}
		if doc.Err != nil {
			first = firstErr(first, doc.Err)
			continue
		}
		if _, err := robofilter.Process(doc.Body, doc.Options, discard(archive)); err != nil {
			first = firstErr(first, err)
		}
	}
}

// firstErr is the first of two errors that is not nil.
func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// matrixOptions are the limits a cell of sizes n and 2n runs with: a
// token limit of n/2, so that text comes in pieces of n/4 (half the
// limit), several in each size. A shape that is one token runs with the
// default limits, so that its whole length is read.
func matrixOptions(s hostile.Shape, n int) robofilter.Options {
	if s.Holds == hostile.HoldsToken {
		return robofilter.Options{}
	}
	return robofilter.Options{MaxTokenSize: n / 2}
}

// threadCPU is the CPU time of the calling thread.
func threadCPU() time.Duration { return hostile.ThreadCPU() }

// sampler is a reader that, at the middle of its input and at its end,
// collects the garbage and notes the live heap: what the reading holds
// while it is under way.
type sampler struct {
	r         io.Reader
	n, read   int
	next      int
	base, max uint64
}

func (s *sampler) Read(p []byte) (int, error) {
	k, err := s.r.Read(p)
	s.read += k
	if s.read >= s.next {
		s.next = s.n // then at the end
		if s.read >= s.n {
			s.next = math.MaxInt
		}
		s.sample()
	}
	return k, err
}

func (s *sampler) sample() {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	if m.HeapAlloc > s.base {
		s.max = max(s.max, m.HeapAlloc-s.base)
	}
}

// cellCost is the work and memory of a cell at one size.
type cellCost struct {
	size          int
	allocs, bytes uint64        // allocated while it ran
	cpu           time.Duration // CPU time of the thread that ran it
	live          uint64        // the largest live heap sampled, above the heap before
}

// measure runs the cell once over in, on one thread: what it allocates,
// holds and takes of CPU time. The memory is measured without the archive
// copy, which holds up to 4 MiB before the body's first content (or
// before anything but white space in XML): at the matrix's sizes, the
// whole input of a shape that stands in the head (docs/limits.md, the
// head); the CPU time and the allocations are measured with it.
func (c matrixCell) measure(in string, opts robofilter.Options) cellCost {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	live := c.measureLive(in, opts)
	var before, after runtime.MemStats
	// Two collections empty the pools (a sync.Pool keeps what it held
	// for one more): the run grows its windows from nothing, whatever
	// the run before it left, at either size.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	t := threadCPU()
	c.run(strings.NewReader(in), opts, true) // many shapes end in an error: a limit, XML not well-formed
	cpu := threadCPU() - t
	runtime.ReadMemStats(&after)
	return cellCost{size: len(in), allocs: after.Mallocs - before.Mallocs, bytes: after.TotalAlloc - before.TotalAlloc,
		cpu: cpu, live: live}
}

// measureLive runs the cell once over in, without the archive copy: the
// largest live heap sampled.
func (c matrixCell) measureLive(in string, opts robofilter.Options) uint64 {
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := &sampler{r: strings.NewReader(in), n: len(in), next: len(in) / 2, base: before.HeapAlloc}
	c.run(s, opts, false)
	return s.max
}

// leastCPU is the least CPU time of reps runs of the cell over in, on
// one thread.
func (c matrixCell) leastCPU(in string, opts robofilter.Options, reps int) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	least := time.Duration(1 << 62)
	for range reps {
		runtime.GC()
		t := threadCPU()
		c.run(strings.NewReader(in), opts, true)
		least = min(least, threadCPU()-t)
	}
	return least
}

// The bounds of the matrix.
const (
	// workRatio: twice the input may cost at most this many times the
	// work (allocations, bytes allocated, CPU time).
	workRatio = 3.0
	// cpuSlack and allocSlack are added to the work of the smaller size,
	// for what costs the same at any size and measures unevenly.
	cpuSlack, allocSlack, bytesSlack = 2 * time.Millisecond, 256, 256 << 10
)

// heldPerByte is what a shape may hold per byte of its input, as
// docs/limits.md allows: nothing (a constant), or a token, the open
// elements, an entry as long as the input (each costs several times its
// bytes: the token and its attributes' offsets and strings; a node and
// its stack entries per element; xmlquery's tree).
var heldPerByte = map[hostile.Holding]uint64{
	hostile.HoldsNothing: 0,
	hostile.HoldsToken:   24,
	hostile.HoldsDepth:   160,
	hostile.HoldsEntry:   24,
	hostile.HoldsBounded: 0,
}

// heldFixed is what any run may hold whatever its size: buffers of a few
// pieces (32 KiB each here) and the lists the limits bound by their count
// (the head's 4,096 links take 1.5 MB, the title's 64 KiB of words up to
// 2.5 MB, 10,000 robot numbers 0.6 MB, 1,000 warnings about 1 MB).
const heldFixed = 4 << 20

// matrixSizes are the two sizes of a cell: a quarter for a heavy shape.
func matrixSizes(c matrixCell) (int, int) {
	n := 128 << 10
	if raceDetector {
		n = 32 << 10
	}
	if c.shape.Heavy {
		n /= 4
	}
	return n, 2 * n
}

// TestHostileMatrix: every cell at two sizes (testedCells). Twice the
// input costs at most about twice the allocations, bytes allocated and
// CPU time (three times is the bound: a CPU time over it is measured
// again, the least of several runs, before the cell fails), and the live
// heap sampled while it is read stays within what the limits allow: at
// most heldFixed, and where the shape holds nothing, no more at 8n than
// at 2n but a quarter of the difference (what settles, a buffer, a pool);
// where it holds a token, the open elements or an entry, heldPerByte a
// byte of the input more.
func TestHostileMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the matrix takes a while; not in -short")
	}
	// The collector runs where the matrix says (before each run, and where
	// it samples the live heap), not as allocations come: the CPU times
	// are the reading's, and the test spends less on collections.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	cells := testedCells()
	if *hostileCells != "" {
		cells = selectCells(t, matrixCells(), *hostileCells)
	}
	var lines []string
	for _, c := range cells {
		n1, n2 := matrixSizes(c)
		opts := matrixOptions(c.shape, n1)
		small, large := c.input(n1), c.input(n2)
		done := watchdog(c.String(), 2*time.Minute)
		costs := [2]cellCost{c.measure(small, opts), c.measure(large, opts)}
		for reps := 3; overRatio(float64(costs[0].cpu+cpuSlack), float64(costs[1].cpu)) && reps <= 9; reps += 3 {
			// A slow run is more often the machine than the work: measure
			// again, the least of more runs each time.
			costs[0].cpu, costs[1].cpu = c.leastCPU(small, opts, reps), c.leastCPU(large, opts, reps)
		}
		grew := c.shape.Holds == hostile.HoldsNothing && costs[1].live > costs[0].live+uint64(n1)/4+64<<10
		var live8 uint64
		if grew {
			// What grows from n to 2n may be a buffer or a pool that
			// settles: at 8n, what holds nothing holds no more.
			live8 = c.measureLive(c.input(8*n1), opts)
		}
		done()
		if grew && live8 > costs[1].live+uint64(6*n1)/4 {
			t.Errorf("%s: %d bytes live at %d bytes of input, %d at %d, %d at %d: it holds what grows with the input",
				c, costs[0].live, costs[0].size, costs[1].live, costs[1].size, live8, 8*n1)
		}
		lines = append(lines, fmt.Sprintf("%-80s %9d %9d allocs %11d %11d B %9v %9v cpu %9d %9d live", c,
			costs[0].allocs, costs[1].allocs, costs[0].bytes, costs[1].bytes,
			costs[0].cpu.Round(time.Microsecond), costs[1].cpu.Round(time.Microsecond), costs[0].live, costs[1].live))
		for _, f := range checkCell(c, costs) {
			t.Errorf("%s: %s", c, f)
		}
	}
	if testing.Verbose() {
		t.Logf("%d cells:\n%s", len(lines), strings.Join(lines, "\n"))
	}
}

// overRatio reports whether b is more than workRatio times a.
func overRatio(a, b float64) bool { return b > workRatio*a }

// checkCell is what is wrong with a cell's costs at two sizes.
func checkCell(c matrixCell, costs [2]cellCost) []string {
	var fails []string
	s, l := costs[0], costs[1]
	if overRatio(float64(s.allocs+allocSlack), float64(l.allocs)) {
		fails = append(fails, fmt.Sprintf("%d allocations at %d bytes, %d at %d", s.allocs, s.size, l.allocs, l.size))
	}
	if overRatio(float64(s.bytes+bytesSlack), float64(l.bytes)) {
		fails = append(fails, fmt.Sprintf("%d bytes allocated at %d bytes, %d at %d", s.bytes, s.size, l.bytes, l.size))
	}
	if overRatio(float64(s.cpu+cpuSlack), float64(l.cpu)) {
		fails = append(fails, fmt.Sprintf("%v of CPU time at %d bytes, %v at %d (the least of several runs)", s.cpu, s.size, l.cpu, l.size))
	}
	perByte := heldPerByte[c.shape.Holds]
	for _, k := range costs {
		if limit := heldFixed + perByte*uint64(k.size); k.live > limit {
			fails = append(fails, fmt.Sprintf("%d bytes live at %d bytes of input, over %d (a shape that holds %s)", k.live, k.size, limit, c.shape.Holds))
		}
	}
	return fails
}

// watchdog stops the test binary with the cell's name if it runs longer
// than d: a cell that stalls fails, naming itself, rather than hanging
// until the test's timeout. done stops the watch.
func watchdog(name string, d time.Duration) (done func()) {
	stop := make(chan struct{})
	go func() {
		select {
		case <-stop:
		case <-time.After(d):
			panic(fmt.Sprintf("hostile matrix: %s has run for %v: it stalls", name, d))
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(stop) }) }
}

// selectCells are the cells whose name matches expr.
func selectCells(t testing.TB, cells []matrixCell, expr string) []matrixCell {
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatalf("-hostile.cells: %v", err)
	}
	var sel []matrixCell
	for _, c := range cells {
		if re.MatchString(c.String()) {
			sel = append(sel, c)
		}
	}
	return sel
}

// BenchmarkHostileMatrix reports MB/s for every cell at -hostile.size
// bytes (1 MiB unless said), with the default limits (those of the CLI),
// beside the floor of each mode: an ordinary input of the same size.
func BenchmarkHostileMatrix(b *testing.B) {
	cells := append(floorCells(), matrixCells()...)
	if *hostileCells != "" {
		cells = selectCells(b, cells, *hostileCells)
	}
	for _, c := range cells {
		in := c.input(*hostileSize)
		b.Run(strings.ReplaceAll(c.String(), " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				c.run(strings.NewReader(in), robofilter.Options{}, true) // many shapes end in an error: a limit, XML not well-formed
			}
		})
	}
}

// floorCells are the floors: an ordinary input of each mode.
func floorCells() []matrixCell {
	var cells []matrixCell
	for _, s := range hostile.Floors() {
		cells = append(cells, matrixCell{s, s.Mode})
	}
	return cells
}
