package htmlstream

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
)

// bytesOfDistinctB is the length of the first n tags of "<b id=0><b id=1>…".
func bytesOfDistinctB(n int) int {
	total := 0
	for i := range n {
		total += len(fmt.Sprintf("<b id=%d>", i))
	}
	return total
}

// Inputs that made earlier versions quadratic or worse: each must run, in
// about linear time, to the text it has.
func TestHostileInputs(t *testing.T) {
	var distinctB, reconstruct strings.Builder
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&distinctB, "<b id=%d>", i)
	}
	distinctB.WriteString("x<p>y")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&reconstruct, "<p><b id=%d>x</p>", i)
	}
	tests := []struct {
		name, src, want string
	}{
		{"100,000 nested divs", strings.Repeat("<div>", 100000) + "x" + strings.Repeat("</div>", 100000), "x\n"},
		{"100,000 spans in a paragraph, then blocks", "<p>" + strings.Repeat("<span>", 100000) + "x" + strings.Repeat("<div>y", 3), "x\ny\ny\ny\n"},
		{"100,000 distinct formatting elements", distinctB.String(), "x\ny\n"},
		{"100,000 identical formatting elements", strings.Repeat("<b>", 100000) + "x", "x\n"},
		{"formatting reconstruction on every paragraph", reconstruct.String(), strings.Repeat("x\n", 5000)},
		{"nested tables", strings.Repeat("<table>", 50000) + "x", "x\n"},
		{"nested templates", strings.Repeat("<template>", 100000) + "x", ""},
		{"unclosed list items", strings.Repeat("<ul><li>", 50000) + "x", "x\n"},
		{"unmatched end tags", strings.Repeat("<div>", 50000) + strings.Repeat("</span>", 50000) + "z", "z\n"},
		// Each <a> runs the adoption agency for the one before and then
		// takes it off the stack, where it no longer is: a scan of the
		// whole stack (two levels deeper each time) made this quadratic.
		{"<b><i><a> repeated", strings.Repeat("<b><i><a href=/x>x ", 100000), strings.Repeat("x ", 99999) + "x\n"},
		// The adoption agency for a formatting element with 50,000 open
		// elements above it: every run moved it up one level and rescoped
		// all of them (a second each).
		{"end tags of a formatting element far down the stack", "<a href=/x>" + strings.Repeat("<div>", 50000) + strings.Repeat("</a>x", 10000), strings.Repeat("x", 10000) + "\n"},
		// Searches of the stack that end far down it, repeated: each walked
		// the 50,000 elements above the answer (10,000 times: seconds to
		// minutes) before the stack's index (deepstack.go).
		{"end tags matching nothing under deep spans", "<div>" + strings.Repeat("<span>", 50000) + strings.Repeat("</x>", 10000) + "z", "z\n"},
		{"end tags matching nothing under deep SVG", "<svg>" + strings.Repeat("<g>", 50000) + strings.Repeat("</x>", 10000) + "z", "z\n"},
		{"end tags matching nothing under deep MathML", "<math>" + strings.Repeat("<mi>", 50000) + strings.Repeat("</x>", 10000) + "z", "z\n"},
		{"</html> with the body far down", "<div>" + strings.Repeat("<span>", 50000) + strings.Repeat("</html>x", 5000), strings.Repeat("x", 5000) + "\n"},
		{"</body> with the body far down", "<div>" + strings.Repeat("<span>", 50000) + strings.Repeat("</body>", 10000) + "z", "z\n"},
		{"<rt> with the ruby far down", "<ruby>" + strings.Repeat("<span>", 50000) + strings.Repeat("<rt>", 10000) + "z", "z\n"},
		{"<option> with the select far down", "<select><option>" + strings.Repeat("<span>", 50000) + strings.Repeat("<option>", 10000) + "z", "z\n"},
		{"tables resetting the mode far down", "<div>" + strings.Repeat("<span>", 50000) + strings.Repeat("<table></table>", 3000) + "z", "z\n"},
		{"list items over deep divs", "<ul><li><section>" + strings.Repeat("<div>", 50000) + strings.Repeat("<li></li>", 10000) + "z", "z\n"},
		// A form in a table used to be freed while still the form element,
		// and each repetition left a count in the formatting elements'
		// table until it was full and a probe never ended.
		{"forms in tables with formatting elements", strings.Repeat("<table><form></table></form><b id=K><i><u>", 1200), ""},
		// The adoption agency with hundreds of elements open above its
		// formatting element, 3,000 times (each up to eight runs).
		{"misnested end tags over 500 divs", distinctB.String()[:bytesOfDistinctB(500)] + strings.Repeat("<div>", 500) + strings.Repeat("</b>", 3000) + "z", "z\n"},
		// "</body>" with no body open (a frameset document): no walk of the
		// stack for each.
		{"</body> in a deep frameset", "<frameset class=robots-noarchive>" + strings.Repeat("<frameset>", 50000) + strings.Repeat("</body>", 10000), ""},
		{"unterminated comment", "<p>a<!-- never closed <a href=/x>x</a>", "a\n"},
		{"NULs everywhere", "<p>\x00a\x00</p>\x00<a\x00 href=/y>y</a>", "a\ny\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var text bytes.Buffer
			c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Text: phrase.NewWriter(&text)})
			b, err := run(strings.NewReader(tc.src), c, Options{})
			c.Finish()
			if err != nil {
				t.Fatal(err)
			}
			if text.String() != tc.want {
				t.Errorf("text %q, want %q", clipLines(text.String()), tc.want)
			}
			if len(b.free) != b.allocated {
				t.Errorf("%d nodes made, %d released", b.allocated, len(b.free))
			}
		})
	}
}

// Elisions before the body, under elements the copy leaves out, each
// asked whether an ellipsis could stand there by a walk of the stack
// down to the head (40,000: 8 s; now the same as 400).
func TestElisionsInTheHeadUnderDeepElidedElements(t *testing.T) {
	const n = 40000
	src := "<head><template><!--googleoff: snippet-->" + strings.Repeat("<div>", n) +
		strings.Repeat("<!--googleon: snippet-->x<!--googleoff: snippet-->y", n)
	var archive bytes.Buffer
	c, _ := filter.NewCore(filter.Options{}, filter.Outputs{Archive: &archive})
	if _, err := run(strings.NewReader(src), c, Options{}); err != nil {
		t.Fatal(err)
	}
	c.Finish()
	// Inside the template, which the copy keeps, each elided stretch is one
	// ellipsis: the divs, then each y.
	if got := strings.Count(archive.String(), "…"); got != n+1 {
		t.Errorf("%d ellipses, want %d", got, n+1)
	}
}
