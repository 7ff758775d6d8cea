package warc

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"sync"
	"testing"

	kpgzip "github.com/klauspost/compress/gzip"
	"github.com/robofilter/robofilter/internal/warcgen"
)

var (
	benchOnce sync.Once
	benchFile []byte // a generated Common Crawl-shaped .warc.gz
	benchRaw  int64  // its size decompressed
)

func benchWARC(b *testing.B) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		_, raw, err := warcgen.WriteSize(&buf, warcgen.Options{Bytes: 32 << 20, Gzip: true, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		benchFile, benchRaw = buf.Bytes(), raw
	})
	return benchFile
}

// BenchmarkRead reads every record's block of a generated 32 MB
// (decompressed) .warc.gz, beside the floor: the bare decompression loops
// of the standard library's gzip and klauspost's, over the same file. MB/s
// count decompressed bytes.
func BenchmarkRead(b *testing.B) {
	file := benchWARC(b)
	b.Run("records", func(b *testing.B) {
		b.SetBytes(benchRaw)
		b.ReportAllocs()
		for b.Loop() {
			if err := readRecords(file); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bare-stdlib-gzip", func(b *testing.B) {
		b.SetBytes(benchRaw)
		b.ReportAllocs()
		for b.Loop() {
			bareStdlibGzip(file)
		}
	})
	b.Run("bare-klauspost-gzip", func(b *testing.B) {
		b.SetBytes(benchRaw)
		b.ReportAllocs()
		for b.Loop() {
			bareKlauspostGzip(file)
		}
	})
}

// The benchmarks' loops are functions of their own, so that callgrind can
// count each one's instructions (--toggle-collect).

func readRecords(file []byte) error {
	rd, err := NewReader(bytes.NewReader(file))
	if err != nil {
		return err
	}
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		io.Copy(io.Discard, rec.Block)
	}
}

func bareStdlibGzip(file []byte) {
	zr, _ := stdgzip.NewReader(bytes.NewReader(file))
	io.Copy(io.Discard, zr)
}

func bareKlauspostGzip(file []byte) {
	zr, _ := kpgzip.NewReader(bytes.NewReader(file))
	io.Copy(io.Discard, zr)
}
