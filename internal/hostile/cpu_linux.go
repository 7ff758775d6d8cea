package hostile

import (
	"syscall"
	"time"
	"unsafe"
)

// ThreadCPU is the CPU time of the calling thread, to the nanosecond
// (CLOCK_THREAD_CPUTIME_ID counts what the thread ran since the last tick
// too; getrusage's RUSAGE_THREAD does not, and moves by ticks of 4 ms).
// The caller locks its goroutine to the thread (runtime.LockOSThread)
// around what it measures.
func ThreadCPU() time.Duration {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}
