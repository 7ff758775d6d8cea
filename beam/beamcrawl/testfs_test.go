package beamcrawl

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// testfs:// is the local file system with faults put in by the tests:
// reads of some files stop early, writes of some fail. The pipeline's
// workers run in the test's process (Prism's loopback), so they see the
// faults set here.
func init() {
	filesystem.Register("testfs", func(context.Context) filesystem.Interface { return testFS{} })
}

var faults struct {
	sync.Mutex
	// shortRead: files whose name contains it give only half their bytes.
	shortRead string
	// readError, readPanic: reads of files whose name contains it fail
	// with an I/O error (as os gives it, with the file's name), or panic,
	// after half their bytes.
	readError, readPanic string
	// failWrite: the next write to a file whose name contains it fails,
	// after what it wrote; failures counts those.
	failWrite string
	// failClose: the next file whose name contains it is written whole,
	// and its Close fails, as a cloud store's upload that does not
	// complete; failures counts those too.
	failClose string
	failures  int
	// noRemove: Remove does nothing, as when a worker is killed before it
	// cleans up.
	noRemove bool
	// synced: the files whose Sync was called; renamedUnsynced, those
	// renamed to their name before.
	synced          map[string]bool
	renames         int
	renamedUnsynced []string
}

func setFaults(shortRead, failWrite string, noRemove bool) {
	faults.Lock()
	defer faults.Unlock()
	faults.shortRead, faults.failWrite, faults.failures, faults.noRemove = shortRead, failWrite, 0, noRemove
	faults.failClose, faults.readError, faults.readPanic = "", "", ""
	faults.synced, faults.renames, faults.renamedUnsynced = map[string]bool{}, 0, nil
}

// setBadReads makes reads of the files whose name contains readError fail
// after half their bytes, and those of the files whose name contains
// readPanic panic.
func setBadReads(readError, readPanic string) {
	faults.Lock()
	defer faults.Unlock()
	faults.readError, faults.readPanic = readError, readPanic
}

// setFailClose makes the Close of the next file whose name contains name
// fail.
func setFailClose(name string) {
	faults.Lock()
	defer faults.Unlock()
	faults.failClose = name
}

type testFS struct{}

func localName(name string) string { return strings.TrimPrefix(name, "testfs://") }

func (testFS) Close() error { return nil }

func (testFS) List(_ context.Context, glob string) ([]string, error) {
	files, err := filepath.Glob(localName(glob))
	for i := range files {
		files[i] = "testfs://" + files[i]
	}
	return files, err
}

func (testFS) OpenRead(_ context.Context, name string) (io.ReadCloser, error) {
	f, err := os.Open(localName(name))
	if err != nil {
		return nil, err
	}
	faults.Lock()
	has := func(s string) bool { return s != "" && strings.Contains(name, s) }
	short, fail, panics := has(faults.shortRead), has(faults.readError), has(faults.readPanic)
	faults.Unlock()
	if !short && !fail && !panics {
		return f, nil
	}
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	half := io.LimitReader(f, info.Size()/2)
	if short {
		return struct {
			io.Reader
			io.Closer
		}{half, f}, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(half, badReader{name: localName(name), panics: panics}), f}, nil
}

// badReader fails, as a disk does (an *fs.PathError, as os gives it), or
// panics.
type badReader struct {
	name   string
	panics bool
}

func (r badReader) Read([]byte) (int, error) {
	if r.panics {
		panic("a read panics (testfs)")
	}
	return 0, &fs.PathError{Op: "read", Path: r.name, Err: syscall.EIO}
}

func (testFS) OpenWrite(_ context.Context, name string) (io.WriteCloser, error) {
	if err := os.MkdirAll(filepath.Dir(localName(name)), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(localName(name))
	if err != nil {
		return nil, err
	}
	faults.Lock()
	defer faults.Unlock()
	if faults.failWrite != "" && strings.Contains(name, faults.failWrite) {
		faults.failures++
		faults.failWrite = ""
		return &failingWriter{f: f, left: 100}, nil
	}
	if faults.failClose != "" && strings.Contains(name, faults.failClose) {
		faults.failures++
		faults.failClose = ""
		return failingCloser{f}, nil
	}
	return syncedFile{f, name}, nil
}

func (testFS) Size(_ context.Context, name string) (int64, error) {
	info, err := os.Stat(localName(name))
	if err != nil {
		return -1, err
	}
	return info.Size(), nil
}

func (testFS) Remove(_ context.Context, name string) error {
	faults.Lock()
	defer faults.Unlock()
	if faults.noRemove {
		return nil
	}
	return os.Remove(localName(name))
}

func (testFS) Rename(_ context.Context, from, to string) error {
	faults.Lock()
	faults.renames++
	if !faults.synced[from] {
		faults.renamedUnsynced = append(faults.renamedUnsynced, from)
	}
	faults.Unlock()
	return os.Rename(localName(from), localName(to))
}

// syncedFile notes its Sync calls.
type syncedFile struct {
	*os.File
	name string
}

func (f syncedFile) Sync() error {
	faults.Lock()
	if faults.synced == nil {
		faults.synced = map[string]bool{}
	}
	faults.synced[f.name] = true
	faults.Unlock()
	return f.File.Sync()
}

// failingWriter writes left bytes, then fails, as a disk that fills up.
type failingWriter struct {
	f    *os.File
	left int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		n, _ := w.f.Write(p[:w.left])
		w.left = 0
		return n, errors.New("no space left on device (testfs)")
	}
	w.left -= len(p)
	return w.f.Write(p)
}

func (w *failingWriter) Close() error { return w.f.Close() }

// failingCloser writes, then fails to close.
type failingCloser struct{ *os.File }

func (w failingCloser) Close() error {
	w.File.Close()
	return errors.New("the upload did not complete (testfs)")
}
