// Package shared locates the project's shared documents for tests: the
// corpus, the seeds, the html5lib inputs and the conformance cases. They
// live beside the checkout (../shared from the module's root), never in
// it; ROBOFILTER_SHARED names another place. Tests that need them skip
// with a message where they are absent, and everything else still runs.
package shared

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared documents' folder, or "" when there is none.
func Dir() string {
	if d := os.Getenv("ROBOFILTER_SHARED"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	// The module's root is the nearest folder up with this module's
	// go.mod; the tests of nested modules look from theirs too.
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if d := filepath.Join(dir, "..", "shared"); isDir(d) {
				return filepath.Clean(d)
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// Path returns a path inside the shared documents (elems joined), or
// skips the test, with a message, when it does not exist.
func Path(t testing.TB, elems ...string) string {
	t.Helper()
	dir := Dir()
	if dir == "" {
		t.Skip("skipping: no shared documents beside the checkout (../shared, or $ROBOFILTER_SHARED)")
	}
	p := filepath.Join(append([]string{dir}, elems...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: %s is not in the shared documents", filepath.Join(elems...))
	}
	return p
}

// Glob returns the shared documents matching a pattern inside them
// (corpus/html/*.html), or skips the test when there are none.
func Glob(t testing.TB, pattern string) []string {
	t.Helper()
	dir := Dir()
	if dir == "" {
		t.Skip("skipping: no shared documents beside the checkout (../shared, or $ROBOFILTER_SHARED)")
	}
	files, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(files) == 0 {
		t.Skipf("skipping: nothing in the shared documents matches %s", pattern)
	}
	return files
}

// Walk returns every file under a folder of the shared documents
// (corpus/xml), in lexical order, or skips the test when there are none.
func Walk(t testing.TB, folder string) []string {
	t.Helper()
	root := Path(t, folder)
	var files []string
	_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skipf("skipping: no files under %s in the shared documents", folder)
	}
	return files
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Files returns the shared documents matching a pattern inside them, or
// none (for tests that use them where they are and run without them).
func Files(pattern string) []string {
	dir := Dir()
	if dir == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, pattern))
	return files
}
