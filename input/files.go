package input

import (
	"io"
	"io/fs"
)

// BareError is err without the "op NAME: " an *fs.PathError puts before
// its cause ("open crawl.warc.gz: no such file or directory" is "no such
// file or directory"): for messages and records that name the file
// already, as the CLI's and the Beam pipeline's do, alike.
func BareError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// BareReadErrors reads r, whose errors other than io.EOF it gives as
// BareError does.
func BareReadErrors(r io.Reader) io.Reader { return bareReadErrors{r} }

type bareReadErrors struct{ io.Reader }

func (r bareReadErrors) Read(p []byte) (int, error) {
	n, err := r.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = BareError(err)
	}
	return n, err
}
