package main

import (
	"errors"
	"os"

	"github.com/robofilter/robofilter/input"
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
		return nil, input.BareError(err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, errIsDir
	}
	return f, nil
}
