package robofilter

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/internal/shared"
)

func sniff(s string) Format { return Sniff(bufio.NewReader(strings.NewReader(s))) }

func TestSniff(t *testing.T) {
	long := strings.Repeat("x", 2000)
	for _, tc := range []struct {
		name, in string
		want     Format
	}{
		{"declaration", `<?xml version="1.0"?><r/>`, XML},
		{"after BOM and whitespace", "\xEF\xBB\xBF \n<?xml version=\"1.0\"?><r/>", XML},
		{"UTF-16LE with BOM", "\xFF\xFE<\x00?\x00x\x00m\x00l\x00 \x00", XML},
		{"UTF-16LE without BOM", "<\x00?\x00x\x00m\x00l\x00 \x00", XML},
		{"UTF-16BE without BOM", "\x00<\x00?\x00x\x00m\x00l\x00 ", XML},
		{"UTF-16LE rss without declaration", "\xFF\xFE<\x00r\x00s\x00s\x00>\x00", XML},
		{"HTML", "<!DOCTYPE html><p>x", HTML},
		{"html root", "<html><p>x", HTML},
		{"XHTML served as HTML", `<html xmlns="http://www.w3.org/1999/xhtml"><body>x`, HTML},
		{"XHTML doctype", `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"><html xmlns="http://www.w3.org/1999/xhtml">`, HTML},
		{"fragment", "<p>x</p>", HTML},
		{"fragment with a namespace", `<div xmlns="http://www.w3.org/1999/xhtml">x</div>`, HTML},
		{"text", "hello <rss>", HTML},
		{"empty", "", HTML},
		{"stylesheet PI", "<?xml-stylesheet href='a'?><html>", XML},
		{"other PI, then html", "<?php echo 1 ?><html>", HTML},
		{"rss", `<rss version="2.0"><channel>`, XML},
		{"rss, short", `<rss/>`, XML},
		{"atom", "<feed>", XML},
		{"atom with namespace", `<feed xmlns="http://www.w3.org/2005/Atom">`, XML},
		{"prefixed atom", `<atom:feed xmlns:atom="http://www.w3.org/2005/Atom">`, XML},
		{"RSS 1.0", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`, XML},
		{"sitemap", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`, XML},
		{"sitemap index", `<sitemapindex>`, XML},
		{"any root with a namespace", `<book xmlns="http://docbook.org/ns/docbook" version="5.0">`, XML},
		{"svg", `<svg xmlns="http://www.w3.org/2000/svg">`, XML},
		{"xmlns in a value is no declaration", `<book title="xmlns=1">`, HTML},
		{"after a comment", "<!-- a feed -->\n<rss version=\"2.0\">", XML},
		{"after a long comment", "<!--" + long + "-->\n<rss>", XML},
		{"after a DOCTYPE", `<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd"><rss>`, XML},
		{"after an internal subset", `<!DOCTYPE r [<!ENTITY a "b>c">]><r xmlns="urn:x">`, XML},
		{"root past the limit", "<!--" + strings.Repeat("x", SniffLimit) + "-->\n<rss>", HTML},
		{"comment that does not end", "<!--" + long, HTML},
		{"CDATA is no prolog", "<![CDATA[x]]><rss>", HTML},
	} {
		if got := sniff(tc.in); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Sniff looks no further than SniffLimit however long the prolog.
func TestSniffIsBounded(t *testing.T) {
	for _, size := range []int{1 << 20, 2 << 20} {
		in := &countingReader{r: strings.NewReader("<!--" + strings.Repeat("x", size) + "--><rss>")}
		if got := Sniff(bufio.NewReaderSize(in, 64<<10)); got != HTML {
			t.Errorf("%d: got %v", size, got)
		}
		if in.n > 64<<10 {
			t.Errorf("%d-byte comment: %d bytes read", size, in.n)
		}
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// Every feed and sitemap of the corpus is XML, those without an XML
// declaration included; every page is HTML.
func TestSniffCorpusFeedsAndSitemaps(t *testing.T) {
	var files []string
	for _, dir := range []string{"corpus/xml/feeds", "corpus/xml/sitemaps"} {
		for _, f := range shared.Walk(t, dir) {
			if ext := filepath.Ext(f); ext == ".xml" || ext == ".rss" {
				files = append(files, f)
			}
		}
	}
	undeclared := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b[:min(len(b), 100)], []byte("<?xml ")) {
			undeclared++
		}
		if got := Sniff(bufio.NewReader(bytes.NewReader(b))); got != XML {
			t.Errorf("%s: sniffed as %v", f, got)
		}
	}
	t.Logf("%d feeds and sitemaps, %d of them without an XML declaration", len(files), undeclared)
	if undeclared == 0 {
		t.Error("no feed without a declaration: the test tests nothing new")
	}
	for _, f := range shared.Glob(t, "corpus/html/*.html") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := Sniff(bufio.NewReader(bytes.NewReader(b))); got != HTML {
			t.Errorf("%s: sniffed as %v", f, got)
		}
	}
}

func TestNotText(t *testing.T) {
	ls, _ := os.ReadFile("/bin/ls")
	for _, tc := range []struct {
		name, head, charset, want string
	}{
		{"html", "<p>x", "", ""},
		{"gzip", "\x1F\x8B\x08\x00", "", "gzip-compressed data"},
		{"pdf", "%PDF-1.7\n", "", "a PDF document"},
		{"png", "\x89PNG\r\n\x1A\n\x00\x00", "", "a PNG image"},
		{"webp", "RIFF\x10\x00\x00\x00WEBPVP8 ", "", "a WebP image"},
		{"mp4", "\x00\x00\x00\x18ftypmp42", "", "an MP4 or QuickTime media file"},
		{"NUL", "x\x00y", "", "binary data (a NUL byte at offset 1)"},
		{"stray NUL in a page", "<p>x\x00y", "", ""},
		{"markup, then binary", "<\x01\x02\x00\x03\x04\x05\x06", "", "binary data (a NUL byte at offset 3)"},
		{"UTF-16 BOM", "\xFF\xFE<\x00p\x00>\x00", "", ""},
		{"UTF-16 without BOM", "<\x00p\x00>\x00x\x00", "", ""},
		{"UTF-16 charset", "<\x00p\x00\x00\x00x\x00", "utf-16le", ""},
		{"UTF-16 Content-Type", "<\x00p\x00\x00\x00x\x00", "text/html; charset=UTF-16", ""},
		{"text that starts BZh", "BZh is a word", "", ""},
		{"text that starts ID3", "ID3 tags", "", ""},
	} {
		if got := NotText([]byte(tc.head), tc.charset); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	if len(ls) > 0 && NotText(ls[:min(len(ls), 1024)], "") == "" {
		t.Error("/bin/ls is text")
	}
}

// Process writes nothing for a document that is no text, and its Result
// says why.
func TestProcessWritesNothingForBinaryInput(t *testing.T) {
	png := "\x89PNG\r\n\x1A\n" + strings.Repeat("\x00\x01<p>a</p>", 100)
	doc, err := Filter(strings.NewReader(png), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != "" || len(doc.Archive) != 0 || len(doc.Links) != 0 {
		t.Errorf("output for a PNG: %q %q %v", doc.Text, doc.Archive, doc.Links)
	}
	if len(doc.Result.Warnings) != 1 || !strings.Contains(doc.Result.Warnings[0].Message, "not a text document (a PNG image)") || doc.Result.Format != "" {
		t.Errorf("result: %+v", doc.Result)
	}
}
