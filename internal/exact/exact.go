// Package exact reads a stretch of known length: a WARC record's block, an
// HTTP body of a given Content-Length.
package exact

import "io"

// Reader reads the next n bytes of r; r ending before them is
// io.ErrUnexpectedEOF (io.LimitReader would end quietly).
func Reader(r io.Reader, n int64) *LengthReader { return &LengthReader{r: r, N: n} }

// LengthReader is Reader's: N is how many bytes are left to read.
type LengthReader struct {
	r io.Reader
	N int64
}

func (l *LengthReader) Read(p []byte) (int, error) {
	if l.N <= 0 {
		return 0, io.EOF
	}
	n, err := l.r.Read(p[:min(int64(len(p)), l.N)])
	l.N -= int64(n)
	if err == io.EOF && l.N > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}
