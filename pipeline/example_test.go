package pipeline_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/robofilter/robofilter/pipeline"
)

// Words counted on four goroutines, delivered in the order they came.
func ExampleRun() {
	words := strings.Fields("one pass every core the same order")
	i := 0
	next := func() (string, bool, error) {
		if i == len(words) {
			return "", false, io.EOF
		}
		i++
		return words[i-1], false, nil // false: any worker may take it
	}
	work := func(w string) string { return fmt.Sprintf("%s=%d", w, len(w)) }
	err := pipeline.Run(4, next, work, func(r string) error {
		fmt.Print(r, " ")
		return nil
	})
	fmt.Println(err)
	// Output: one=3 pass=4 every=5 core=4 the=3 same=4 order=5 <nil>
}
