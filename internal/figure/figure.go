// Package figure holds what the SVG figures of the HTML reports (cluster,
// analyze, validate) share: text broken into lines (SVG has no text
// layout of its own) and axis steps.
package figure

import (
	"math"
	"strings"
	"unicode/utf8"
)

// Words breaks s at spaces into lines of at most n runes; a longer word
// gets a line of its own, cut with an ellipsis.
func Words(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if r := []rune(w); len(r) > n {
			w = string(r[:n-1]) + "…"
		}
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// NiceStep rounds raw up to 1, 2, 2.5 or 5 times a power of ten: an axis
// step a reader can add up.
func NiceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= raw-1e-12 {
			return m * e
		}
	}
	return 10 * e
}
