//go:build !race

package htmlstream

const raceDetector = false
