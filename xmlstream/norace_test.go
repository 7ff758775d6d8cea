//go:build !race

package xmlstream

const raceDetector = false
