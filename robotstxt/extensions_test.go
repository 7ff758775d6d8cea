package robotstxt

import (
	"reflect"
	"testing"
	"time"
)

func TestParseRequestRate(t *testing.T) {
	cases := []struct {
		value    string
		requests int
		per      time.Duration
		window   *TimeWindow
	}{
		{"10/60", 10, 60 * time.Second, nil},
		{"10/10m", 10, 10 * time.Minute, nil},
		{"20/1h", 20, time.Hour, nil},
		{"1/5", 1, 5 * time.Second, nil},
		{"8/1s", 8, time.Second, nil},
		{"3/1d", 3, 24 * time.Hour, nil},
		{"5/1m 0200-2259", 5, time.Minute, &TimeWindow{2 * 60, 22*60 + 59}},
		{"20/1m 23:00-01:59", 20, time.Minute, &TimeWindow{23 * 60, 60 + 59}},
		{"1 / 5", 1, 5 * time.Second, nil},
	}
	for _, c := range cases {
		rr, err := parseRequestRate(c.value)
		if err != nil {
			t.Errorf("%q: %v", c.value, err)
			continue
		}
		if rr.Requests != c.requests || rr.Per != c.per || !reflect.DeepEqual(rr.Window, c.window) {
			t.Errorf("%q = %d/%v %v, want %d/%v %v", c.value, rr.Requests, rr.Per, rr.Window, c.requests, c.per, c.window)
		}
	}
	for _, bad := range []string{"", "10", "x/60", "10/x", "0/60", "10/0", "-1/5", "10/5y", "10/5 25:00-0100", "99999999999999999/9999999999999d"} {
		if _, err := parseRequestRate(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestParseTimeWindow(t *testing.T) {
	cases := map[string]TimeWindow{
		"0100-0600":       {60, 360},
		"01:00-06:00":     {60, 360},
		"1:00 - 6:00":     {60, 360},
		"0100 0600":       {60, 360},
		"2300-0100 UTC":   {23 * 60, 60},
		"0000-2400":       {0, 0},
		"08:45-17:30 GMT": {8*60 + 45, 17*60 + 30},
	}
	for v, want := range cases {
		if got, err := parseTimeWindow(v); err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, bad := range []string{"", "0100", "0160-0200", "2500-0100", "1-2", "a-b", "0100-0200-0300"} {
		if _, err := parseTimeWindow(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestTimeWindowContains(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2024, 1, 1, h, m, 0, 0, time.UTC) }
	cases := []struct {
		w    TimeWindow
		t    time.Time
		want bool
	}{
		{TimeWindow{60, 360}, at(1, 0), true},
		{TimeWindow{60, 360}, at(6, 0), false},
		{TimeWindow{60, 360}, at(0, 59), false},
		{TimeWindow{23 * 60, 60}, at(23, 30), true},
		{TimeWindow{23 * 60, 60}, at(0, 30), true},
		{TimeWindow{23 * 60, 60}, at(12, 0), false},
		{TimeWindow{0, 0}, at(12, 0), true},
		{TimeWindow{60, 360}, time.Date(2024, 1, 1, 3, 0, 0, 0, time.FixedZone("CET", 3600)), true},
	}
	for _, c := range cases {
		if got := c.w.Contains(c.t); got != c.want {
			t.Errorf("%v contains %v = %v, want %v", c.w, c.t, got, c.want)
		}
	}
}

func TestCrawlDelay(t *testing.T) {
	cases := map[string]time.Duration{"10": 10 * time.Second, "0.5": 500 * time.Millisecond, "0": 0, "1.25": 1250 * time.Millisecond}
	for v, want := range cases {
		if got, err := parseCrawlDelay(v); err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, bad := range []string{"", "ten", "-1", "NaN", "Inf", "1e300", "10s"} {
		if _, err := parseCrawlDelay(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestExtensionsForAgent(t *testing.T) {
	const robots = `Sitemap: http://example.com/a.xml
User-agent: mybot
Crawl-delay: 10
Request-rate: 10/1m
Request-rate: 2/1m 0100-0200
Visit-time: 0200-0600
Comment: only crawl at night
User-agent: yourbot
Disallow: /private/

User-agent: *
Crawl-delay: 30
Request-rate: 30/1m

Host: www.example.com
Clean-param: ref&utm_source /articles/
sitemap: http://example.com/a.xml
Sitemap: http://example.com/b.xml
`
	r := Parse([]byte(robots), Options{})
	my, your, other := r.ForAgent("mybot"), r.ForAgent("yourbot"), r.ForAgent("otherbot")

	if d, ok := my.CrawlDelay(); !ok || d != 10*time.Second {
		t.Errorf("mybot crawl-delay = %v, %v", d, ok)
	}
	// The extension lines stand above "User-agent: yourbot": they are mybot's only.
	if d, ok := your.CrawlDelay(); ok {
		t.Errorf("yourbot crawl-delay = %v, want none", d)
	}
	if d, ok := other.CrawlDelay(); !ok || d != 30*time.Second {
		t.Errorf("otherbot crawl-delay = %v, %v", d, ok)
	}
	if !your.Decide("/private/x").Allowed == false {
		t.Errorf("yourbot shares the group's rules")
	}
	if rates := my.RequestRates(); len(rates) != 2 || rates[0].String() != "10/1m" {
		t.Errorf("mybot request rates = %v", rates)
	}
	at := func(h int) time.Time { return time.Date(2024, 1, 1, h, 30, 0, 0, time.UTC) }
	if d, _ := my.RequestInterval(at(1)); d != 30*time.Second {
		t.Errorf("mybot interval at 01:30 = %v, want the window's 30s", d)
	}
	if d, _ := my.RequestInterval(at(12)); d != 6*time.Second {
		t.Errorf("mybot interval at 12:30 = %v, want 6s", d)
	}
	if w, ok := my.VisitTime(); !ok || w != (TimeWindow{120, 360}) {
		t.Errorf("mybot visit-time = %v, %v", w, ok)
	}
	if c := my.Comments(); !reflect.DeepEqual(c, []string{"only crawl at night"}) {
		t.Errorf("mybot comments = %q", c)
	}
	if got := r.SitemapURLs(); !reflect.DeepEqual(got, []string{"http://example.com/a.xml", "http://example.com/b.xml"}) {
		t.Errorf("sitemaps = %q", got)
	}
	if len(r.Sitemaps()) != 3 {
		t.Errorf("sitemap lines = %d, want 3", len(r.Sitemaps()))
	}
	if h := r.Hosts(); len(h) != 1 || h[0].Name != "www.example.com" || h[0].Line != 15 {
		t.Errorf("hosts = %+v", h)
	}
	if cp := r.CleanParams(); len(cp) != 1 || !reflect.DeepEqual(cp[0].Params, []string{"ref", "utm_source"}) || cp[0].Path != "/articles/" {
		t.Errorf("clean-params = %+v", cp)
	}
}

func TestWarnings(t *testing.T) {
	const robots = "Disallow: /early\n" + // 1
		"User-agent: Foo Bar\n" + // 2
		"Robot-version: 2.0\n" + // 3
		"Robot-version: 2.0\n" + // 4
		"Crawl-delay: soon\n" + // 5
		"Request-rate: fast\n" + // 6
		"Visit-time: noon\n" + // 7
		"Disallow /no-colon\n" + // 8
		"Frobnicate: yes\n" + // 9
		"http://example.com/sitemap.xml\n" + // 10
		"Sitemap: /relative.xml\n" + // 11
		"Disallow: private\n" + // 12
		"User-agent: Foo\x00Bar\n" + // 13
		"Visit-time: 0100-0200\n" + // 14
		"Visit-time: 0300-0400\n" + // 15
		"Robot-version: 2.0\n" // 16
	want := []Warning{
		{1, "Disallow before any User-agent line: ignored"},
		{2, `user-agent "Foo Bar" is not a product token: matching "Foo"`},
		{4, "second Robot-version in the record: ignored"},
		{5, `crawl-delay "soon" is not a number of seconds: ignored`},
		{6, `request-rate "fast" is not <documents>/<time>[s|m|h|d] [hhmm-hhmm]: ignored`},
		{7, `visit-time "noon": time window is not hhmm-hhmm (UTC): ignored`},
		{8, `no colon: "Disallow /no-colon" is not a field`},
		{9, `unknown field "Frobnicate": ignored`},
		{10, "a URL alone is not a field (Sitemap: missing?): ignored"},
		{11, `sitemap "/relative.xml" is not an absolute URL`},
		{12, `pattern "private" does not start with / or *: it can match no path`},
		{13, "NUL byte: the rest of the line is ignored"},
		{15, "second Visit-time in the record (one is allowed): ignored"},
		{16, "Robot-version is not right after the User-agent lines: ignored, the record stays 1.0"},
	}
	got := Parse([]byte(robots), Options{}).Warnings()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", warningLines(got), warningLines(want))
	}
}

func warningLines(ws []Warning) string {
	s := ""
	for _, w := range ws {
		s += w.String() + "\n"
	}
	return s
}
