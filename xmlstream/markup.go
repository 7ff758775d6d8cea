package xmlstream

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Markup other than tags: comments, processing instructions and the XML
// declaration, CDATA sections, and the DOCTYPE with its internal subset
// (XML 1.0 sections 2.5 to 2.8).

// until steps to just after the next occurrence of end, checking the
// characters on the way, and returns where end starts.
func (z *scanner) until(end string) (int, error) {
	for {
		for z.i < len(z.buf) {
			c := z.buf[z.i]
			if c == end[0] || c >= utf8.RuneSelf || c < ' ' && textClass[c] == classCtl {
				break
			}
			z.i++
		}
		if z.i >= len(z.buf) {
			if !z.more(1) {
				return 0, z.eofError()
			}
			continue
		}
		switch c := z.buf[z.i]; {
		case c == end[0]:
			if !z.more(len(end)) {
				return 0, z.eofError()
			}
			if string(z.buf[z.i:z.i+len(end)]) == end {
				at := z.i
				z.i += len(end)
				return at, nil
			}
			z.i++
		case c >= utf8.RuneSelf:
			if err := z.checkRune(); err != nil {
				return 0, err
			}
		default:
			return 0, z.fail(z.i, "illegal character code %U", rune(c))
		}
	}
}

// normalizeCR returns text with CR LF and CR read as LF.
func (z *scanner) normalizeCR(text []byte) []byte {
	if bytes.IndexByte(text, '\r') < 0 {
		return text
	}
	lo := len(z.scratch)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
		}
		z.scratch = append(z.scratch, c)
	}
	return z.scratch[lo:]
}

func (z *scanner) procInst() error {
	lo, hi, err := z.mustName("a processing instruction's target")
	if err != nil {
		return err
	}
	if msg, atTarget := xmlTargetError(z.buf[lo:hi], z.firstMarkup); msg != "" {
		if atTarget {
			return z.fail(lo, "%s", msg)
		}
		return z.fail(0, "%s", msg)
	}
	sep := z.space()
	if !z.more(2) {
		return z.eofError()
	}
	if !sep && !(z.buf[z.i] == '?' && z.buf[z.i+1] == '>') {
		q := z.quoteCurrent() // first: it may move the buffer
		return z.fail(z.i, "%s after the processing instruction target %s: expected white space or '?>'", q, z.buf[lo:hi])
	}
	body := z.i
	end, err := z.until("?>")
	if err != nil {
		return err
	}
	z.name = z.buf[lo:hi]
	z.text = z.normalizeCR(z.buf[body:end])
	if string(z.name) == "xml" {
		var bad *declError
		if z.decl, bad = parseXMLDecl(z.buf[hi:end]); bad != nil {
			return z.fail(hi+bad.at, "%s", bad.msg)
		}
	}
	return nil
}

// xmlTargetError is the error for a PI whose target is xml in any case,
// which [17] PITarget excludes: in lower case it is the XML declaration,
// which may stand only at the start of the document ([22] prolog, [23]
// XMLDecl), first in the input after a byte order mark (white space before
// it is taken, with a warning: a common fault of feeds written by
// templates, which loses nothing); in any other case it is reserved.
// atTarget says whether the error is at the target (else at the PI's
// "<?"). It is "" for any other target, and for xml at the start.
func xmlTargetError(target []byte, atStart bool) (msg string, atTarget bool) {
	switch {
	case len(target) != 3 || !bytes.EqualFold(target, []byte("xml")):
		return "", false
	case string(target) != "xml":
		return fmt.Sprintf("the processing instruction target %s is reserved", target), true
	case !atStart:
		return "the XML declaration <?xml …?> may only stand at the start of the document", false
	}
	return "", false
}

// xmlDecl is what an XML declaration says ("" for what it does not).
// versionAt is where version's name stands in the text parseXMLDecl was
// given (-1 if nowhere).
type xmlDecl struct {
	version, encoding, standalone string
	versionAt                     int
}

// declError is a well-formedness error at an offset of the text given to
// parseXMLDecl.
type declError struct {
	at  int
	msg string
}

// parseXMLDecl reads an XML declaration's text, what follows "<?xml" up
// to its "?>", by XML 1.0 productions [23] to [26], [32], [80] and [81]:
// version (1.x), then optionally encoding (an EncName), then optionally
// standalone ("yes" or "no"), each after white space, with single or
// double quotes; white space may end it. It returns what it read before
// an error too.
func parseXMLDecl(b []byte) (xmlDecl, *declError) {
	d := xmlDecl{versionAt: -1}
	names := [...]string{"version", "encoding", "standalone"}
	next := 0 // the index in names of the first pseudo-attribute that may follow
	var seen [len(names)]bool
	i := 0
	for {
		sep := i
		i = skipS(b, i)
		if i == len(b) {
			if next == 0 {
				return d, &declError{i, `the XML declaration has no version: it must start <?xml version="1.0"`}
			}
			return d, nil
		}
		if i == sep {
			return d, &declError{i, fmt.Sprintf("%s in the XML declaration: expected white space or '?>'", quoteRune(b[i:]))}
		}
		at := i
		for i < len(b) && (isXMLNameByte(b[i]) || b[i] >= utf8.RuneSelf) {
			i++
		}
		name := string(b[at:i])
		which := slices.Index(names[:], name)
		switch {
		case at == i:
			return d, &declError{at, fmt.Sprintf("%s in the XML declaration: expected version, encoding or standalone", quoteRune(b[at:]))}
		case which < 0:
			return d, &declError{at, fmt.Sprintf("%q in the XML declaration: only version, encoding and standalone may stand there, in that order", clipRunes(name, 20))}
		case next == 0 && which > 0:
			return d, &declError{at, fmt.Sprintf(`the XML declaration has no version: it must start <?xml version="1.0", not with %s`, name)}
		case seen[which]:
			return d, &declError{at, fmt.Sprintf("%s is written twice in the XML declaration", name)}
		case which < next:
			return d, &declError{at, fmt.Sprintf("%s after %s in the XML declaration: the order is version, encoding, standalone", name, names[next-1])}
		}
		seen[which] = true
		i = skipS(b, i)
		if i == len(b) || b[i] != '=' {
			return d, &declError{i, fmt.Sprintf("%s in the XML declaration has no value (expected '=')", name)}
		}
		i = skipS(b, i+1)
		if i == len(b) || b[i] != '"' && b[i] != '\'' {
			return d, &declError{i, fmt.Sprintf("the value of %s in the XML declaration is not quoted", name)}
		}
		q := bytes.IndexByte(b[i+1:], b[i])
		if q < 0 {
			return d, &declError{i, fmt.Sprintf("the value of %s in the XML declaration has no closing quote before '?>'", name)}
		}
		v := string(b[i+1 : i+1+q])
		i += q + 2
		switch which {
		case 0:
			d.version, d.versionAt = v, at
			if !isVersionNum(v) {
				return d, &declError{at, fmt.Sprintf("version %q in the XML declaration is not an XML 1.x version (robofilter reads XML 1.0)", clipRunes(v, 20))}
			}
		case 1:
			d.encoding = v
			if !isEncName(v) {
				return d, &declError{at, fmt.Sprintf("encoding %q in the XML declaration is not an encoding name (a letter, then letters, digits, '.', '_' or '-')", clipRunes(v, 20))}
			}
		case 2:
			d.standalone = v
			if v != "yes" && v != "no" {
				return d, &declError{at, fmt.Sprintf(`standalone %q in the XML declaration: the value must be "yes" or "no"`, clipRunes(v, 20))}
			}
		}
		next = which + 1
	}
}

// isVersionNum reports whether v is a VersionNum: '1.' [0-9]+.
func isVersionNum(v string) bool {
	digits, ok := strings.CutPrefix(v, "1.")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// isEncName reports whether v is an EncName: [A-Za-z] ([A-Za-z0-9._] | '-')*.
func isEncName(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		letter := c|0x20 >= 'a' && c|0x20 <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) {
			return false
		}
	}
	return v != ""
}

// quoteRune names the character that starts b for a message.
func quoteRune(b []byte) string {
	r, _ := utf8.DecodeRune(b)
	if r < ' ' {
		return fmt.Sprintf("%U", r)
	}
	return fmt.Sprintf("%q", r)
}

// commentBody steps from just after a comment's "<!--" to just after its
// "-->", and returns where the "--" ending it starts.
func (z *scanner) commentBody() (int, error) {
	end, err := z.until("--")
	if err != nil {
		return 0, err
	}
	if !z.more(1) {
		return 0, z.eofError()
	}
	if z.buf[z.i] != '>' {
		return 0, z.fail(end, `"--" is not allowed inside a comment`)
	}
	z.i++
	return end, nil
}

// markupDecl reads what starts with "<!": a comment, a CDATA section or a
// declaration (the DOCTYPE).
func (z *scanner) markupDecl() error {
	z.more(9)
	switch rest := z.buf[2:]; {
	case bytes.HasPrefix(rest, []byte("--")):
		z.kind, z.i = tokComment, 4
		body := z.i
		end, err := z.commentBody()
		if err != nil {
			return err
		}
		z.text = z.normalizeCR(z.buf[body:end])
		return nil
	case bytes.HasPrefix(rest, []byte("[CDATA[")):
		z.kind, z.i = tokCDATA, 9
		body := z.i
		end, err := z.until("]]>")
		if err != nil {
			// The content before the error point is text, written before
			// the error is reported.
			if at, ok := z.cutAt(err); ok {
				z.text = z.normalizeCR(z.buf[body:max(at, body)])
			}
			return err
		}
		z.text = z.normalizeCR(z.buf[body:end])
		return nil
	case len(rest) < 7 && bytes.HasPrefix([]byte("[CDATA["), rest) || len(rest) < 2 && bytes.HasPrefix([]byte("--"), rest):
		z.kind = tokDirective
		return z.eofError()
	}
	z.kind, z.i = tokDirective, 2
	return z.declaration()
}

// declaration reads a declaration up to its '>': one level of '<' '>'
// nesting per markup declaration of an internal subset, quoted literals,
// comments and processing instructions each read as a whole, so that none
// of them can end it early.
func (z *scanner) declaration() error {
	depth := 0
	for {
		if !z.more(1) {
			return z.eofError()
		}
		switch c := z.buf[z.i]; {
		case c == '"' || c == '\'':
			z.i++
			q := string(c)
			if _, err := z.until(q); err != nil {
				return err
			}
		case c == '<':
			z.more(4)
			switch rest := z.buf[z.i:]; {
			case bytes.HasPrefix(rest, []byte("<!--")):
				z.i += 4
				if _, err := z.commentBody(); err != nil {
					return err
				}
			case bytes.HasPrefix(rest, []byte("<?")):
				at := z.i
				z.i += 2
				// A PI of the internal subset is a PI ([29] markupdecl):
				// its target is not xml, in any case ([17] PITarget).
				lo, hi, _ := z.readName()
				if err := z.invalidUTF8("a processing instruction's target"); err != nil {
					return err
				}
				if msg, atTarget := xmlTargetError(z.buf[lo:hi], false); msg != "" {
					if atTarget {
						return z.fail(lo, "%s", msg)
					}
					return z.fail(at, "%s", msg)
				}
				if _, err := z.until("?>"); err != nil {
					return err
				}
			default:
				depth++
				z.i++
			}
		case c == '>':
			z.i++
			if depth == 0 {
				z.text = z.buf[2 : z.i-1]
				return nil
			}
			depth--
		case c >= utf8.RuneSelf:
			if err := z.checkRune(); err != nil {
				return err
			}
		case textClass[c] == classCtl:
			return z.fail(z.i, "illegal character code %U", rune(c))
		default:
			z.i++
		}
	}
}

// quoteCurrent names the character at z.i for a message, read whole
// however the input arrived.
func (z *scanner) quoteCurrent() string {
	z.more(utf8.UTFMax)
	return quoteRune(z.buf[z.i:])
}
