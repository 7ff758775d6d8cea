package filter

// Names keeps the element names of one run, each as one string, so that a
// page using a name many times does not allocate it each time. The zero
// value is ready; a Names belongs to one run (runs in different goroutines
// share nothing).
type Names struct {
	m map[string]string
}

// maxNames bounds the names kept, and maxNameLen their length; past them
// a name is copied each time: what a run keeps does not grow with the
// document (4,096 names of 16 MiB each), and real names are short.
const (
	maxNames   = 4096
	maxNameLen = 256
)

// Intern returns the run's string for b.
func (n *Names) Intern(b []byte) string {
	if s, ok := n.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if n.m == nil {
		n.m = map[string]string{}
	}
	if len(n.m) < maxNames && len(s) <= maxNameLen {
		n.m[s] = s
	}
	return s
}
