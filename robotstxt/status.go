package robotstxt

import "strconv"

// StatusUnreachable stands for a fetch that got no HTTP response at all
// (DNS failure, refused connection, timeout) when passed to FromResponse.
const StatusUnreachable = 0

// FromResponse builds the rules from the outcome of fetching /robots.txt:
//
//   - 2xx: the body is parsed.
//   - 304 Not Modified (an answer to a conditional request): the copy the
//     caller cached is still in force, and this response does not hold it.
//     FromResponse cannot know that copy, so it does not allow everything:
//     the result disallows every URL (but /robots.txt) and
//     [Robots.NotModified] reports true, telling the caller to use its
//     cached copy: the Robots built from it, or FromResponse(200, cached,
//     opts). The body is not read, even if one is given.
//   - Other 3xx: RFC 9309 section 2.3.1.2 asks the caller to follow
//     redirects (five at least). A 3xx given here is one not followed to
//     the end, and the file is then unavailable: nothing is restricted, as
//     the RFC allows after five redirects.
//   - 404 and every other 4xx: the file is unavailable and nothing is
//     restricted. In V1 mode 401 and 403 mean the site forbids robots, so
//     everything is disallowed. In Google mode 429 counts as a server
//     error, as Google documents.
//   - 5xx, StatusUnreachable and anything else: the file is unreachable and
//     everything is disallowed (RFC 9309 section 2.3.1.4).
//
// The body is only read for 2xx.
func FromResponse(status int, body []byte, opts Options) *Robots {
	if status >= 200 && status <= 299 {
		r := Parse(body, opts)
		r.status = status
		return r
	}
	r := &Robots{mode: opts.Mode, encoding: EncodingUTF8, status: status, verdict: statusVerdict(status, opts.Mode)}
	r.indexAgents()
	return r
}

// NotModified reports that FromResponse was given 304 Not Modified: the
// caller's cached copy of robots.txt is in force, not r, which disallows
// everything until the caller uses that copy.
func (r *Robots) NotModified() bool { return r.verdict == verdictNotModified }

func statusVerdict(status int, mode Mode) verdict {
	switch {
	case status == 304:
		return verdictNotModified
	case mode == V1 && (status == 401 || status == 403):
		return verdictDisallowAll
	case mode == Google && status == 429:
		return verdictDisallowAll
	case status >= 300 && status <= 499:
		return verdictAllowAll
	}
	return verdictDisallowAll
}

func statusText(status int) string {
	if status == StatusUnreachable {
		return "none (unreachable)"
	}
	return strconv.Itoa(status)
}

func statusMeaning(status int, allowed bool) string {
	if status == 304 {
		return "not modified, the cached copy is in force: use it; everything is disallowed until then"
	}
	if allowed {
		return "robots.txt unavailable, nothing is restricted"
	}
	if status >= 400 && status <= 499 {
		return "access to the site is forbidden, everything is disallowed"
	}
	return "robots.txt unreachable, everything is disallowed"
}
