package robotstxt_test

import (
	"fmt"
	"time"

	"github.com/robofilter/robofilter/robotstxt"
)

func Example() {
	body := []byte(`User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: FooBot
Disallow: /
`)
	r := robotstxt.Parse(body, robotstxt.Options{})
	fmt.Println(r.Allowed("BarBot", "https://example.com/private/press/2024.html"))
	fmt.Println(r.Allowed("BarBot", "https://example.com/private/payroll.xls"))
	fmt.Println(r.Allowed("FooBot", "https://example.com/index.html"))
	fmt.Println(r.Allowed("FooBot", "https://example.com/robots.txt"))
	// Output:
	// true
	// false
	// false
	// true
}

// Parse once, take the robot's rules once, then match many URLs.
func ExampleRobots_ForAgent() {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /*.pdf$\nAllow: /docs/*.pdf$\n"), robotstxt.Options{})
	rules := r.ForAgent("FooBot")
	for _, url := range []string{"/report.pdf", "/docs/manual.pdf", "/docs/manual.pdf?download=1"} {
		fmt.Printf("%s\t%v\t%s\n", url, rules.Allowed(url), rules.Decide(url))
	}
	// Output:
	// /report.pdf	false	line 2: Disallow: /*.pdf$ (longest match)
	// /docs/manual.pdf	true	line 3: Allow: /docs/*.pdf$ (longest match)
	// /docs/manual.pdf?download=1	true	no rule matched
}

func ExampleFromResponse() {
	for _, status := range []int{200, 404, 503, robotstxt.StatusUnreachable} {
		r := robotstxt.FromResponse(status, []byte("User-agent: *\nDisallow: /tmp/\n"), robotstxt.Options{})
		fmt.Println(status, r.Allowed("FooBot", "/index.html"))
	}
	// Output:
	// 200 true
	// 404 true
	// 503 false
	// 0 false
}

// A 304 Not Modified answer to a conditional request means the copy
// already cached is still in force: keep using it.
func ExampleRobots_NotModified() {
	opts := robotstxt.Options{}
	cached := robotstxt.FromResponse(200, []byte("User-agent: *\nDisallow: /tmp/\n"), opts)
	r := robotstxt.FromResponse(304, nil, opts)
	fmt.Println(r.NotModified(), r.Decide("FooBot", "/index.html"))
	if r.NotModified() {
		r = cached
	}
	fmt.Println(r.Allowed("FooBot", "/index.html"), r.Allowed("FooBot", "/tmp/a"))
	// Output:
	// true HTTP status 304: not modified, the cached copy is in force: use it; everything is disallowed until then
	// true false
}

// The first-record, first-match rules of the 1996 draft, on the Mary's
// Antiques example of "HTTP: The Definitive Guide".
func ExampleParse_v1() {
	body := []byte(`User-Agent: Suzy-Spider
Disallow: /dynamic
Allow: /private/suzy-stuff
Disallow: /private

User-Agent: *
Disallow: /dynamic
Disallow: /private
`)
	r := robotstxt.Parse(body, robotstxt.Options{Mode: robotstxt.V1})
	fmt.Println(r.Decide("SuzySpider", "/private/suzy-stuff/taxes.txt"))
	fmt.Println(r.Decide("NosyBot", "/private/suzy-stuff/taxes.txt"))
	// Output:
	// line 3: Allow: /private/suzy-stuff (first match)
	// line 8: Disallow: /private (first match)
}

// Extension fields apply to the robots named above them.
func ExampleAgentRules_RequestInterval() {
	body := []byte(`User-agent: FooBot
Crawl-delay: 5
Request-rate: 10/1m
Request-rate: 1/1m 0800-1800
Visit-time: 0100-0600
`)
	rules := robotstxt.Parse(body, robotstxt.Options{}).ForAgent("FooBot")
	delay, _ := rules.CrawlDelay()
	night, _ := rules.RequestInterval(time.Date(2024, 5, 1, 3, 0, 0, 0, time.UTC))
	day, _ := rules.RequestInterval(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))
	window, _ := rules.VisitTime()
	fmt.Println(delay, night, day, window)
	// Output: 5s 6s 1m0s 01:00-06:00 UTC
}

func ExampleRobots_Warnings() {
	body := []byte("User-agent: FooBot\nDisalow: /typo\nCrawl-delay: soon\n")
	for _, w := range robotstxt.Parse(body, robotstxt.Options{}).Warnings() {
		fmt.Println(w)
	}
	// Google's leniencies read the misspelt key.
	fmt.Println(robotstxt.Parse(body, robotstxt.Options{Mode: robotstxt.Google}).Allowed("FooBot", "/typo"))
	// Output:
	// line 2: unknown field "Disalow": ignored
	// line 3: crawl-delay "soon" is not a number of seconds: ignored
	// false
}
