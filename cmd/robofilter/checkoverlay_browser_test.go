package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robofilter/robofilter/internal/shared"
	"golang.org/x/net/html"
)

// The overlay in a real browser: headless Chromium loads it through a
// proxy that logs every request the browser makes (to any host, over any
// scheme: https is a CONNECT to it), and prints the DOM once the page has
// loaded; the test reads that DOM.

// testHost is the host the pages are served from, and their --base.
const testHost = "robofilter.test"

// chromium finds the browser, or skips the test with a message.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ROBOFILTER_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("skipping: no Chromium (apt-get install chromium, or set ROBOFILTER_CHROMIUM)")
	return ""
}

// browserProxy serves pages of testHost and logs every request.
type browserProxy struct {
	srv   *httptest.Server
	mu    sync.Mutex
	pages map[string][]byte // by path
	log   []string
}

func newBrowserProxy(t *testing.T) *browserProxy {
	p := &browserProxy{pages: map[string][]byte{}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

// onePixelPNG is the image the proxy serves for any the page loads: one
// pixel of a tomato's red, made pale.
var onePixelPNG = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{0xf0, 0xb8, 0xa8, 0xff})
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}()

func (p *browserProxy) serve(w http.ResponseWriter, r *http.Request) {
	entry := r.Method + " " + r.URL.String()
	if r.Method == http.MethodConnect {
		entry = "CONNECT " + r.Host
	}
	p.mu.Lock()
	p.log = append(p.log, entry)
	page, ok := p.pages[r.URL.Path]
	p.mu.Unlock()
	switch {
	case r.URL.Hostname() != testHost:
		http.Error(w, "not here", http.StatusForbidden)
	case ok:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	case strings.HasSuffix(r.URL.Path, ".css"):
		w.Header().Set("Content-Type", "text/css")
		w.Write([]byte("p{margin-top:1px}"))
	case strings.HasSuffix(r.URL.Path, ".png") || strings.HasSuffix(r.URL.Path, ".gif"):
		w.Header().Set("Content-Type", "image/png")
		w.Write(onePixelPNG)
	default:
		http.NotFound(w, r)
	}
}

func (p *browserProxy) setPage(path string, b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pages[path] = b
}

func (p *browserProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := append([]string(nil), p.log...)
	p.log = p.log[:0]
	return out
}

// quietFeatures are Chromium's features that make requests of their own
// (the network time, a preconnection to the search engine, translation,
// autofill): off, so what the proxy logs is the page's.
var quietFeatures = []string{"NetworkTimeServiceQuerying", "PreconnectToSearch", "Translate", "OptimizationHints",
	"MediaRouter", "AutofillServerCommunication"}

// browserHost is where Chromium's own services are pointed (sign-in, the
// Google apps): their requests, which no flag turns off, are told from the
// page's by it.
const browserHost = "browser.invalid"

// browserOwn reports a request the browser makes for itself: to its
// services, or for the favicon it looks for where the page names none
// (the overlay disarms the page's <link rel=icon>).
func browserOwn(r string) bool {
	return strings.Contains(r, " http://"+browserHost+"/") || strings.HasPrefix(r, "CONNECT "+browserHost+":") || r == "GET http://"+testHost+"/favicon.ico"
}

// browse has Chromium load a URL through the proxy and returns the DOM
// it printed; with screenshot set, it saves a PNG of the page at 1280 px
// instead (height pixels tall) and returns "".
func browse(t *testing.T, p *browserProxy, url, screenshot string, height int) string {
	t.Helper()
	dir := t.TempDir()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-features=" + strings.Join(quietFeatures, ","), "--user-data-dir=" + dir,
		"--proxy-server=" + p.srv.URL, "--proxy-bypass-list=<-loopback>", "--virtual-time-budget=5000",
		"--gaia-url=http://" + browserHost + "/", "--google-base-url=http://" + browserHost + "/",
		"--google-apis-url=http://" + browserHost + "/", "--lso-url=http://" + browserHost + "/",
		"--gcm-checkin-url=http://" + browserHost + "/", "--gcm-registration-url=http://" + browserHost + "/",
		"--gcm-mcs-endpoint=https://" + browserHost + ":5228"}
	if screenshot != "" {
		args = append(args, "--hide-scrollbars", fmt.Sprintf("--window-size=1280,%d", height), "--screenshot="+screenshot)
	} else {
		args = append(args, "--dump-dom")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium(t), append(args, url)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	if screenshot == "" && out.Len() == 0 {
		t.Fatalf("chromium printed no DOM:\n%s", errb.String())
	}
	return out.String()
}

// domFacts is what a test reads of the overlay's DOM.
type domFacts struct {
	regions   map[string]int // region ids (line:col) on elements, as data-rf-region or data-rf-in
	undrawn   map[string]bool
	links     map[string]int // data-rf-link values
	texts     []string
	attrs     map[string]bool // attribute names anywhere
	elements  map[string]int  // elements by name
	title     string
	overlays  int    // rf-overlay elements with the bar's attributes
	barParent string // the element the bar is in
}

func readDOM(t *testing.T, dom string) domFacts {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	f := domFacts{regions: map[string]int{}, undrawn: map[string]bool{}, links: map[string]int{}, attrs: map[string]bool{}, elements: map[string]int{}}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			f.texts = append(f.texts, n.Data)
		case html.ElementNode:
			f.elements[n.Data]++
			bar := false
			for _, a := range n.Attr {
				f.attrs[a.Key] = true
				switch a.Key {
				case "data-rf-region", "data-rf-in":
					for _, id := range strings.Fields(a.Val) {
						f.regions[id]++
					}
				case "data-rf-link":
					f.links[a.Val]++
				case "data-rf-undrawn":
					if n.Data == "rf-overlay" {
						for _, id := range strings.Fields(a.Val) {
							f.undrawn[id] = true
						}
					}
				case "data-rf-regions":
					bar = n.Data == "rf-overlay"
				}
			}
			if bar {
				f.overlays++
				f.barParent = n.Parent.Data
			}
			if n.Data == "title" && f.title == "" && n.FirstChild != nil {
				f.title = n.FirstChild.Data
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return f
}

// jsonlRegions are the ids (line:col) of the regions check's JSON Lines
// lists, and its verdict.
func jsonlRegions(t *testing.T, out string) (ids []string, v verdict) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Type      string `json:"type"`
			Line, Col int
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		switch rec.Type {
		case "region":
			ids = append(ids, fmt.Sprintf("%d:%d", rec.Line, rec.Col))
		case "page_verdict":
			json.Unmarshal(sc.Bytes(), &v)
		}
	}
	return ids, v
}

type overlayCase struct {
	name, path string
	// undrawn are the regions a case expects not drawn (nil: any, for
	// corpus pages, as long as the bar lists them).
	undrawn []string
}

func overlayCases(t *testing.T) []overlayCase {
	cases := []overlayCase{
		{"dialects", filepath.Join("testdata", "overlay", "dialects.html"), []string{}},
		{"hostile", filepath.Join("testdata", "overlay", "hostile.html"), []string{}},
		{"example", filepath.Join("..", "..", "testdata", "example.html"), []string{}},
	}
	for _, name := range []string{"heise.html", "nytimes-1.html", "wordpress.html"} {
		if p := corpusPage(name); p != "" {
			cases = append(cases, overlayCase{name, p, nil})
		}
	}
	return cases
}

func corpusPage(name string) string {
	dir := shared.Dir()
	if dir == "" {
		return ""
	}
	p := filepath.Join(dir, "corpus", "html", name)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestOverlayInChromium loads the overlay of hand-made pages (every
// dialect, a hostile page) and corpus pages (heise, nytimes, wordpress) in
// headless Chromium and checks, in the DOM it built: every region check's
// JSON Lines lists is drawn, or listed by the bar as not drawn (and, for
// the hand-made pages, exactly those expected); links are told apart as
// the link records say; no script of the page ran; the bar is there, in
// the body; and no request left but for the overlay and its page's own
// images and style sheets, on testHost.
func TestOverlayInChromium(t *testing.T) {
	chromium(t)
	proxy := newBrowserProxy(t)
	if testing.Short() {
		t.Skip("skipping: a browser per page")
	}
	start := time.Now()
	for _, c := range overlayCases(t) {
		t.Run(c.name, func(t *testing.T) {
			base := "http://" + testHost + "/site/"
			jsonl, errOut, code := runCLI(t, "", "check", "-q", "--format", "jsonl", "--base", base, c.path)
			if code != 0 {
				t.Fatalf("check jsonl: %d %s", code, errOut)
			}
			ids, v := jsonlRegions(t, jsonl)
			page, errOut, code := runCLI(t, "", "check", "-q", "--format", "overlay", "--base", base, c.path)
			if code != 0 {
				t.Fatalf("check overlay: %d %s", code, errOut)
			}
			proxy.setPage("/overlay/"+c.name, []byte(page))
			proxy.requests()
			dom := browse(t, proxy, "http://"+testHost+"/overlay/"+c.name, "", 0)
			f := readDOM(t, dom)

			// Every region drawn, or listed as not drawn.
			want := map[string]int{}
			for _, id := range ids {
				want[id]++
			}
			var missing, undrawn []string
			for id := range want {
				switch {
				case f.undrawn[id]:
					undrawn = append(undrawn, id)
				case f.regions[id] == 0:
					missing = append(missing, id)
				}
			}
			sort.Strings(undrawn)
			if len(missing) > 0 {
				sort.Strings(missing)
				t.Errorf("%d regions of %d neither drawn nor listed as not drawn: %v", len(missing), len(want), missing)
			}
			if c.undrawn != nil && strings.Join(undrawn, " ") != strings.Join(c.undrawn, " ") {
				t.Errorf("regions not drawn: %v, want %v", undrawn, c.undrawn)
			}
			for id := range f.regions {
				if want[id] == 0 {
					t.Errorf("region %s drawn, but check lists none there", id)
				}
			}
			t.Logf("%d regions: %d drawn, %d not (%v); links drawn %v", len(ids), len(want)-len(undrawn), len(undrawn), undrawn, f.links)

			// Links told apart as check counts them (those with a tag of
			// their own where the overlay reads one).
			if got := f.links["robots"]; got != v.notFollowedByRobots() {
				t.Errorf("%d links drawn as not followed by robots markup, check counts %d", got, v.notFollowedByRobots())
			}
			if got := f.links["followed"]; got != v.LinksFollowed {
				t.Errorf("%d links drawn as followed, check counts %d", got, v.LinksFollowed)
			}

			// No script ran; the bar is there, out of the page's hidden
			// elements.
			for _, s := range f.texts {
				if strings.Contains(s, "PWNED") {
					t.Errorf("a script ran: the DOM has the text %q", s)
				}
			}
			if f.attrs["data-pwned"] {
				t.Error("a script ran: an element has data-pwned")
			}
			if strings.HasPrefix(f.title, "PWNED") {
				t.Errorf("a script ran: the title is %q", f.title)
			}
			if f.overlays != 1 || f.barParent != "body" {
				t.Errorf("%d bars, in <%s>; want one, in the body", f.overlays, f.barParent)
			}

			// Nothing requested but the overlay and the page's own
			// images and style sheets.
			for _, r := range proxy.requests() {
				if !strings.HasPrefix(r, "GET http://"+testHost+"/") && !browserOwn(r) {
					t.Errorf("request left for another host: %s", r)
				}
			}
		})
	}
	t.Logf("browser tests: %v", time.Since(start))
}

// The test's own check that a script that runs is seen: the hostile page
// served as it is, not drawn by the overlay, writes its marker; and the
// page's own resources load through the overlay (its CSP lets them).
func TestOverlayBrowserTestSeesScriptsAndRequests(t *testing.T) {
	chromium(t)
	if testing.Short() {
		t.Skip("skipping: a browser per page")
	}
	proxy := newBrowserProxy(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "overlay", "hostile.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The raw page's refresh and base would take it away: without them,
	// its scripts run where it is.
	raw = bytes.ReplaceAll(raw, []byte(`http-equiv="refresh"`), []byte(`name="x"`))
	raw = bytes.ReplaceAll(raw, []byte(`<base href`), []byte(`<link href`))
	proxy.setPage("/raw/hostile.html", raw)
	f := readDOM(t, browse(t, proxy, "http://"+testHost+"/raw/hostile.html", "", 0))
	ran := f.attrs["data-pwned"] || strings.HasPrefix(f.title, "PWNED")
	for _, s := range f.texts {
		ran = ran || strings.Contains(s, "PWNED")
	}
	if !ran {
		t.Error("the hostile page's scripts did not run on their own: the overlay test would not see them run")
	}
	evil := false
	for _, r := range proxy.requests() {
		evil = evil || strings.Contains(r, "evil.test")
	}
	if !evil {
		t.Error("the hostile page on its own requested nothing of evil.test: the overlay test would not see requests leave")
	}

	page, _, _ := runCLI(t, "", "check", "-q", "--format", "overlay", "--base", "http://"+testHost+"/site/", filepath.Join("testdata", "overlay", "hostile.html"))
	proxy.setPage("/overlay/hostile.html", []byte(page))
	browse(t, proxy, "http://"+testHost+"/overlay/hostile.html", "", 0)
	got := strings.Join(proxy.requests(), "\n")
	for _, want := range []string{"GET http://" + testHost + "/site/own.css", "GET http://" + testHost + "/site/own.png"} {
		if !strings.Contains(got, want) {
			t.Errorf("the overlay did not load the page's own %s; requests:\n%s", want, got)
		}
	}
}

// manyRegions is a hostile page: 10,000 regions, each with a class that
// holds </style><script>, and every hundredth link's URL 300 characters
// long.
func manyRegions() []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html><title>many</title>\n")
	long := strings.Repeat("a", 280)
	for i := 0; i < 10000; i++ {
		path := ""
		if i%100 == 0 {
			path = long
		}
		fmt.Fprintf(&b, "<p class=\"robots-noindex x%d </style><script>document.title='PWNED'</script>\">p%d <a rel=nofollow href=\"https://example.com/%s%d\">l</a></p>\n", i, i, path, i)
	}
	return b.Bytes()
}

// A page of 10,000 regions stays usable: the overlay draws every region
// and the report's page folds its tables; Chromium loads each in its time
// budget, and nothing the classes hold runs.
func TestCheckPagesOfManyRegionsInChromium(t *testing.T) {
	chromium(t)
	if testing.Short() {
		t.Skip("skipping: a browser per page")
	}
	proxy := newBrowserProxy(t)
	in := manyRegions()
	for _, format := range []string{"overlay", "html"} {
		out, errOut, code := runCLI(t, string(in), "check", "-q", "--format", format, "--base", "http://"+testHost+"/site/")
		if code != 0 {
			t.Fatalf("%s: %d %s", format, code, errOut)
		}
		proxy.setPage("/many/"+format, []byte(out))
		start := time.Now()
		dom := browse(t, proxy, "http://"+testHost+"/many/"+format, "", 0)
		took := time.Since(start)
		f := readDOM(t, dom)
		if strings.Contains(f.title, "PWNED") {
			t.Errorf("%s: a script ran", format)
		}
		switch format {
		case "overlay":
			for _, s := range f.texts {
				if strings.Contains(s, "PWNED") {
					t.Errorf("overlay: a script ran")
				}
			}
			if len(f.regions) != 10000 || f.links["robots"] != 10000 {
				t.Errorf("overlay: %d regions and %d links not followed drawn, want 10,000 of each", len(f.regions), f.links["robots"])
			}
		case "html":
			// The page shows the classes as text, and has no script.
			if f.elements["script"] > 0 {
				t.Errorf("html: %d script elements", f.elements["script"])
			}
			if !strings.Contains(dom, "<summary>9900 more regions</summary>") || !strings.Contains(dom, "<summary>9900 more links</summary>") {
				t.Error("html: the tables do not fold")
			}
		}
		t.Logf("%s: %d bytes, loaded in %v", format, len(out), took)
		for _, r := range proxy.requests() {
			if !strings.HasPrefix(r, "GET http://"+testHost+"/") && !browserOwn(r) {
				t.Errorf("%s: request left for another host: %s", format, r)
			}
		}
	}
}

// TestCheckScreenshots writes the screenshots docs/ shows, at 1280 px,
// when ROBOFILTER_SCREENSHOTS names the folder to write them to:
//
//	ROBOFILTER_SCREENSHOTS=$PWD/docs go test -run TestCheckScreenshots ./cmd/robofilter
func TestCheckScreenshots(t *testing.T) {
	dir := os.Getenv("ROBOFILTER_SCREENSHOTS")
	if dir == "" {
		t.Skip("skipping: set ROBOFILTER_SCREENSHOTS to a folder to write the screenshots")
	}
	chromium(t)
	proxy := newBrowserProxy(t)
	page := filepath.Join("testdata", "overlay", "dialects.html")
	for _, s := range []struct {
		file, format string
		height       int
	}{
		{"check-verdict.png", "html", 760},
		{"check-overlay.png", "overlay", 1000},
		{"check-source.png", "html", 900},
	} {
		out, errOut, code := runCLI(t, "", "check", "-q", "--agent", "Foo Bot", "--format", s.format, "--base", "http://"+testHost+"/garden/", page)
		if code != 0 {
			t.Fatalf("%d %s", code, errOut)
		}
		if s.file == "check-source.png" {
			// The page's source, as it is further down: what comes
			// between the title and the source left out.
			from, to := strings.Index(out, "</h1>")+len("</h1>"), strings.Index(out, "<h2>Source</h2>")
			out = out[:from] + out[to:]
		}
		proxy.setPage("/shot/"+s.file, []byte(out))
		path, err := filepath.Abs(filepath.Join(dir, s.file))
		if err != nil {
			t.Fatal(err)
		}
		browse(t, proxy, "http://"+testHost+"/shot/"+s.file, path, s.height)
		t.Logf("wrote %s", path)
	}
}
