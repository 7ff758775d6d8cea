// Package warcio runs the npm package warcio, an independent WARC reader,
// for tests: what robofilter reads and writes is checked against it. It
// needs node and warcio installed (.ci/run installs it in
// ~/.cache/robofilter/warcio-VERSION; ROBOFILTER_WARCIO names another
// folder); tests skip without them.
package warcio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Version is the warcio the tests run.
const Version = "2.4.11"

// Oracle is node with warcio.
type Oracle struct {
	node, dir string
}

// Find finds node and warcio, or skips the test.
func Find(t testing.TB) Oracle {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipping: no node to run warcio, the oracle")
	}
	dir := os.Getenv("ROBOFILTER_WARCIO")
	if dir == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(cache, "robofilter", "warcio-"+Version)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "warcio", "package.json")); err != nil {
		t.Skipf("skipping: warcio is not installed at %s (.ci/run installs it: npm install --prefix DIR warcio@%s)", dir, Version)
	}
	return Oracle{node, dir}
}

// File is what warcio reads of a file: its records, and how it ended
// ("done", "timeout", or an error).
type File struct {
	File    string
	End     string
	Records []Record
}

// Record is one record as warcio reads it. Block (base64) and Headers are
// given for the records Read asks for.
type Record struct {
	Offset  int64
	Type    string
	URI     string
	Headers map[string]string
	Block   string
}

// script reads each file named after its first two arguments (a time
// budget in milliseconds, and "all" or the one record type whose blocks
// and headers to give) with warcio, as `warcio index` does (no HTTP
// parsing), and writes a JSON line per file. A file it does not finish in
// time ends the run (its loop would go on beside the next file's).
const script = `
const { WARCParser } = require("warcio");
const fs = require("fs");
const [budget, blocks, ...files] = process.argv.slice(2);
(async () => {
	for (const file of files) {
		const records = [];
		const read = (async () => {
			const parser = new WARCParser(fs.createReadStream(file), { parseHttp: false });
			for await (const rec of parser) {
				const r = { Type: rec.warcType || "", URI: rec.warcTargetURI || "" };
				if (blocks === "all" || rec.warcType === blocks) {
					r.Block = Buffer.from(await rec.readFully()).toString("base64");
					r.Headers = Object.fromEntries(rec.warcHeaders.headers);
				} else {
					await rec.skipFully();
				}
				r.Offset = parser.offset;
				records.push(r);
			}
			return "done";
		})();
		const timeout = new Promise((resolve) => setTimeout(() => resolve("timeout"), Number(budget)).unref());
		let end;
		try {
			end = await Promise.race([read, timeout]);
		} catch (e) {
			end = "error: " + e.message;
		}
		// Written, before an exit could cut the pipe's pending write.
		await new Promise((resolve) => process.stdout.write(JSON.stringify({ File: file, End: end, Records: records }) + "\n", resolve));
		if (end === "timeout") process.exit(0);
	}
	process.exit(0);
})();
`

// Read reads the files with warcio, giving the blocks and headers of the
// records of type blocks ("all": every record), each file within budget.
// The result is keyed by the files' names as given.
func (o Oracle) Read(t testing.TB, budget time.Duration, blocks string, files ...string) map[string]File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "warcio-read.cjs")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget*time.Duration(len(files))+30*time.Second)
	defer cancel()
	args := append([]string{path, fmt.Sprint(budget.Milliseconds()), blocks}, files...)
	cmd := exec.CommandContext(ctx, o.node, args...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(o.dir, "node_modules"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("warcio: %v\n%s", err, stderr.String())
	}
	got := map[string]File{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 256<<20)
	for sc.Scan() {
		var f File
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("warcio's output: %v", err)
		}
		got[f.File] = f
	}
	for _, f := range files {
		if _, ok := got[f]; !ok {
			t.Fatalf("warcio gave nothing for %s (a file before it did not finish?)\n%s", f, stderr.String())
		}
	}
	return got
}

// Header is a named field of the record (warcio gives them lower-cased),
// or "".
func (r Record) Header(name string) string { return r.Headers[strings.ToLower(name)] }
