package xmlstream

import "unicode/utf8"

// The characters of XML names (XML 1.0 fifth edition, section 2.3).

var nameByte = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 2
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = 2
	}
	t['_'], t[':'] = 2, 2
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	t['-'], t['.'] = 1, 1
	return t
}()

func isXMLNameStartByte(c byte) bool { return c < utf8.RuneSelf && nameByte[c] == 2 }

func isXMLNameByte(c byte) bool { return c < utf8.RuneSelf && nameByte[c] != 0 }

func isXMLNameStartRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isXMLNameStartByte(byte(r))
	}
	return r >= 0xC0 && r <= 0xD6 || r >= 0xD8 && r <= 0xF6 || r >= 0xF8 && r <= 0x2FF ||
		r >= 0x370 && r <= 0x37D || r >= 0x37F && r <= 0x1FFF || r >= 0x200C && r <= 0x200D ||
		r >= 0x2070 && r <= 0x218F || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF ||
		r >= 0xF900 && r <= 0xFDCF || r >= 0xFDF0 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF
}

func isXMLNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isXMLNameByte(byte(r))
	}
	return isXMLNameStartRune(r) || r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// isXMLName reports whether b is one XML Name.
func isXMLName(b []byte) bool {
	for i, w := 0, 0; i < len(b); i += w {
		r, n := utf8.DecodeRune(b[i:])
		w = n
		if r == utf8.RuneError && n == 1 || i == 0 && !isXMLNameStartRune(r) || !isXMLNameRune(r) {
			return false
		}
	}
	return len(b) > 0
}
