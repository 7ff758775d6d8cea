package robotstxt

import "testing"

func TestFromResponse(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /private\n")
	cases := []struct {
		name    string
		status  int
		mode    Mode
		url     string
		allowed bool
		reason  Reason
	}{
		{"2xx parses the body", 200, RFC9309, "/private/x", false, ReasonLongestMatch},
		{"2xx other than 200 parses the body", 203, RFC9309, "/public", true, ReasonNoMatch},
		{"404 allows everything", 404, RFC9309, "/private/x", true, ReasonStatus},
		{"410 allows everything", 410, RFC9309, "/private/x", true, ReasonStatus},
		{"401 allows everything under RFC 9309", 401, RFC9309, "/private/x", true, ReasonStatus},
		{"403 allows everything under RFC 9309", 403, RFC9309, "/x", true, ReasonStatus},
		{"401 disallows everything in v1", 401, V1, "/x", false, ReasonStatus},
		{"403 disallows everything in v1", 403, V1, "/x", false, ReasonStatus},
		{"404 allows everything in v1", 404, V1, "/x", true, ReasonStatus},
		{"429 allows everything under RFC 9309", 429, RFC9309, "/x", true, ReasonStatus},
		{"429 is a server error for Google", 429, Google, "/x", false, ReasonStatus},
		{"3xx left unresolved allows everything", 301, RFC9309, "/x", true, ReasonStatus},
		{"307 left unresolved allows everything", 307, V1, "/x", true, ReasonStatus},
		{"304 does not allow everything", 304, RFC9309, "/public", false, ReasonStatus},
		{"304 disallows in v1 too", 304, V1, "/public", false, ReasonStatus},
		{"304 disallows in Google mode too", 304, Google, "/public", false, ReasonStatus},
		{"robots.txt stays allowed on 304", 304, RFC9309, "/robots.txt", true, ReasonRobotsTxt},
		{"500 disallows everything", 500, RFC9309, "/x", false, ReasonStatus},
		{"503 disallows everything", 503, V1, "/x", false, ReasonStatus},
		{"unreachable disallows everything", StatusUnreachable, RFC9309, "/x", false, ReasonStatus},
		{"robots.txt stays allowed when unreachable", 503, RFC9309, "/robots.txt", true, ReasonRobotsTxt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := FromResponse(c.status, body, Options{Mode: c.mode}).Decide("FooBot", c.url)
			if d.Allowed != c.allowed || d.Reason != c.reason {
				t.Errorf("status %d %s: %v (%v), want %v (%v)", c.status, c.mode, d.Allowed, d, c.allowed, c.reason)
			}
		})
	}
}

func TestStatusDecisionText(t *testing.T) {
	cases := map[int]string{
		503:               "HTTP status 503: robots.txt unreachable, everything is disallowed",
		404:               "HTTP status 404: robots.txt unavailable, nothing is restricted",
		StatusUnreachable: "HTTP status none (unreachable): robots.txt unreachable, everything is disallowed",
	}
	for status, want := range cases {
		if got := FromResponse(status, nil, Options{}).Decide("x", "/a").String(); got != want {
			t.Errorf("%d: %q, want %q", status, got, want)
		}
	}
	if got := FromResponse(403, nil, Options{Mode: V1}).Decide("x", "/a").String(); got != "HTTP status 403: access to the site is forbidden, everything is disallowed" {
		t.Errorf("403 v1: %q", got)
	}
}

// 304 Not Modified holds no robots.txt: the caller's cached copy is in
// force. FromResponse cannot know it, so it says so (NotModified) and
// allows nothing meanwhile, with or without a body, rather than allow all
// as for an unavailable file.
func TestFromResponseNotModified(t *testing.T) {
	for _, body := range [][]byte{nil, {}, []byte("User-agent: *\nAllow: /\n")} {
		r := FromResponse(304, body, Options{})
		d := r.Decide("FooBot", "/index.html")
		if !r.NotModified() || d.Allowed || d.Reason != ReasonStatus || d.Status != 304 {
			t.Errorf("304 with body %q: NotModified %v, %v (%v)", body, r.NotModified(), d.Allowed, d)
		}
		if want := "HTTP status 304: not modified, the cached copy is in force: use it; everything is disallowed until then"; d.String() != want {
			t.Errorf("304: %q, want %q", d, want)
		}
	}
	for _, status := range []int{200, 301, 302, 307, 308, 404, 503, StatusUnreachable} {
		if FromResponse(status, nil, Options{}).NotModified() {
			t.Errorf("%d: NotModified", status)
		}
	}
	if Parse(nil, Options{}).NotModified() {
		t.Error("Parse: NotModified")
	}
}
