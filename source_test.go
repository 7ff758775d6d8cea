package robofilter

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/shared"
)

// sourceRecorder is an Outputs.Source that notes, for every region and
// link start, how many bytes it had been given by then.
type sourceRecorder struct {
	buf     bytes.Buffer
	charset string
	starts  []sourceStart
}

type sourceStart struct {
	region  bool
	at      int64 // bytes written before the call
	offset  int64 // the region's or link's Offset
	marker  string
	tag     string
	follows bool
}

func (s *sourceRecorder) Write(p []byte) (int, error) { return s.buf.Write(p) }
func (s *sourceRecorder) Charset(name string) {
	if s.buf.Len() > 0 || s.charset != "" {
		panic("Charset after bytes, or twice")
	}
	s.charset = name
}
func (s *sourceRecorder) StartRegion(r filter.Region) {
	s.starts = append(s.starts, sourceStart{region: true, at: int64(s.buf.Len()), offset: r.Offset, marker: r.Marker, tag: r.Tag})
}
func (s *sourceRecorder) StartLink(l filter.Link) {
	s.starts = append(s.starts, sourceStart{at: int64(s.buf.Len()), offset: l.Offset, tag: l.Tag, follows: l.Followed})
}

// sourceCases are hand-made documents with every shape that makes the
// HTML stage pass, hold or drop the archive copy's bytes otherwise.
var sourceCases = map[string]struct {
	doc  string
	opts Options
}{
	"regions of every dialect": {doc: `<!DOCTYPE html><html><head><title class=robots-noindex>t</title><meta name=robots content=noarchive></head>
<body><p class="robots-noindex robots-nofollow">a <a href=/x>x</a> <img class=robots-noarchive src=i.png><br data-nosnippet>
<!--googleoff: all-->g<!--googleon: index-->h<!--googleon: all--><noindex>y<a href=/y rel=nofollow>y</a></noindex>
<!--noindex-->z<!--/noindex--><div class=robot1-noindex>r</div><a href="javascript:x()">j</a></body></html>`},
	"void elements elided":                   {doc: `<p>a<img data-nosnippet src=a.png><input class=robots-noarchive><hr data-nosnippet>b`},
	"misnested formatting (clones)":          {doc: `<b class=robots-noindex><p>one</b>two<a href=/a class=robots-nofollow><div>three</a>four</div>`},
	"document noindex, nofollow in the head": {doc: `<html><head><link rel=canonical href=/c><meta name=robots content="noindex,nofollow,noarchive"><title>t</title></head><body><a href=/b>b</a><p data-nosnippet>p`},
	"unclosed tag at the end":                {doc: `<p class=robots-noindex>x</p><a href="/y`},
	"byte order mark":                        {doc: "\xef\xbb\xbf<p data-nosnippet>x<!--googleoff: snippet-->y"},
	"utf-16":                                 {doc: "\xff\xfe" + utf16le(`<p class=robots-noindex>é<img data-nosnippet src=x><!--googleoff: all-->z`)},
	"utf-16 without a bom, by label":         {doc: utf16le(`<p data-nosnippet>x<a href=/a>a</a>`), opts: Options{Charset: "utf-16le"}},
	"windows-1252":                           {doc: "<meta charset=windows-1252><p data-nosnippet>caf\xe9<img data-nosnippet>\x80"},
	"iso-2022-jp":                            {doc: "<meta charset=iso-2022-jp><p data-nosnippet>\x1b$B$3$s\x1b(B<img data-nosnippet>x\x1b$B$K\x1b(B"},
	"shift_jis":                              {doc: "<meta charset=shift_jis><p class=robots-noarchive>\x82\xa0<br data-nosnippet>\x82\xa2"},
	"template and foreign content":           {doc: `<template><p data-nosnippet>t</p></template><svg><g class=robots-noindex><text>s</text></g></svg><math><mi data-nosnippet>m</mi></math>`},
	"tables and foster parenting":            {doc: `<table class=robots-noarchive>x<tr data-nosnippet><td>c<img data-nosnippet></table>`},
	"raw text":                               {doc: `<script class=robots-noindex>if (a<b) {}</script><style data-nosnippet>p{}</style><textarea data-nosnippet>t</textarea><title>x</title><plaintext data-nosnippet><p>`},
	"frameset":                               {doc: `<frameset class=robots-noarchive><frame data-nosnippet src=a></frameset>`},
}

func utf16le(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			panic("BMP only")
		}
		b.WriteByte(byte(r))
		b.WriteByte(byte(r >> 8))
	}
	return b.String()
}

// TestSourceIsEveryByteInOrder checks Outputs.Source against the input
// itself: every byte, in order, whatever the regions elide; each region
// and link start told after exactly the bytes before its token; every
// region the Region output ends started there; at every chunking.
func TestSourceIsEveryByteInOrder(t *testing.T) {
	type doc struct {
		name string
		src  []byte
		opts Options
	}
	var docs []doc
	for name, c := range sourceCases {
		docs = append(docs, doc{name, []byte(c.doc), c.opts})
	}
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.txt"))
	for _, f := range golden {
		g := readGolden(t, f)
		o := goldenOptions(t, g.options)
		if o.Format == XML || Sniff(bufioReader(g.input)) == XML {
			continue
		}
		docs = append(docs, doc{"golden " + filepath.Base(f), g.input, o})
	}
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) {
			want := checkSource(t, bytes.NewReader(d.src), d.src, d.opts)
			for how, r := range map[string]io.Reader{
				"one byte": iotest.OneByteReader(bytes.NewReader(d.src)),
				"half":     iotest.HalfReader(bytes.NewReader(d.src)),
				"7":        chunked.Reader(bytes.NewReader(d.src), 7),
				"1000":     chunked.Reader(bytes.NewReader(d.src), 1000),
			} {
				if got := checkSource(t, r, d.src, d.opts); got != want {
					t.Errorf("read %s: starts %s, whole: %s", how, got, want)
				}
			}
		})
	}
}

func TestSourceOfCorpusPages(t *testing.T) {
	files := shared.Glob(t, "corpus/html/*.html")
	if testing.Short() {
		files = files[:10]
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if Sniff(bufioReader(src)) == XML {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			want := checkSource(t, bytes.NewReader(src), src, Options{})
			if got := checkSource(t, chunked.Reader(bytes.NewReader(src), 333), src, Options{}); got != want {
				t.Errorf("read in chunks of 333, the starts differ")
			}
		})
	}
}

// checkSource runs the document with a Source and the Region and Link
// outputs, checks the source against the input, and returns the starts,
// for the caller to compare across chunkings.
func checkSource(t *testing.T, r io.Reader, input []byte, opts Options) string {
	t.Helper()
	src := &sourceRecorder{}
	var regions []filter.Region
	var regionEnds []int64
	var links []filter.Link
	out := Outputs{
		Source: src,
		Region: func(r filter.Region) error {
			regions = append(regions, r)
			regionEnds = append(regionEnds, int64(src.buf.Len()))
			return nil
		},
		Link: func(l filter.Link) error { links = append(links, l); return nil },
	}
	res, err := Process(r, opts, out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Charset == "replacement" {
		// Browsers do not read it (one U+FFFD): no bytes, as no archive
		// copy.
		if src.buf.Len() > 0 {
			t.Errorf("the replacement encoding gave %d bytes", src.buf.Len())
		}
		return ""
	}
	if !bytes.Equal(src.buf.Bytes(), input) {
		got := src.buf.Bytes()
		i := 0
		for i < len(got) && i < len(input) && got[i] == input[i] {
			i++
		}
		t.Fatalf("the source is not the input: %d bytes of %d, first difference at %d: got %q, want %q",
			len(got), len(input), i, got[i:min(i+40, len(got))], input[i:min(i+40, len(input))])
	}
	if src.charset != res.Charset {
		t.Errorf("Charset told %q, the result says %q", src.charset, res.Charset)
	}
	started := map[string]int{}
	linkStarts := map[int64]sourceStart{}
	for _, s := range src.starts {
		// A region can start before its told: the html element's classes,
		// when a later <head profile> names the profile they need.
		if s.at != s.offset && !(s.region && s.tag == "html" && s.offset < s.at) {
			t.Errorf("%s start (%s %s) told after %d bytes, its offset is %d", kind(s.region), s.tag, s.marker, s.at, s.offset)
		}
		if s.region {
			started[fmt.Sprint(s.offset, s.marker)]++
		} else {
			linkStarts[s.offset] = s
		}
	}
	for i, r := range regions {
		key := fmt.Sprint(r.Offset, r.Marker)
		if started[key] == 0 {
			// A googleon that ends part of a region reports that part,
			// the region itself going on: it started once.
			if r.Dialect != "googleoff" {
				t.Errorf("region %s at %d:%d ended without a start", r.Marker, r.Line, r.Col)
			}
		} else if r.Dialect != "googleoff" {
			started[key]--
		}
		end := r.Offset + r.Size
		if res.Charset == "iso-2022-jp" && end <= regionEnds[i] && regionEnds[i]-end <= 3 {
			// An escape sequence at the end decodes to nothing: the
			// region's end is before it, the bytes told are after.
			end = regionEnds[i]
		}
		if end != regionEnds[i] {
			t.Errorf("region %s at %d:%d ends at %d, told after %d bytes", r.Marker, r.Line, r.Col, end, regionEnds[i])
		}
	}
	for _, l := range links {
		s, ok := linkStarts[l.Offset]
		switch {
		case !ok:
			t.Errorf("link %s at %d:%d never started", l.Href, l.Line, l.Col)
		case s.follows != l.Followed && (!s.follows || robotsReasons[l.Reason]):
			// What the markup says is known at the start; the URL the
			// href resolves to (it may not), and a robots META later in
			// the head, only at the end.
			t.Errorf("link %s at %d:%d started followed=%v, ended followed=%v (%s)", l.Href, l.Line, l.Col, s.follows, l.Followed, l.Reason)
		}
	}
	return fmt.Sprint(src.starts)
}

func kind(region bool) string {
	if region {
		return "region"
	}
	return "link"
}

func bufioReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }

// robotsReasons are the reasons the robots markup gives for not following
// a link, but for the document's nofollow.
var robotsReasons = map[string]bool{"nofollow region": true, "rel=nofollow": true, "rel=ugc": true, "rel=sponsored": true}
