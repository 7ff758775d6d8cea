package ascii

import (
	"strconv"
	"testing"
)

// IsHexDigit and Unhex agree with strconv on every byte.
func TestHexDigits(t *testing.T) {
	for c := 0; c < 256; c++ {
		v, err := strconv.ParseUint(string(rune(c)), 16, 8)
		if IsHexDigit(byte(c)) != (err == nil && c < 0x80) {
			t.Errorf("IsHexDigit(%q) = %v", rune(c), IsHexDigit(byte(c)))
		}
		if err == nil && c < 0x80 && Unhex(byte(c)) != byte(v) {
			t.Errorf("Unhex(%q) = %d, want %d", rune(c), Unhex(byte(c)), v)
		}
	}
}
