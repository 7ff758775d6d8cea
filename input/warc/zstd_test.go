package warc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/zstd"
)

// zstdWARC writes records as the IIPC's .warc.zst convention does: a
// frame per record, compressed with dict when it is given, and the
// dictionary first in a skippable frame (compressed with zstd when
// compressDict).
func zstdWARC(t testing.TB, records []string, dictionary []byte, compressDict bool) string {
	t.Helper()
	var b bytes.Buffer
	var opts []zstd.EOption
	if dictionary != nil {
		frame := dictionary
		if compressDict {
			enc, _ := zstd.NewWriter(nil)
			frame = enc.EncodeAll(dictionary, nil)
		}
		var head [8]byte
		binary.LittleEndian.PutUint32(head[:], zstdSkippableMagic)
		binary.LittleEndian.PutUint32(head[4:], uint32(len(frame)))
		b.Write(head[:])
		b.Write(frame)
		opts = append(opts, zstd.WithEncoderDict(dictionary))
	}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records {
		b.Write(enc.EncodeAll([]byte(r), nil))
	}
	return b.String()
}

func zstdRecords() []string {
	var records []string
	for i := range 40 {
		page := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>Page %d</title><p>%s", i, strings.Repeat("robots may index this text. ", i%7+1))
		records = append(records, record("response", fmt.Sprintf("http://example.com/%d", i), "application/http; msgtype=response", page))
	}
	return records
}

// A .warc.zst file, with its dictionary (compressed or not) or without
// one, gives the records the plain file gives, at every chunking; its
// positions count its decompressed bytes, and say so.
func TestZstdWARC(t *testing.T) {
	records := zstdRecords()
	samples := make([][]byte, len(records))
	for i, r := range records {
		samples[i] = []byte(r)
	}
	dictionary, err := dict.BuildZstdDict(samples, dict.Options{MaxDictSize: 4096, HashBytes: 6, ZstdDictID: 7})
	if err != nil {
		t.Fatal(err)
	}
	plain := readEveryWay(t, "plain", strings.Join(records, ""))
	if len(plain.records) != len(records) || plain.err != nil {
		t.Fatalf("plain: %d records, error %v", len(plain.records), plain.err)
	}
	for _, tc := range []struct {
		name         string
		dictionary   []byte
		compressDict bool
	}{
		{"no dictionary", nil, false},
		{"dictionary", dictionary, false},
		{"compressed dictionary", dictionary, true},
	} {
		in := zstdWARC(t, records, tc.dictionary, tc.compressDict)
		got := readEveryWay(t, tc.name, in)
		if got.err != nil || len(got.warnings) > 0 || len(got.records) != len(plain.records) {
			t.Fatalf("%s: %d records, warnings %q, error %v", tc.name, len(got.records), got.warnings, got.err)
		}
		for i, r := range got.records {
			want := plain.records[i]
			want.at.Zstd = true
			if r != want {
				t.Errorf("%s: record %d is %v, want %v", tc.name, i, r, want)
			}
		}
		if tc.dictionary != nil && len(in) >= len(zstdWARC(t, records, nil, false)) {
			t.Errorf("%s: %d bytes, no fewer than without the dictionary", tc.name, len(in))
		}
	}
	if s := (Position{Offset: 52, Zstd: true}).String(); s != "decompressed byte 52 of the zstd-compressed file" {
		t.Errorf("Position.String: %q", s)
	}
}

// A frame that does not decode ends the file with an error that says it
// is the decompression's, after the records before it.
func TestZstdWARCCorrupt(t *testing.T) {
	records := zstdRecords()[:3]
	enc, _ := zstd.NewWriter(nil)
	first := enc.EncodeAll([]byte(records[0]), nil)
	second := enc.EncodeAll([]byte(records[1]), nil)
	broken := append([]byte(nil), second...)
	for i := 8; i < len(broken)-4; i += 5 {
		broken[i] ^= 0x5A
	}
	got := readAll(bytes.NewReader(append(append(first, broken...), enc.EncodeAll([]byte(records[2]), nil)...)))
	if len(got.records) != 1 || got.err == nil || !strings.Contains(got.err.Error(), "zstd") {
		t.Fatalf("%d records, error %v: want the first record, then the zstd error", len(got.records), got.err)
	}
	// A dictionary frame that holds no dictionary, and one cut short.
	var head [8]byte
	binary.LittleEndian.PutUint32(head[:], zstdSkippableMagic)
	binary.LittleEndian.PutUint32(head[4:], 4)
	for name, in := range map[string]string{
		"no dictionary": string(head[:]) + "abcd" + string(first),
		"cut short":     string(head[:]) + "ab",
	} {
		if _, err := NewReader(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "dictionary") {
			t.Errorf("%s: error %v, want one about the dictionary frame", name, err)
		}
	}
}
