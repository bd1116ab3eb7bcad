package modeldb

import (
	"math"

	"portlab/results"
)

// DrawRepeat is how far a draw of random mixes (kind random-mix) repeats
// itself where it was measured in two rounds: characterize measures its
// validation draw before the port-conflict and fit mixes and again after
// them, and scores each mix's faster round. A mix whose two rounds
// differ by more than the tolerance was read in two states of the host
// or the core, and no model is within it of both.
// On the Zen 3 guest beside its busiest neighbour (2026-12-02) the two
// rounds of a draw of 400 agreed within 10 % on 73.3 % and 69.5 % of the
// mixes in two runs, where the models scored 44.5-48 %.
type DrawRepeat struct {
	N         int     `json:"mixes"`     // mixes measured in both rounds
	Within    float64 `json:"within"`    // the share whose two rounds are within Tolerance of each other
	Tolerance float64 `json:"tolerance"` // relative
}

// RepeatOf compares a draw's rounds in results: each random mix's surest
// result of the first round (Extra.Round 0, its second chances included)
// with its surest of the later ones, within tolerance (relative; 0: 10
// %). Nil where no mix was measured in both.
func RepeatOf(bs []*results.Benchmark, tolerance float64) *DrawRepeat {
	if tolerance <= 0 {
		tolerance = 0.10
	}
	var first, later []*results.Benchmark
	for _, b := range bs {
		x := b.Portlab
		if x == nil || x.Kind != RandomMixKind || b.Error != "" || len(b.Measurements) == 0 {
			continue
		}
		if x.Round >= 2 {
			later = append(later, b)
		} else {
			first = append(first, b)
		}
	}
	key := func(b *results.Benchmark) string { return b.Portlab.Host + "|" + b.Portlab.ID }
	a := map[string]float64{}
	for _, b := range results.Cleanest(first) {
		if b.Portlab.Median > 0 {
			a[key(b)] = b.Portlab.Median
		}
	}
	n, within := 0, 0
	for _, b := range results.Cleanest(later) {
		x, ok := a[key(b)]
		y := b.Portlab.Median
		if !ok || y <= 0 {
			continue
		}
		n++
		if math.Abs(x-y) <= tolerance*math.Min(x, y) {
			within++
		}
	}
	if n == 0 {
		return nil
	}
	return &DrawRepeat{N: n, Within: float64(within) / float64(n), Tolerance: tolerance}
}
