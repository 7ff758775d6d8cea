package robotstxt

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentUse matches from many goroutines at once, including the
// first use that compiles each robot's rules; run it with -race.
func TestConcurrentUse(t *testing.T) {
	body := []byte("User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: *\nDisallow: /star\nAllow: /star/ok\n")
	agents := []string{"a", "b", "c", "A", "d"}
	urls := []string{"/a", "/b", "/star/x", "/star/ok", "/other"}
	for _, mode := range []Mode{RFC9309, Google, V1} {
		want := map[string]bool{}
		for _, agent := range agents {
			for _, url := range urls {
				want[agent+url] = Parse(body, Options{Mode: mode}).Allowed(agent, url)
			}
		}
		shared := Parse(body, Options{Mode: mode})
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for g := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 200 {
					agent, url := agents[(g+i)%len(agents)], urls[i%len(urls)]
					if got := shared.Allowed(agent, url); got != want[agent+url] {
						errs <- fmt.Errorf("%s: %s %s = %v, want %v", mode, agent, url, got, want[agent+url])
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}
