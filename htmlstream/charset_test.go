package htmlstream

import (
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/html/charset"
)

// openInput skips x/net's META prescan when the head has no "<meta" in
// any case (and no label, no byte above ASCII). The skip must never hide a
// META the prescan would read: every ASCII head without the mark gets the
// prescan's "nothing found" answer, and every head whose META the prescan
// reads has the mark.
func TestPrescanIsSkippedOnlyWhereItFindsNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"<", ">", " ", "=", "\"", "'", "/", "\x00", "\n", "meta", "META", "MeTa", "me", "ta", "m", "<!--", "-->",
		"charset=utf-16", "charset=iso-8859-2", "http-equiv=content-type", "content=\"text/html; charset=koi8-r\"", "<p>", "x",
		"<meta charset=koi8-r>", "<meta http-equiv=content-type content=\"text/html; charset=iso-8859-2\">", "<meta charset=utf-16>"}
	found := 0
	for round := 0; round < 20000; round++ {
		var b strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		head := []byte(b.String())
		for i, c := range head {
			if 'a' <= c|0x20 && c|0x20 <= 'z' && rng.IntN(3) == 0 {
				head[i] = c ^ 0x20 // any case
			}
		}
		_, name, certain := charset.DetermineEncoding(head, "")
		if name != "windows-1252" || certain {
			found++
			if !mentionsMeta(head) {
				t.Fatalf("%q: the prescan finds %s, but the head has no <meta mark", head, name)
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d of the random heads name a charset: the test does not reach the prescan", found)
	}
	for _, tc := range []struct {
		head string
		want bool
	}{
		{`<META charset=koi8-r>`, true},
		{`<p><MeTa http-equiv=content-type content="text/html; charset=koi8-r">`, true},
		{`<p>meta charset=koi8-r`, false},
		{`< meta charset=koi8-r>`, false},
		{`<me`, false},
		{`x<`, false},
	} {
		if got := mentionsMeta([]byte(tc.head)); got != tc.want {
			t.Errorf("mentionsMeta(%q) = %v", tc.head, got)
		}
	}
}
