// Package ascii compares and folds tokens by ASCII case alone, as robots
// tokens are compared (SPEC section 1). Unicode folding, as
// strings.EqualFold and strings.ToLower do it, would also take
// "ſponſored" (U+017F) for "sponsored" and a Kelvin sign for 'k'. It
// also reads hexadecimal digits, for the parsers that decode
// percent-escapes and character references.
package ascii

import "unsafe"

// EqualFold reports whether a and b are equal under ASCII case folding.
func EqualFold[A, B ~string | ~[]byte](a A, b B) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if x, y := a[i], b[i]; x != y && Lower(x) != Lower(y) {
			return false
		}
	}
	return true
}

// Lower is c lower-cased if it is an ASCII capital letter, else c.
func Lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// ToLower lower-cases the ASCII letters of s and leaves every other byte
// as it is; s itself when it has no capital letter.
func ToLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = Lower(b[j])
			}
			// One copy, not two: nothing else holds b.
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
	}
	return s
}

// IsHexDigit reports whether c is a hexadecimal digit, in either case, as
// percent-escapes and character references write them.
func IsHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// Unhex is the value of the hexadecimal digit c (IsHexDigit).
func Unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
