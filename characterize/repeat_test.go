package characterize

import (
	"math"
	"strings"
	"testing"

	"portlab/modeldb"
	"portlab/results"
)

// drawRepeat pairs each validation mix's surest first-round result with
// its surest later one and counts those within 10 % of each other; other
// kinds, failed results and mixes measured once do not count.
func TestDrawRepeat(t *testing.T) {
	res := func(id, kind string, round int, median float64, converged bool) *results.Benchmark {
		c := converged
		return &results.Benchmark{
			Measurements: []results.Measurement{{Key: "inverse_throughput", Value: median}},
			Portlab:      &results.Extra{ID: id, Kind: kind, Round: round, Median: median, Converged: &c, Reps: 11, Host: "h"},
		}
	}
	failed := res("d", modeldb.RandomMixKind, 2, 1, true)
	failed.Error = "hung"
	bs := []*results.Benchmark{
		res("a", modeldb.RandomMixKind, 0, 0.80, false), // noisy: the converged one below is surer
		res("a", modeldb.RandomMixKind, 0, 1.00, true),
		res("a", modeldb.RandomMixKind, 2, 1.08, true), // 8 % apart: within
		res("b", modeldb.RandomMixKind, 0, 1.00, true),
		res("b", modeldb.RandomMixKind, 2, 1.30, true), // 30 % apart
		res("c", modeldb.RandomMixKind, 0, 1.00, true), // one round only
		res("d", modeldb.RandomMixKind, 0, 1.00, true),
		failed,
		res("e", modeldb.FitMixKind, 0, 1.00, true), // not the draw
		res("e", modeldb.FitMixKind, 2, 2.00, true),
	}
	d := drawRepeat(bs)
	if d == nil || d.N != 2 || math.Abs(d.Within-0.5) > 1e-9 {
		t.Fatalf("repeat %+v, want 2 mixes in both rounds, one within 10 %%", d)
	}
	if d := drawRepeat(bs[:4]); d == nil || d.N != 1 || d.Within != 1 {
		t.Errorf("with the noisy first result beside the converged one: %+v, want the converged one (within)", d)
	}
	if d := drawRepeat(bs[5:7]); d != nil {
		t.Errorf("one round only: %+v, want none", d)
	}
	var text strings.Builder
	WriteText(&text, &Report{Host: "h", Mixes: []MixScore{{Model: "m", N: 400, Within: 0.48}}, DrawRepeat: &DrawRepeat{N: 400, Within: 0.698}})
	if !strings.Contains(text.String(), "the draw's two rounds (before and after the mixes) agree within 10 % on 69.8 % of 400 mixes") {
		t.Errorf("report:\n%s", text.String())
	}
}
