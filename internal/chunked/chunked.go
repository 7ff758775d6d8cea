// Package chunked has the reader the tests replay inputs through at every
// chunk size, so that a parser's output can be shown not to depend on how
// its input arrives.
package chunked

import "io"

// Reader returns a reader of r that hands out at most n bytes per Read.
func Reader(r io.Reader, n int) io.Reader { return &reader{r, n} }

type reader struct {
	r io.Reader
	n int
}

func (c *reader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}
