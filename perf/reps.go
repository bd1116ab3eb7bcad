package perf

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Rep is one repetition of a measurement: the measured value in cycles and
// what the guards saw while it ran.
type Rep struct {
	Value float64 // cycles per snippet iteration
	// TicksPerCycle is TSC ticks per core cycle from the calibration chain
	// (the mean of the chain timed before and after the measured code).
	TicksPerCycle float64
	// CalibrationDrift is the relative difference between the two
	// calibrations: the core clock moved during the repetition.
	CalibrationDrift float64
	LatCanary        float64 // cycles per instruction of the latency canary (expect LatCanaryExpected)
	TpCanary         float64 // cycles per instruction of the throughput canary
	ContextSwitches  uint64
	Migrations       uint64
	HaveSoftware     bool // the software counters were read

	Disturbed bool
	Reason    string // why the repetition was dropped
}

// Guard thresholds.
const (
	// LatCanaryExpected is the latency of imul r64, r64 on every x86-64 core
	// since Core 2 and K10.
	LatCanaryExpected = 3.0
	// LatCanaryTolerance is how far (relative) the latency canary may be off.
	LatCanaryTolerance = 0.02
	// TpCanaryTolerance is how far (relative) above the median of the run the
	// throughput canary may be: a busy SMT sibling slows it.
	TpCanaryTolerance = 0.05
	// DriftTolerance is the largest calibration drift within a repetition.
	DriftTolerance = 0.01
)

// MarkDisturbed flags repetitions that a guard rejects: a context switch or
// migration, a latency canary off its known value, a throughput canary slower
// than the run's median or off the host's quiet value either way, or a core
// clock that moved between the two calibrations.
//
// baseline is the fastest throughput canary this host has shown when quiet
// (0 = unknown): a repetition whose canary is more than TpCanaryTolerance
// above it ran beside a busy SMT sibling, even if every repetition of the
// run did. Without a baseline the run's own median stands in.
func MarkDisturbed(reps []Rep, baseline float64) {
	var tps []float64
	for _, r := range reps {
		tps = append(tps, r.TpCanary)
	}
	tpMed := NewStats(tps).Median
	if baseline > 0 && baseline < tpMed {
		tpMed = baseline
	}
	for i := range reps {
		r := &reps[i]
		switch {
		case r.ContextSwitches > 0:
			r.Disturbed, r.Reason = true, fmt.Sprintf("%d context switch(es)", r.ContextSwitches)
		case r.Migrations > 0:
			r.Disturbed, r.Reason = true, "migrated to another CPU"
		case math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || r.TicksPerCycle <= 0:
			r.Disturbed, r.Reason = true, "invalid timing"
		case math.Abs(r.LatCanary-LatCanaryExpected)/LatCanaryExpected > LatCanaryTolerance:
			r.Disturbed, r.Reason = true, fmt.Sprintf("latency canary %.3f (want %.1f)", r.LatCanary, LatCanaryExpected)
		case tpMed > 0 && (r.TpCanary-tpMed)/tpMed > TpCanaryTolerance:
			r.Disturbed, r.Reason = true, fmt.Sprintf("throughput canary %.3f, %.0f%% above the quiet value %.3f (busy SMT sibling?)", r.TpCanary, 100*(r.TpCanary-tpMed)/tpMed, tpMed)
		case baseline > 0 && (baseline-r.TpCanary)/baseline > TpCanaryTolerance:
			// Faster than the machine can run it: the short canary body's
			// first length was slowed (an interruption, a busy sibling), so
			// the difference of the two lengths came out small. The
			// snippet's two lengths ran under the same disturbance.
			r.Disturbed, r.Reason = true, fmt.Sprintf("throughput canary %.3f, %.0f%% below the quiet value %.3f (its timing was disturbed)", r.TpCanary, 100*(baseline-r.TpCanary)/baseline, baseline)
		case r.CalibrationDrift > DriftTolerance:
			r.Disturbed, r.Reason = true, fmt.Sprintf("core clock drifted %.1f%% within the repetition", 100*r.CalibrationDrift)
		}
	}
}

// CleanTpCanaries returns the throughput canaries of the undisturbed
// repetitions.
func CleanTpCanaries(reps []Rep) []float64 {
	var v []float64
	for _, r := range reps {
		if !r.Disturbed {
			v = append(v, r.TpCanary)
		}
	}
	return v
}

// CountClean returns the number of undisturbed repetitions.
func CountClean(reps []Rep) int {
	n := 0
	for _, r := range reps {
		if !r.Disturbed {
			n++
		}
	}
	return n
}

// Canaries summarises the canaries over clean repetitions.
type Canaries struct {
	Latency    Stats // imul chain, cycles per instruction
	Throughput Stats // independent adds, cycles per instruction
}

// Summary is the outcome of a measurement's repetitions.
type Summary struct {
	Value         Stats // over clean repetitions (all, when none was clean)
	CyclesPerTick Stats
	Canaries      Canaries
	Reps, Clean   int
	Warnings      []string
	Reasons       map[string]int // why repetitions were dropped
}

// Summarize computes the statistics of the clean repetitions and the
// warnings a user should see.
func Summarize(reps []Rep) Summary {
	s := Summary{Reps: len(reps), Reasons: map[string]int{}}
	var vals, cpt, lat, tp []float64
	for _, r := range reps {
		if r.Disturbed {
			s.Reasons[reasonClass(r.Reason)]++
			continue
		}
		vals = append(vals, r.Value)
		cpt = append(cpt, 1/r.TicksPerCycle)
		lat = append(lat, r.LatCanary)
		tp = append(tp, r.TpCanary)
	}
	s.Clean = len(vals)
	if s.Clean == 0 {
		for _, r := range reps {
			vals = append(vals, r.Value)
			if r.TicksPerCycle > 0 {
				cpt = append(cpt, 1/r.TicksPerCycle)
			}
			lat = append(lat, r.LatCanary)
			tp = append(tp, r.TpCanary)
		}
		s.Warnings = append(s.Warnings, fmt.Sprintf("no clean repetition of %d (%s): the value is unreliable", len(reps), reasonList(s.Reasons)))
	} else if s.Clean*2 < s.Reps {
		s.Warnings = append(s.Warnings, fmt.Sprintf("only %d of %d repetitions were clean (%s): the machine is noisy", s.Clean, s.Reps, reasonList(s.Reasons)))
	}
	s.Value = NewStats(vals)
	s.CyclesPerTick = NewStats(cpt)
	s.Canaries = Canaries{Latency: NewStats(lat), Throughput: NewStats(tp)}
	return s
}

func reasonClass(r string) string {
	switch {
	case len(r) == 0:
		return "unknown"
	case contains(r, "context switch"):
		return "context switches"
	case contains(r, "latency canary"):
		return "latency canary"
	case contains(r, "throughput canary"):
		return "throughput canary"
	case contains(r, "drift"):
		return "clock drift"
	}
	return r
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func reasonList(m map[string]int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := ""
	for i, k := range keys {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s: %d", k, m[k])
	}
	return out
}
