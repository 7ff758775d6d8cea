package filter

import (
	"strings"
	"time"
)

// unavailableAfterLayouts are the date forms unavailable_after is written
// in: Google documents "a widely adopted format including RFC 822, RFC 850
// and ISO 8601", and its own examples use "25-Jun-2010 15:00:00 PST".
var unavailableAfterLayouts = []string{
	time.RFC1123, time.RFC1123Z, time.RFC850, time.RFC822, time.RFC822Z, time.ANSIC,
	"Monday, 02-Jan-2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05 MST", "Mon, 2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 MST", "2-Jan-2006 15:04:05 MST", "2 January 2006 15:04:05 MST",
	"2 Jan 2006", "2-Jan-2006", "2 January 2006",
	time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02",
}

// zoneOffsets are the zone abbreviations of the RFC 822 date grammar
// (section 5.1) that are not UTC, in seconds east of it: Go's time.Parse
// takes an abbreviation it does not know as UTC.
var zoneOffsets = map[string]int{
	"EST": -5 * 3600, "EDT": -4 * 3600, "CST": -6 * 3600, "CDT": -5 * 3600,
	"MST": -7 * 3600, "MDT": -6 * 3600, "PST": -8 * 3600, "PDT": -7 * 3600,
}

// parseUnavailableAfter reads an unavailable_after date, for comparing two
// of them; ok is false for a form it does not know.
func parseUnavailableAfter(v string) (t time.Time, ok bool) {
	v = strings.Join(strings.Fields(v), " ")
	for _, layout := range unavailableAfterLayouts {
		t, err := time.Parse(layout, v)
		if err != nil {
			continue
		}
		if name, off := t.Zone(); off == 0 {
			if east, known := zoneOffsets[strings.ToUpper(name)]; known {
				t = t.Add(-time.Duration(east) * time.Second)
			}
		}
		return t, true
	}
	return time.Time{}, false
}
