package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// --files-from reads every path of a gzip list (Beam's textio once read
// 41 of 1,000), and a list cut short is an error before anything is
// processed: never fewer inputs than the list names.
func TestFilesFromAGzipList(t *testing.T) {
	dir := t.TempDir()
	var list bytes.Buffer
	os.MkdirAll(filepath.Join(dir, "p"), 0o755)
	for i := 0; i < 1000; i++ {
		name := fmt.Sprintf("p/%03d.html", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("<p>page %d", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&list, name)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(list.Bytes())
	zw.Close()
	listFile := writeFile(t, dir, "paths.gz", gz.String())
	out, errOut, code := runCLI(t, "", "text", "-I", "--files-from", listFile, "--input-base", dir)
	if code != 0 || strings.Count(out, "page ") != 1000 || !strings.Contains(out, "page 999\n") {
		t.Fatalf("status %d, %d pages; %s", code, strings.Count(out, "page "), errOut)
	}
	cut := writeFile(t, dir, "cut.gz", gz.String()[:gz.Len()/2])
	out, errOut, code = runCLI(t, "", "text", "--files-from", cut, "--input-base", dir)
	if code != 1 || out != "" || !strings.Contains(errOut, "reading the list to its end") {
		t.Errorf("a list cut short: status %d, %d bytes out, stderr %q", code, len(out), errOut)
	}
}

// --output-dir writes each input's output to a file of its own, named
// after it, the same with --jobs 1 and several; --resume then skips
// every input whose output exists, and writes nothing.
func TestOutputDirAndResume(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(filepath.Join(in, "sub"), 0o755)
	var names []string
	for i, body := range []string{`<p>one <a href=x>x</a>`, `<meta name=robots content=noindex><p>two`, `<?xml version="1.0"?><r>not`, `<p>four`} {
		name := filepath.Join("sub", fmt.Sprintf("%d.html", i))
		os.WriteFile(filepath.Join(in, name), []byte(body), 0o644)
		names = append(names, name)
	}
	t.Chdir(in)
	read := func(out string) map[string]string {
		got := map[string]string{}
		filepath.Walk(out, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(out, p)
				got[rel] = string(b)
			}
			return nil
		})
		return got
	}
	var want map[string]string
	for _, jobs := range []string{"1", "3"} {
		out := filepath.Join(dir, "out"+jobs)
		_, errOut, code := runCLI(t, "", append([]string{"extract", "--jobs", jobs, "--output-dir", out}, names...)...)
		if code != 1 || !strings.Contains(errOut, "not well-formed") {
			t.Fatalf("--jobs %s: status %d, stderr %s", jobs, code, errOut)
		}
		got := read(out)
		if len(got) != 4 || !strings.Contains(got["sub/0.html.extract.jsonl"], `"text":"one x\n"`) {
			t.Fatalf("--jobs %s: outputs %q", jobs, got)
		}
		if want == nil {
			want = got
		} else if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("--jobs %s: outputs differ from --jobs 1's", jobs)
		}
		for name := range got {
			if strings.HasSuffix(name, ".partial") {
				t.Errorf("--jobs %s: %s left behind", jobs, name)
			}
		}
		stat, _ := os.Stat(filepath.Join(out, "sub/0.html.extract.jsonl"))
		time.Sleep(10 * time.Millisecond)
		outText, errOut, code := runCLI(t, "", append([]string{"extract", "--jobs", jobs, "--output-dir", out, "--resume"}, names...)...)
		again, _ := os.Stat(filepath.Join(out, "sub/0.html.extract.jsonl"))
		if code != 0 || outText != "" || strings.Count(errOut, "skipped: its output") != 4 || !again.ModTime().Equal(stat.ModTime()) {
			t.Errorf("--resume with --jobs %s: status %d, stdout %q, stderr %s", jobs, code, outText, errOut)
		}
	}
	// A WET file per input, named as Common Crawl names them.
	warc := writeFile(t, dir, "crawl.warc", warcRecord("response", "https://a.example/", "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>text"))
	out := filepath.Join(dir, "wet")
	if _, errOut, code := runCLI(t, "", "text", "--warc", "--format", "wet", "--gzip", "--output-dir", out, warc); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "crawl.warc.wet.gz")); err != nil {
		t.Error(err)
	}
	// A .warc.zst file's too: its compression's extension dropped.
	zst := filepath.Join(dir, "other.warc.zst")
	enc, _ := zstd.NewWriter(nil)
	if err := os.WriteFile(zst, enc.EncodeAll([]byte(warcRecord("response", "https://a.example/", "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>text")), nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "", "text", "--warc", "--format", "wet", "--gzip", "--output-dir", out, zst); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "other.warc.wet.gz")); err != nil {
		t.Error(err)
	}
}
