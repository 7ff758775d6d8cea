package htmlstream

import (
	"math/rand"
	"testing"
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
