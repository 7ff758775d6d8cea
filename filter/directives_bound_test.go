package filter

import (
	"runtime"
	"strings"
	"testing"
)

// directiveShapes are X-Robots-Tag values and robots META contents made of
// one token repeated: unknown tokens (listed up to MaxListed, then
// counted), upper case ones, bot scopes, conflicts that warn, numbers,
// dates whose comma joins two parts, words split on spaces.
var directiveShapes = []struct{ name, token string }{
	{"unknown", "x,"},
	{"upper case", "X,"},
	{"bot scopes", "x:y,"},
	{"agent scopes", "foobot:noindex,"},
	{"upper-case bot scopes", "FooBot:NoIndex,"},
	{"conflicts", "noindex,index,"},
	{"numbers", "max-snippet:7,max-snippet:3,"},
	{"not numbers", "max-snippet:x,"},
	{"dates", "unavailable_after: Monday, 1 Jan 2001 00:00:00 GMT,"},
	{"words", "a b noindex,"},
	{"image previews", "max-image-preview:Large,max-image-preview:huge,"},
}

// allocatedBy is the bytes run allocates, its run's best of three (a
// collection in the middle of one does not change what it allocates, but
// the test's own allocations could).
func allocatedBy(run func()) uint64 {
	best := ^uint64(0)
	for i := 0; i < 3; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		run()
		runtime.ReadMemStats(&after)
		best = min(best, after.TotalAlloc-before.TotalAlloc)
	}
	return best
}

// An X-Robots-Tag value, or a robots META content, takes memory by what
// the directives keep (MaxListed other tokens, MaxWarnings warnings), not
// by its length: a 0.9 MB value of "x," tokens used to take 91–101 MB. At
// two sizes, what a run allocates grows at most linearly and stays within
// a small multiple of the value's size (the value's lower-case copy is
// the one allocation in proportion to it).
func TestDirectiveValuesTakeMemoryByWhatIsKept(t *testing.T) {
	const small = 256 << 10
	for _, shape := range directiveShapes {
		for _, how := range []string{"x-robots-tag", "meta"} {
			t.Run(shape.name+" "+how, func(t *testing.T) {
				var got [2]uint64
				for k, size := range []int{small, 2 * small} {
					v := strings.Repeat(shape.token, size/len(shape.token))
					content := []byte(v)
					got[k] = allocatedBy(func() {
						opts := Options{Agent: "FooBot/1.0"}
						if how == "x-robots-tag" {
							opts.XRobotsTag = []string{v}
						}
						c, err := NewCore(opts, Outputs{})
						if err != nil {
							t.Fatal(err)
						}
						if how == "meta" {
							c.Meta([]byte("robots"), content, StartPos, true)
						}
						if _, err := c.Finish(); err != nil {
							t.Fatal(err)
						}
					})
				}
				t.Logf("%d bytes: %d allocated (%.2f per byte); %d bytes: %d (%.2f per byte)",
					small, got[0], float64(got[0])/small, 2*small, got[1], float64(got[1])/(2*small))
				// The warnings kept (MaxWarnings of up to MaxWarningBytes),
				// the Other tokens and Sources: a bound of their own.
				const kept = 512 << 10
				if limit := 3*uint64(small) + kept; got[0] > limit {
					t.Errorf("%d bytes took %d bytes, more than %d", small, got[0], limit)
				}
				if limit := 2*got[0] + kept/4; got[1] > limit {
					t.Errorf("twice the value took %d bytes, more than twice %d", got[1], got[0])
				}
			})
		}
	}
}

// BenchmarkXRobotsTagValue is a long X-Robots-Tag value through a run:
// bytes per second, and what it allocates.
func BenchmarkXRobotsTagValue(b *testing.B) {
	for _, shape := range directiveShapes {
		b.Run(strings.ReplaceAll(shape.name, " ", "-"), func(b *testing.B) {
			v := strings.Repeat(shape.token, (1<<20)/len(shape.token))
			opts := Options{Agent: "FooBot/1.0", XRobotsTag: []string{v}}
			b.SetBytes(int64(len(v)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c, err := NewCore(opts, Outputs{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
