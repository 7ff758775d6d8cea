//go:build !race

package aipref

const raceDetector = false
