package apidoc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
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
