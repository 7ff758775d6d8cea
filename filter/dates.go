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
	time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02",
}

// zoneOffsets are the zone abbreviations of the RFC 822 date grammar
// (section 5.1) that are not UTC, in seconds east of it: time.ParseInLocation
// in UTC takes an abbreviation as UTC, whatever the machine's zone says of
// it (CST is UTC-6 here, UTC+8 under TZ=Asia/Shanghai).
var zoneOffsets = map[string]int{
	"EST": -5 * 3600, "EDT": -4 * 3600, "CST": -6 * 3600, "CDT": -5 * 3600,
	"MST": -7 * 3600, "MDT": -6 * 3600, "PST": -8 * 3600, "PDT": -7 * 3600,
}

// parseUnavailableAfter reads an unavailable_after date, for comparing two
// of them; ok is false for a form it does not know.
func parseUnavailableAfter(v string) (t time.Time, ok bool) {
	// Case is not significant (RFC 822 section 3.4.7); time.Parse reads
	// month and day names in any case, zone abbreviations only in upper.
	v = strings.ToUpper(strings.Join(strings.Fields(v), " "))
	if z, found := strings.CutSuffix(v, " UT"); found {
		v = z + " UTC" // RFC 822's "UT", which time.Parse does not know
	}
	for _, layout := range unavailableAfterLayouts {
		t, err := time.ParseInLocation(layout, v, time.UTC)
		if err != nil {
			continue
		}
		if name, off := t.Zone(); off == 0 {
			if east, known := zoneOffsets[name]; known {
				t = t.Add(-time.Duration(east) * time.Second)
			}
		}
		return t, true
	}
	return time.Time{}, false
}
