// Package quote shortens the values that messages quote, so that a
// warning about a megabyte-long attribute stays a line.
package quote

import "unicode/utf8"

// Clip returns s, or its first n bytes or fewer, cut before a UTF-8
// character's first byte, and an ellipsis.
func Clip[S ~string | ~[]byte](s S, n int) string {
	if len(s) <= n {
		return string(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return string(s[:n]) + "…"
}
