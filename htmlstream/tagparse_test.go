package htmlstream

import (
	"testing"

	a "golang.org/x/net/html/atom"
)

// The name cache gives what lower-casing the name (as TagName does) and
// atom.Lookup give, for names of every length, in either case, with NULs,
// with the bytes after them anything, and at the end of their buffer.
func TestNameCacheIsLookupOfTheLowerCaseName(t *testing.T) {
	names := []string{"a", "A", "b", "p", "P", "br", "Br", "bR", "div", "DIV", "span", "SPAN", "table", "tbody", "script",
		"noindex", "NOINDEX", "section", "noscript", "NoScript", "abcdefgh", "abcdefghi", "blockquote", "figcaption",
		"my-widget", "ytd-thumbnail", "foreignObject", "annotation-xml", "x\x00", "\x00", "a\x00b", "\x00\x00\x00\x00\x00\x00\x00\x00",
		"é", "É", "svg", "math", "font-face", "q", "Q", "s", "i", "u", "em", "EM", "h1", "h2", "h6", "h7"}
	d := &driver{z: newTokenizer(nil, 0)}
	lower := func(s string) string {
		var b []byte
		for _, c := range []byte(s) {
			switch {
			case c == 0:
				b = append(b, "\uFFFD"...)
			case 'A' <= c && c <= 'Z':
				b = append(b, c+'a'-'A')
			default:
				b = append(b, c)
			}
		}
		return string(b)
	}
	for round := range 3 {
		for i, name := range names {
			for _, after := range []string{"", ">", " class=x>", "\x00\x00\x00\x00\x00\x00\x00\x00"} {
				buf := []byte(name + after)
				asIs := buf[:len(name):len(buf)] // the bytes after the name are read, then masked off
				want := lower(name)
				wantAtom := a.Lookup([]byte(want))
				// As readTag asks: the cache's entry if it holds the name,
				// else lookup (which fills it).
				cached := d.names.cached(asIs)
				if cached != nil && (cached.atom != wantAtom || cached.name != want) {
					t.Fatalf("round %d, name %d %q followed by %q: cached %v %q, want %v %q", round, i, name, after, cached.atom, cached.name, wantAtom, want)
				}
				gotAtom, gotName := d.names.lookup(d, asIs)
				if gotAtom != wantAtom || gotName != want {
					t.Fatalf("round %d, name %d %q followed by %q: %v %q, want %v %q", round, i, name, after, gotAtom, gotName, wantAtom, want)
				}
				if len(name) <= 8 && cap(asIs) >= 8 && d.names.cached(asIs) == nil {
					t.Fatalf("round %d, name %d %q followed by %q: not cached after lookup", round, i, name, after)
				}
				d.z.out = d.z.out[:0]
			}
		}
	}
}
