package aipref

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sfhScript parses each line (a JSON string) with the npm package
// structured-headers (RFC 9651) and writes, one JSON line each, null when
// the parse fails, else the members: [key, "token", text] or [key,
// "other"].
const sfhScript = `
const {parseDictionary, Token} = require("structured-headers");
const rl = require("readline").createInterface({input: process.stdin});
rl.on("line", line => {
  const s = JSON.parse(line);
  let out = null;
  try {
    out = [];
    for (const [k, [v]] of parseDictionary(s)) {
      out.push(v instanceof Token ? [k, "token", v.toString()] : [k, "other"]);
    }
  } catch (e) { out = null; }
  process.stdout.write(JSON.stringify(out) + "\n");
});
`

// sfhDir is where structured-headers is installed (a folder whose
// node_modules holds it), from ROBOFILTER_SFH; "" when it is not.
func sfhDir(t *testing.T) string {
	dir := os.Getenv("ROBOFILTER_SFH")
	if dir == "" {
		t.Skip("ROBOFILTER_SFH is not set: the Structured Fields oracle (npm structured-headers 2.1.0) is not installed; .ci/run installs it (docs/testing.md)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "structured-headers", "package.json")); err != nil {
		t.Skipf("ROBOFILTER_SFH=%s holds no node_modules/structured-headers: %v", dir, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node to run the Structured Fields oracle")
	}
	return dir
}

// sfInputs are dictionaries and near-dictionaries: the test tables', and
// random strings of the characters that matter to the grammar.
func sfInputs() []string {
	in := []string{
		`en="Applepie", da=:w4ZibGV0w6ZydGUK:`, `a=?0, b, c; foo=bar`, `rating=1.5, feelings=(joy sadness)`,
		`a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid`, `train-ai=y, search=n`, `train-ai=y, train-ai, search=n, search="n"`,
		`TRAIN-AI=n`, `train-ai;allow=n, train-ai=y`, `train-ai;has;parameters="?";`, `train-ai=n,`,
		`search=yes, ai-train=no`, `ai-train=no, search=yes, ai-input=yes`, `a=:A:`, `a=:AA=:`, `a=:AAA=:`, `a=:====:`,
		`a=%"caf%c3%a9"`, `a=%"%C3"`, `a=%"%ff"`, `a=1.2345`, `a=123456789012.1`, `a=1234567890123.1`, "a=1\t,b=2", "\ta=1",
	}
	alphabet := []string{"a", "y", "n", "=", ",", " ", ";", "(", ")", "\"", "\\", ":", "?", "0", "1", "9", ".", "-", "*", "%", "A", "_", "/", "\t", "c3"}
	keys := []string{"a", "b", "train-ai", "search", "ai-use", "*x", "k1.2_-*"}
	values := []string{"y", "n", "yes", "Tok:/*x", "*", "0", "-12", "123456789012345", "1.5", "-0.125", "123456789012.123",
		`""`, `"a \\ \" b"`, ":YWJj:", "::", ":YQ==:", ":YQ:", "?0", "?1", `%"caf%c3%a9"`, `%""`, "()", "(a 1 \"s\")", "( y  n );p"}
	r := rand.New(rand.NewPCG(1, 2))
	param := func(b *strings.Builder) {
		for r.IntN(3) == 0 {
			b.WriteString(";" + keys[r.IntN(len(keys))])
			if r.IntN(2) == 0 {
				v := values[r.IntN(len(values))]
				if !strings.HasPrefix(v, "(") {
					b.WriteString("=" + v)
				}
			}
		}
	}
	for range 20000 {
		var b strings.Builder
		for i := range 1 + r.IntN(4) {
			if i > 0 {
				b.WriteString([]string{", ", ",", " ,\t", ",  "}[r.IntN(4)])
			}
			b.WriteString(keys[r.IntN(len(keys))])
			if r.IntN(4) > 0 {
				b.WriteString("=" + values[r.IntN(len(values))])
			}
			param(&b)
		}
		s := b.String()
		for r.IntN(3) == 0 { // a mutation: a character put in, taken out or changed
			i := r.IntN(len(s) + 1)
			c := alphabet[r.IntN(len(alphabet))]
			switch r.IntN(3) {
			case 0:
				s = s[:i] + c + s[i:]
			case 1:
				if i < len(s) {
					s = s[:i] + s[i+1:]
				}
			default:
				if i < len(s) {
					s = s[:i] + c + s[i+1:]
				}
			}
		}
		in = append(in, s)
	}
	return in
}

// The strict parser agrees with an independent RFC 9651 implementation on
// which values parse, their keys, and which values are which Token.
// Dates are left out: the oracle reads a date's digits to the end of the
// value (it fails "a=@1, b=2", which RFC 9651 section 4.2.9 accepts).
func TestDictionaryAgainstStructuredHeaders(t *testing.T) {
	dir := sfhDir(t)
	var inputs []string
	for _, s := range sfInputs() {
		if !strings.Contains(s, "@") {
			inputs = append(inputs, s)
		}
	}
	cmd := exec.Command("node", "-e", sfhScript)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, s := range inputs {
			b, _ := json.Marshal(s)
			w.Write(append(b, '\n'))
		}
		w.Flush()
		stdin.Close()
	}()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	fails, n, parsed := 0, 0, 0
	for _, s := range inputs {
		if !sc.Scan() {
			t.Fatalf("the oracle stopped after %d inputs: %v", n, sc.Err())
		}
		n++
		var want [][]string
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatalf("oracle output %q: %v", sc.Text(), err)
		}
		ms, err := ParseDictionary(s)
		var got [][]string
		if err == nil {
			parsed++
			got = [][]string{}
			for _, m := range ms {
				if m.Kind == "token" {
					got = append(got, []string{m.Key, "token", m.Token})
				} else {
					got = append(got, []string{m.Key, "other"})
				}
			}
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if string(gb) != string(wb) {
			if fails++; fails <= 20 {
				t.Errorf("%q: got %s (err %v), the oracle %s", s, gb, err, wb)
			}
		}
	}
	cmd.Wait()
	t.Logf("%d values compared with structured-headers (%d parse), %d disagree", n, parsed, fails)
	if parsed < n/10 {
		t.Errorf("only %d of %d values parse: the comparison says little of what parses", parsed, n)
	}
}
