package perf

import (
	"math"
	"strings"
	"testing"
)

func cleanRep(v float64) Rep {
	return Rep{Value: v, TicksPerCycle: 0.7, LatCanary: 3.0, TpCanary: 0.2, HaveSoftware: true}
}

func TestMarkDisturbed(t *testing.T) {
	reps := []Rep{cleanRep(1), cleanRep(1.01), cleanRep(0.99), cleanRep(1), cleanRep(1), cleanRep(1), cleanRep(1)}
	reps[1].ContextSwitches = 2
	reps[2].LatCanary = 3.1
	reps[3].TpCanary = 0.25
	reps[4].CalibrationDrift = 0.02
	reps[5].Migrations = 1
	MarkDisturbed(reps, 0)
	want := []string{"", "2 context switch(es)", "latency canary 3.100 (want 3.0)", "throughput canary 0.250, 25% above the quiet value 0.200 (busy SMT sibling?)",
		"core clock drifted 2.0% within the repetition", "migrated to another CPU", ""}
	for i, r := range reps {
		if r.Reason != want[i] || r.Disturbed != (want[i] != "") {
			t.Errorf("rep %d: disturbed=%v reason %q, want %q", i, r.Disturbed, r.Reason, want[i])
		}
	}
	if CountClean(reps) != 2 {
		t.Errorf("clean = %d, want 2", CountClean(reps))
	}
}

func TestSummarize(t *testing.T) {
	var reps []Rep
	for _, v := range []float64{3.0, 3.01, 2.99, 3.02, 2.98} {
		reps = append(reps, cleanRep(v))
	}
	reps = append(reps, Rep{Value: 9, TicksPerCycle: 0.7, LatCanary: 3.5, TpCanary: 0.2})
	MarkDisturbed(reps, 0)
	s := Summarize(reps)
	if s.Clean != 5 || s.Reps != 6 || s.Value.Median != 3.0 || s.Value.Min != 2.98 || s.Value.Max != 3.02 {
		t.Errorf("summary %+v", s)
	}
	if math.Abs(s.CyclesPerTick.Median-1/0.7) > 1e-9 {
		t.Errorf("cycles per tick %v", s.CyclesPerTick)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("unexpected warnings %v", s.Warnings)
	}
	// Mostly disturbed: a warning that says why.
	for i := 0; i < 6; i++ {
		reps = append(reps, Rep{Value: 4, TicksPerCycle: 0.7, LatCanary: 3, TpCanary: 0.2, ContextSwitches: 1})
	}
	MarkDisturbed(reps, 0)
	s = Summarize(reps)
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "only 5 of 12 repetitions were clean") || !strings.Contains(s.Warnings[0], "context switches: 6") {
		t.Errorf("warnings %v", s.Warnings)
	}
}

func TestStats(t *testing.T) {
	s := NewStats([]float64{4, 1, 3, 2})
	if s.Median != 2.5 || s.Min != 1 || s.Max != 4 || s.N != 4 {
		t.Errorf("%+v", s)
	}
	if got := s.Scale(2); got.Median != 5 || got.Max != 8 {
		t.Errorf("scale %+v", got)
	}
	if e := NewStats(nil); !math.IsNaN(e.Median) || e.N != 0 {
		t.Errorf("empty %+v", e)
	}
}

// A run that was disturbed throughout is caught by the host's quiet baseline.
func TestMarkDisturbedBaseline(t *testing.T) {
	reps := []Rep{cleanRep(1), cleanRep(1), cleanRep(1)}
	for i := range reps {
		reps[i].TpCanary = 0.24
	}
	MarkDisturbed(reps, 0)
	if CountClean(reps) != 3 {
		t.Error("without a baseline a uniformly slow run looks clean")
	}
	MarkDisturbed(reps, 0.2)
	if CountClean(reps) != 0 {
		t.Error("with the quiet baseline 0.2 a run at 0.24 is disturbed")
	}
}

// An implausible canary value never becomes the baseline, and a stored
// one is ignored; a new minimum needs three quiet jobs that agree; a job
// whose latency canary is off, or whose canaries scatter, is no evidence.
func TestBaselinePlausible(t *testing.T) {
	quiet := func(v float64) []float64 { return []float64{v, v, v * 1.001, v * 0.999, v, v * 1.002} }
	b := &Baseline{}
	b.Observe(quiet(0.05), 3)
	if b.Get() != 0 {
		t.Errorf("baseline %v from an impossible canary", b.Get())
	}
	b.Observe(quiet(0.250), 3)
	b.Observe(quiet(0.251), 3)
	if b.Get() != 0 {
		t.Errorf("baseline %v from two observations", b.Get())
	}
	b.Observe(quiet(0.2505), 3.01)
	if got := b.Get(); got != 0.251 {
		t.Errorf("baseline %v, want 0.251 (the largest of three agreeing jobs)", got)
	}
	// Disturbed jobs, as seen on a Zen 3 guest beside a busy sibling: their
	// canaries scatter, so none is evidence even when several are low.
	for _, v := range []float64{0.13, 0.131, 0.1305, 0.07} {
		b.Observe([]float64{v, v * 0.6, v * 1.4, v * 0.9, v * 1.2, v}, 3)
	}
	if got := b.Get(); got != 0.251 {
		t.Errorf("scattered fast jobs moved the baseline to %v", got)
	}
	// Two quiet but lower jobs are not enough; a third agreeing one is.
	b.Observe(quiet(0.2), 3)
	b.Observe(quiet(0.2), 3)
	if got := b.Get(); got != 0.251 {
		t.Errorf("two jobs moved the baseline to %v", got)
	}
	b.Observe(quiet(0.2), 2.5) // its clock was wrong
	if got := b.Get(); got != 0.251 {
		t.Errorf("a job with a wrong latency canary moved the baseline to %v", got)
	}
	b.Observe(quiet(0.201), 3)
	if got := b.Get(); got != 0.201 {
		t.Errorf("three agreeing quiet jobs should set the baseline: %v", got)
	}
	b.Observe(quiet(0.2)[:4], 3) // too few clean repetitions
	b.TpMin = 0.0589             // a poisoned file
	if b.Get() != 0 {
		t.Error("a stored implausible baseline must be ignored")
	}
	b.Observe(quiet(0.21), 3)
	if got := b.Get(); got != 0.201 {
		t.Errorf("after a poisoned file the confirmed observations rule: %v", got)
	}
}

// A repetition whose throughput canary ran faster than the host's quiet
// value was disturbed too: the short body's first length was slowed.
func TestCanaryBelowBaseline(t *testing.T) {
	reps := []Rep{
		{Value: 1, TicksPerCycle: 1, LatCanary: 3, TpCanary: 0.25},
		{Value: 1, TicksPerCycle: 1, LatCanary: 3, TpCanary: 0.09},
		{Value: 1, TicksPerCycle: 1, LatCanary: 3, TpCanary: 0.249},
	}
	MarkDisturbed(reps, 0.25)
	if CountClean(reps) != 2 || !reps[1].Disturbed {
		t.Errorf("want only the 0.09 canary disturbed: %+v", reps)
	}
	if got := CleanTpCanaries(reps); len(got) != 2 || got[0] != 0.25 || got[1] != 0.249 {
		t.Errorf("clean canaries %v", got)
	}
}

// Quiet jobs are remembered across runs: three runs of one job each build
// a baseline.
func TestBaselineAcrossRuns(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for run, want := range []float64{0, 0, 0.2502} {
		b := LoadBaseline("test-host")
		if b.path == "" {
			t.Skip("no user cache directory")
		}
		v := 0.25 + 0.0001*float64(run)
		b.Observe([]float64{v, v, v, v, v}, 3)
		if got := b.Get(); got != want {
			t.Errorf("run %d: baseline %v, want %v", run, got, want)
		}
		if err := b.Save(); err != nil {
			t.Fatal(err)
		}
	}
}
