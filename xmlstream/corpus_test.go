package xmlstream

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/antchfx/xmlquery"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/shared"
	"golang.org/x/net/html/charset"
)

// corpusFiles lists every file under the shared corpus's xml folder.
func corpusFiles(t *testing.T) []string {
	root := shared.Path(t, "corpus", "xml")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("no files under %s", root)
	}
	return files
}

// TestCorpus runs every document of the shared XML corpus (feeds, feeds in
// 23 charsets, sitemaps, DocBook, and the odd non-XML file) through the XML
// stage: nothing may crash, a well-formed document's archive copy must be
// its bytes unless it has no-archive markup, an ill-formed one must
// fail with a position; and the number of links it lists must equal an
// independent count on xmlquery's DOM (for the documents xmlquery reads).
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	var ok, failed, compared int
	reasons := map[string]int{}
	for i, f := range files {
		if raceDetector && i%4 != 0 {
			continue // under -race, a quarter of the corpus: the whole of it runs without
		}
		input, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		oc := runXML(t, bytes.NewReader(input), filter.Options{Base: "http://example.com/"}, Options{})
		if oc.err != nil {
			failed++
			var pe *filter.PosError
			if !errors.As(oc.err, &pe) || pe.Pos.Line < 1 || pe.Pos.Col < 1 {
				t.Errorf("%s: error without a position: %v", f, oc.err)
			}
			msg := oc.err.Error()
			if i := strings.Index(msg, ": "); i >= 0 {
				msg = msg[i+2:]
			}
			reasons[msg]++
			if !bytes.HasPrefix(input, oc.archive) && !hasNoArchive(oc) {
				t.Errorf("%s: the archive copy written before the error is not a prefix of the input", f)
			}
			continue
		}
		ok++
		if !hasNoArchive(oc) && !bytes.Equal(oc.archive, input) {
			t.Errorf("%s: archive copy differs from the input (%d bytes, input %d)", f, len(oc.archive), len(input))
		}
		doc, err := xmlquery.ParseWithOptions(bytes.NewReader(input), xmlquery.ParserOptions{
			Decoder: &xmlquery.DecoderOptions{Strict: true, CharsetReader: charset.NewReaderLabel},
		})
		if err != nil {
			continue // xmlquery cannot read it (an undeclared entity, a charset it lacks)
		}
		compared++
		if want := independentLinkCount(doc); len(oc.links) != want {
			t.Errorf("%s: %d links listed, the DOM count is %d", f, len(oc.links), want)
		}
	}
	t.Logf("%d documents: %d well-formed, %d not; link counts compared on %d", len(files), ok, failed, compared)
	if compared == 0 {
		t.Error("no document's link count could be compared")
	}
	var keys []string
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %3d × %s", reasons[k], k)
	}
}

// hasNoArchive reports whether a run met any no-archive markup.
func hasNoArchive(oc outcome) bool {
	if oc.res.Directives.NoArchive || oc.res.Directives.NoSnippet {
		return true
	}
	for _, r := range oc.regions {
		if r.Off&filter.NoArchive != 0 {
			return true
		}
	}
	return false
}

// independentLinkCount counts, with XPath over the DOM xmlquery builds, the
// links the XML stage should list (followed or not). It is written from the
// rules, not from the stage's code: XLink simple and locator links, Atom
// link@href and content@src, RSS link text (and RSS 1.0's), RSS 2.0
// enclosure@url, sitemap loc, and XHTML a/area/link with href and
// frame/iframe with src.
func independentLinkCount(doc *xmlquery.Node) int {
	const xlink = "http://www.w3.org/1999/xlink"
	const rss2NS = `(namespace-uri()='' or namespace-uri()='http://backend.userland.com/rss2' or namespace-uri()='http://backend.userland.com/rss')`
	const rss2Root = `/*[local-name()='rss' and ` + rss2NS + `]`
	queries := []string{
		`//*[@*[local-name()='href' and namespace-uri()='` + xlink + `']]` +
			`[not(@*[local-name()='type' and namespace-uri()='` + xlink + `']) or @*[local-name()='type' and namespace-uri()='` + xlink + `' and (.='simple' or .='locator')]]` +
			`[not(namespace-uri()='http://www.w3.org/1999/xhtml' and (local-name()='a' or local-name()='area' or local-name()='link'))]` +
			`[not((namespace-uri()='http://www.w3.org/2005/Atom' or namespace-uri()='http://purl.org/atom/ns#') and local-name()='link' and @href)]`,
		`//*[(namespace-uri()='http://www.w3.org/2005/Atom' or namespace-uri()='http://purl.org/atom/ns#') and local-name()='link' and @href]`,
		`//*[(namespace-uri()='http://www.w3.org/2005/Atom' or namespace-uri()='http://purl.org/atom/ns#') and local-name()='content' and @src]`,
		rss2Root + `//*[local-name()='link' and ` + rss2NS + ` and not(@href) and normalize-space(.)!='']`,
		`//*[(namespace-uri()='http://purl.org/rss/1.0/' or namespace-uri()='http://my.netscape.com/rdf/simple/0.9/') and local-name()='link' and normalize-space(.)!='']`,
		rss2Root + `//*[local-name()='enclosure' and ` + rss2NS + ` and @url]`,
		`//*[(namespace-uri()='http://www.sitemaps.org/schemas/sitemap/0.9' or namespace-uri()='http://www.google.com/schemas/sitemap/0.84' or namespace-uri()='http://www.google.com/schemas/sitemap/0.9') and local-name()='loc' and normalize-space(.)!='']`,
		`/*[namespace-uri()='' and (local-name()='urlset' or local-name()='sitemapindex')]//*[local-name()='loc' and namespace-uri()='' and normalize-space(.)!='']`,
		`//*[namespace-uri()='http://www.w3.org/1999/xhtml' and (local-name()='a' or local-name()='area' or local-name()='link') and @href]`,
		`//*[namespace-uri()='http://www.w3.org/1999/xhtml' and (local-name()='frame' or local-name()='iframe') and @src]`,
		`//*[namespace-uri()='http://www.w3.org/2000/svg' and local-name()='a' and @href]`,
	}
	n := 0
	for _, q := range queries {
		n += len(xmlquery.Find(doc, q))
	}
	return n
}
