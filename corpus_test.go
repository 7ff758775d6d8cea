package robofilter

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/phrase"
)

func sharedCorpus(t *testing.T, sub string) []string {
	return shared.Glob(t, filepath.Join("corpus", sub, "*"))
}

// Every corpus page comes out of the archive byte for byte, unless the page
// itself asks for no archive (then nothing) or marks no-archive regions.
func TestArchiveIsByteIdenticalOnCorpusPages(t *testing.T) {
	var identical, withheld, elided int
	for _, f := range sharedCorpus(t, "html") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var archive bytes.Buffer
		noArchiveRegions := 0
		out := Outputs{Archive: &archive, Region: func(r filter.Region) error {
			if r.Off&filter.NoArchive != 0 {
				noArchiveRegions++
			}
			return nil
		}}
		res, err := Process(bytes.NewReader(src), Options{}, out)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		switch {
		case res.Directives.NoArchive || res.Directives.NoSnippet:
			withheld++
			if archive.Len() != 0 {
				t.Errorf("%s: the page says noarchive, yet %d bytes were written", f, archive.Len())
			}
		case noArchiveRegions > 0:
			elided++
			if archive.Len() >= len(src) {
				t.Errorf("%s: %d no-archive regions, yet nothing was elided", f, noArchiveRegions)
			}
		case !bytes.Equal(archive.Bytes(), src):
			t.Errorf("%s: archive differs from the input (%d vs %d bytes)", f, archive.Len(), len(src))
		default:
			identical++
		}
	}
	t.Logf("%d pages byte-identical, %d withheld by a noarchive directive, %d with no-archive regions elided", identical, withheld, elided)
}

// All outputs of a page are the same whether it is read whole or a byte at
// a time.
func TestCorpusPagesSameAtEveryChunking(t *testing.T) {
	files := sharedCorpus(t, "html")
	for i, f := range files {
		if testing.Short() && i%10 != 0 {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		whole := renderAll(t, bytes.NewReader(src))
		readers := []io.Reader{chunked.Reader(bytes.NewReader(src), 333), chunked.Reader(bytes.NewReader(src), 4096+7)}
		if len(src) < 64<<10 {
			// A byte at a time costs a Read call per byte: small pages only
			// (the golden cases run every chunk size from 1 up).
			readers = append(readers, chunked.Reader(bytes.NewReader(src), 1))
		}
		for _, r := range readers {
			if got := renderAll(t, r); got != whole {
				t.Fatalf("%s: output depends on how the input is read", f)
			}
		}
	}
}

func renderAll(t *testing.T, r io.Reader) string {
	var text, archive bytes.Buffer
	var links int
	_, err := Process(r, Options{}, Outputs{Text: phrase.NewWriter(&text), Archive: &archive,
		Link: func(filter.Link) error { links++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return text.String() + "\x00" + archive.String() + "\x00" + string(rune(links))
}
