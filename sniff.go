package robofilter

import (
	"bufio"
	"bytes"
	"strings"

	"golang.org/x/net/html/atom"
)

// SniffLimit is how far Sniff looks for the root element: the comments,
// processing instructions and DOCTYPE before it may take this many bytes
// (after a byte order mark). A root element further on is not looked at,
// and the document is read as HTML (--xml reads it as XML).
const SniffLimit = 4 << 10

// Sniff peeks at a buffered document and says whether it is XML, by its
// start, as a careful crawler reads a document no Content-Type describes.
// It is XML when:
//   - an XML declaration starts it (after a byte order mark and white
//     space; UTF-16 is recognised by its byte order mark, or by "<?" in
//     two-byte units, XML 1.0 Appendix F);
//   - an <?xml-stylesheet?> processing instruction stands before the root
//     element (HTML has none);
//   - the root element is a feed's or a sitemap's (rss, feed, rdf:RDF,
//     urlset, sitemapindex), or has a namespace declaration (xmlns) and is
//     no HTML element.
//
// Everything else is HTML, <!DOCTYPE html> and an <html> root among it.
// Sniff looks past comments, processing instructions and a DOCTYPE to the
// root element, at most SniffLimit bytes (or the reader's buffer, when it
// is smaller): it peeks 1 KiB first, and further only while it is inside
// the prolog. It reads nothing: the bytes stay in br.
func Sniff(br *bufio.Reader) Format {
	limit := min(SniffLimit, br.Size())
	for n := min(1<<10, limit); ; n = min(2*n, limit) {
		head, err := br.Peek(n)
		f, decided := sniffHead(head)
		if decided || err != nil || n == limit {
			return f
		}
	}
}

// sniffHead says what the start of a document is, and whether head was
// enough to tell (false: the prolog goes on past it).
func sniffHead(head []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")):
		head = head[3:]
	case bytes.HasPrefix(head, []byte("\xFF\xFE")), bytes.HasPrefix(head, []byte("\xFE\xFF")):
		// UTF-16: look at every other byte.
		ascii := make([]byte, 0, len(head)/2)
		start := 2
		if head[0] == 0xFE {
			start = 3
		}
		for i := start; i < len(head); i += 2 {
			ascii = append(ascii, head[i])
		}
		head = ascii
	default:
		// UTF-16 without a BOM: "<?" as two-byte units (XML 1.0 Appendix F).
		if bytes.HasPrefix(head, []byte("<\x00?\x00")) || bytes.HasPrefix(head, []byte("\x00<\x00?")) {
			return XML, true
		}
	}
	head = trimSpace(head)
	if bytes.HasPrefix(head, []byte("<?xml")) && len(head) > 5 && isSpace(head[5]) {
		return XML, true
	}
	// The prolog: comments, processing instructions, a DOCTYPE.
	for {
		head = trimSpace(head)
		switch {
		case len(head) == 0:
			return HTML, false
		case bytes.HasPrefix(head, []byte("<!--")):
			end := bytes.Index(head[4:], []byte("-->"))
			if end < 0 {
				return HTML, false
			}
			head = head[4+end+3:]
		case bytes.HasPrefix(head, []byte("<?")):
			end := bytes.Index(head, []byte("?>"))
			if end < 0 {
				return HTML, false
			}
			if target, _, _ := bytes.Cut(head[2:end], []byte(" ")); string(target) == "xml-stylesheet" {
				return XML, true
			}
			head = head[end+2:]
		case bytes.HasPrefix(head, []byte("<!")) && len(head) < 9:
			return HTML, false
		case bytes.HasPrefix(head, []byte("<!")) && strings.EqualFold(string(head[:9]), "<!doctype"):
			if rest := trimSpace(head[9:]); len(rest) >= 5 && strings.EqualFold(string(rest[:4]), "html") && (isSpace(rest[4]) || rest[4] == '>') {
				return HTML, true
			}
			end := doctypeEnd(head)
			if end < 0 {
				return HTML, false
			}
			head = head[end:]
		default:
			return sniffRoot(head)
		}
	}
}

// feedRoots are the root elements of feeds and sitemaps.
var feedRoots = map[string]bool{"rss": true, "feed": true, "rdf:RDF": true, "urlset": true, "sitemapindex": true}

// sniffRoot reads the root element's start tag at the start of head.
func sniffRoot(head []byte) (Format, bool) {
	if len(head) < 2 || head[0] != '<' || !isNameStart(head[1]) {
		return HTML, true // text, or markup that is no element: HTML
	}
	i := 1
	for i < len(head) && !isSpace(head[i]) && head[i] != '>' && head[i] != '/' {
		i++
	}
	if i == len(head) {
		return HTML, false
	}
	name := string(head[1:i])
	if feedRoots[name] {
		return XML, true
	}
	// The start tag's attributes, for a namespace declaration.
	var quote byte
	end := -1
	for j := i; j < len(head); j++ {
		switch c := head[j]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			end = j
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return HTML, false
	}
	if !hasXMLNS(head[i:end]) {
		return HTML, true
	}
	if !strings.Contains(name, ":") {
		// An HTML element with an xmlns (<html xmlns="…">, XHTML served
		// as HTML) is still HTML; svg and math documents are XML.
		if a := atom.Lookup([]byte(strings.ToLower(name))); a != 0 && a != atom.Svg && a != atom.Math {
			return HTML, true
		}
	}
	return XML, true
}

// hasXMLNS reports whether a start tag's attributes (what follows its
// name) declare a namespace: xmlns= or xmlns:prefix=.
func hasXMLNS(attrs []byte) bool {
	for k := 0; ; {
		j := bytes.Index(attrs[k:], []byte("xmlns"))
		if j < 0 {
			return false
		}
		j += k
		if j > 0 && isSpace(attrs[j-1]) && j+5 < len(attrs) && (attrs[j+5] == '=' || attrs[j+5] == ':' || isSpace(attrs[j+5])) {
			return true
		}
		k = j + 5
	}
}

// doctypeEnd returns the length of the DOCTYPE declaration head starts
// with, through its '>' (one in a literal or in the internal subset does
// not end it), or -1 when it does not end in head.
func doctypeEnd(head []byte) int {
	var quote byte
	subset := false
	for i := 9; i < len(head); i++ {
		switch c := head[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			subset = true
		case c == ']':
			subset = false
		case c == '>' && !subset:
			return i + 1
		}
	}
	return -1
}

func trimSpace(b []byte) []byte { return bytes.TrimLeft(b, " \t\r\n") }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}
