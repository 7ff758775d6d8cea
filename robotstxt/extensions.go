package robotstxt

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// CrawlDelay is a Crawl-delay line: seconds to wait between requests.
type CrawlDelay struct {
	Delay time.Duration
	Place
}

// TimeWindow is a daily span of time in UTC, in minutes after midnight. To
// before From wraps past midnight; To equal to From is the whole day.
type TimeWindow struct {
	From, To int
}

// Contains reports whether t (taken in UTC) falls in the window.
func (w TimeWindow) Contains(t time.Time) bool {
	t = t.UTC()
	m := t.Hour()*60 + t.Minute()
	switch {
	case w.From == w.To:
		return true
	case w.From < w.To:
		return w.From <= m && m < w.To
	}
	return m >= w.From || m < w.To
}

func (w TimeWindow) String() string {
	return fmt.Sprintf("%02d:%02d-%02d:%02d UTC", w.From/60, w.From%60, w.To/60, w.To%60)
}

// RequestRate is a Request-rate line: at most Requests documents per Per,
// during Window when there is one (else all day).
type RequestRate struct {
	Requests int
	Per      time.Duration
	Window   *TimeWindow
	Place
}

// Interval is the shortest time between two requests the rate allows.
func (r RequestRate) Interval() time.Duration { return r.Per / time.Duration(r.Requests) }

func (r RequestRate) String() string {
	s := strconv.Itoa(r.Requests) + "/" + formatPer(r.Per)
	if r.Window != nil {
		s += " " + r.Window.String()
	}
	return s
}

// formatPer writes a duration the way Request-rate values are written: 60s, 10m, 1h.
func formatPer(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return strconv.FormatInt(int64(d/time.Second), 10) + "s"
}

// VisitTime is a Visit-time line: the robot should only visit in the window.
type VisitTime struct {
	TimeWindow
	Place
}

// Comment is a Comment line (robots.txt 2.0): a message for the robot's
// author that the robot should pass on.
type Comment struct {
	Text string
	Place
}

// parseCrawlDelay reads a number of seconds, fractions allowed.
func parseCrawlDelay(v string) (time.Duration, error) {
	secs, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(secs) || math.IsInf(secs, 0) {
		return 0, fmt.Errorf("crawl-delay %q is not a number of seconds", v)
	}
	if secs < 0 {
		return 0, fmt.Errorf("crawl-delay %q is negative", v)
	}
	if secs > float64(math.MaxInt64/int64(time.Second)) {
		return 0, fmt.Errorf("crawl-delay %q is too large", v)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// parseRequestRate reads "<documents>/<time>[unit] [window]", the unit one
// of s, m, h, d (seconds when absent): 10/60, 10/10m, 20/1h 0200-0600.
func parseRequestRate(v string) (RequestRate, error) {
	bad := fmt.Errorf("request-rate %q is not <documents>/<time>[s|m|h|d] [hhmm-hhmm]", v)
	docs, rest, ok := strings.Cut(v, "/")
	if !ok {
		return RequestRate{}, bad
	}
	n, err := strconv.Atoi(trimSpace(docs))
	if err != nil || n <= 0 {
		return RequestRate{}, bad
	}
	rest = trimSpace(rest)
	digits := 0
	for digits < len(rest) && '0' <= rest[digits] && rest[digits] <= '9' {
		digits++
	}
	count, err := strconv.Atoi(rest[:digits])
	if err != nil || count <= 0 {
		return RequestRate{}, bad
	}
	rest = rest[digits:]
	unit := time.Second
	if rest != "" && !isSpace(rest[0]) {
		switch rest[0] {
		case 's', 'S':
		case 'm', 'M':
			unit = time.Minute
		case 'h', 'H':
			unit = time.Hour
		case 'd', 'D':
			unit = 24 * time.Hour
		default:
			return RequestRate{}, bad
		}
		rest = rest[1:]
		if rest != "" && !isSpace(rest[0]) {
			return RequestRate{}, bad
		}
	}
	if int64(count) > math.MaxInt64/int64(unit) {
		return RequestRate{}, bad
	}
	rr := RequestRate{Requests: n, Per: time.Duration(count) * unit}
	if window := trimSpace(rest); window != "" {
		w, err := parseTimeWindow(window)
		if err != nil {
			return RequestRate{}, fmt.Errorf("request-rate %q: %v", v, err)
		}
		rr.Window = &w
	}
	return rr, nil
}

var errTimeWindow = errors.New("time window is not hhmm-hhmm (UTC)")

// parseTimeWindow reads two times of day, hhmm or hh:mm, separated by "-"
// or spaces, with an optional UTC or GMT after them. The proposal left the
// format open; hhmm-hhmm in UTC is what the files that use it write.
func parseTimeWindow(v string) (TimeWindow, error) {
	v = strings.TrimSpace(v)
	for _, zone := range []string{"UTC", "GMT", "Z"} {
		if len(v) > len(zone) && strings.EqualFold(v[len(v)-len(zone):], zone) {
			v = strings.TrimSpace(v[:len(v)-len(zone)])
			break
		}
	}
	from, to, ok := strings.Cut(v, "-")
	if !ok {
		f := strings.Fields(v)
		if len(f) != 2 {
			return TimeWindow{}, errTimeWindow
		}
		from, to = f[0], f[1]
	}
	a, errA := parseTimeOfDay(strings.TrimSpace(from))
	b, errB := parseTimeOfDay(strings.TrimSpace(to))
	if errA != nil || errB != nil {
		return TimeWindow{}, errTimeWindow
	}
	return TimeWindow{From: a, To: b}, nil
}

func parseTimeOfDay(s string) (int, error) {
	h, m, colon := strings.Cut(s, ":")
	if !colon {
		if len(s) != 4 {
			return 0, errTimeWindow
		}
		h, m = s[:2], s[2:]
	}
	if len(h) == 0 || len(h) > 2 || len(m) != 2 {
		return 0, errTimeWindow
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 24 || mm < 0 || mm > 59 || hh == 24 && mm != 0 {
		return 0, errTimeWindow
	}
	return (hh*60 + mm) % (24 * 60), nil
}

// parseRobotVersion reads "major[.minor[.revision]]".
func parseRobotVersion(v string) (major, minor int, ok bool) {
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return 0, 0, false
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" || p[0] == '+' {
			return 0, 0, false
		}
		nums[i] = n
	}
	if len(nums) > 1 {
		minor = nums[1]
	}
	return nums[0], minor, true
}

// parseCleanParam reads "param1&param2 [path]".
func parseCleanParam(v string) CleanParam {
	params, path, _ := strings.Cut(v, " ")
	if i := strings.IndexByte(params, '\t'); i >= 0 {
		params, path = params[:i], params[i+1:]
	}
	cp := CleanParam{Path: strings.TrimSpace(path)}
	for _, p := range strings.Split(params, "&") {
		if p != "" {
			cp.Params = append(cp.Params, p)
		}
	}
	return cp
}

// applies reports whether an extension line of the k-th selected group
// concerns the robot: whether the robot was named above it.
func (a *AgentRules) applies(k int, p Place) bool { return a.position[k] < p.Agents }

// CrawlDelay returns the robot's crawl delay: the first Crawl-delay line
// that concerns it.
func (a *AgentRules) CrawlDelay() (time.Duration, bool) {
	for k, gi := range a.groups {
		for _, cd := range a.robots.groups[gi].CrawlDelays {
			if a.applies(k, cd.Place) {
				return cd.Delay, true
			}
		}
	}
	return 0, false
}

// RequestRates returns the Request-rate lines that concern the robot.
func (a *AgentRules) RequestRates() []RequestRate {
	var rates []RequestRate
	for k, gi := range a.groups {
		for _, rr := range a.robots.groups[gi].RequestRates {
			if a.applies(k, rr.Place) {
				rates = append(rates, rr)
			}
		}
	}
	return rates
}

// RequestInterval returns the time to leave between requests at time t
// under the robot's Request-rate lines, as the 1996 proposal says: a rate
// whose window holds t applies (the slowest, if several); else the slowest
// of the rates without a window.
func (a *AgentRules) RequestInterval(t time.Time) (time.Duration, bool) {
	var windowed, allDay time.Duration
	var haveWindowed, haveAllDay bool
	for _, rr := range a.RequestRates() {
		switch {
		case rr.Window == nil:
			allDay, haveAllDay = max(allDay, rr.Interval()), true
		case rr.Window.Contains(t):
			windowed, haveWindowed = max(windowed, rr.Interval()), true
		}
	}
	if haveWindowed {
		return windowed, true
	}
	return allDay, haveAllDay
}

// VisitTime returns the window of the first Visit-time line that concerns the robot.
func (a *AgentRules) VisitTime() (TimeWindow, bool) {
	for k, gi := range a.groups {
		for _, vt := range a.robots.groups[gi].VisitTimes {
			if a.applies(k, vt.Place) {
				return vt.TimeWindow, true
			}
		}
	}
	return TimeWindow{}, false
}

// Comments returns the Comment lines that concern the robot.
func (a *AgentRules) Comments() []string {
	var texts []string
	for k, gi := range a.groups {
		for _, c := range a.robots.groups[gi].Comments {
			if a.applies(k, c.Place) {
				texts = append(texts, c.Text)
			}
		}
	}
	return texts
}
