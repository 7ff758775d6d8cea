// Package hostile makes inputs of hostile shapes for the tests that check
// work and memory stay linear in the input's size: each shape is a
// function of the size n it should come near.
package hostile

import "strings"

// HTTPHeads are HTTP heads (without the status line and the empty line
// that ends them) of about n bytes.
var HTTPHeads = map[string]func(n int) string{
	"one-byte lines":      func(n int) string { return strings.Repeat("x\n", n/2) },
	"one long line":       func(n int) string { return "X-Long: " + strings.Repeat("a", n) + "\r\n" },
	"X-Robots-Tag lines":  func(n int) string { return strings.Repeat("X-Robots-Tag: noarchive\r\n", n/25) },
	"obs-fold lines":      func(n int) string { return "X-Robots-Tag: noarchive\r\n" + strings.Repeat(" a\r\n", n/4) },
	"CRs before the LF":   func(n int) string { return "X-A: b" + strings.Repeat("\r", n) + "\n" },
	"names without value": func(n int) string { return strings.Repeat("x:\n", n/3) },
	"NUL lines":           func(n int) string { return strings.Repeat("\x00\n", n/2) },
}
