package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// errIsDir is the error of a file argument that is a directory.
var errIsDir = errors.New("is a directory")

// openInput opens a file named on the command line; a directory is
// refused here, as reading it would fail. Its error is the system's
// without the "open NAME: " os puts before it: every error line about a
// file starts with the file's name (robofilter: NAME: error: no such file
// or directory).
func openInput(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, bareError(err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, errIsDir
	}
	return f, nil
}

// bareError drops the "op NAME: " of an error about a file (fs.PathError).
func bareError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// bareReadErrors reads a file (or stdin) whose read errors are reported
// after its name, without the "read NAME: " os puts before them.
type bareReadErrors struct{ io.Reader }

func (r bareReadErrors) Read(p []byte) (int, error) {
	n, err := r.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = bareError(err)
	}
	return n, err
}
