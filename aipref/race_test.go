//go:build race

package aipref

// raceDetector is set when the tests run with -race, whose cost grows
// with the work: the linearity test, which compares times, then skips.
const raceDetector = true
