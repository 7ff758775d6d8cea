package robofilter

import (
	"bytes"
	"mime"
	"strconv"
	"strings"
)

// notTextPeek is how much of a document NotText is given by Process.
const notTextPeek = 1 << 10

// magics are the starts of common files that are no text document, with
// what they are called in the warning.
var magics = []struct {
	prefix, what string
}{
	{"\x1F\x8B", "gzip-compressed data"},
	{"\x28\xB5\x2F\xFD", "zstd-compressed data"},
	{"\x5D\x2A\x4D\x18", "zstd-compressed data (a dictionary first)"},
	{"\xFD7zXZ\x00", "xz-compressed data"},
	{"7z\xBC\xAF\x27\x1C", "a 7-Zip archive"},
	{"PK\x03\x04", "a zip archive"},
	{"%PDF-", "a PDF document"},
	{"\x89PNG\r\n\x1A\n", "a PNG image"},
	{"\xFF\xD8\xFF", "a JPEG image"},
	{"GIF87a", "a GIF image"},
	{"GIF89a", "a GIF image"},
	{"\x7FELF", "an ELF executable"},
	{"\xCF\xFA\xED\xFE", "a Mach-O executable"},
	{"\xCE\xFA\xED\xFE", "a Mach-O executable"},
	{"\xCA\xFE\xBA\xBE", "a Mach-O universal binary or Java class"},
	{"wOFF", "a WOFF font"},
	{"wOF2", "a WOFF2 font"},
	{"OggS", "an Ogg media file"},
	{"fLaC", "a FLAC audio file"},
}

// NotText says what a document that starts with head is when it is no
// text document (an image, an archive, an executable), or "" for text.
// It knows common files by their first bytes (gzip, zstd, bzip2, xz, zip,
// 7-Zip, PDF, PNG, JPEG, GIF, WebP, RIFF, ELF, Mach-O, WOFF, Ogg, FLAC,
// MP3, MP4), and takes any other start with a NUL byte for binary data,
// unless it starts with markup ("<", after a byte order mark and white
// space) and control bytes are less than a quarter of head, or the
// document is UTF-16 or UTF-32: a byte order mark says so, or
// charset (a label such as Options.Charset, or a Content-Type naming
// one), or its NULs fall on every other byte as ASCII text's do in UTF-16.
// Process gives it the first 1 KiB.
func NotText(head []byte, charset string) string {
	for _, m := range magics {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			return m.what
		}
	}
	// Magic numbers that are words: with the byte that must follow.
	if len(head) >= 4 && string(head[:3]) == "BZh" && head[3] >= '1' && head[3] <= '9' {
		return "bzip2-compressed data"
	}
	if len(head) >= 4 && string(head[:3]) == "ID3" && head[3] >= 2 && head[3] <= 4 {
		return "an MP3 audio file"
	}
	if len(head) >= 12 && string(head[:4]) == "RIFF" {
		if string(head[8:12]) == "WEBP" {
			return "a WebP image"
		}
		return "a RIFF media file"
	}
	if len(head) >= 12 && string(head[4:8]) == "ftyp" {
		return "an MP4 or QuickTime media file"
	}
	nul := bytes.IndexByte(head, 0)
	if nul < 0 || wideText(head, charset) {
		return ""
	}
	// A page with a stray NUL is still a page (HTML reads it as U+FFFD):
	// a start that is markup is text unless control bytes are a quarter
	// of it.
	if start := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n"); len(start) > 0 && start[0] == '<' {
		controls := 0
		for _, c := range head {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
				controls++
			}
		}
		if 4*controls < len(head) {
			return ""
		}
	}
	return "binary data (a NUL byte at offset " + strconv.Itoa(nul) + ")"
}

// wideText reports whether a start with NULs is text in a two- or
// four-byte encoding.
func wideText(head []byte, charset string) bool {
	if bytes.HasPrefix(head, []byte("\xFF\xFE")) || bytes.HasPrefix(head, []byte("\xFE\xFF")) || bytes.HasPrefix(head, []byte("\x00\x00\xFE\xFF")) {
		return true
	}
	if _, params, err := mime.ParseMediaType(charset); err == nil && params["charset"] != "" {
		charset = params["charset"]
	}
	if c := strings.ToLower(charset); strings.HasPrefix(c, "utf-16") || strings.HasPrefix(c, "utf-32") || strings.HasPrefix(c, "ucs-2") || strings.HasPrefix(c, "ucs-4") {
		return true
	}
	// UTF-16 without a byte order mark: ASCII's NULs on every other byte.
	// At least one byte in three is a NUL, all on one side.
	var even, odd int
	for i, c := range head {
		if c == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	return len(head) >= 8 && (even == 0 || odd == 0) && 3*(even+odd) >= len(head)
}
