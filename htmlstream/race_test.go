//go:build race

package htmlstream

// raceDetector is set when the tests run with -race, which makes byte-by-
// byte work about ten times slower: the heaviest tests then do less.
const raceDetector = true
