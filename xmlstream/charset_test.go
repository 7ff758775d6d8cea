package xmlstream

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/internal/shared"
)

// TestCharsetCorpusKnownWords reads feeds of the charset corpus, each
// declaring its encoding, and looks for words known to be in them (read
// with iconv): the text must be decoded, and the archive copy must still be
// the original bytes.
func TestCharsetCorpusKnownWords(t *testing.T) {
	dir := shared.Path(t, "corpus", "xml", "charsets")
	cases := []struct {
		file, charset, word string
	}{
		{"Big5/0804.blogspot.com.xml", "big5", "《11月的蕭邦》"},
		{"SHIFT_JIS/10e.org.xml", "shift_jis", "いろいろちょっと待ってネ。"},
		{"CP932/y-moto.com.xml", "shift_jis", "さらなる防寒対策"},
		{"EUC-JP/aivy.co.jp.xml", "euc-jp", "ゲーム三昧な正月"},
		{"EUC-KR/alogblog.com.xml", "euc-kr", "TypeKey 한글닉네임 표시하기"},
		{"GB2312/14.blog.westca.com.xml", "gbk", "加西公社温哥华大队向阳生产队温暖小分队"},
		{"KOI8-R/intertat.ru.xml", "koi8-r", "Республиканская электронная газета"},
		{"IBM855/aif.ru.health.xml", "ibm855", "АиФ Здоровье"},
		{"IBM866/aif.ru.health.xml", "ibm866", "АиФ Здоровье"},
		{"MacCyrillic/aif.ru.health.xml", "x-mac-cyrillic", "АиФ Здоровье"},
		{"windows-1251-russian/aif.ru.health.xml", "windows-1251", "АиФ Здоровье"},
		{"iso-8859-5-russian/aif.ru.health.xml", "iso-8859-5", "АиФ Здоровье"},
		{"iso-8859-7-greek/disabled.gr.xml", "iso-8859-7", "Ζητείται βοηθός νοσοκόμα"},
		{"iso-8859-9-turkish/divxplanet.com.xml", "windows-1254", "Türkçe 1 CD altyazısı"},
		{"iso-8859-2-hungarian/auto-apro.hu.xml", "iso-8859-2", "Ingyenes apróhirdetések, új és használt autók"},
		{"TIS-620/opentle.org.xml", "windows-874", "ซอฟต์แวร์โอเพนซอร์ส"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Skipf("corpus file missing: %v", err)
			}
			oc := runXML(t, bytes.NewReader(input), filter.Options{}, Options{})
			if oc.err != nil {
				t.Fatalf("error: %v", oc.err)
			}
			if oc.res.Charset != tc.charset {
				t.Errorf("charset %q, want %q", oc.res.Charset, tc.charset)
			}
			if !strings.Contains(oc.text, tc.word) {
				t.Errorf("text lacks %q; it starts %q", tc.word, oc.text[:min(len(oc.text), 300)])
			}
			if !bytes.Equal(oc.archive, input) {
				t.Error("archive copy is not the original bytes")
			}
		})
	}
}

// TestUTF16ArchiveKeepsOriginalBytes checks that a UTF-16 document, BOM or
// not, little or big endian, keeps its exact bytes, including an unpaired
// surrogate the decoder turns into U+FFFD, and that elision inserts an
// ellipsis encoded in UTF-16.
func TestUTF16ArchiveKeepsOriginalBytes(t *testing.T) {
	enc := func(s string, be, bom bool) []byte {
		var b []byte
		if bom {
			if be {
				b = append(b, 0xFE, 0xFF)
			} else {
				b = append(b, 0xFF, 0xFE)
			}
		}
		for _, r := range s {
			u := uint16(r)
			if r == 'Ø' { // stands for an unpaired surrogate
				u = 0xD800
			}
			if be {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
		return b
	}
	doc := `<?xml version="1.0" encoding="UTF-16"?><doc>Grüße Ø <p class="robots-noarchive">secret</p> 中文</doc>`
	for _, be := range []bool{false, true} {
		for _, bom := range []bool{false, true} {
			input := enc(doc, be, bom)
			for _, ch := range chunkings(input, 7) {
				oc := runXML(t, ch.r(), filter.Options{}, Options{})
				if oc.err != nil {
					t.Fatalf("be=%v bom=%v %s: %v", be, bom, ch.name, oc.err)
				}
				if want := "Grüße \uFFFD secret 中文\n"; oc.text != want {
					t.Fatalf("be=%v bom=%v %s: text %q, want %q", be, bom, ch.name, oc.text, want)
				}
				want := enc(`<?xml version="1.0" encoding="UTF-16"?><doc>Grüße Ø <p class="robots-noarchive">…</p> 中文</doc>`, be, bom)
				if !bytes.Equal(oc.archive, want) {
					t.Fatalf("be=%v bom=%v %s: archive\n%q\nwant\n%q", be, bom, ch.name, oc.archive, want)
				}
			}
		}
	}
}

// Only the first headSize bytes choose the charset, at every chunking: a
// declaration that ends past them is not read (with a warning), one that
// ends within them is, whatever the reads return. Before, a reader whose
// first read went past headSize saw the late declaration and another did not.
func TestCharsetHeadIsTheSameAtEveryChunking(t *testing.T) {
	for _, tc := range []struct {
		name, charset, text string
		warned              bool
	}{
		{"declaration ends inside the head", "windows-1252", "café\n", false},
		{"declaration ends past the head", "utf-8", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pad := headSize - len(`<?xml version="1.0" encoding="iso-8859-1"?>`)
			if tc.warned {
				pad++
			}
			doc := []byte(`<?xml version="1.0" encoding="iso-8859-1"` + strings.Repeat(" ", pad) + "?><a>caf\xe9</a>")
			var first string
			for _, c := range chunkings(doc, 5) {
				oc := runXML(t, c.r(), filter.Options{}, Options{})
				warned := false
				for _, w := range oc.res.Warnings {
					warned = warned || strings.Contains(w.Message, "does not end in the first 1024 bytes")
				}
				if oc.res.Charset != tc.charset || warned != tc.warned || tc.text != "" && oc.text != tc.text {
					t.Errorf("%s: charset %s, warned %v, text %q, error %v", c.name, oc.res.Charset, warned, oc.text, oc.err)
				}
				if got := oc.render(doc); first == "" {
					first = got
				} else if got != first {
					t.Fatalf("%s differs from whole:\n%s\n---\n%s", c.name, got, first)
				}
			}
		})
	}
}

// A UTF-8 byte order mark decides, as XML 1.0 Appendix F has it: a
// declaration naming another encoding is not used (with a warning), at
// every chunking and in feed mode's reader (utf8Reader) alike.
func TestUTF8ByteOrderMarkWinsOverTheDeclaration(t *testing.T) {
	doc := []byte("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>caf\xc3\xa9</a>")
	for _, c := range chunkings(doc, 8) {
		oc := runXML(t, c.r(), filter.Options{}, Options{})
		warned := false
		for _, w := range oc.res.Warnings {
			warned = warned || strings.Contains(w.Message, "the byte order mark says utf-8")
		}
		if oc.res.Charset != "utf-8" || oc.text != "café\n" || !warned || oc.err != nil {
			t.Fatalf("%s: charset %s, text %q, warned %v, error %v", c.name, oc.res.Charset, oc.text, warned, oc.err)
		}
	}
	r, _, name, warns, err := utf8Reader(bytes.NewReader(doc), "", false)
	if err != nil || name != "utf-8" || len(warns) != 1 || !strings.Contains(warns[0], "the byte order mark says utf-8") {
		t.Fatalf("utf8Reader: %s, %q, %v", name, warns, err)
	}
	if got, _ := io.ReadAll(r); !bytes.Contains(got, []byte("caf\xc3\xa9")) {
		t.Errorf("utf8Reader gave %q", got)
	}
	// A declaration that agrees says nothing.
	oc := runXML(t, bytes.NewReader([]byte("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>x</a>")), filter.Options{}, Options{})
	if len(oc.res.Warnings) != 0 {
		t.Errorf("warnings for an agreeing declaration: %v", oc.res.Warnings)
	}
}

// Only a well-formed XML declaration at the start of the document (after a
// byte order mark, and white space, which is warned about) names the
// charset: one that breaks XMLDecl's rules is not well-formed (XML 1.0
// [23]), so its encoding is not read, nor warned about. The error and
// everything else are the same at every chunking, and records mode's
// utf8Reader chooses the same charset.
func TestCharsetComesOnlyFromAWellFormedDeclarationAtTheStart(t *testing.T) {
	const nwf = "not well-formed XML: "
	for _, tc := range []struct {
		name, input, charset, err string
		warnings                  int
	}{
		{"declaration_after_a_space", " <?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>caf\xe9</a>", "windows-1252", "", 1},
		{"declaration_after_a_kilobyte_of_white_space_is_not_read", strings.Repeat(" ", 1100) + "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>x</a>", "utf-8", "", 2},
		{"declaration_after_a_newline_names_an_unknown_encoding", "\n<?xml version=\"1.0\" encoding=\"x-no-such\"?><a>x</a>", "utf-8", "", 2},
		{"declaration_without_version", "<?xml encoding=\"iso-8859-1\"?><a>caf\xe9</a>", "utf-8",
			"1:7: " + nwf + `the XML declaration has no version: it must start <?xml version="1.0", not with encoding`, 0},
		{"encoding_before_a_bad_standalone", "<?xml version=\"1.0\" encoding=\"x-no-such\" standalone=\"maybe\"?><a>x</a>", "utf-8",
			"1:42: " + nwf + `standalone "maybe" in the XML declaration: the value must be "yes" or "no"`, 0},
		{"well_formed_declaration_at_the_start", "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>caf\xe9</a>", "windows-1252", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(tc.input)
			var first string
			for _, c := range chunkings(doc, 8) {
				oc := runXML(t, c.r(), filter.Options{}, Options{})
				if oc.res.Charset != tc.charset || errorString(oc.err) != tc.err || len(oc.res.Warnings) != tc.warnings {
					t.Fatalf("%s: charset %s, error %v, warnings %v; want %s, %s, %d warnings", c.name, oc.res.Charset, oc.err, oc.res.Warnings, tc.charset, tc.err, tc.warnings)
				}
				if got := oc.render(doc); first == "" {
					first = got
				} else if got != first {
					t.Fatalf("%s differs from whole:\n%s\n---\n%s", c.name, got, first)
				}
			}
			if _, _, name, warns, err := utf8Reader(bytes.NewReader(doc), "", false); name != tc.charset || len(warns) > tc.warnings || err != nil {
				t.Errorf("utf8Reader: %s, %q, %v", name, warns, err)
			}
		})
	}
}

// A character the charset decodes but cannot encode (Shift_JIS's byte 0x80
// reads as U+0080) counts the one byte it was in the input: positions
// inside a token measure decoded text by encoding it again, and x/net's
// encoder writes such a character as "&#128;", which once counted six.
func TestUndecodableBackCharacterCountsItsByte(t *testing.T) {
	decl := `<?xml version="1.0" encoding="Shift_JIS"?>`
	for _, tc := range []struct{ doc, at string }{
		{decl + "<r>\x80& 0</r>", "& 0"},
		{decl + "\x80& 0", "& 0"},
		{decl + "<r>\x80\x80\x83\x41 &x</r>", "&x"},
	} {
		got := runXML(t, strings.NewReader(tc.doc), filter.Options{}, Options{})
		var pe *filter.PosError
		if !errors.As(got.err, &pe) {
			t.Fatalf("%q: error %v, want a position", tc.doc, got.err)
		}
		if want := int64(strings.Index(tc.doc, tc.at)); pe.Pos.Offset != want || pe.Pos.Col != int(want)+1 {
			t.Errorf("%q: error at offset %d, column %d; want %d, %d", tc.doc, pe.Pos.Offset, pe.Pos.Col, want, want+1)
		}
	}
}

// A malformed sequence that a multi-byte decoder reads as one U+FFFD may
// be two bytes of the input (Shift_JIS "\x81\xff", Big5 "\x81\x7f"): the
// positions after it, and where the archive copy stops, still count the
// input's bytes, whatever the reads and the pieces.
func TestMalformedSequencesKeepPositionsExact(t *testing.T) {
	for _, tc := range []struct{ charset, bad string }{
		{"Shift_JIS", "\x81\xff"},
		{"Shift_JIS", "\x80\x81\xff\xa0"},
		{"Big5", "\x81\x7f"},
		{"GBK", "\x81\xff"},
		{"EUC-JP", "\x8e\xff\x8f\xa1\xff"},
		{"gb18030", "\x81\x30\x81"},
		{"EUC-KR", "\x81\xff"},
		// Characters that count more than their bytes beside ones that
		// count less: the run's total can come out right.
		{"Big5", "\x88\x62\x81\x7f"},
		{"Big5", "\x81\x7f\x88\x62"},
		{"gb18030", "\x80\xa4\x62\x81\xff"},
		// A decoder that reads past a malformed sequence to reject it
		// makes the next character in the same step.
		{"EUC-JP", "\x8f\xa1"},
	} {
		doc := `<?xml version="1.0" encoding="` + tc.charset + `"?><r>` + tc.bad + " a " + tc.bad + "&x</r>"
		want := int64(strings.Index(doc, "&x"))
		for _, read := range []struct {
			name  string
			r     func() io.Reader
			piece int
		}{
			{"whole", func() io.Reader { return strings.NewReader(doc) }, 0},
			{"byte by byte", func() io.Reader { return iotest.OneByteReader(strings.NewReader(doc)) }, 0},
			{"in pieces", func() io.Reader { return iotest.OneByteReader(strings.NewReader(doc)) }, 3},
		} {
			got := runXML(t, read.r(), filter.Options{}, Options{piece: read.piece})
			var pe *filter.PosError
			if !errors.As(got.err, &pe) {
				t.Fatalf("%s %q, %s: error %v, want a position", tc.charset, tc.bad, read.name, got.err)
			}
			if pe.Pos.Offset != want || pe.Pos.Col != int(want)+1 {
				t.Errorf("%s %q, %s: error at offset %d, column %d; want %d, %d", tc.charset, tc.bad, read.name, pe.Pos.Offset, pe.Pos.Col, want, want+1)
			}
			if string(got.archive) != doc[:want] {
				t.Errorf("%s %q, %s: archive copy %q, want %q", tc.charset, tc.bad, read.name, got.archive, doc[:want])
			}
		}
	}
}

// golang.org/x/text reads ';' as the second byte of a GB18030 sequence: a
// ';' the decoded text has is not the nth of the original's (pin), and the
// archive copy stops where the input failed all the same.
func TestSemicolonInsideAGB18030SequenceMovesNoPosition(t *testing.T) {
	doc := `<?xml version="1.0" encoding="gb18030"?><r>` + "\x81\x3b\x81\x30a; b;"
	got := runXML(t, &failAfter{strings.NewReader(doc), 5}, filter.Options{}, Options{})
	var pe *filter.PosError
	if !errors.As(got.err, &pe) || !errors.Is(got.err, errConnectionReset) {
		t.Fatalf("error %v, want the input's", got.err)
	}
	if pe.Pos.Offset != int64(len(doc)) || string(got.archive) != doc {
		t.Errorf("error at offset %d, archive %q; want %d and the whole input", pe.Pos.Offset, got.archive, len(doc))
	}
}

// An odd last byte of a UTF-16 document reads as U+FFFD, which stands for
// that one byte in the column of the end (a column counts the original
// bytes since the line's end), however the text before it comes.
func TestOddLastByteOfUTF16CountsOneByte(t *testing.T) {
	for _, tc := range []struct {
		doc string
		col int
	}{
		{"\xff\xfe<\x00r\x00>\x00\r\x00" + "00000", 6},
		{"\xff\xfe<\x00r\x00>\x00\n\x00" + "0000000", 8},
		{"\xff\xfe<\x00r\x00>\x00a\x00" + "0000000", 18},
	} {
		for _, piece := range []int{0, 1, 2} {
			got := runXML(t, iotest.OneByteReader(strings.NewReader(tc.doc)), filter.Options{}, Options{piece: piece})
			var pe *filter.PosError
			if !errors.As(got.err, &pe) {
				t.Fatalf("%q: error %v, want a position", tc.doc, got.err)
			}
			if pe.Pos.Col != tc.col || pe.Pos.Offset != int64(len(tc.doc)) {
				t.Errorf("%q, pieces of %d: error at column %d, offset %d; want %d, %d", tc.doc, piece, pe.Pos.Col, pe.Pos.Offset, tc.col, len(tc.doc))
			}
		}
	}
}

// utf8Reader unmeasured decodes and keeps nothing per character:
// only UTF8ReaderMeasured lists the irregular ones, for a caller that bounds
// the list.
func TestUTF8ReaderKeepsNothingPerCharacter(t *testing.T) {
	doc := `<?xml version="1.0" encoding="Shift_JIS"?><r>` + strings.Repeat("\x81\xff", 1<<20) + "</r>"
	r, _, _, _, err := utf8Reader(strings.NewReader(doc), "", false)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("decoding 2 MiB allocated %d bytes", n)
	}
	if _, m, _, _, _ := UTF8ReaderMeasured(strings.NewReader(doc), ""); m == nil {
		t.Error("UTF8ReaderMeasured lists nothing in Shift_JIS")
	}
}
