//go:build race

package robofilter_test

const raceDetector = true
