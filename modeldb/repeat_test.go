package modeldb

import (
	"math"
	"strings"
	"testing"

	"portlab/results"
)

// RepeatOf pairs each validation mix's surest first-round result with
// its surest later one and counts those within 10 % of each other; other
// kinds, failed results and mixes measured once do not count.
func TestRepeatOf(t *testing.T) {
	res := func(id, kind string, round int, median float64, converged bool) *results.Benchmark {
		c := converged
		return &results.Benchmark{
			Measurements: []results.Measurement{{Key: "inverse_throughput", Value: median}},
			Portlab:      &results.Extra{ID: id, Kind: kind, Round: round, Median: median, Converged: &c, Reps: 11, Host: "h"},
		}
	}
	failed := res("d", RandomMixKind, 2, 1, true)
	failed.Error = "hung"
	bs := []*results.Benchmark{
		res("a", RandomMixKind, 0, 0.80, false), // noisy: the converged one below is surer
		res("a", RandomMixKind, 0, 1.00, true),
		res("a", RandomMixKind, 2, 1.08, true), // 8 % apart: within
		res("b", RandomMixKind, 0, 1.00, true),
		res("b", RandomMixKind, 2, 1.30, true), // 30 % apart
		res("c", RandomMixKind, 0, 1.00, true), // one round only
		res("d", RandomMixKind, 0, 1.00, true),
		failed,
		res("e", FitMixKind, 0, 1.00, true), // not the draw
		res("e", FitMixKind, 2, 2.00, true),
	}
	d := RepeatOf(bs, 0)
	if d == nil || d.N != 2 || math.Abs(d.Within-0.5) > 1e-9 {
		t.Fatalf("repeat %+v, want 2 mixes in both rounds, one within 10 %%", d)
	}
	if d := RepeatOf(bs[:4], 0); d == nil || d.N != 1 || d.Within != 1 {
		t.Errorf("with the noisy first result beside the converged one: %+v, want the converged one (within)", d)
	}
	if d := RepeatOf(bs[5:7], 0); d != nil {
		t.Errorf("one round only: %+v, want none", d)
	}
	if d := RepeatOf(bs, 0.35); d == nil || d.Within != 1 || d.Tolerance != 0.35 {
		t.Errorf("within 35 %%: %+v, want both mixes", d)
	}
	// EvaluateMixes carries it wherever it scores random mixes.
	m, err := Embedded("portlab-znver3.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	if r := EvaluateMixes(m, bs, 0.1, RandomMixesOnly); r.Repeat == nil || r.Repeat.N != 2 {
		t.Errorf("random mixes scored: repeat %+v, want the two mixes of both rounds", r.Repeat)
	}
	if r := EvaluateMixes(m, bs, 0.1, PortMixesOnly); r.Repeat != nil {
		t.Errorf("port mixes scored: repeat %+v, want none", r.Repeat)
	}
	// model eval's report says it where the results hold both rounds.
	r := &MixReport{Model: "m", N: 400, Within: 192, Tolerance: 0.1, Repeat: &DrawRepeat{N: 400, Within: 0.695, Tolerance: 0.1}}
	if s := r.Summary(0); !strings.Contains(s, "the draw's two rounds agree within 10.0% of each other on 69.5% of 400 mixes") {
		t.Errorf("summary:\n%s", s)
	}
}
