package exact

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReaderReadsExactlyNBytes(t *testing.T) {
	for _, tc := range []struct {
		in      string
		n       int64
		want    string
		wantErr error
	}{
		{"abcdef", 3, "abc", nil},
		{"abc", 3, "abc", nil},
		{"abc", 0, "", nil},
		{"ab", 3, "ab", io.ErrUnexpectedEOF},
		{"", 1, "", io.ErrUnexpectedEOF},
	} {
		for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in)), iotest.DataErrReader(strings.NewReader(tc.in))} {
			got, err := io.ReadAll(Reader(r, tc.n))
			if string(got) != tc.want || err != tc.wantErr {
				t.Errorf("%q, %d: %q, %v; want %q, %v", tc.in, tc.n, got, err, tc.want, tc.wantErr)
			}
		}
	}
}
