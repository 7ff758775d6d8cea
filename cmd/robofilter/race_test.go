//go:build race

package main

// raceDetector is set when the tests run with -race, which makes the
// heaviest tests about ten times slower: they then do less.
const raceDetector = true
