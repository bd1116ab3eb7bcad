// Package textwrap breaks text into lines for the SVG figures of the HTML
// reports (cluster, analyze, validate), which have no text layout of their
// own.
package textwrap

import (
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
