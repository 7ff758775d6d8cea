package robofilter

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"
)

func TestZZInterleave(t *testing.T) {
	src := generatePage(20 << 20)
	bare := func() { tokenize(src, false) }
	ours := func() { Process(bytes.NewReader(src), Options{}, benchOutputs(textOnly)) }
	tm := func(f func()) time.Duration { s := time.Now(); f(); return time.Since(s) }
	for i := 0; i < 4; i++ {
		fmt.Println("bare", tm(bare), "ours", tm(ours), "bare", tm(bare))
	}
	for i := 0; i < 3; i++ {
		fmt.Println("ours", tm(ours), "ours", tm(ours))
	}
	for i := 0; i < 3; i++ {
		bare()
		runtime.GC()
		fmt.Println("after GC: ours", tm(ours))
	}
}
