//go:build race

package server

// raceDetector is set in a -race build. chromedp races with itself inside
// SendKeys (query.go), which the detector reports against the browser
// test; the server code the test drives runs under -race in every other
// test.
const raceDetector = true
