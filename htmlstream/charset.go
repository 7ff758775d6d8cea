package htmlstream

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// input is the document as the tokenizer reads it.
type input struct {
	r        io.Reader
	name     string            // the charset's name
	bom      []byte            // a byte order mark, kept for the archive copy
	dec      *encoding.Decoder // decodes text of an ASCII-compatible charset; nil for UTF-8
	enc      encoding.Encoding // the charset of a non-UTF-8 input, for the ellipsis
	raw      *rawInput         // decodes a charset that is not ASCII-compatible, keeping the original bytes
	fallback *encoding.Decoder // decodes text that is not valid UTF-8 in an unlabeled document
	// withheld: the charset is WHATWG's replacement encoding, whose
	// document reads as one U+FFFD; no archive copy is written (run).
	withheld bool
	// metaDecides: nothing outranks a META charset (no BOM, --charset or
	// Content-Type charset decided), so one the prescan could not use is
	// warned about (metaCharset).
	metaDecides bool
}

// prescanSize is how much the charset prescan looks at (as browsers do).
const prescanSize = 1024

// openInput decides the document's charset from the BOM, the caller's
// label, the Content-Type and a META prescan (golang.org/x/net/html/charset).
//
// The archive copy must be the input's own bytes, so an ASCII-compatible
// charset is not decoded in front of the tokenizer: markup is ASCII in all
// of them, and only text and attribute values are decoded, as they arrive.
// Charsets that are not ASCII-compatible (UTF-16, ISO-2022-JP) are decoded
// whole, a character at a time, keeping the original bytes for the copy
// (rawInput). WHATWG's replacement encoding decodes any document to one
// U+FFFD: its archive copy is withheld.
//
// The first prescanSize bytes are read before anything else, for the
// prescan. A read error among them does not stop the document there: the
// bytes before it are the whole input, and the tokenizer meets the error
// after them, where it reports it with its position, as it does later in
// a document.
func openInput(r io.Reader, opts Options, keepRaw bool) (*input, error) {
	head, rest := readHead(r)
	in := &input{}
	switch {
	case bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")):
		in.bom = head[:3]
	case bytes.HasPrefix(head, []byte("\xFF\xFE")), bytes.HasPrefix(head, []byte("\xFE\xFF")):
		in.bom = head[:2]
	}
	src := io.MultiReader(bytes.NewReader(head[len(in.bom):]), rest)
	in.r = src
	var enc encoding.Encoding
	name := ""
	switch {
	case len(in.bom) == 3:
		in.name = "utf-8"
		return in, nil
	case len(in.bom) == 2 && head[0] == 0xFF:
		enc, name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le"
	case len(in.bom) == 2:
		enc, name = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be"
	case opts.Charset != "":
		e, n := charset.Lookup(opts.Charset)
		if e == nil {
			return nil, fmt.Errorf("unknown charset %q", opts.Charset)
		}
		enc, name = e, n
	case opts.ContentType == "" && !hasHighBytes(head) && !mentionsMeta(head):
		// DetermineEncoding's answer is known without its prescan, which
		// tokenizes the head again (a sixth of a small page's cost): no
		// label, no META that could name a charset, no byte above ASCII,
		// so windows-1252 as a guess, read as below.
		in.name, in.metaDecides = "utf-8", true
		in.fallback = charmap.Windows1252.NewDecoder()
		return in, nil
	default:
		var certain bool
		enc, name, certain = charset.DetermineEncoding(head, opts.ContentType)
		in.metaDecides = !certain
		if !certain && name == "windows-1252" && !hasHighBytes(head) {
			// Nothing labels the document and its first KiB is plain ASCII:
			// the prescan's windows-1252 is a guess. Most such pages are
			// UTF-8 today; read them so, and fall back to windows-1252 only
			// for text that is not valid UTF-8.
			in.name = "utf-8"
			in.fallback = enc.NewDecoder()
			return in, nil
		}
	}
	in.name = name
	switch {
	case name == "utf-8" || enc == nil:
	case asciiCompatible(name):
		in.dec = enc.NewDecoder()
		in.enc = enc
	case name == "replacement":
		in.r = transform.NewReader(src, enc.NewDecoder())
		in.withheld = len(head) > 0
	default:
		in.enc = enc
		var units unitDecoder
		switch name {
		case "utf-16le", "utf-16be":
			units = utf16Units{bigEndian: name == "utf-16be"}
		case "iso-2022-jp":
			units = &transformUnits{t: enc.NewDecoder(), split: iso2022JPSplit}
		default:
			units = &transformUnits{t: enc.NewDecoder()}
		}
		in.raw = newRawInput(src, units, keepRaw, name == "iso-2022-jp", int64(len(in.bom)))
		in.r = in.raw
	}
	return in, nil
}

// readHead reads the document's first prescanSize bytes (fewer if it is
// shorter), and returns them and the reader of the rest: the input, or,
// when reading failed or ended, that error again. A reader that returns
// nothing 100 times in a row fails with io.ErrNoProgress, as bufio's does.
func readHead(r io.Reader) (head []byte, rest io.Reader) {
	head = make([]byte, 0, prescanSize)
	for empty := 0; len(head) < prescanSize; {
		n, err := r.Read(head[len(head):prescanSize])
		head = head[:len(head)+n]
		if err != nil {
			return head, errReader{err}
		}
		if n > 0 {
			empty = 0
		} else if empty++; empty == 100 {
			return head, errReader{io.ErrNoProgress}
		}
	}
	return head, r
}

// mentionsMeta reports whether head holds "<meta" in any case: the prescan
// looks at nothing but start tags named meta, and a tag name is its bytes
// lower-cased.
func mentionsMeta(head []byte) bool {
	for i := bytes.IndexByte(head, '<'); i >= 0 && i+5 <= len(head); {
		if t := head[i+1 : i+5]; t[0]|0x20 == 'm' && t[1]|0x20 == 'e' && t[2]|0x20 == 't' && t[3]|0x20 == 'a' {
			return true
		}
		k := bytes.IndexByte(head[i+1:], '<')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// ellipsisIn encodes the archive's ellipsis in the document's charset; one
// the charset cannot express falls back to "..." (or, for a custom one, is
// written as given).
func ellipsisIn(enc encoding.Encoding, ellipsis string) []byte {
	if e, err := enc.NewEncoder().Bytes([]byte(ellipsis)); err == nil {
		return e
	}
	if ellipsis == "…" {
		return []byte("...")
	}
	return []byte(ellipsis)
}

// rawEllipsis encodes the ellipsis for a charset that is not
// ASCII-compatible, where bytes as given would not read as text: one it
// cannot encode (not valid UTF-8) is "...". In ISO-2022-JP it starts with
// an escape sequence, as the encoder's "…" does (an ASCII one gets ESC ( B),
// so it reads the same in any state the copy is in where it is written; it
// ends in ASCII, as the encoder leaves it.
func rawEllipsis(enc encoding.Encoding, name, ellipsis string) []byte {
	e, err := enc.NewEncoder().Bytes([]byte(ellipsis))
	if err != nil || len(e) == 0 {
		e, _ = enc.NewEncoder().Bytes([]byte("..."))
	}
	if name == "iso-2022-jp" && (len(e) == 0 || e[0] != 0x1b) {
		e = append(bytes.Clone(escASCII), e...)
	}
	return e
}

// asciiCompatible reports whether every ASCII byte of the charset's text is
// that ASCII character (so tags are found in the raw bytes). Multi-byte
// East Asian charsets qualify: their trail bytes never fall on <, >, &, =,
// quotes or whitespace.
func asciiCompatible(name string) bool {
	n := strings.ToLower(name)
	return !strings.HasPrefix(n, "utf-16") && n != "iso-2022-jp" && n != "replacement"
}

// metaCharset warns of a META that names a charset the document is not
// read in, where nothing but a META could have decided it: one that comes
// after the bytes the prescan reads (a browser would read such a page
// again in that charset; a stream cannot), or that another META or the
// prescan's guess came before; and, wherever it is, of a META that names
// no known charset. One that names the charset in use (or, in a page read
// as UTF-8 with windows-1252 as the fallback, windows-1252, which reads
// its text wherever it is not UTF-8) says nothing new.
func (b *builder) metaCharset() {
	in := b.charset
	label, ok := metaCharsetLabel(&b.tok)
	if in == nil || !ok {
		return
	}
	c := b.core
	e, name := charset.Lookup(label)
	if e == nil {
		c.Warn(b.z.pos, "META names charset %q, which is not known; ignored (the document is read as %s)", label, in.name)
		return
	}
	if strings.HasPrefix(name, "utf-16") {
		name = "utf-8" // as the prescan reads it: a page whose META the tokenizer read is not in UTF-16
	}
	if !in.metaDecides || name == in.name || in.fallback != nil && name == "windows-1252" {
		return
	}
	if end := b.z.endOffset(); end > prescanSize { // the input's bytes, which the prescan read
		c.Warn(b.z.pos, "META charset %q comes after the first %d bytes, where the charset is decided; ignored (the document is read as %s)", label, prescanSize, in.name)
		return
	}
	c.Warn(b.z.pos, "META charset %q is not the one the prescan of the first %d bytes found; ignored (the document is read as %s)", label, prescanSize, in.name)
}

// metaCharsetLabel returns the charset a META start tag names, as the
// prescan reads it: its charset attribute, or the charset parameter of its
// content where http-equiv is Content-Type.
func metaCharsetLabel(t *token) (string, bool) {
	if cs, ok := t.attr("charset"); ok {
		return string(cs), true
	}
	if he, ok := t.attr("http-equiv"); !ok || !strings.EqualFold(string(he), "content-type") {
		return "", false
	}
	content, ok := t.attr("content")
	if !ok {
		return "", false
	}
	return charsetFromContent(strings.ToLower(string(content)))
}

// charsetFromContent is the HTML "algorithm for extracting a character
// encoding from a meta element" (x/net's fromMetaElement) on a lower-cased
// content value.
func charsetFromContent(s string) (string, bool) {
	for s != "" {
		i := strings.Index(s, "charset")
		if i < 0 {
			return "", false
		}
		s = strings.TrimLeft(s[i+len("charset"):], " \t\n\f\r")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = strings.TrimLeft(s[1:], " \t\n\f\r")
		if s == "" {
			return "", false
		}
		if q := s[0]; q == '"' || q == '\'' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return "", false
			}
			return s[1 : 1+end], true
		}
		end := strings.IndexAny(s, "; \t\n\f\r")
		if end < 0 {
			end = len(s)
		}
		return s[:end], true
	}
	return "", false
}
