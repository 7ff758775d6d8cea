package xmlstream

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/phrase"
)

// outcome is everything one run produced.
type outcome struct {
	text, archiveText string
	archive           []byte
	links             []filter.Link
	regions           []filter.Region
	res               *filter.Result
	err               error
}

// runXML runs the XML stage with every output over r.
func runXML(t testing.TB, r io.Reader, fo filter.Options, o Options) outcome {
	t.Helper()
	var text, snip, archive bytes.Buffer
	var oc outcome
	out := filter.Outputs{
		Text:        phrase.NewWriter(&text),
		ArchiveText: phrase.NewWriter(&snip),
		Archive:     &archive,
		Link:        func(l filter.Link) error { oc.links = append(oc.links, l); return nil },
		Region:      func(r filter.Region) error { oc.regions = append(oc.regions, r); return nil },
	}
	core, err := filter.NewCore(fo, out)
	if err != nil {
		t.Fatal(err)
	}
	oc.err = Run(r, core, o)
	res, ferr := core.Finish()
	if ferr != nil {
		t.Fatalf("Finish: %v", ferr)
	}
	oc.res = res
	oc.text, oc.archiveText, oc.archive = text.String(), snip.String(), archive.Bytes()
	return oc
}

// render writes an outcome in the golden files' form.
func (oc outcome) render(input []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== text\n%s", oc.text)
	if oc.archiveText != oc.text {
		fmt.Fprintf(&b, "== archive text\n%s", oc.archiveText)
	}
	b.WriteString("== archive\n")
	switch {
	case bytes.Equal(oc.archive, input):
		b.WriteString("(identical to the input)\n")
	case utf8.Valid(oc.archive):
		fmt.Fprintf(&b, "%s\n", oc.archive)
	default:
		fmt.Fprintf(&b, "%q\n", oc.archive)
	}
	if len(oc.links) > 0 {
		b.WriteString("== links\n")
		for _, l := range oc.links {
			fmt.Fprintf(&b, "%d:%d <%s> %s", l.Line, l.Col, l.Tag, l.URL)
			if l.Followed {
				b.WriteString(" followed")
			} else {
				fmt.Fprintf(&b, " not followed (%s)", l.Reason)
			}
			if l.Rel != "" {
				fmt.Fprintf(&b, " rel=%q", l.Rel)
			}
			if l.Text != "" {
				fmt.Fprintf(&b, " text=%q", l.Text)
			}
			b.WriteString("\n")
		}
	}
	if len(oc.regions) > 0 {
		b.WriteString("== regions\n")
		for _, r := range oc.regions {
			off, on := r.Switches()
			fmt.Fprintf(&b, "%d:%d-%d:%d %s %s off=%s", r.Line, r.Col, r.EndLine, r.EndCol, r.Dialect, r.Marker, off)
			if on != "" {
				fmt.Fprintf(&b, " on=%s", on)
			}
			b.WriteString("\n")
		}
	}
	d := oc.res.Directives
	fmt.Fprintf(&b, "== document (%s, %s)\nnoindex=%v nofollow=%v noarchive=%v\n", oc.res.Format, oc.res.Charset, d.NoIndex, d.NoFollow, d.NoArchive || d.NoSnippet)
	for _, s := range d.Sources {
		fmt.Fprintf(&b, "%s %q at %d:%d\n", s.Origin, s.Value, s.Line, s.Col)
	}
	if len(oc.res.Warnings) > 0 {
		b.WriteString("== warnings\n")
		for _, w := range oc.res.Warnings {
			fmt.Fprintf(&b, "%s\n", w)
		}
	}
	if oc.err != nil {
		fmt.Fprintf(&b, "== error\n%v\n", oc.err)
	}
	return b.String()
}

// chunkings are the ways every case is read: whole, one byte at a time,
// iotest's half reader, and every chunk size from 1 to maxChunk.
func chunkings(input []byte, maxChunk int) []struct {
	name string
	r    func() io.Reader
} {
	var cs []struct {
		name string
		r    func() io.Reader
	}
	add := func(name string, r func() io.Reader) {
		cs = append(cs, struct {
			name string
			r    func() io.Reader
		}{name, r})
	}
	add("whole", func() io.Reader { return bytes.NewReader(input) })
	add("one-byte", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(input)) })
	add("half", func() io.Reader { return iotest.HalfReader(bytes.NewReader(input)) })
	add("data-err", func() io.Reader { return iotest.DataErrReader(bytes.NewReader(input)) })
	for n := 1; n <= maxChunk && n <= len(input); n++ {
		n := n
		add(fmt.Sprintf("chunk-%d", n), func() io.Reader { return chunked.Reader(bytes.NewReader(input), n) })
	}
	return cs
}

// atEveryChunking runs input through the XML stage read in every way
// chunkings gives, fails unless each gives what reading it whole gives, and
// hands that outcome to check.
func atEveryChunking(t *testing.T, input []byte, o Options, check func(outcome)) {
	t.Helper()
	var want string
	for _, ch := range chunkings(input, maxGoldenChunk) {
		oc := runXML(t, ch.r(), filter.Options{}, o)
		got := oc.render(input)
		if want == "" {
			want = got
			check(oc)
			continue
		}
		if got != want {
			t.Fatalf("read %s, the result differs from reading it whole:\n%s\n---\n%s", ch.name, got, want)
		}
	}
}
