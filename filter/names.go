package filter

// Names keeps the element names of one run, each as one string, so that a
// page using a name many times does not allocate it each time. The zero
// value is ready; a Names belongs to one run (runs in different goroutines
// share nothing).
type Names struct {
	m map[string]string
}

// maxNames bounds the names kept; past it a new name is copied each time.
const maxNames = 4096

// Intern returns the run's string for b.
func (n *Names) Intern(b []byte) string {
	if s, ok := n.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if n.m == nil {
		n.m = map[string]string{}
	}
	if len(n.m) < maxNames {
		n.m[s] = s
	}
	return s
}
