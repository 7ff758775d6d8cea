package apidoc

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/api.md")

// docs/api.md lists the public surface as the source has it.
func TestAPIDocIsCurrent(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Write(root)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "docs", "api.md")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/api.md is not the source's public surface: run go test ./internal/apidoc -update")
	}
}

// Every library package of the module (not internal/, cmd/, testdata or a
// nested module) is in Packages: a new one is not left out of docs/api.md.
func TestPackagesAreEveryLibraryPackage(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, p := range Packages {
		listed[p] = true
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "internal" || name == "cmd" || name == "testdata" || name == "docs" || name == "scripts") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") {
			dir := filepath.ToSlash(filepath.Dir(rel))
			if !listed[dir] {
				t.Errorf("package %s is not in apidoc.Packages", dir)
				listed[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
