package htmlstream

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/robofilter/robofilter/filter"
)

// The open-addressing counts agree with a map under random adds and
// removes, with keys that collide in the table (few distinct home slots).
func TestAlikeCountsMatchAMap(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var table alikeCounts
	want := map[uint64]int32{}
	var live []uint64
	keys := make([]uint64, 600)
	for i := range keys {
		keys[i] = uint64(rng.Intn(64)) << 20 // many share a home slot
		if i%3 == 0 {
			keys[i] = rng.Uint64()
		}
	}
	for step := 0; step < 200000; step++ {
		if len(live) < maxActiveFormatting && (len(live) == 0 || rng.Intn(2) == 0) {
			k := keys[rng.Intn(len(keys))]
			table.add(k)
			want[k]++
			live = append(live, k)
		} else {
			i := rng.Intn(len(live))
			k := live[i]
			live[i] = live[len(live)-1]
			live = live[:len(live)-1]
			table.remove(k)
			if want[k]--; want[k] == 0 {
				delete(want, k)
			}
		}
		if step%97 == 0 {
			for _, k := range keys {
				if got := table.count(k); got != want[k] {
					t.Fatalf("step %d: count(%#x) = %d, want %d", step, k, got, want[k])
				}
			}
		}
	}
}

// A document's table goes back to alikePool when it ends: every count
// added must have been removed by then, whatever the document left open
// (eof clears a table whose counts do not balance, so the balance is
// checked as well as the table).
func TestAlikeCountsAreEmptyWhenADocumentEnds(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := range 300 {
		src := tagSoup(rng, 50+rng.Intn(200))
		c, err := filter.NewCore(filter.Options{}, filter.Outputs{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := run(bytes.NewReader(src), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c.Finish()
		if b.afeKeyCount != 0 {
			t.Fatalf("input %d: %d counts added and not removed\n%q", i, b.afeKeyCount, src)
		}
		table := alikePool.Get().(*alikeCounts) // the one just put back, as a rule
		for _, slot := range table {            // a free slot may keep its last key
			if slot.n != 0 {
				t.Fatalf("input %d: the table is not empty after the document\n%q", i, src)
			}
		}
		alikePool.Put(table)
	}
}
