package xmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/robofilter/robofilter/filter"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// headSize is how much of the input is read to find the charset.
const headSize = 1024

// openSource decides the input's charset (see detectCharset) and builds
// the source.
func openSource(r io.Reader, core *filter.Core, opts Options) (*source, error) {
	s := &source{in: r, maxToken: opts.MaxTokenSize, unit: 1}
	head := make([]byte, 0, headSize+firstRead)
	for len(head) < headSize && !s.eof && s.err == nil && !headDecides(head) {
		head = s.readMore(head)
	}
	// An input that fails here keeps its error for the scanner, which
	// reports it once the bytes read before it are scanned: a reader may
	// return bytes and an error together.
	// Only the first headSize bytes decide, however many one read gave:
	// otherwise a declaration that ends past them would count or not
	// with the reader's chunk sizes.
	cs, err := detectCharset(head[:min(len(head), headSize)], opts.Charset)
	for _, w := range cs.warnings {
		core.Warn(filter.StartPos, "%s", w)
	}
	if err != nil {
		return nil, err
	}
	s.prefix, s.be = int64(cs.prefix), cs.bigEndian
	core.SetResultInfo("xml", cs.name)
	s.setCharset(cs.enc, cs.name, head, core)
	return s, nil
}

// docCharset is the charset a document is read in.
type docCharset struct {
	enc       encoding.Encoding // nil for UTF-8
	name      string
	prefix    int // bytes of byte order mark
	bigEndian bool
	warnings  []string
}

// detectCharset decides a document's charset from its first bytes. The
// order is that of XML 1.0 Appendix F, with the caller's label where an
// HTTP Content-Type would be: a byte order mark, then the caller's label,
// then the XML declaration's encoding, then UTF-8. A UTF-16 document
// without a BOM is recognised by its first characters ("<?" in 16-bit units).
func detectCharset(head []byte, callerLabel string) (docCharset, error) {
	cs := docCharset{name: "utf-8"}
	switch {
	case bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")):
		cs.prefix = 3
	case bytes.HasPrefix(head, []byte("\xFF\xFE\x00\x00")), bytes.HasPrefix(head, []byte("\x00\x00\xFE\xFF")),
		bytes.HasPrefix(head, []byte("\x3C\x00\x00\x00")), bytes.HasPrefix(head, []byte("\x00\x00\x00\x3C")):
		return cs, &filter.PosError{Pos: filter.StartPos, Err: fmt.Errorf("the document is in UTF-32, which is not supported")}
	case bytes.HasPrefix(head, []byte("\xFF\xFE")):
		cs.prefix, cs.enc, cs.name = 2, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le"
	case bytes.HasPrefix(head, []byte("\xFE\xFF")):
		cs.prefix, cs.enc, cs.name, cs.bigEndian = 2, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be", true
	case bytes.HasPrefix(head, []byte("\x3C\x00\x3F\x00")):
		cs.enc, cs.name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le"
	case bytes.HasPrefix(head, []byte("\x00\x3C\x00\x3F")):
		cs.enc, cs.name, cs.bigEndian = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be", true
	}
	label, declared := declaredEncoding(head)
	switch {
	case callerLabel != "" && cs.prefix > 0:
		if _, n := lookupCharset(callerLabel); n != cs.name {
			cs.warnings = append(cs.warnings, fmt.Sprintf("the byte order mark says %s: --charset %s is not used", cs.name, callerLabel))
		}
	case callerLabel != "":
		e, n := lookupCharset(callerLabel)
		if e == nil {
			return cs, fmt.Errorf("unknown charset %q", callerLabel)
		}
		cs.enc, cs.name = e, n
		cs.bigEndian = n == "utf-16be"
	case cs.enc != nil: // UTF-16 recognised by its BOM or first characters
	case cs.prefix > 0: // a UTF-8 byte order mark, which a declaration does not override
		if _, n := lookupCharset(label); declared && n != "utf-8" {
			cs.warnings = append(cs.warnings, fmt.Sprintf("the byte order mark says utf-8: the XML declaration's encoding %q is not used", label))
		}
	case !declared && len(head) >= headSize && len(declStart(head)) == 0:
		cs.warnings = append(cs.warnings, fmt.Sprintf("the first %d bytes are white space: an XML declaration after them is not read; the document is read as UTF-8", headSize))
	case !declared && len(head) >= headSize && unclosedDeclaration(head):
		cs.warnings = append(cs.warnings, fmt.Sprintf("the XML declaration does not end in the first %d bytes: its encoding, if any, is not read; the document is read as UTF-8", headSize))
	case declared:
		e, n := lookupCharset(label)
		switch {
		case e == nil:
			cs.warnings = append(cs.warnings, fmt.Sprintf("the XML declaration names encoding %q, which is not known: the document is read as UTF-8", label))
		case strings.HasPrefix(n, "utf-16"):
			cs.warnings = append(cs.warnings, fmt.Sprintf("the XML declaration says %s but the document is not in UTF-16 (no BOM, 8-bit markup): it is read as UTF-8", label))
		default:
			cs.enc, cs.name = e, n
		}
	}
	if cs.enc == unicode.UTF8 || isUTF8Label(cs.name) {
		cs.enc, cs.name = nil, "utf-8"
	}
	return cs, nil
}

// UTF8ReaderMeasured returns a document decoded to UTF-8, its byte order
// mark dropped, with the charset chosen as Run chooses it (label, if not
// empty, overrides the XML declaration), the charset's name, and the
// warnings Run would give about that choice (an unknown encoding, a
// declaration that does not end in the first KiB, a byte order mark that
// overrides a label), which are about the document's start. It is for
// other XML parsers that must read a document as Run does (feed mode); the
// parser should then ignore the declaration's encoding. For a multi-byte
// charset in which the XML stage counts original bytes
// (NewPositionMeasure's), it lists the characters whose measure is not
// their bytes as the reader decodes them (nil in other charsets).
// The caller bounds the list with Forget as it goes.
func UTF8ReaderMeasured(r io.Reader, label string) (in io.Reader, m *Irregulars, charset string, warnings []string, err error) {
	return utf8Reader(r, label, true)
}

func utf8Reader(r io.Reader, label string, measured bool) (in io.Reader, m *Irregulars, charset string, warnings []string, err error) {
	head := make([]byte, 0, headSize)
	var readErr error
	for len(head) < headSize && !headDecides(head) {
		var n int
		n, readErr = r.Read(head[len(head):headSize])
		head = head[:len(head)+n]
		if readErr != nil {
			break
		}
	}
	cs, err := detectCharset(head, label)
	if err != nil {
		return nil, nil, "", cs.warnings, err
	}
	rest := io.MultiReader(bytes.NewReader(head[cs.prefix:]), r)
	if readErr != nil && readErr != io.EOF {
		// The input failed with the head: the parser reads the bytes
		// before the failure, then the error (a reader may return bytes
		// and an error together), as from any later read.
		rest = io.MultiReader(bytes.NewReader(head[cs.prefix:]), failedReader{readErr})
	}
	if cs.enc == nil {
		return rest, nil, cs.name, cs.warnings, nil
	}
	if measured && countsOriginalBytes(cs.enc, cs.name) && !singleByteCharset(cs.enc, cs.name) {
		m = &Irregulars{}
		dec := &measuringDecoder{dec: cs.enc.NewDecoder(), step: cs.enc.NewDecoder(), measure: charsetMeasure{enc: cs.enc.NewEncoder()}, m: m}
		return transform.NewReader(rest, dec), m, cs.name, cs.warnings, nil
	}
	return transform.NewReader(rest, cs.enc.NewDecoder()), nil, cs.name, cs.warnings, nil
}

// failedReader replays the error an input failed with.
type failedReader struct{ err error }

func (r failedReader) Read([]byte) (int, error) { return 0, r.err }

// setCharset chooses the input mode for the charset and starts the source
// with the bytes already read.
func (s *source) setCharset(enc encoding.Encoding, name string, head []byte, core *filter.Core) {
	switch {
	case enc == nil:
		s.mode = modeUTF8
		s.buf = head[s.prefix:]
	case strings.HasPrefix(name, "utf-16") || asciiCompatible(enc, name):
		s.mode = modeMarkers
		if strings.HasPrefix(name, "utf-16") {
			s.unit = 2
		}
		s.runDec, s.measure.enc = enc.NewDecoder(), enc.NewEncoder()
		s.multi = s.unit == 1 && !singleByteCharset(enc, name)
		s.raw = head
		s.rawDone, s.rawScan = int(s.prefix), int(s.prefix)
		s.buf = make([]byte, 0, 2*len(head)+firstRead)
		s.bounds = append(s.bounds, boundary{0, s.prefix})
		s.decodeRuns()
		ellipsis := core.Ellipsis()
		if name == "windows-1252" {
			// A character reference means the same to every reader, where
			// a byte may not: robofilter reads "iso-8859-1" as windows-1252,
			// as browsers do, and the byte of "…" there is a control
			// character in ISO-8859-1 proper.
			ellipsis = characterReferences(ellipsis)
		}
		if e, err := enc.NewEncoder().Bytes([]byte(ellipsis)); err == nil {
			core.SetEllipsis(e)
		} else if e, err := enc.NewEncoder().Bytes([]byte("...")); err == nil {
			core.SetEllipsis(e)
		}
	default:
		s.mode = modeWhole
		rest := io.MultiReader(bytes.NewReader(head), eofAware(s))
		s.in = transform.NewReader(rest, enc.NewDecoder())
		s.eof, s.prefix = false, 0
		s.buf = make([]byte, 0, 2*firstRead)
		core.EncodeArchive(enc.NewEncoder())
	}
}

// eofAware reads the rest of the original input unless it already ended,
// or failed with the head: then the error comes after the head's bytes, and
// the source forgets it until the decoder's reader gives it back.
func eofAware(s *source) io.Reader {
	switch {
	case s.readErr:
		err := s.err
		s.err, s.readErr = nil, false
		return failedReader{errors.Unwrap(err)}
	case s.eof:
		return bytes.NewReader(nil)
	}
	return s.in
}

// singleByteCharsets holds singleByte's answer by charset name: it decodes
// 130 times (30 µs, about as long as reading a 2 KiB document), and a run
// over many documents asks it of the same few charsets.
var singleByteCharsets sync.Map // name -> bool

// singleByteCharset is singleByte(enc), for the charset called name.
func singleByteCharset(enc encoding.Encoding, name string) bool {
	if v, ok := singleByteCharsets.Load(name); ok {
		return v.(bool)
	}
	sb := singleByte(enc)
	singleByteCharsets.Store(name, sb)
	return sb
}

// singleByte reports whether every byte is one character of its own in
// the charset, whatever comes before or after it: the high bytes, in
// ascending and in descending order, decode as they do one by one (in a
// multi-byte charset some pair of neighbours is a character).
func singleByte(enc encoding.Encoding) bool {
	up, down := make([]byte, 0x80), make([]byte, 0x80)
	var each [][]byte
	for i := range 0x80 {
		up[i], down[i] = byte(0x80+i), byte(0xFF-i)
		d, err := enc.NewDecoder().Bytes(up[i : i+1])
		if err != nil || utf8.RuneCount(d) != 1 {
			return false
		}
		each = append(each, d)
	}
	u, err1 := enc.NewDecoder().Bytes(up)
	d, err2 := enc.NewDecoder().Bytes(down)
	var wantUp, wantDown []byte
	for i := range each {
		wantUp = append(wantUp, each[i]...)
		wantDown = append(wantDown, each[len(each)-1-i]...)
	}
	return err1 == nil && err2 == nil && bytes.Equal(u, wantUp) && bytes.Equal(d, wantDown)
}

// asciiCompatible reports whether every ASCII byte is that character in the
// charset and nothing else carries state: then markup can be found in the
// original bytes. Multi-byte East Asian charsets qualify (their trail bytes
// never fall on '<' or '>'), ISO-2022 and EBCDIC do not.
func asciiCompatible(enc encoding.Encoding, name string) bool {
	n := strings.ToLower(name)
	if strings.HasPrefix(n, "iso-2022") || n == "replacement" || strings.HasPrefix(n, "utf-7") {
		return false
	}
	ascii := make([]byte, 0x80)
	for i := range ascii {
		ascii[i] = byte(i)
	}
	out, err := enc.NewDecoder().Bytes(ascii)
	return err == nil && bytes.Equal(out, ascii)
}

func isUTF8Label(l string) bool {
	l = strings.ToLower(strings.TrimSpace(l))
	return l == "utf-8" || l == "utf8" || l == "unicode-1-1-utf-8"
}

// KnownCharset reports whether the XML stage can read a document in the
// charset a label names.
func KnownCharset(label string) bool {
	e, _ := lookupCharset(label)
	return e != nil
}

// lookupCharset finds a charset by label: the WHATWG names browsers use
// first (so "iso-8859-1" is windows-1252, as on the web), then the IANA
// registry (IBM855 …), then names common in old feeds.
func lookupCharset(label string) (encoding.Encoding, string) {
	label = strings.TrimSpace(label)
	if e, name := charset.Lookup(label); e != nil {
		return e, name
	}
	if e, err := ianaindex.IANA.Encoding(label); err == nil && e != nil {
		if n, err := ianaindex.IANA.Name(e); err == nil {
			return e, strings.ToLower(n)
		}
		return e, strings.ToLower(label)
	}
	switch strings.ToLower(label) {
	case "maccyrillic", "mac-cyrillic", "x-mac-cyrillic", "cp10007":
		return charmap.MacintoshCyrillic, "x-mac-cyrillic"
	}
	return nil, ""
}

// headDecides reports whether the start of the input read so far is enough
// to choose the charset: a byte order mark or UTF-16 text, or anything but
// the start of an XML declaration, or a whole declaration. (Reading no more
// than that keeps the rest of the document on the streaming path.)
func headDecides(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	switch {
	case head[0] == 0xFE || head[0] == 0xFF || head[0] == 0 || head[1] == 0:
		return true
	case bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")):
		head = head[3:]
	}
	head = bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(head) == 0:
		return false
	case len(head) < 5:
		return !bytes.HasPrefix([]byte("<?xml"), head)
	case !bytes.HasPrefix(head, []byte("<?xml")):
		return true
	}
	return bytes.Contains(head, []byte("?>"))
}

// declStart is head from where an XML declaration would start: after a
// UTF-8 byte order mark and white space (which the scanner takes, with a
// warning).
func declStart(head []byte) []byte {
	return bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n")
}

// unclosedDeclaration reports whether head starts an XML declaration (after
// a UTF-8 byte order mark and white space) that does not end in it.
func unclosedDeclaration(head []byte) bool {
	head = declStart(head)
	return bytes.HasPrefix(head, []byte("<?xml")) && len(head) > 5 && isS(head[5]) && !bytes.Contains(head, []byte("?>"))
}

// declaredEncoding reads the encoding of the XML declaration at the start
// of head (after a UTF-8 byte order mark and white space, which the
// scanner takes with a warning). Only a well-formed declaration counts:
// one that breaks the rules of [23] XMLDecl is an error at that
// declaration (markup.go), and its encoding is not used.
func declaredEncoding(head []byte) (string, bool) {
	head = declStart(head)
	if !bytes.HasPrefix(head, []byte("<?xml")) || len(head) < 6 || !isS(head[5]) {
		return "", false
	}
	end := bytes.Index(head, []byte("?>"))
	if end < 0 {
		return "", false
	}
	d, err := parseXMLDecl(head[5:end])
	if err != nil || d.encoding == "" {
		return "", false
	}
	return d.encoding, true
}

// characterReferences writes the characters of s above ASCII as XML
// character references ("…" becomes "&#x2026;").
func characterReferences(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "&#x%X;", r)
		}
	}
	return b.String()
}
