package xmlstream

import (
	"io"
	"unicode/utf8"
)

// Start and end tags, names and attributes, as the scanner reads them
// (XML 1.0 sections 2.3, 3.1).

// readName reads a Name at z.i and returns its span. It stops before a
// byte that starts no UTF-8 sequence (U+FFFD, a name character, written
// as such is read): the caller then fails there, as mustName does.
func (z *scanner) readName() (int, int, bool) {
	lo := z.i
	for {
		if !z.more(1) {
			return lo, z.i, z.i > lo
		}
		c := z.buf[z.i]
		if c < utf8.RuneSelf {
			if z.i == lo && !isXMLNameStartByte(c) || !isXMLNameByte(c) {
				return lo, z.i, z.i > lo
			}
			z.i++
			continue
		}
		z.more(utf8.UTFMax)
		r, n := utf8.DecodeRune(z.buf[z.i:])
		if r == utf8.RuneError && n == 1 || z.i == lo && !isXMLNameStartRune(r) || !isXMLNameRune(r) {
			return lo, z.i, z.i > lo
		}
		z.i += n
	}
}

// invalidUTF8 is the error for a byte at z.i that starts no UTF-8
// sequence, where a name (what) stopped; nil when another byte, or none,
// stands there.
func (z *scanner) invalidUTF8(what string) error {
	if !z.more(1) || z.buf[z.i] < utf8.RuneSelf {
		return nil
	}
	z.more(utf8.UTFMax)
	rest := z.buf[z.i:]
	if r, n := utf8.DecodeRune(rest); r != utf8.RuneError || n != 1 {
		return nil
	}
	if !utf8.FullRune(rest) {
		if err := z.inputErr(); err != io.EOF {
			return err // the token size limit (or a failure) cut the character short
		}
	}
	return z.fail(z.i, "invalid UTF-8 in %s", what)
}

// space steps over XML white space and reports whether there was any.
func (z *scanner) space() bool {
	lo := z.i
	for z.more(1) && isS(z.buf[z.i]) {
		z.i++
	}
	return z.i > lo
}

// mustName reads the Name that must stand at z.i (what it names, for the
// message when none does) and returns its span.
func (z *scanner) mustName(what string) (int, int, error) {
	lo, hi, ok := z.readName()
	if err := z.invalidUTF8(what); err != nil {
		return 0, 0, err
	}
	switch {
	case ok:
		return lo, hi, nil
	case !z.more(1):
		return 0, 0, z.eofError()
	}
	return 0, 0, z.fail(z.i, "%s cannot start %s", z.quoteCurrent(), what)
}

func (z *scanner) startTag() error {
	lo, hi, err := z.mustName("an element name")
	if err != nil {
		return err
	}
	nameSpan := textSpan{lo: lo, hi: hi}
	for {
		sep := z.space()
		if !z.more(1) {
			return z.eofError()
		}
		switch c := z.buf[z.i]; {
		case c == '>':
			z.i++
			return z.finishStart(nameSpan)
		case c == '/':
			if !z.more(2) {
				return z.eofError()
			}
			if z.buf[z.i+1] != '>' {
				return z.fail(z.i, "a '/' in a start tag must be followed by '>'")
			}
			z.i += 2
			z.empty = true
			return z.finishStart(nameSpan)
		case !sep:
			q := z.quoteCurrent() // first: it may move the buffer
			return z.fail(z.i, "%s in the start tag <%s>: expected white space, '>' or '/>'", q, z.buf[lo:hi])
		}
		if err := z.attribute(); err != nil {
			return err
		}
	}
}

func (z *scanner) attribute() error {
	lo, hi, err := z.mustName("an attribute name")
	if err != nil {
		return err
	}
	z.space()
	if !z.more(1) {
		return z.eofError()
	}
	if z.buf[z.i] != '=' {
		return z.fail(z.i, "attribute %s has no value (expected '=')", z.buf[lo:hi])
	}
	z.i++
	z.space()
	if !z.more(1) {
		return z.eofError()
	}
	q := z.buf[z.i]
	if q != '"' && q != '\'' {
		return z.fail(z.i, "the value of attribute %s is not quoted", z.buf[lo:hi])
	}
	z.i++
	t := z.beginText(z.i)
	for {
		for z.i < len(z.buf) && attrClass[z.buf[z.i]] == 0 {
			z.i++
		}
		if !z.more(1) {
			return z.eofError()
		}
		switch c := z.buf[z.i]; attrClass[c] {
		case classQuote:
			if c == q {
				z.spans.add(attrSpan{nameLo: lo, nameHi: hi, value: z.finishText(&t, z.i)})
				z.i++
				return nil
			}
			z.i++
		case classLT:
			return z.fail(z.i, "'<' in the value of attribute %s (write &lt;)", z.buf[lo:hi])
		case classAmp:
			if err := z.reference(&t, true); err != nil {
				return err
			}
		case classCR:
			z.cr(&t)
			z.scratch[len(z.scratch)-1] = ' '
		case classWS:
			z.toScratch(&t, z.i)
			z.scratch = append(z.scratch, ' ')
			z.i++
			t.copied = z.i
		case classCtl:
			return z.fail(z.i, "illegal character code %U", rune(c))
		case classHigh:
			if err := z.checkRune(); err != nil {
				return err
			}
		}
	}
}

func (z *scanner) finishStart(name textSpan) error {
	z.name = z.bytesOf(name)
	return nil
}

// attrCount is the number of attributes of the start tag just read, and
// attr the qualified name (as written) and value (references replaced and
// white space normalised, XML 1.0 section 3.3.3) of one, valid while the
// token is handled. (The
// spans are the only copy of the attributes the scanner keeps: a start tag
// of a million attributes made a second list of them.)
func (z *scanner) attrCount() int { return z.spans.n }

func (z *scanner) attr(i int) (name, value []byte) {
	s := z.spans.at(i)
	return z.buf[s.nameLo:s.nameHi], z.bytesOf(s.value)
}

func (z *scanner) endTag() error {
	lo, hi, err := z.mustName("an element name")
	if err != nil {
		return err
	}
	z.space()
	if !z.more(1) {
		return z.eofError()
	}
	if z.buf[z.i] != '>' {
		q := z.quoteCurrent() // first: it may move the buffer
		return z.fail(z.i, "%s in the end tag </%s>: expected '>'", q, z.buf[lo:hi])
	}
	z.i++
	z.name = z.buf[lo:hi]
	return nil
}
