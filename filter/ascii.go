package filter

import "unsafe"

// Tokens are compared ASCII case-insensitively (SPEC section 1). Unicode
// folding, as strings.EqualFold and strings.ToLower do it, would also take
// "ſponſored" (U+017F) for "sponsored" and a Kelvin sign for 'k'.

// equalFoldASCII reports whether a and b are equal under ASCII case folding.
func equalFoldASCII[A, B ~string | ~[]byte](a A, b B) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if x, y := a[i], b[i]; x != y && lowerASCII(x) != lowerASCII(y) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// asciiLower lower-cases the ASCII letters of s and leaves every other
// byte as it is.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			// One copy, not two: nothing else holds b.
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
	}
	return s
}
