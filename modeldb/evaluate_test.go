package modeldb

import (
	"maps"
	"testing"

	"portlab/results"
)

// A mix carries the machine code its newest result was measured with, for
// predictors that simulate it (analysis.MixSimulator); a result without
// code leaves what an earlier one gave.
func TestMixesKeepTheirMeasuredCode(t *testing.T) {
	res := func(date, code string) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", AssembledSnippet: code,
			Measurements: []results.Measurement{{Key: "inverse_throughput", Value: 0.5, PerSnippetValue: 1}},
			Portlab:      &results.Extra{Kind: RandomMixKind, Date: date, Mix: []results.MixPart{{Form: "add r64, r64", Count: 1}, {Form: "imul r64, r64", Count: 1}}}}
	}
	for _, c := range []struct {
		name string
		bs   []*results.Benchmark
		want string
	}{
		{"newest", []*results.Benchmark{res("2026-11-28T10:00:00Z", "4801C0"), res("2026-11-28T11:00:00Z", "480FAFC0")}, "480FAFC0"},
		{"newest first", []*results.Benchmark{res("2026-11-28T11:00:00Z", "480FAFC0"), res("2026-11-28T10:00:00Z", "4801C0")}, "480FAFC0"},
		{"newest without code", []*results.Benchmark{res("2026-11-28T10:00:00Z", "4801C0"), res("2026-11-28T11:00:00Z", "")}, "4801C0"},
	} {
		ms := CollectMeasurements(c.bs, CollectOptions{})
		if len(ms.RandomMixes) != 1 {
			t.Errorf("%s: %d mixes, want one", c.name, len(ms.RandomMixes))
		} else if got := ms.RandomMixes[0].Code; got != c.want {
			t.Errorf("%s: code %q, want %q", c.name, got, c.want)
		}
	}
}

// A mix is noisy when every result of it ended unconverged; one converged
// result makes it sure.
func TestMixesSayWhetherTheyConverged(t *testing.T) {
	yes, no := true, false
	res := func(count int, converged *bool) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput",
			Measurements: []results.Measurement{{Key: "inverse_throughput", Value: 0.5, PerSnippetValue: float64(count)}},
			Portlab: &results.Extra{Kind: "ports", Reps: 11, Converged: converged,
				Mix: []results.MixPart{{Form: "add r64, r64", Count: count}, {Form: "imul r64, r64", Count: 1}}}}
	}
	ms := CollectMeasurements([]*results.Benchmark{res(1, &no), res(2, &no), res(2, &yes), res(3, &yes)}, CollectOptions{})
	got := map[int]bool{} // by add count
	for _, mx := range ms.Mixes {
		for _, p := range mx.Parts {
			if p.Form == "add r64, r64" {
				got[p.Count] = mx.Noisy
			}
		}
	}
	if want := map[int]bool{1: true, 2: false, 3: false}; !maps.Equal(got, want) {
		t.Errorf("noisy by add count %v, want %v", got, want)
	}
}
