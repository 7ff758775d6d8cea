//go:build !linux

package hostile

import "time"

var start = time.Now()

// ThreadCPU is, where no clock of the thread's CPU time is read, the
// time since the program started: what the caller measures is then wall
// time, which the machine's other work makes noisier.
func ThreadCPU() time.Duration { return time.Since(start) }
