package aipref

import (
	"strconv"
	"strings"
	"testing"
)

// The dictionaries of RFC 9651 (sections 3.2, 4.2 and the values of
// section 3.3), and what each member is.
func TestDictionaryExamplesOfRFC9651(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // key:kind[=token] of each member, space-separated
	}{
		{`en="Applepie", da=:w4ZibGV0w6ZydGUK:`, "en:string da:byte sequence"},
		{`a=?0, b, c; foo=bar`, "a:boolean b:boolean c:boolean"},
		{`rating=1.5, feelings=(joy sadness)`, "rating:decimal feelings:inner list"},
		{`a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid`, "a:inner list b:integer c:integer d:inner list"},
		{`a=1,b=2`, "a:integer b:integer"},
		{"a=1 ,\t b=2", "a:integer b:integer"},
		{`   a=x   `, "a:token=x"},
		{`a=*foo:bar/baz`, "a:token=*foo:bar/baz"},
		{`a=@1659578233, b=@-1`, "a:date b:date"},
		{`a=%"This is intended for display to %c3%bcsers."`, "a:display string"},
		{`a=-999999999999999, b=-999999999999.999`, "a:integer b:decimal"},
		{`a=(), b=( 1  2 );x, c=("s" :AA==: ?1)`, "a:inner list b:inner list c:inner list"},
		{`a=:YWJj:, b=:YWI:, c=::`, "a:byte sequence b:byte sequence c:byte sequence"},
		{`a=1, a=x`, "a:token=x"}, // overwritten in place
		{``, ""},
		{`*=1, a.b_c-d*=2`, "*:integer a.b_c-d*:integer"},
	} {
		ms, err := ParseDictionary(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		var got []string
		for _, m := range ms {
			s := m.Key + ":" + m.Kind
			if m.Kind == "token" {
				s += "=" + m.Token
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, g, tc.want)
		}
	}
}

// What RFC 9651 makes a parse fail; each one states nothing.
func TestDictionaryFailures(t *testing.T) {
	for _, in := range []string{
		`a=1, b=2,`,                    // trailing comma
		`a=1,,b=2`,                     // empty member
		`A=1`,                          // keys are lower case
		`a=1 b=2`,                      // no comma
		"\ta=1",                        // only SP is discarded before the value
		`a=1.2345`,                     // 3 digits after the point at most
		`a=1234567890123456`,           // 15 digits at most
		`a=1234567890123.1`,            // 12 digits before the point at most
		`a=1.`,                         // a decimal ends with a digit
		`a=-`,                          // no digits
		`a="unterminated`,              // string not closed
		`a="bad\x"`,                    // only \" and \\ escape
		"a=\"tab\there\"",              // control character
		`a=@1.5`,                       // a date is an integer
		`a=:YQ=:x`,                     // junk after a byte sequence
		`a=:Y=Q=:`,                     // "=" inside base64
		`a=:A:`,                        // a base64 length no bytes have
		`a=?2`,                         // booleans are ?0 and ?1
		`a=%"%C3%BC"`,                  // lower-case hex only
		`a=%"%ff"`,                     // not UTF-8
		`a=%"open`,                     // not closed
		`a=(1 2`,                       // inner list not closed
		`a=(1,2)`,                      // items are separated by spaces
		`a=1;`,                         // a parameter needs a key
		`a=1;B=2`,                      // parameter keys are lower case too
		`a=`,                           // a value is missing
		`a=#`,                          // no value starts with #
		"a=caf\u00e9",                  // not ASCII
		`train-ai;has;parameters="?";`, // draft-ietf-aipref-vocab-08 section 6.5.2's example: the final ";" needs a key
	} {
		if _, err := ParseDictionary(in); err == nil {
			t.Errorf("%q parsed; RFC 9651 fails it", in)
		}
	}
}

// Members come in order, each as parsed, duplicates too, and nothing of
// a value that fails counts (the caller drops what it was given).
func TestEachMemberGivesEveryMemberInOrder(t *testing.T) {
	var keys []string
	err := EachMember("a=1, b, a=y", func(m Member) { keys = append(keys, m.Key+"@"+strconv.Itoa(m.Offset)) })
	if err != nil || strings.Join(keys, " ") != "a@0 b@5 a@8" {
		t.Errorf("got %v, %v", keys, err)
	}
	err = EachMember("a=1, b=2,", func(Member) {})
	se, ok := err.(*SyntaxError)
	if !ok || se.Offset != 9 {
		t.Errorf("trailing comma: got %v, want a SyntaxError at byte 9", err)
	}
}
