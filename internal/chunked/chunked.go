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

// Failing serves src in reads of n bytes (all of it at once for 0) and
// then fails with err: with the last bytes when together is set
// (io.Reader allows a read to return bytes and an error), else on the
// read after them.
func Failing(src []byte, n int, together bool, err error) io.Reader {
	return &failing{src, n, together, err}
}

type failing struct {
	src      []byte
	n        int
	together bool
	err      error
}

func (r *failing) Read(p []byte) (int, error) {
	if len(r.src) == 0 {
		return 0, r.err
	}
	k := len(r.src)
	if r.n > 0 {
		k = min(k, r.n)
	}
	k = copy(p[:min(len(p), k)], r.src)
	r.src = r.src[k:]
	if len(r.src) == 0 && r.together {
		return k, r.err
	}
	return k, nil
}
