package input

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// A file's errors lose the "op NAME: " before their cause; others stay.
func TestBareErrors(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing"))
	if got := BareError(err); got != fs.ErrNotExist && !errors.Is(got, fs.ErrNotExist) || got.Error() != "no such file or directory" {
		t.Errorf("BareError(%v) = %v", err, got)
	}
	other := errors.New("not a path error")
	if BareError(other) != other {
		t.Errorf("BareError changed %v", other)
	}
	pe := &fs.PathError{Op: "read", Path: "crawl.warc.gz", Err: errors.New("input/output error")}
	if _, err := io.ReadAll(BareReadErrors(iotest.ErrReader(pe))); err == nil || err.Error() != "input/output error" {
		t.Errorf("read error %v", err)
	}
	if b, err := io.ReadAll(BareReadErrors(iotest.OneByteReader(strings.NewReader("ok")))); string(b) != "ok" || err != nil {
		t.Errorf("%q, %v", b, err)
	}
}
