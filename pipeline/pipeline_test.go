package pipeline

import (
	"errors"
	"io"
	"math/rand"
	"sync/atomic"
	"testing"
	"time"
)

// units gives 0..n-1, every kth in turn.
func units(n, k int) func() (int, bool, error) {
	i := 0
	return func() (int, bool, error) {
		if i == n {
			return 0, false, io.EOF
		}
		i++
		return i - 1, k > 0 && (i-1)%k == 0, nil
	}
}

// Results come back in order, whatever the workers' timing, and the work
// in progress stays within the bound.
func TestResultsInOrderAndBounded(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 3, 8, 33} {
		var busy, most atomic.Int64
		var got []int
		err := Run(workers, units(500, 7), func(u int) int {
			n := busy.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Duration(rand.Intn(50)) * time.Microsecond)
			busy.Add(-1)
			return u * u
		}, func(r int) error {
			got = append(got, r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 500 {
			t.Fatalf("%d workers: %d results", workers, len(got))
		}
		for i, r := range got {
			if r != i*i {
				t.Fatalf("%d workers: result %d is %d", workers, i, r)
			}
		}
		// The workers and the calling goroutine (units in turn).
		if m := most.Load(); m > int64(max(workers, 1))+1 {
			t.Errorf("%d workers: %d units worked on at once", workers, m)
		}
	}
}

// Results wait for delivery within the bound: a slow deliver holds back
// next, not memory.
func TestPendingResultsAreBounded(t *testing.T) {
	var made, taken atomic.Int64
	const workers = 4
	err := Run(workers, units(200, 0), func(u int) int {
		made.Add(1)
		return u
	}, func(int) error {
		if ahead := made.Load() - taken.Add(1); ahead > Ahead*workers+workers+1 {
			t.Errorf("%d results made ahead of delivery", ahead)
		}
		time.Sleep(10 * time.Microsecond)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An error of next ends the run after the results before it; one of
// deliver stops it, and nothing is delivered after it.
func TestErrors(t *testing.T) {
	broken := errors.New("broken")
	next := units(100, 0)
	n := 0
	var got []int
	err := Run(3, func() (int, bool, error) {
		if n++; n > 40 {
			return 0, false, broken
		}
		return next()
	}, func(u int) int { return u }, func(r int) error { got = append(got, r); return nil })
	if err != broken || len(got) != 40 {
		t.Errorf("next failing after 40: %v, %d results", err, len(got))
	}

	full := errors.New("disk full")
	calls := 0
	delivered := 0
	many := units(1000, 0)
	err = Run(3, func() (int, bool, error) { calls++; return many() }, func(u int) int { return u }, func(r int) error {
		if delivered++; delivered == 10 {
			return full
		}
		if delivered > 10 {
			t.Errorf("delivered %d after deliver failed", delivered)
		}
		return nil
	})
	if err != full {
		t.Errorf("deliver failing: %v", err)
	}
	if calls > 100 {
		t.Errorf("next called %d times after deliver failed at the 10th", calls)
	}
}

// A unit in turn is worked on before next is called again: its source
// may be read only then.
func TestUnitInTurnIsDoneBeforeTheNext(t *testing.T) {
	var pending atomic.Int64 // the unit in turn not yet worked on, +1; 0: none
	next := units(50, 5)
	err := Run(4, func() (int, bool, error) {
		if p := pending.Load(); p != 0 {
			t.Errorf("next called before unit %d, in turn, was worked on", p-1)
		}
		u, inTurn, err := next()
		if inTurn && err == nil {
			pending.Store(int64(u) + 1)
		}
		return u, inTurn, err
	}, func(u int) int {
		if u%5 == 0 {
			time.Sleep(100 * time.Microsecond)
			pending.CompareAndSwap(int64(u)+1, 0)
		}
		return u
	}, func(int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
}
