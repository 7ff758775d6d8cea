package htmlstream

import (
	"bytes"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
)

// Canaries: words that sit, at the very start of the document, inside an
// excluded region of each dialect; nothing the fuzzer appends can take them
// out of it, so they must never reach the output that region excludes.
const (
	canaryPrefix = `<div class="robots-noindex">zqxnoindexcanary</div>` +
		`<p class="robots-nocontent">zqxnocontentcanary</p>` +
		`<!--googleoff: index-->zqxgoogleoffcanary<!--googleon: index-->` +
		`<noindex>zqxyandexcanary</noindex>` +
		`<span class="robots-noarchive">zqxnoarchivecanary</span>` +
		`<span data-nosnippet>zqxnosnippetcanary</span>`
)

var (
	notInText    = []string{"zqxnoindexcanary", "zqxnocontentcanary", "zqxgoogleoffcanary", "zqxyandexcanary"}
	notInArchive = []string{"zqxnoarchivecanary", "zqxnosnippetcanary"}
)

func fuzzSeeds(f *testing.F) {
	for _, tc := range trickyCases {
		f.Add([]byte(tc.src))
	}
	for _, s := range []string{"", "<", "<!--", "<table><a>1<td>2</td>3</table>", "<svg><![CDATA[x]]></svg>",
		"<plaintext><b>", strings.Repeat("<b><p>", 30), "<html class=robots-noarchive>", "\xff\xfe<\x00p>",
		"<meta charset=utf-16><p>x", "<frameset><noframes>x</noframes>", "<select><option><b>x</select>y"} {
		f.Add([]byte(s))
	}
}

func FuzzStream(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(bytes.ToLower(data), []byte("zqx")) {
			return // the canaries must be ours
		}
		// Property 1: with no no-archive markup, the archive is the input,
		// in any charset (but WHATWG's replacement encoding, whose copy is
		// withheld).
		var archive bytes.Buffer
		c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Archive: &archive})
		in, err := openInput(bytes.NewReader(data), Options{}, true)
		if err != nil {
			t.Fatal(err)
		}
		b, err := run(bytes.NewReader(data), c, Options{MaxDepth: 1 << 16})
		c.Finish()
		if err != nil {
			t.Fatalf("error on HTML input: %v", err)
		}
		low := bytes.ToLower(bytes.ReplaceAll(data, []byte{0}, nil)) // UTF-16's markup too
		noArchiveMarkup := bytes.Contains(low, []byte("archive")) || bytes.Contains(low, []byte("snippet")) ||
			bytes.Contains(low, []byte("googleoff")) || bytes.Contains(low, []byte("nocache"))
		if !noArchiveMarkup && !in.withheld && !bytes.Equal(archive.Bytes(), data) {
			t.Fatalf("archive differs from the input:\n%q\n%q", archive.Bytes(), data)
		}
		// Property 2: every node came back: no element is left open, so
		// every link and region was completed.
		if len(b.free) != b.allocated {
			t.Fatalf("%d nodes made, %d released", b.allocated, len(b.free))
		}

		// Property 3: canaries in excluded regions never leak.
		src := append([]byte(canaryPrefix), data...)
		var text, snip bytes.Buffer
		archive.Reset()
		c, _ = filter.NewCore(filter.Options{}, filter.Outputs{
			Text: phrase.NewWriter(&text), ArchiveText: phrase.NewWriter(&snip), Archive: &archive,
			Link: func(filter.Link) error { return nil }, Region: func(filter.Region) error { return nil },
		})
		if _, err := run(bytes.NewReader(src), c, Options{MaxDepth: 1 << 16, Charset: "utf-8"}); err != nil {
			t.Fatal(err)
		}
		c.Finish()
		for _, w := range notInText {
			if bytes.Contains(text.Bytes(), []byte(w)) || bytes.Contains(snip.Bytes(), []byte(w)) {
				t.Fatalf("%s reached the text:\n%s", w, text.Bytes())
			}
		}
		for _, w := range notInArchive {
			if bytes.Contains(archive.Bytes(), []byte(w)) || bytes.Contains(snip.Bytes(), []byte(w)) {
				t.Fatalf("%s reached the archive copy", w)
			}
		}
	})
}

// FuzzOracle checks the stream against html.Parse on arbitrary input with
// robots classes in it: the regions must agree, except where the tree
// changes content already written (counted by the builder).
func FuzzOracle(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		if v, diff := compareWithOracle(t, data); v == disagree {
			t.Fatalf("stream and DOM disagree on %q:\n%s", data, diff)
		}
	})
}
