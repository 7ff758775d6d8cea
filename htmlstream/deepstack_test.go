package htmlstream

import (
	"bytes"
	"hash/maphash"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/shared"
)

var traceSeed = maphash.MakeSeed()

// stackTrace runs src with the stack's index starting at deepFrom and
// returns, for every token, a hash of the stack of open elements, the list
// of active formatting elements and the insertion mode: the state every
// search of the stack decides. The whole stack goes into every fullEvery'th
// hash (hashing it after every token of a long page is slow).
func stackTrace(t testing.TB, src []byte, deepFrom, fullEvery int) []uint64 {
	t.Helper()
	c, err := filter.NewCore(filter.Options{}, filter.Outputs{})
	if err != nil {
		t.Fatal(err)
	}
	var trace []uint64
	opts := Options{Charset: "utf-8", deepFrom: deepFrom, afterToken: func(b *builder) {
		checkNodesInUse(t, b, len(trace))
		var h maphash.Hash
		h.SetSeed(traceSeed)
		if len(trace)%fullEvery != 0 {
			// Between full hashes, the depth, the current node, the list's
			// length and the mode: a difference deeper in the stack shows
			// at the next full hash.
			h.WriteString(b.top().name)
			trace = append(trace, h.Sum64()^uint64(len(b.oe))<<32^uint64(len(b.afe))^uint64(reflect.ValueOf(b.im).Pointer()))
			return
		}
		for _, n := range b.oe {
			h.WriteByte(n.ns)
			h.WriteString(n.name)
			h.WriteByte('/')
		}
		h.WriteByte('|')
		for _, n := range b.afe {
			h.WriteString(n.name)
			h.WriteByte('/')
		}
		trace = append(trace, h.Sum64()^uint64(reflect.ValueOf(b.im).Pointer()))
	}}
	if _, err := run(bytes.NewReader(src), c, opts); err != nil {
		t.Fatal(err)
	}
	c.Finish()
	return trace
}

// checkNodesInUse fails the test when a node is on the stack twice, or is
// on the free list (to be reused) while the stack, the list of active
// formatting elements or the form or head pointer still has it: the
// stack's hash, names only, cannot tell.
func checkNodesInUse(t testing.TB, b *builder, token int) {
	t.Helper()
	inUse := make(map[*node]bool, len(b.oe)+len(b.afe)+2)
	for _, n := range b.oe {
		if inUse[n] {
			t.Fatalf("after token %d: <%s> is on the stack twice", token, n.name)
		}
		inUse[n] = true
	}
	for _, n := range b.afe {
		inUse[n] = true
	}
	inUse[b.form], inUse[b.head] = true, true
	for _, n := range b.free {
		if inUse[n] {
			t.Fatalf("after token %d: <%s> is free while still in use", token, n.name)
		}
	}
}

// firstDifference is the first token after which two traces differ, or -1.
func firstDifference(want, got []uint64) int {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return i
		}
	}
	if len(want) != len(got) {
		return min(len(want), len(got))
	}
	return -1
}

// soupTags are the tags whose handling searches the stack.
var soupTags = []string{
	"<div>", "</div>", "<span>", "</span>", "<p>", "</p>", "<li>", "</li>", "<ul>", "</ul>", "<ol>",
	"<dd>", "<dt>", "<dl>", "</dl>", "<address>", "<section>", "</section>", "<button>", "</button>",
	"<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>", "<th>", "<tbody>", "</tbody>", "<caption>",
	"</caption>", "<colgroup>", "<col>", "<template>", "</template>", "<select>", "</select>",
	"<option>", "<optgroup>", "<b>", "</b>", "<i>", "</i>", "<a href=/x>", "</a>", "<nobr>", "</nobr>",
	"<svg>", "</svg>", "<g>", "</g>", "<foreignObject>", "</foreignObject>", "<desc>", "<math>",
	"</math>", "<mi>", "</mi>", "<mo>", "<annotation-xml encoding=text/html>", "<ruby>", "<rt>",
	"<rp>", "</ruby>", "<h1>", "</h1>", "<h2>", "</h2>", "<form>", "</form>", "<object>", "</object>",
	"<applet>", "<marquee>", "</marquee>", "<x-y>", "</x-y>", "<x>", "</x>", "</html>", "</body>",
	"<body>", "<html>", "<frameset>", "<head>", "</head>", "<br>", "</br>", "<image>", "<input>",
	"<font color=red>", "</font>", "<pre>", "<listing>", "<textarea>", "</textarea>", "<title>",
	"</title>", "<style>", "</style>", "<noscript>", "</noscript>", "<iframe>", "</iframe>", "w ",
}

// tagSoup makes a random document of soupTags with runs of nesting, so
// that searches cross many entries.
func tagSoup(rng *rand.Rand, n int) []byte {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		tag := soupTags[rng.Intn(len(soupTags))]
		reps := 1
		if rng.Intn(8) == 0 {
			reps = 1 + rng.Intn(40)
		}
		for range reps {
			sb.WriteString(tag)
		}
	}
	return []byte(sb.String())
}

// The index must not change a single step of tree construction: the
// stack, the formatting list and the mode after every token are the same
// as with every search walking the stack, whatever depth it starts at.
func TestStackIndexChangesNoStep(t *testing.T) {
	var inputs, pages [][]byte
	rng := rand.New(rand.NewSource(11))
	for range 400 {
		inputs = append(inputs, tagSoup(rng, 20+rng.Intn(300)))
	}
	for _, tag := range []string{"<span>", "<div>", "<svg><g>", "<math><mi>", "<b>", "<table><tr><td>", "<ul><li>", "<x>"} {
		for _, end := range []string{"</x>", "</html>x", "</body>", "<rt>", "<li></li>", "<dd>", "<table></table>", "</svg>", "</g>", "</mi>", "<option>", "</a>x", "<p>x</p>"} {
			inputs = append(inputs, []byte("<ruby><select><option><ul><li><section><a>"+strings.Repeat(tag, 300)+strings.Repeat(end, 20)))
		}
	}
	if dir := shared.Dir(); dir != "" {
		for _, in := range html5libInputs(t) {
			inputs = append(inputs, []byte(in))
		}
		files, _ := filepath.Glob(filepath.Join(dir, "corpus", "html", "*.html"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pages = append(pages, stripBOM(src))
		}
	}
	check := func(in []byte, fullEvery int, froms ...int) {
		want := stackTrace(t, in, 1<<30, fullEvery) // no index: every search walks
		for _, from := range froms {
			if k := firstDifference(want, stackTrace(t, in, from, fullEvery)); k >= 0 {
				t.Fatalf("index from depth %d: the state differs after token %d\n%q", from, k, clipLines(string(in)))
			}
		}
	}
	for _, in := range inputs {
		check(in, 4, 1, 2, 5, 17)
	}
	for _, in := range pages { // long: one depth
		check(in, 16, 1)
	}
}

// FuzzStackIndex: on any input, the index from a low depth changes no step
// of tree construction.
func FuzzStackIndex(f *testing.F) {
	rng := rand.New(rand.NewSource(3))
	for range 20 {
		f.Add(tagSoup(rng, 60))
	}
	f.Add([]byte("<svg>" + strings.Repeat("<g>", 40) + "</x></g></svg>"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		want := stackTrace(t, src, 1<<30, 1)
		for _, from := range []int{1, 3} {
			if k := firstDifference(want, stackTrace(t, src, from, 1)); k >= 0 {
				t.Fatalf("index from depth %d: the state differs after token %d", from, k)
			}
		}
	})
}
