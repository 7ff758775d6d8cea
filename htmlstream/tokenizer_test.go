package htmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/chunked"
	"github.com/robofilter/robofilter/internal/shared"
	"github.com/robofilter/robofilter/phrase"
	"golang.org/x/net/html"
)

// The tokenizer must make exactly x/net's tokens of any input, read in any
// way: these tests run both over the same bytes and compare everything the
// driver can see.

// tokenSource is what the tests need of either tokenizer.
type tokenSource interface {
	Next() html.TokenType
	Raw() []byte
	Text() []byte
	TagName() ([]byte, bool)
	TagAttr() ([]byte, []byte, bool)
	Err() error
	NextIsNotRawText()
}

// driveRule decides, the same way for both tokenizers, when to allow CDATA
// and when to cancel the raw text a start tag asks for, so that those
// paths are taken too. Rule 0 never does either.
func driveRule(rule, index int, name []byte) (allowCDATA, notRawText bool) {
	if rule == 0 {
		return false, false
	}
	return (index*31+rule)%5 < 2, (index*17+rule+len(name))%4 == 0
}

// tokenTrace is one token as the driver can see it, and the error after it.
type tokenTrace struct {
	tt      html.TokenType
	raw     string
	pos     filter.Pos // ours: its Pos(); x/net's: Pos.Advance over the raw bytes before
	text    string     // Text() for text, comments and doctypes, then a second call (which is empty)
	name    string     // TagName() for tags, then a second call (which is nil)
	attrs   []string
	err     error
	errText string
	// cont: ours only, the token goes on with the comment before it (a
	// piece, pieces.go).
	cont bool
}

func (tr tokenTrace) String() string {
	return fmt.Sprintf("%v raw=%q pos=%+v text=%q name=%q attrs=%q err=%v", tr.tt, tr.raw, tr.pos, tr.text, tr.name, tr.attrs, tr.errText)
}

func (tr tokenTrace) equal(o tokenTrace) bool {
	return tr.tt == o.tt && tr.raw == o.raw && tr.pos == o.pos && tr.text == o.text && tr.name == o.name &&
		strings.Join(tr.attrs, "\x00") == strings.Join(o.attrs, "\x00") && tr.err == o.err
}

// trace runs z to its ErrorToken (or a bound on the number of tokens: every
// token but the last has raw bytes).
func trace(z tokenSource, rule, maxTokens int) []tokenTrace {
	var out []tokenTrace
	pos := filter.StartPos
	i := 0
	allowCDATA := func() bool {
		allow, _ := driveRule(rule, i, nil)
		return allow
	}
	xnet, told := z.(*html.Tokenizer)
	if ours, ok := z.(*tokenizer); ok {
		ours.cdataAllowed = allowCDATA // asked where it matters, as the driver does
	}
	for ; i <= maxTokens; i++ {
		if told {
			xnet.AllowCDATA(allowCDATA())
		}
		var cont bool
		if ours, ok := z.(*tokenizer); ok {
			cont = ours.commentCont
		}
		tt := z.Next()
		tr := tokenTrace{tt: tt, raw: string(z.Raw()), pos: pos, cont: cont} // before Text: x/net's Text rewrites Raw
		if ours, ok := z.(*tokenizer); ok {
			tr.pos = ours.Pos()
		}
		pos = pos.Advance(z.Raw())
		switch tt {
		case html.TextToken, html.CommentToken, html.DoctypeToken:
			tr.text = string(z.Text()) + "|" + string(z.Text())
			if ours, ok := z.(*tokenizer); ok && tt == html.TextToken && ours.textIsPlain() &&
				(tr.text != tr.raw+"|" || strings.Contains(tr.raw, "\x00")) {
				tr.text += " (but textIsPlain)"
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, more := z.TagName()
			again, moreAgain := z.TagName()
			tr.name = fmt.Sprintf("%s,%v|%s,%v", name, more, again, moreAgain)
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				tr.attrs = append(tr.attrs, string(k)+"="+string(v))
			}
			k, v, more := z.TagAttr()
			tr.attrs = append(tr.attrs, fmt.Sprintf("after: %q %q %v", k, v, more))
			if _, notRaw := driveRule(rule, i, name); notRaw && tt == html.StartTagToken {
				z.NextIsNotRawText()
			}
		}
		if ours, ok := z.(*tokenizer); ok && ours.tokenIsUTF8() && !utf8.Valid(z.Raw()) {
			tr.raw += " (but tokenIsUTF8)"
		}
		if _, ours := z.(*tokenizer); ours && string(z.Raw()) != tr.raw {
			tr.raw += fmt.Sprintf(" (then %q)", z.Raw())
		}
		tr.err = z.Err()
		if tr.err != nil {
			tr.errText = tr.err.Error()
		}
		out = append(out, tr)
		if tt == html.ErrorToken {
			break
		}
	}
	return out
}

// readerKind makes a fresh reader of src, the same for both tokenizers.
type readerKind struct {
	name string
	make func(src []byte) io.Reader
}

var errTestRead = errors.New("test reader failed")

// stallingReader returns (0, nil) on every other call, and reads r on
// the others.
type stallingReader struct {
	r     io.Reader
	stall bool
}

func (r *stallingReader) Read(p []byte) (int, error) {
	if r.stall = !r.stall; r.stall {
		return 0, nil
	}
	return r.r.Read(p)
}

// failingReader returns the bytes before at, in chunks of n, then fails:
// with err alongside the last bytes when withData, else on its own; when
// stuck, it returns (0, nil) forever instead (x/net: io.ErrNoProgress).
type failingReader struct {
	src             []byte
	at, n           int
	withData, stuck bool
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.at == 0 {
		if r.stuck {
			return 0, nil
		}
		return 0, errTestRead
	}
	n := copy(p[:min(len(p), r.n, r.at)], r.src)
	r.src, r.at = r.src[n:], r.at-n
	if r.at == 0 && r.withData && !r.stuck {
		return n, errTestRead
	}
	return n, nil
}

func chunks(n int) readerKind {
	return readerKind{fmt.Sprintf("chunks of %d", n), func(src []byte) io.Reader { return chunked.Reader(bytes.NewReader(src), n) }}
}

func failsAt(at, n int, withData, stuck bool) readerKind {
	return readerKind{fmt.Sprintf("fails at %d (chunks of %d, with data %v, stuck %v)", at, n, withData, stuck),
		func(src []byte) io.Reader {
			return &failingReader{src: src, at: min(at, len(src)), n: n, withData: withData, stuck: stuck}
		}}
}

var (
	wholeReader = readerKind{"whole", func(src []byte) io.Reader { return bytes.NewReader(src) }}
	oneByte     = readerKind{"one byte", func(src []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(src)) }}
	halfReader  = readerKind{"half", func(src []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(src)) }}
	dataErr     = readerKind{"data with EOF", func(src []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(src)) }}
	stalling    = readerKind{"stalling", func(src []byte) io.Reader { return &stallingReader{r: chunked.Reader(bytes.NewReader(src), 5)} }}
)

// compareTokenizers runs both tokenizers over src and fails at the first
// token where they differ.
func compareTokenizers(t testing.TB, what string, src []byte, rk readerKind, maxBuf, rule int) {
	t.Helper()
	x := html.NewTokenizer(rk.make(src))
	x.SetMaxBuf(maxBuf)
	want := trace(x, rule, len(src)+2)
	got := trace(newTokenizer(rk.make(src), maxBuf), rule, len(src)+2)
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(got):
			t.Fatalf("%s, %s, max buf %d, rule %d: token %d missing, x/net has %v", what, rk.name, maxBuf, rule, i, want[i])
		case i >= len(want):
			t.Fatalf("%s, %s, max buf %d, rule %d: token %d is %v, x/net has none", what, rk.name, maxBuf, rule, i, got[i])
		case !got[i].equal(want[i]):
			var before string
			if i > 0 {
				before = fmt.Sprintf("\nafter %v", want[i-1])
			}
			t.Fatalf("%s (%q), %s, max buf %d, rule %d: token %d differs%s\n got %v\nwant %v",
				what, clip(src), rk.name, maxBuf, rule, i, before, got[i], want[i])
		}
	}
}

func clip(src []byte) string {
	if len(src) > 200 {
		return string(src[:200]) + "…"
	}
	return string(src)
}

// tokenizerCases are inputs at the edges of x/net's tokenizer.
var tokenizerCases = []string{
	"", "plain", "a<b", "a<", "<", "<<a>", "a < b > c", "x<1>", "<a", "</", "</a", "<!", "<!-", "<?", "<?xml version=\"1.0\"?><p>",
	"<p>a</p>", "<P CLASS=x>y</P >", "<br/>", "<br />", "<a href=/>x</a>", "<a href=x/>", "<a b/>", "<a b= />", "<a b='/'/>",
	"<a/b/c>", "<a / b>", "<a =b>", "<a ==b>", "<a b==c>", "<a b = c d = 'e' f=\"g\">", "<a b c d>", "<a b=\"x>y\">", "<a b='x\"y'>",
	"<a b=x'y\"z>", "<a b=>", "<a b= >", "<a b=\t\n'c'>", "<a B=1 b=2 A=3 a=4>", "<a x=1 x=2>", "<a\x00b c\x00=d\x00e>",
	"<A HREF=X>", "<a b=\"\r\n\rc\">", "<a b=&amp;&lt&gt;&#65;&#x42;&#X43&#0;&#128;&#x110000;&#xD800;&#;&#x;&>",
	"<a b=\"&amp=1&copy=2&copy &notin &notit; &noti &amp;x=\">", "<a b='&ampx'>", "<a b='&fjlig;&nGt;'>",
	"&amp;&amp&lt;&gt&quot;&nbsp;&copy;&notit;&noti&ampx;&fjlig;&nGt;&#0;&#128;&#159;&#x10FFFF;&#1114112;&#9999999999;&AElig",
	"&#4294967361;&#x100000041;&#00000000065;&#x000000000000041&#1114111&#1114112&#55296&#57343&#57344&#13&#127&#x9F&#x80",
	"&", "&;", "&#", "&#x", "&#x;", "&#a", "&abc", "AT&T", "Q&A &b=1", "&CounterClockwiseContourIntegral;x",
	"a\rb\r\nc\n\rd\r", "\r\n", "\x00a\x00", "<p>\x00</p>", "\xff\xfe<p>\xc3", "<p\xff>\xe2\x82</p\xff>",
	"<!---->", "<!-->", "<!--->", "<!-- a -->", "<!--a--!>b", "<!--a--!->b-->", "<!--a-!>b-->", "<!---!>-->", "<!--a---->",
	"<!--a--b-->", "<!--a", "<!--a-", "<!--a--", "<!--a--!", "<!--", "<!---", "<!--&amp;\x00\r\n-->", "<!-- <!-- --> -->",
	"<!>", "<!>x", "<! >", "<!a>", "<!-x>", "<!DOCTYPE html>", "<!doctype HTML PUBLIC \"x\">", "<!DoCtYpE>", "<!DOCTYPE", "<!DOCTYP",
	"<!DOCTYPEhtml>", "<!DOCTYPE  \n\t x &amp; \x00>", "<!DOCTYPE x", "<!DOCTYPE ", "<![CDATA[x]]>", "<![CDATA[x]]]>y", "<![CDATA[]]>",
	"<![CDATA[x]>]]>", "<![CDATA[&amp;\x00\r]]>", "<![CDATA[x", "<![CDATA[x]]", "<![CDAT", "<![cdata[x]]>", "<svg><![CDATA[<p>]]></svg>",
	"</>", "</ x>", "</3>", "</a b=c>", "</a/>", "</\x00>", "</>x</", "<?php echo 1 ?>", "<?>", "<?",
	"<script><!--<script></script>--></script>x", "<script></script >", "<script></SCRIPT/>", "<script></scriptx></script>",
	"<script>a</script", "<script>a</scrip", "<script>a<", "<script>a</", "<script>", "<script></script>",
	"<script><!--a--></script>", "<script><!--a--!></script>", "<script><!-- <script>x</script> --></script>y",
	"<script><!-- <SCRIPT>x</ScRiPt>--></script>", "<script><!--<script>--></script>-->x</script>z", "<script><!--<scripty></script>",
	"<script><!--</script>", "<script><!-a</script>", "<script><!</script>", "<script><!-", "<script><!--", "<script><!--<",
	"<script><!--<s", "<script><!--<script", "<script><!--<script ", "<script><!--<script>", "<script><!--<script></", "<script><!--<script></scr",
	"<script><!--<script></script", "<script><!--<script>--", "<script><!--<script>-->", "<script><!--<script>--->", "<script><!--<script>-<",
	"<script><!--<script><</script>", "<script><!--<1</script>", "<script><!-- -></script>", "<script><!-- ---></script>x",
	"<script><!-- --x</script>", "<script><!--<script/></script>-->x</script>", "<script><!--<script\t>a</script\n>b</script>",
	"<script><!--<1<script>--></script>x</script>", "<script><!--< <script></script>x", "<script><!-- -><script></script>x</script>",
	"<script><!-- -<script></script>x</script>", "<script><!-- -- ><script></script>x</script>", "<script><!--<script>- -></script>x</script>y",
	"<script>\x00\r\n&amp;</script>", "<script a=b>if (a<b && c>d) {}</script>", "<SCRIPT>x</script>", "<script/>x</script>",
	"<title>a<b>&amp;</title>", "<title></title>", "<TITLE>x</TiTlE >", "<title>x</titl", "<title>x</titlex</title>", "<title>x</title",
	"<textarea>&lt;\r\n\x00</textarea>", "<textarea>", "<style>a<b</style>", "<style>&amp;</style>", "<xmp><p>&amp;</xmp>",
	"<iframe><p></iframe>", "<noembed>x</noembed>", "<noframes>x</noframes>", "<noscript><p>x</p></noscript>",
	"<plaintext>a</plaintext><p>&amp;\x00", "<plaintext>", "<PLAINTEXT>x", "<title/>x</title>", "<textarea x='</textarea>'>y</textarea>",
	"<style>x</style</style>", "<style>x</</style>", "<style>x<</style>", "<style></style", "<xmp></xmp>",
	"<a\tb\nc\fd\re>", "<a\x0bb>", "<table><tr><td>1</td></tr></table>", "<div id=a class='b c' data-x=\"y\" hidden>z</div>",
	strings.Repeat("<b>", 20) + strings.Repeat("x", 50) + "<a " + strings.Repeat("k=v ", 40) + ">",
	"<a " + strings.Repeat("a", 17) + strings.Repeat(" x", 20) + " X y Y>",
	"<p " + func() string {
		var b strings.Builder
		for i := 0; i < 40; i++ {
			fmt.Fprintf(&b, " a%d=%d A%d=x", i%20, i, i%25)
		}
		return b.String()
	}() + ">",
}

// readerKindsFor lists the readers each tricky case is read through.
func readerKindsFor(src []byte) []readerKind {
	kinds := []readerKind{wholeReader, oneByte, halfReader, dataErr, stalling, chunks(2), chunks(3), chunks(7)}
	step := 1
	if raceDetector {
		step = 3
	}
	for at := 0; at <= len(src); at += step {
		kinds = append(kinds, failsAt(at, 3, false, false), failsAt(at, 1, true, false), failsAt(at, 4, false, true))
	}
	return kinds
}

func TestTokenizerMatchesXNetOnTrickyInputs(t *testing.T) {
	for _, c := range tokenizerCases {
		src := []byte(c)
		for _, rk := range readerKindsFor(src) {
			for rule := range 3 {
				compareTokenizers(t, "case", src, rk, 0, rule)
			}
		}
		// The end of the input inside every construct.
		for n := 0; n < len(src); n++ {
			for rule := range 3 {
				compareTokenizers(t, fmt.Sprintf("case cut at %d", n), src[:n], wholeReader, 0, rule)
			}
		}
		// Every size limit that can matter.
		for maxBuf := 1; maxBuf <= len(src)+2; maxBuf++ {
			for _, rk := range []readerKind{wholeReader, oneByte, chunks(3)} {
				for rule := range 3 {
					compareTokenizers(t, "case", src, rk, maxBuf, rule)
				}
			}
		}
	}
}

// Long tokens cross the window's edges and the size limit at every kind
// of place.
func TestTokenizerMatchesXNetOnLongTokens(t *testing.T) {
	long := strings.Repeat("abcdefgh", 2000)
	inputs := []string{
		long, "<p>" + long + "<b>", "<a href=\"" + long + "\">x", "<a href=" + long + ">", "<!--" + long + "-->x",
		"<!--" + long, "<!DOCTYPE " + long + ">", "<?" + long + ">", "<script>" + long + "<!--" + long + "<script>" + long + "</script>-->" + long + "</script>x",
		"<title>" + long + "</title>", "<plaintext>" + long, "<" + long + ">", "</" + long + ">", "<svg><![CDATA[" + long + "]]>",
		strings.Repeat("<p class=x>"+long[:300]+"</p>\r\n", 100), strings.Repeat("&amp;&#x41;"+long[:50], 200),
	}
	kinds := []readerKind{wholeReader, oneByte, halfReader, dataErr, stalling, chunks(100), chunks(4095), chunks(4097)}
	if raceDetector {
		kinds = []readerKind{wholeReader, halfReader, chunks(4097)}
	}
	for _, in := range inputs {
		src := []byte(in)
		for _, rk := range kinds {
			for _, maxBuf := range []int{0, 50, 4095, 4096, 4097, 8191, 16000, 16001, 16002, len(src) - 1, len(src), len(src) + 1} {
				compareTokenizers(t, "long", src, rk, maxBuf, 1)
			}
		}
		for _, at := range []int{1, 4095, 4096, 8000, len(src) / 2, len(src) - 1} {
			compareTokenizers(t, "long", src, failsAt(at, 1000, false, false), 0, 2)
			compareTokenizers(t, "long", src, failsAt(at, 333, true, true), 0, 2)
		}
	}
}

// Tags with many attributes de-duplicate them through a hash of their
// names; when two names' hashes collide, they are compared.
func TestTokenizerMatchesXNetOnManyAttributes(t *testing.T) {
	var tag strings.Builder
	tag.WriteString("<p")
	for i := range 200 {
		fmt.Fprintf(&tag, " a%d=%d A%d=x b%d", i%70, i, i%90, i)
	}
	tag.WriteString("/>")
	var most strings.Builder // as many as a tag keeps, with repeats
	most.WriteString("<p")
	for i := range maxKeptAttrs {
		fmt.Fprintf(&most, " a%d", i)
	}
	most.WriteString(" A7 a1023/>")
	compareTokenizers(t, "many attributes", []byte(tag.String()), wholeReader, 0, 1)
	compareTokenizers(t, "many attributes", []byte(tag.String()), chunks(5), 0, 1)
	compareTokenizers(t, "as many attributes as a tag keeps", []byte(most.String()), wholeReader, 0, 1)

	defer func(h func(maphash.Seed, []byte) uint64) { hashAttrName = h }(hashAttrName)
	hashAttrName = func(_ maphash.Seed, name []byte) uint64 { return uint64(len(name)) }
	compareTokenizers(t, "many attributes, colliding hashes", []byte(tag.String()), wholeReader, 0, 1)
}

// hugeTag is a start tag of n distinct attributes a0, a1, … and then tail.
func hugeTag(n int, tail string) string {
	var b strings.Builder
	b.WriteString("<p")
	for i := range n {
		fmt.Fprintf(&b, " a%d", i)
	}
	b.WriteString(tail + ">")
	return b.String()
}

// Past maxKeptAttrs a tag keeps only the attributes the builder reads,
// still the first of each name; the rest count towards its identity.
func TestTokenizerKeepsAttributesTheBuilderReadsPastTheBound(t *testing.T) {
	z := newTokenizer(strings.NewReader(hugeTag(200000, " A7 CLASS=first a199999 class=second Href=/h")), 0)
	if tt := z.Next(); tt != html.StartTagToken {
		t.Fatalf("token %v, want a start tag", tt)
	}
	var got []string
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		got = append(got, string(k)+"="+string(v))
	}
	want := []string{}
	for i := range maxKeptAttrs {
		want = append(want, fmt.Sprintf("a%d=", i))
	}
	want = append(want, "class=first", "href=/h")
	if !slices.Equal(got, want) {
		t.Errorf("kept %d attributes ending %q, want %d ending %q", len(got), got[max(0, len(got)-3):], len(want), want[len(want)-3:])
	}
	// a1024 to a199999 and the second a199999 (dropped ones are not
	// compared with one another); A7 and the second class repeat kept
	// names.
	if n, _ := z.droppedAttrs(); n != 200000-maxKeptAttrs+1 {
		t.Errorf("%d attributes dropped, want %d", n, 200000-maxKeptAttrs+1)
	}
}

// The attributes past the bound still tell formatting elements apart
// (the Noah's Ark clause), by their values as the DOM has them.
func TestDroppedAttributesKeepTheTagsIdentity(t *testing.T) {
	identity := func(tail string) uint64 {
		z := newTokenizer(strings.NewReader(hugeTag(maxKeptAttrs+10, tail)), 0)
		z.Next()
		_, key := z.droppedAttrs()
		return key
	}
	if identity(" z=1") == identity(" z=2") {
		t.Error("tags that differ past the bound have one identity")
	}
	if identity(" z=1") != identity(" Z=1") || identity(" z=&amp;") != identity(" z=&") {
		t.Error("tags the DOM has alike have different identities")
	}
}

// A tag of millions of short distinct attributes costs about its own size
// to read, not forty times that.
func TestManyAttributesTakeBoundedMemory(t *testing.T) {
	src := hugeTag(300000, "") + "x"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var text bytes.Buffer
	c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Text: phrase.NewWriter(&text), Archive: io.Discard})
	if _, err := run(strings.NewReader(src), c, Options{}); err != nil {
		t.Fatal(err)
	}
	c.Finish()
	runtime.ReadMemStats(&after)
	if text.String() != "x\n" {
		t.Errorf("text %q, want x", text.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(6*len(src)) {
		t.Errorf("reading a %d-byte tag allocated %d bytes (%.1f times its size)", len(src), alloc, float64(alloc)/float64(len(src)))
	}
}

// corpusInputs are the shared corpus's pages and every html5lib #data
// section.
func corpusInputs(t testing.TB) map[string][]byte {
	dir := shared.Path(t)
	inputs := map[string][]byte{}
	pages, _ := filepath.Glob(filepath.Join(dir, "corpus", "html", "*"))
	for _, f := range pages {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = b
	}
	dats, _ := filepath.Glob(filepath.Join(dir, "corpus", "html5lib", "*.dat"))
	for _, f := range dats {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, test := range strings.Split("\n"+string(b), "\n#data\n")[1:] {
			data, _, _ := strings.Cut(test, "\n#errors")
			inputs[fmt.Sprintf("%s #%d", filepath.Base(f), i)] = []byte(data)
		}
	}
	if len(inputs) == 0 {
		t.Skip("skipping: no corpus inputs")
	}
	return inputs
}

func TestTokenizerMatchesXNetOnCorpus(t *testing.T) {
	inputs := corpusInputs(t)
	kinds := []readerKind{wholeReader, chunks(4093)}
	if !raceDetector && !testing.Short() {
		kinds = append(kinds, oneByte, halfReader, dataErr, stalling, chunks(7))
	}
	maxBufs := []int{20, 200, 2000}
	if raceDetector {
		kinds, maxBufs = kinds[:1], maxBufs[1:2]
	}
	names := slices.Sorted(maps.Keys(inputs))
	for n, name := range names {
		src := inputs[name]
		for i, rk := range kinds {
			compareTokenizers(t, name, src, rk, 0, i%3)
		}
		if raceDetector && n%4 != 0 {
			continue
		}
		compareTokenizers(t, name, src, failsAt(len(src)/2, 512, true, false), 0, 1)
		compareTokenizers(t, name, src, failsAt(len(src)/3, 100, false, true), 0, 2)
		for _, maxBuf := range maxBufs {
			compareTokenizers(t, name, src, chunks(1000), maxBuf, maxBuf%3)
		}
	}
}

// The character references decoded without x/net's table decode as x/net
// does, in text and in attribute values, followed by what may follow them.
func TestCommonCharRefsMatchXNet(t *testing.T) {
	names := []string{"amp", "lt", "gt", "quot", "apos", "nbsp", "copy", "reg", "middot", "raquo", "laquo", "hellip",
		"mdash", "ndash", "lsquo", "rsquo", "ldquo", "rdquo", "bull", "trade", "euro"}
	for _, n := range names {
		for _, ref := range []string{n, n + ";"} {
			if _, ok := commonCharRef([]byte(ref)); !ok {
				continue
			}
			for _, after := range []string{"", " ", "x", "=", ";", "1"} {
				src := []byte("<p a=\"&" + ref + after + "\">&" + ref + after)
				for rule := range 2 {
					compareTokenizers(t, "reference", src, wholeReader, 0, rule)
				}
			}
		}
	}
}

func FuzzTokenizerAgainstXNet(f *testing.F) {
	for i, c := range tokenizerCases {
		f.Add([]byte(c), uint8(i), uint16(0), uint8(i))
	}
	f.Add([]byte("<script><!--<script>x</script>-->"), uint8(1), uint16(9), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, chunk uint8, maxBuf uint16, mode uint8) {
		rk := chunks(int(chunk%32) + 1)
		switch mode % 6 {
		case 1:
			rk = wholeReader
		case 2:
			rk = stalling
		case 3:
			rk = failsAt(int(chunk)%(len(src)+1), 3, mode&8 != 0, false)
		case 4:
			rk = failsAt(int(chunk)%(len(src)+1), 5, false, true)
		}
		limit := 0
		if maxBuf&1 == 1 {
			limit = int(maxBuf >> 1)
		}
		compareTokenizers(t, "fuzz", src, rk, limit, int(mode>>4)%3)
	})
}

// The tokenizer allocates nothing per token: its allocations (buffers,
// the cache of rare references) do not grow with the page.
func TestTokenizerAllocationsAreFlatInPageSize(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("allocation counting is slow under -short and -race")
	}
	var many strings.Builder
	many.WriteString("<p")
	for i := range 40 {
		fmt.Fprintf(&many, " a%d=&eacute;%d", i%30, i)
	}
	many.WriteString(">AT&T &frac12;\r\n")
	allocs := func(src []byte) float64 {
		return testing.AllocsPerRun(2, func() {
			z := newTokenizer(bytes.NewReader(src), 0)
			for _, l := range tokenizerLoops {
				if l.name == "All" {
					l.loop(z)
				}
			}
		})
	}
	page := func(n int) []byte {
		p := generatePage(n)
		return bytes.ReplaceAll(p, []byte("<table>"), []byte(many.String()+"<table>"))
	}
	small, large := allocs(page(256<<10)), allocs(page(2<<20))
	t.Logf("allocations: %.0f on 256 KiB, %.0f on 2 MiB", small, large)
	if large > small+8 {
		t.Errorf("allocations grow with the page: %.0f on 256 KiB, %.0f on 2 MiB", small, large)
	}
}

// The tokenizer's positions skip Pos.Advance for tokens before the next
// line end it has found (see lineends.go); they must be Advance's, token by
// token (compareTokenizers compares them), with CR, LF and CRLF anywhere:
// at the ends of tokens and of reads, and past where the tokenizer looked.
func TestTokenizerPositionsAtEveryChunking(t *testing.T) {
	inputs := []string{
		"a\rb", "a\r\nb", "a\n\rb", "\r", "\n", "\r\n", "\r\r\n\n", "a\r<p>\nb", "a\r\n<p>\r\n</p>\r", "<p>x\r</p>\ny",
		"<a href=\"x\r\ny\"\rclass=z\n>t\r\n\r\n</a>", "<!--\r\n-->\r<!---->\n", "<!DOCTYPE html\r>\r\n<html>",
		"<script>\r\nx\r</script>\r\n<style>\n</style>", "<title>a\r\nb</title>\r", "<textarea>\r\n</textarea>\n",
		"<plaintext>a\r\nb\rc\nd", "<svg><![CDATA[\r\n]]>\r</svg>", "x\r", "<a\r", "<!--\r", "&amp;\r\n&lt;\n",
		strings.Repeat("word ", 30) + "\r\n" + strings.Repeat("<b>x</b>", 40) + "\n\n" + strings.Repeat("y", 70) + "\r",
	}
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bc ", "\r", "\n", "\r\n", "<p>", "</p>", "<a b=\"\r\n\">", "<!--\n-->", "&amp;", "<script>\r</script>", "xyz\r\n"}
	for range 60 {
		var b strings.Builder
		for range rng.Intn(80) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		inputs = append(inputs, b.String())
	}
	for _, in := range inputs {
		src := []byte(in)
		kinds := []readerKind{wholeReader, oneByte, halfReader, dataErr, stalling}
		for n := 2; n <= 17; n++ {
			kinds = append(kinds, chunks(n))
		}
		for _, rk := range kinds {
			for _, maxBuf := range []int{0, 5, 16} {
				compareTokenizers(t, "line ends", src, rk, maxBuf, 1)
			}
		}
	}
}

// Valid input is known valid token by token at every chunking (so the
// driver's shortcut is taken), and an invalid byte ends that for the rest
// of the document without ever vouching for a token that holds one (the
// differential tests check the latter on every input).
func TestTokenIsUTF8(t *testing.T) {
	valid := []byte("<p title=\"é\">café naïve 日本語</p>\n<b>€</b>😀 end")
	invalid := []byte("<p>ok</p>caf\xe9<b>x</b>")
	for n := 1; n <= len(valid)+1; n++ {
		z := newTokenizer(chunked.Reader(bytes.NewReader(valid), n), 0)
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if !z.tokenIsUTF8() {
				t.Fatalf("reads of %d: valid token %q not known valid", n, z.Raw())
			}
		}
		z = newTokenizer(chunked.Reader(bytes.NewReader(invalid), n), 0)
		sawBad := false
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			bad := !utf8.Valid(z.Raw())
			sawBad = sawBad || bad
			if z.tokenIsUTF8() && (bad || sawBad) {
				t.Fatalf("reads of %d: token %q known valid at or after an invalid byte", n, z.Raw())
			}
		}
	}
}

// Past maxKeptAttrs, "/>" after an unquoted value ending in "/" closes
// the tag as x/net says: unless that value's attribute is new, as it is
// the last x/net keeps then.
func TestSelfClosingPastTheAttributeBound(t *testing.T) {
	for _, tail := range []string{" a5=/", " A5=/", " a5=x/", " a1050=/", " A1050=x/", " zz=/", " zz=x/", " zz=/ a1050=/", " a1050=/ zz=/", " zz", " a1050"} {
		src := strings.TrimSuffix(hugeTag(maxKeptAttrs+100, tail), ">") + "/>"
		want := html.NewTokenizer(strings.NewReader(src)).Next()
		if got := newTokenizer(strings.NewReader(src), 0).Next(); got != want {
			t.Errorf("%d attributes and %q/>: %v, x/net %v", maxKeptAttrs+100, tail, got, want)
		}
	}
}

// The identity of attributes past the bound is their value in the
// document's charset, as the driver decodes the ones it keeps: which
// attributes fall past the bound does not change it.
func TestDroppedAttributesAreDecodedForTheirIdentity(t *testing.T) {
	tag := func(zFirst bool) string { // z=é first (kept) or last (dropped)
		var b strings.Builder
		b.WriteString("<b class=robots-noindex")
		if zFirst {
			b.WriteString(" z=\xe9")
		}
		for i := range maxKeptAttrs + 1 {
			fmt.Fprintf(&b, " a%d", i)
		}
		if !zFirst {
			b.WriteString(" z=\xe9")
		}
		b.WriteString(">")
		return b.String()
	}
	// Four alike formatting elements: the Noah's Ark clause drops the first
	// from the list of active formatting elements, so the paragraph after
	// the </p> reopens three, as html.Parse's DOM has it.
	src := "<meta charset=windows-1252><p>" + tag(true) + tag(false) + tag(false) + tag(false) + "x</p><p>y"
	var regions int
	c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Region: func(filter.Region) error { regions++; return nil }})
	if _, err := run(strings.NewReader(src), c, Options{}); err != nil {
		t.Fatal(err)
	}
	c.Finish()
	if regions != 7 {
		t.Errorf("%d regions, want 7 (four b, three clones)", regions)
	}
}
