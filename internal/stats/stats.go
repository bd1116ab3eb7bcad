// Package stats holds the small order statistics several packages share.
package stats

import (
	"math"
	"sort"
)

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

// SignTest is the one-sided p-value of the exact sign test (McNemar's
// test on paired outcomes): the chance that of wins+losses discordant
// pairs, each a fair coin's toss, at least wins fall to one side. 1 when
// there are no discordant pairs.
func SignTest(wins, losses int) float64 {
	n := wins + losses
	if n == 0 || wins <= 0 {
		return 1
	}
	lgN, _ := math.Lgamma(float64(n + 1))
	p := 0.0
	for k := wins; k <= n; k++ {
		a, _ := math.Lgamma(float64(k + 1))
		b, _ := math.Lgamma(float64(n - k + 1))
		p += math.Exp(lgN - a - b - float64(n)*math.Ln2)
	}
	return min(p, 1)
}
