// Package stats holds the small order statistics several packages share.
package stats

import "sort"

// Median returns the median of v (the mean of the middle two for an even
// count), 0 for none; v is left as it was.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
