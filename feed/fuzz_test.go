package feed_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
)

// FuzzRecords runs entries mode over arbitrary input, selected with one of
// the XPaths feeds use. Properties: no panic; the same entries, warnings
// and error whether the input comes whole, a byte at a time or in chunks
// of 7 (entries mode's buffers and the feed reader's windows must not show
// through); entries numbered from 1 in order; an error's position is a
// real one.
func FuzzEntries(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><title>T</title><content type="html">a &lt;div class="robots-noindex"&gt;x&lt;/div&gt; b</content></entry></feed>`), uint8(0))
	f.Add([]byte(`<rss version="2.0"><channel><item><title>x</title><link>/a</link><description><![CDATA[<p class="robots-noindex">x</p><a href="/b">b</a>]]></description></item></channel></rss>`), uint8(1))
	f.Add([]byte(`<?xml version="1.0" encoding="iso-8859-1"?><!DOCTYPE feed [<!ENTITY e "caf&#233;">]><?robots index="no"?><feed><entry><title>&e;</title></entry><entry><title>t2</title></entry></feed>`), uint8(2))
	f.Add([]byte("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"x-none\"?><feed><entry xml:base=\"http://e.example/\"><link href=\"x\"/></entry><entry>"), uint8(3))
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE feed [<?robots index="no" follow='no'?>]><feed xmlns="http://www.w3.org/2005/Atom"><entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">a <span class="robots-noindex">b</span><![CDATA[<i>c</i>]]></div></title><content type="application/xml"><d xmlns="urn:d" xmlns:xl="http://www.w3.org/1999/xlink"><p xl:href="/x">p</p><?robots index="no" follow="yes"?></d></content></entry><!--googleoff: index--><x:m xmlns:x="urn:x"><?robots index="yes" follow="no"?></x:m><entry><title>t<!--googleon: index-->u</title><content type="html">&lt;p&gt;a<!--noindex-->&lt;/p&gt;b<!--/noindex--></content></entry></feed>`), uint8(0))
	xpaths := []string{"//entry", "/rss/channel/item", "/feed/entry", "//item"}
	f.Fuzz(func(t *testing.T, input []byte, which uint8) {
		if len(input) > 64<<10 {
			return
		}
		xpath := xpaths[int(which)%len(xpaths)]
		run := func(r io.Reader) (string, error) { return renderEntries(t, r, xpath, robofilter.Options{}) }
		whole, errWhole := run(bytes.NewReader(input))
		for name, r := range map[string]io.Reader{
			"one byte":    iotest.OneByteReader(bytes.NewReader(input)),
			"chunks of 7": chunked.Reader(bytes.NewReader(input), 7),
		} {
			got, err := run(r)
			if got != whole || fmt.Sprint(err) != fmt.Sprint(errWhole) {
				t.Fatalf("%s differs from the whole input:\n%s(%v)\nwhole:\n%s(%v)", name, got, err, whole, errWhole)
			}
		}
		var pe *filter.PosError
		if errors.As(errWhole, &pe) && (pe.Pos.Line < 1 || pe.Pos.Col < 1) {
			t.Fatalf("error at %d:%d: %v", pe.Pos.Line, pe.Pos.Col, errWhole)
		}
	})
}
