package hostile

import (
	"runtime"
	"time"
)

// Work is what running a function cost: the CPU time of its thread and
// what it allocated.
type Work struct {
	CPU           time.Duration
	Allocs, Bytes uint64
}

// Measure runs f on one thread and returns its work. The garbage is
// collected first, so that f pays for none of another's.
func Measure(f func()) Work {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t := ThreadCPU()
	f()
	cpu := ThreadCPU() - t
	runtime.ReadMemStats(&after)
	return Work{CPU: cpu, Allocs: after.Mallocs - before.Mallocs, Bytes: after.TotalAlloc - before.TotalAlloc}
}

// FuzzWorkBound bounds the work of a fuzzed input of n bytes for the
// fuzz targets that look for stalls: linear work takes well under a
// microsecond and a few allocated bytes a byte (a few MB/s with the
// fuzzer's instrumentation); quadratic work on the 64 KiB the targets
// make takes seconds. Generous, so that a busy machine does not fail it.
func FuzzWorkBound(n int) Work {
	return Work{CPU: 50*time.Millisecond + time.Duration(n)*4*time.Microsecond, Bytes: 4<<20 + uint64(n)*256}
}

// Over reports what of w is over the bound b, or "".
func (w Work) Over(b Work) string {
	switch {
	case w.CPU > b.CPU:
		return "CPU time " + w.CPU.String() + ", over " + b.CPU.String()
	case w.Bytes > b.Bytes:
		return "bytes allocated " + itoa(w.Bytes) + ", over " + itoa(b.Bytes)
	}
	return ""
}

func itoa(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// CheckFuzzWork runs f (the reading of an input of n bytes) and reports
// what of its work is over FuzzWorkBound, measured again up to twice
// (the least CPU time of the three) before it says so: a busy machine
// slows a run, never the work.
func CheckFuzzWork(n int, f func()) string {
	bound := FuzzWorkBound(n)
	w := Measure(f)
	for i := 0; i < 2 && w.Over(bound) != ""; i++ {
		again := Measure(f)
		w.CPU = min(w.CPU, again.CPU)
		w.Bytes = min(w.Bytes, again.Bytes)
	}
	return w.Over(bound)
}

// Grow makes a long input out of a short fuzzed seed: the seed repeated
// count times, to at most limit bytes.
func Grow(seed []byte, count, limit int) string {
	if len(seed) == 0 {
		return ""
	}
	count = min(count, limit/len(seed))
	b := make([]byte, 0, count*len(seed))
	for range count {
		b = append(b, seed...)
	}
	return string(b)
}
