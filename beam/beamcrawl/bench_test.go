//go:build unix

package beamcrawl

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robofilter/robofilter/internal/warcgen"
)

// BenchmarkCrawl runs a generated crawl (ROBOFILTER_BEAM_BENCH_MB MB of
// WARC records, 1024 unless set, in files of 64 MB, gzip as Common Crawl
// ships them) three ways: the pipeline on Prism in this process; the same
// work without Beam (ProcessFile over each file in turn, what the DoFn
// does); the CLI, robofilter extract --files-from --output-dir --gzip
// --jobs 1, which writes the same JSON Lines (not the WET file). Metrics:
// MB of records a second (wall time), seconds per file, and CPU seconds per
// file (this process's, or the CLI's), whose inverse is the throughput
// per core.
//
//	go test -run '^$' -bench Crawl -benchtime 1x ./beamcrawl
func BenchmarkCrawl(b *testing.B) {
	mb := 1024
	if s := os.Getenv("ROBOFILTER_BEAM_BENCH_MB"); s != "" {
		var err error
		if mb, err = strconv.Atoi(s); err != nil || mb < 1 {
			b.Fatalf("ROBOFILTER_BEAM_BENCH_MB=%q: give a number of MB", s)
		}
	}
	const fileMB = 64
	in := b.TempDir()
	var names []string
	var stored int64
	for i := 0; i*fileMB < mb; i++ {
		var buf bytes.Buffer
		if _, err := warcgen.Write(&buf, warcgen.Options{Bytes: int64(min(fileMB, mb-i*fileMB)) << 20, Gzip: true, Seed: int64(i)}); err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("crawl/CC-MAIN-%05d.warc.gz", i)
		writeFile(b, filepath.Join(in, name), buf.Bytes())
		names, stored = append(names, name), stored+int64(buf.Len())
	}
	list := filepath.Join(in, "warc.paths")
	writeFile(b, list, []byte(strings.Join(names, "\n")+"\n"))
	b.Logf("%d files, %d MB of records, %d MB gzip", len(names), mb, stored>>20)

	report := func(b *testing.B, wall time.Duration, cpu float64) {
		n := float64(b.N)
		b.ReportMetric(float64(mb)*n/wall.Seconds(), "MB/s")
		b.ReportMetric(wall.Seconds()/n/float64(len(names)), "s/file")
		b.ReportMetric(cpu/n/float64(len(names)), "cpu-s/file")
		b.ReportMetric(0, "ns/op")
	}
	b.Run("prism", func(b *testing.B) {
		cpu0, start := cpuSeconds(syscall.RUSAGE_SELF), time.Now()
		for range b.N {
			if _, err := runPipeline(b, Config{Paths: list, InputBase: in, Output: b.TempDir()}); err != nil {
				b.Fatal(err)
			}
		}
		report(b, time.Since(start), cpuSeconds(syscall.RUSAGE_SELF)-cpu0)
	})
	b.Run("without-beam", func(b *testing.B) {
		cpu0, start := cpuSeconds(syscall.RUSAGE_SELF), time.Now()
		for range b.N {
			out := b.TempDir()
			for _, name := range names {
				row, err := ProcessFile(context.Background(), filepath.Join(in, name), name, OutputsFor(out, name), Settings{})
				if err != nil || row.Error != "" {
					b.Fatal(err, row.Error)
				}
			}
		}
		report(b, time.Since(start), cpuSeconds(syscall.RUSAGE_SELF)-cpu0)
	})
	b.Run("cli", func(b *testing.B) {
		cli := buildCLI(b)
		cpu0, start := cpuSeconds(syscall.RUSAGE_CHILDREN), time.Now()
		for range b.N {
			cmd := exec.Command(cli, "extract", "-q", "--warc", "--jobs", "1", "--files-from", list, "--input-base", in, "--output-dir", b.TempDir(), "--gzip")
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
		report(b, time.Since(start), cpuSeconds(syscall.RUSAGE_CHILDREN)-cpu0)
	})
}

// cpuSeconds is the user and system time of this process (RUSAGE_SELF) or
// of its children that ended (RUSAGE_CHILDREN).
func cpuSeconds(who int) float64 {
	var ru syscall.Rusage
	syscall.Getrusage(who, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
