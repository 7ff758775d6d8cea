package crawl_test

import (
	"os"
	"testing"
)

// TestMain dates the WET files of inputs without a dated page by
// SOURCE_DATE_EPOCH, not by the clock, so that tests that compare two
// runs' files compare the same bytes however long the runs take.
func TestMain(m *testing.M) {
	os.Setenv("SOURCE_DATE_EPOCH", "1764374400")
	os.Exit(m.Run())
}
