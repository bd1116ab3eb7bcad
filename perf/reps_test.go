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
// one is ignored; a new minimum needs two jobs; a job whose latency canary
// is off is no evidence.
func TestBaselinePlausible(t *testing.T) {
	b := &Baseline{}
	b.Observe(0.05, 3)
	if b.Get() != 0 {
		t.Errorf("baseline %v from an impossible canary", b.Get())
	}
	b.Observe(0.163, 3)
	if b.Get() != 0 {
		t.Errorf("baseline %v from one observation", b.Get())
	}
	b.Observe(0.165, 3.01)
	b.Observe(0.06, 3)
	if b.Get() != 0.165 {
		t.Errorf("baseline %v, want 0.165 (the second smallest plausible)", b.Get())
	}
	b.Observe(0.126, 3)
	if b.Get() != 0.163 {
		t.Errorf("one fast job set the baseline to %v, want 0.163 (the second smallest)", b.Get())
	}
	b.Observe(0.13, 2.5) // its clock was wrong
	if b.Get() != 0.163 {
		t.Errorf("a job with a wrong latency canary moved the baseline to %v", b.Get())
	}
	b.TpMin = 0.0589 // a poisoned file
	if b.Get() != 0 {
		t.Error("a stored implausible baseline must be ignored")
	}
	b.Observe(0.17, 3)
	if b.Get() != 0.163 {
		t.Errorf("after a poisoned file the confirmed observations rule: %v", b.Get())
	}
}
