package perf

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// Candidate estimators, compared with Layout.Estimate on the same
// repetitions. Each converts a repetition with its own calibration (the
// mean of the chain before and after it), as a per-repetition method must.

func repValues(l Layout, ts []Timing) (vals, lat, tp, drift []float64) {
	for _, t := range ts {
		k1 := (t.Calib[0][1] - t.Calib[0][0]) / l.CalibSpan
		k2 := (t.Calib[1][1] - t.Calib[1][0]) / l.CalibSpan
		k := (k1 + k2) / 2
		vals = append(vals, (t.Snip[1]-t.Snip[0])/k/l.Span)
		lat = append(lat, (t.Lat[1]-t.Lat[0])/k/l.LatSpan)
		tp = append(tp, (t.Tp[1]-t.Tp[0])/k/l.TpSpan)
		drift = append(drift, math.Abs(k1-k2)/k)
	}
	return
}

// medianClean drops repetitions whose canaries or calibration a guard
// rejects (latency canary off by 2 %, throughput canary 5 % above the
// job's median, drift over 1 %) and takes the median of the rest.
func medianClean(l Layout, ts []Timing) float64 {
	vals, lat, tp, drift := repValues(l, ts)
	tpMed := NewStats(tp).Median
	var keep []float64
	for i, v := range vals {
		if math.Abs(lat[i]/LatCanaryExpected-1) > 0.02 || tp[i] > tpMed*1.05 || drift[i] > 0.01 {
			continue
		}
		keep = append(keep, v)
	}
	if len(keep) == 0 {
		keep = vals
	}
	return NewStats(keep).Median
}

func minDiff(l Layout, ts []Timing) float64 {
	vals, _, _, _ := repValues(l, ts)
	return slices.Min(vals)
}

func quantile25(l Layout, ts []Timing) float64 {
	vals, _, _, _ := repValues(l, ts)
	slices.Sort(vals)
	return quantile(vals, 0.25)
}

func median(l Layout, ts []Timing) float64 {
	vals, _, _, _ := repValues(l, ts)
	return NewStats(vals).Median
}

// quantile returns the q-quantile of sorted values (linear interpolation).
func quantile(sorted []float64, q float64) float64 {
	pos := q * float64(len(sorted)-1)
	lo := int(pos)
	if lo+1 >= len(sorted) {
		return sorted[lo]
	}
	f := pos - float64(lo)
	return sorted[lo]*(1-f) + sorted[lo+1]*f
}

type candidate struct {
	name string
	est  func(Layout, []Timing) float64
}

var candidates = []candidate{
	{"floors", func(l Layout, ts []Timing) float64 { return l.Estimate(ts).Value }},
	{"median-clean", medianClean},
	{"median", median},
	{"q25", quantile25},
	{"min-of-differences", minDiff},
}

type scenario struct {
	name  string
	noise Noise
	code  SynthCode
}

var scenarios = []scenario{
	{"quiet", Noise{}, SynthCode{Cycles: 4, Instructions: 16, Throughput: true}},
	{"interrupts", Noise{InterruptEvery: 300, InterruptMean: 8}, SynthCode{Cycles: 4, Instructions: 16, Throughput: true}},
	{"clock steps", Noise{ClockDwell: 1500, ClockSlow: 0.04}, SynthCode{Cycles: 4, Instructions: 16, Throughput: true}},
	{"sibling, throughput", Noise{SiblingOn: 3000, SiblingOff: 1500, SiblingMin: 0.03, SiblingMax: 0.35}, SynthCode{Cycles: 4, Instructions: 16, Throughput: true}},
	{"sibling, latency", Noise{SiblingOn: 3000, SiblingOff: 1500, SiblingMin: 0.03, SiblingMax: 0.35}, SynthCode{Cycles: 48, Instructions: 16}},
	{"busy sibling, brief quiet", Noise{SiblingOn: 8000, SiblingOff: 400, SiblingMin: 0.05, SiblingMax: 0.35}, SynthCode{Cycles: 4, Instructions: 16, Throughput: true}},
	{"all at once", Noise{InterruptEvery: 300, InterruptMean: 8, ClockDwell: 1500, ClockSlow: 0.04, SiblingOn: 3000, SiblingOff: 1500, SiblingMin: 0.03, SiblingMax: 0.35}, SynthCode{Cycles: 4, Instructions: 16, Throughput: true}},
}

// adaptive runs jobs of 11 repetitions until the estimate converges (0.5 %
// or 0.002 cycles per instruction, the throughput canary within 3 % of the
// run's reference) or five jobs have run, as the engine does, and returns
// all the repetitions and whether it converged.
func adaptive(s *Synthesizer, instrs int, ref *CanaryReference) ([]Timing, bool) {
	var ts []Timing
	l := s.Layout()
	for range 5 {
		job := s.Job(11)
		ref.Note(l.Estimate(job))
		ts = append(ts, job...)
		e := l.Estimate(ts)
		if r := ref.Value(); e.Converged(0.005, 0.002*float64(instrs)) && (r == 0 || e.TpCanary <= r*1.03) {
			return ts, true
		}
	}
	return ts, false
}

type outcome struct {
	within1, within2 int
	errs             []float64
	// Of the draws the adaptive run called converged: how many, and how
	// many of those were more than 2 % off.
	converged, convergedOff int
}

// compare runs every candidate on the same synthetic repetitions of a
// scenario over seeds.
func compare(sc scenario, seeds int) (map[string]*outcome, float64, int) {
	out := map[string]*outcome{}
	for _, c := range candidates {
		out[c.name] = &outcome{}
	}
	reps, converged := 0, 0
	ref := &CanaryReference{}
	for seed := range seeds {
		s := NewSynthesizer(sc.noise, sc.code, uint64(seed)+1)
		ts, ok := adaptive(s, sc.code.Instructions, ref)
		reps += len(ts)
		if ok {
			converged++
		}
		truth := sc.code.Cycles
		for _, c := range candidates {
			e := math.Abs(c.est(s.Layout(), ts)/truth - 1)
			o := out[c.name]
			o.errs = append(o.errs, e)
			if e <= 0.01 {
				o.within1++
			}
			if e <= 0.02 {
				o.within2++
			}
			if ok {
				o.converged++
				if e > 0.02 {
					o.convergedOff++
				}
			}
		}
	}
	return out, float64(reps) / float64(seeds), converged
}

// TestEstimatorsSideBySide runs the candidate estimators on the same
// synthetic noisy repetitions and prints how often each lands within 1 %
// and 2 % of the truth (go test -run SideBySide -v). The floors estimator
// must be at least as good as every other candidate. Where the noise
// leaves quiet moments a third of the time or more, it must converge in at
// least 95 % of the draws and be within 2 % in at least 98 % of those it
// calls converged. Where the neighbour is busy all but 5 % of the time in
// brief gaps, it is the estimator's limit: floors of the snippet and of
// the canary come from different moments, and some converged estimates
// are off (6 % of 149 of 200 draws): there the test asks only that it say
// so more often than not (at least 10 % not converged).
func TestEstimatorsSideBySide(t *testing.T) {
	const seeds = 200
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s %-20s %8s %8s %9s\n", "scenario", "estimator", "<=1%", "<=2%", "p95 err")
	for _, sc := range scenarios {
		out, meanReps, conv := compare(sc, seeds)
		for _, c := range candidates {
			o := out[c.name]
			slices.Sort(o.errs)
			fmt.Fprintf(&b, "%-26s %-20s %7.1f%% %7.1f%% %8.2f%%\n", sc.name, c.name, 100*float64(o.within1)/seeds, 100*float64(o.within2)/seeds, 100*quantile(o.errs, 0.95))
		}
		fmt.Fprintf(&b, "%-26s floors used %.1f repetitions on average, converged in %d of %d (%d of those more than 2 %% off)\n", "", meanReps, conv, seeds, out["floors"].convergedOff)
		f := out["floors"]
		quiet := sc.noise.SiblingOn == 0 || sc.noise.SiblingOff*2 >= sc.noise.SiblingOn
		switch {
		case quiet && f.convergedOff*50 > f.converged:
			t.Errorf("%s: %d of %d converged floors estimates more than 2 %% off, want at most 2 %%", sc.name, f.convergedOff, f.converged)
		case quiet && conv < seeds*95/100:
			t.Errorf("%s: floors converged in %d of %d draws, want at least 95 %%", sc.name, conv, seeds)
		case !quiet && conv > seeds*90/100:
			t.Errorf("%s: floors converged in %d of %d draws of a nearly always busy neighbour, want at most 90 %%", sc.name, conv, seeds)
		}
		for _, c := range candidates[1:] {
			if out[c.name].within2 > f.within2 {
				t.Errorf("%s: %s within 2 %% in %d draws, floors in %d", sc.name, c.name, out[c.name].within2, f.within2)
			}
		}
	}
	t.Log("\n" + b.String())
}

func steadyRep(cycles float64) Timing {
	const k = 0.7 // ticks per cycle
	return Timing{
		Calib: [2][2]float64{{(128 + 12) * k, (256 + 12) * k}, {(128 + 12) * k, (256 + 12) * k}},
		Lat:   [2]float64{(192 + 12) * k, (384 + 12) * k},
		Tp:    [2]float64{(32 + 12) * k, (64 + 12) * k},
		Snip:  [2]float64{(16*cycles + 12) * k, (32*cycles + 12) * k},
	}
}

// The estimate takes each point's floor on its own: a repetition whose
// shorter body alone was slowed (which makes its own difference read
// fast) cannot pull the estimate below the truth, and one slowed longer
// body cannot push it above.
func TestEstimateFloorsEachPoint(t *testing.T) {
	l := Layout{CalibSpan: 128, LatSpan: 64, TpSpan: 128, Span: 16, Differential: true}
	var ts []Timing
	for range 6 {
		ts = append(ts, steadyRep(4))
	}
	ts[1].Snip[0] *= 1.3 // the short body interrupted: its difference reads 2.8
	ts[3].Snip[1] *= 1.3
	ts[4].ContextSwitches = 1
	e := l.Estimate(ts)
	if math.Abs(e.Value-4) > 1e-9 || e.Uncertainty > 1e-9 || math.Abs(e.LatCanary-3) > 1e-9 || math.Abs(e.TpCanary-0.25) > 1e-9 || math.Abs(e.CyclesPerTick-1/0.7) > 1e-9 {
		t.Errorf("estimate %+v: want 4 cycles per copy, no uncertainty, canaries 3 and 0.25", e)
	}
	if e.Disturbed != 3 || e.Values.Min >= 4 || e.Values.Max <= 4 {
		t.Errorf("%d disturbed, values %v: want 3 and a range around 4", e.Disturbed, e.Values)
	}
	if got := minDiff(l, ts); got >= 4*0.9 {
		t.Errorf("the minimum of differences reads %.2f: the case this guards against is gone", got)
	}
}

// One repetition says nothing about its floor: the uncertainty is
// infinite and the estimate never converged. A floor reached once and
// never again is uncertain by the distance to the next sample.
func TestEstimateUncertainty(t *testing.T) {
	l := Layout{CalibSpan: 128, LatSpan: 64, TpSpan: 128, Span: 16, Differential: true}
	one := l.Estimate([]Timing{steadyRep(4)})
	if !math.IsInf(one.Uncertainty, 1) || one.Converged(0.005, 0.01) {
		t.Errorf("one repetition: %+v, want infinite uncertainty", one)
	}
	ts := []Timing{steadyRep(4), steadyRep(4.4), steadyRep(4.4), steadyRep(4.4)}
	e := l.Estimate(ts)
	if math.Abs(e.Value-4) > 1e-9 || math.Abs(e.Uncertainty-1.2) > 1e-6 || e.Converged(0.005, 0.01) {
		t.Errorf("floor reached once: %+v, want 4 ± 1.2 (both lengths' next samples: 0.4 + 0.8), not converged", e)
	}
	// A clock conversion the latency canary contradicts adds to it.
	ts = []Timing{steadyRep(4), steadyRep(4)}
	for i := range ts {
		ts[i].Lat[1] *= 1.02
	}
	if e := l.Estimate(ts); e.Uncertainty < 0.01*4 || e.Converged(0.005, 0.01) {
		t.Errorf("latency canary off: %+v, want an uncertainty of at least 1 %%", e)
	}
}

// Hardware counters: the points are cycles, the calibration only gives
// cycles per tick.
func TestEstimateHardwareCycles(t *testing.T) {
	l := Layout{CalibSpan: 128, LatSpan: 64, TpSpan: 128, Span: 16, Differential: true, Hardware: true}
	r := steadyRep(4)
	r.Lat = [2]float64{192 + 12, 384 + 12}
	r.Tp = [2]float64{32 + 12, 64 + 12}
	r.Snip = [2]float64{16*5 + 12, 32*5 + 12}
	e := l.Estimate([]Timing{r, r, r})
	if math.Abs(e.Value-5) > 1e-9 || math.Abs(e.LatCanary-3) > 1e-9 || math.Abs(e.CyclesPerTick-1/0.7) > 1e-9 {
		t.Errorf("hardware: %+v", e)
	}
}

// The canary reference is the run's quiet canary: two jobs must agree
// before there is one, unsure jobs and jobs whose latency canary is off
// do not count, and in a long run a few jobs that read the canary too fast
// (as one in a thousand did on the Emerald Rapids guest, 0.193 for the
// ALUs' 0.200) do not become the reference.
func TestCanaryReferenceIsTheQuietCanary(t *testing.T) {
	sure := func(tp float64) Estimate { return Estimate{Reps: 11, TpCanary: tp, LatCanary: 3} }
	var r CanaryReference
	r.Note(sure(0.200))
	r.Note(Estimate{Reps: 11, TpCanary: 0.150, TpUncertainty: 0.01, LatCanary: 3}) // unsure
	r.Note(Estimate{Reps: 11, TpCanary: 0.150, LatCanary: 3.2})                    // clock conversion off
	if v := r.Value(); v != 0 {
		t.Fatalf("one sure job: reference %v, want none", v)
	}
	r.Note(sure(0.210))
	if v := r.Value(); v != 0.210 {
		t.Fatalf("two sure jobs: reference %v, want the second fastest, 0.210", v)
	}
	rng := rand.New(rand.NewSource(5))
	var long CanaryReference
	for i := range 20000 {
		tp := 0.200 + 0.001*rng.Float64() // quiet
		switch {
		case i%1000 == 7:
			tp = 0.190 + 0.005*rng.Float64() // read too fast
		case rng.Float64() < 0.7:
			tp = 0.205 + 0.05*rng.Float64() // a busy neighbour
		}
		long.Note(sure(tp))
	}
	if v := long.Value(); v < 0.200 || v > 0.201 {
		t.Errorf("20,000 jobs, 30 %% quiet at 0.200-0.201, 20 read too fast: reference %.4f, want the quiet canary", v)
	}
}

// The throughput canary must read the run's reference within
// SiblingSlack on both sides: slower is a busy sibling throughout, faster
// than the ALUs run twelve adds is a difference of floors taken at
// different moments (the shorter length never ran undisturbed).
func TestCanaryClearBothWays(t *testing.T) {
	for _, c := range []struct {
		tp, ref float64
		want    bool
	}{
		{0.200, 0, true},      // no reference yet
		{0.200, 0.200, true},  // quiet
		{0.205, 0.200, true},  // within the slack
		{0.195, 0.200, true},  // within the slack
		{0.210, 0.200, false}, // a busy sibling throughout
		{0.157, 0.200, false}, // floors from different moments
	} {
		if got := (Estimate{TpCanary: c.tp}).CanaryClear(References{Tp: c.ref}); got != c.want {
			t.Errorf("canary %.3f against the reference %.3f: clear %v, want %v", c.tp, c.ref, got, c.want)
		}
	}
}

// A repetition counts as busy when its throughput canary, at its own
// clock, runs more than SiblingSlack slower than the reference, or when
// it was switched out; a slower clock alone (calibration and canary
// slowed alike) is not a busy sibling.
func TestBusyShare(t *testing.T) {
	l := Layout{CalibSpan: 128, LatSpan: 64, TpSpan: 128, Span: 16, Differential: true}
	slowClock := func(r Timing, f float64) Timing {
		for i := range r.Calib {
			for j := range r.Calib[i] {
				r.Calib[i][j] *= f
			}
		}
		for j := range r.Tp {
			r.Tp[j] *= f
			r.Lat[j] *= f
			r.Snip[j] *= f
		}
		return r
	}
	busySibling := func(r Timing, f float64) Timing { r.Tp[1] *= f; return r }
	ts := []Timing{steadyRep(4), slowClock(steadyRep(4), 1.2), slowClock(steadyRep(4), 1.1), busySibling(steadyRep(4), 1.1)}
	if got := l.BusyShare(ts, References{Tp: 0.25}); math.Abs(got-0.25) > 1e-9 {
		t.Errorf("one slow canary in four: busy share %.3f, want 0.25 (slower clocks are not a sibling)", got)
	}
	ts[0].ContextSwitches = 1
	if got := l.BusyShare(ts, References{Tp: 0.25}); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("and one switched out: busy share %.3f, want 0.5", got)
	}
	// A job busy throughout: against its own floor it looks quiet, and
	// only the run's reference shows it.
	all := []Timing{busySibling(steadyRep(4), 1.1), busySibling(steadyRep(4), 1.1)}
	for i := range all {
		all[i].Tp[1] = (64 + 12) * 0.7 * 1.1
		all[i].Tp[0] = (32 + 12) * 0.7 * 1.1
	}
	if got := l.BusyShare(all, References{Tp: 0}); got != 0 {
		t.Errorf("busy throughout, no reference: %.3f, want 0", got)
	}
	if got := l.BusyShare(all, References{Tp: 0.25}); got != 1 {
		t.Errorf("busy throughout, against the reference: %.3f, want 1", got)
	}
	if got := l.BusyShare(nil, References{Tp: 0.25}); got != 0 {
		t.Errorf("no repetitions: %.3f", got)
	}
}

// A sibling that takes the vector units and leaves the ALUs alone: a
// vector snippet's job slowed throughout converges on its own floors with
// the adds clear, and only the vector canary, against the run's
// reference, says it ran beside a busy sibling. The same job judged as an
// integer snippet (no VecSpan) is clear; a slow load canary does not
// judge a snippet that touches no memory.
func TestVectorAndLoadCanaries(t *testing.T) {
	const k = 0.7 // ticks per cycle
	rep := func(vecSlow, ldSlow float64) Timing {
		r := steadyRep(4 * vecSlow)
		r.Vec = [2]float64{(48*vecSlow + 12) * k, (96*vecSlow + 12) * k} // 192 por, 0.25 a por quiet
		r.Ld = [2]float64{(64*ldSlow + 12) * k, (128*ldSlow + 12) * k}   // 192 loads, 1/3 a load quiet
		return r
	}
	vecLayout := Layout{CalibSpan: 128, LatSpan: 64, TpSpan: 128, VecSpan: 192, Span: 16, Differential: true}
	intLayout := vecLayout
	intLayout.VecSpan = 0
	refs := References{Tp: 0.25, Vec: 0.25, Ld: 1.0 / 3}
	var busy []Timing
	for range 11 {
		busy = append(busy, rep(1.2, 1.3))
	}
	e := vecLayout.Estimate(busy)
	if !e.Converged(0.005, 0) || math.Abs(e.Value-4.8) > 1e-6 || math.Abs(e.TpCanary-0.25) > 1e-9 || math.Abs(e.VecCanary-0.3) > 1e-9 || e.LdCanary != 0 {
		t.Fatalf("estimate %+v: want 4.8 converged on its own floors, the adds at 0.25, the vector canary 0.3, no load canary", e)
	}
	if e.CanaryClear(refs) {
		t.Errorf("vector canary %.3f against its reference %.3f: clear, want not", e.VecCanary, refs.Vec)
	}
	if s := e.SlowCanaries(refs); len(s) != 1 || !strings.HasPrefix(s[0], "vector 0.300 for 0.250") {
		t.Errorf("slow canaries %q, want the vector canary alone", s)
	}
	if got := vecLayout.BusyShare(busy, refs); got != 1 {
		t.Errorf("busy share %.3f with the vector canary judging, want 1", got)
	}
	if ei := intLayout.Estimate(busy); !ei.CanaryClear(refs) || ei.VecCanary != 0 {
		t.Errorf("integer layout: canaries %+v, want clear (the vector canary does not judge it)", ei)
	}
	if got := intLayout.BusyShare(busy, refs); got != 0 {
		t.Errorf("busy share %.3f judged by the adds alone, want 0", got)
	}
	// With the load canary judging as well, it is the second slow one.
	memLayout := vecLayout
	memLayout.LdSpan = 192
	if s := memLayout.Estimate(busy).SlowCanaries(refs); len(s) != 2 || !strings.HasPrefix(s[1], "loads 0.433 for 0.333") {
		t.Errorf("slow canaries %q, want the vector and the load canary", s)
	}
	// Quiet: every canary at its reference.
	var quiet []Timing
	for range 11 {
		quiet = append(quiet, rep(1, 1))
	}
	if e := memLayout.Estimate(quiet); !e.CanaryClear(refs) || memLayout.BusyShare(quiet, refs) != 0 {
		t.Errorf("quiet job: canaries %+v, want all clear", e)
	}
	// References are counted per canary, from sure jobs only.
	var r CanaryReferences
	for range 3 {
		r.Note(memLayout.Estimate(quiet))
	}
	r.Note(vecLayout.Estimate(quiet)) // no load canary: counts for the adds and the vector canary
	if v := r.Values(); math.Abs(v.Tp-0.25) > 1e-9 || math.Abs(v.Vec-0.25) > 1e-9 || math.Abs(v.Ld-1.0/3) > 1e-9 || r.Ld.Notes() != 3 || r.Vec.Notes() != 4 {
		t.Errorf("references %+v from %d, %d, %d notes: want 0.25, 0.25, 1/3 from 4, 4, 3", v, r.Tp.Notes(), r.Vec.Notes(), r.Ld.Notes())
	}
}

// A neighbour whose vector work comes and goes in stretches of
// milliseconds, slowing vector code by 5-30 % and leaving the ALUs alone:
// judged by the adds alone, a vector stream converges inside a busy
// stretch on floors that agree with each other and read slow; judged by
// the vector canary as well (the engine's rule for code that names vector
// registers), it converges far less often off the truth. Jobs of 11
// repetitions, up to five, as the engine runs them; the run's references
// from every job.
func TestVectorCanaryUnderAVectorNeighbour(t *testing.T) {
	const seeds = 300
	noise := Noise{VectorOn: 4000, VectorOff: 2000, VectorMin: 0.05, VectorMax: 0.30}
	code := SynthCode{Cycles: 4, Instructions: 16, Throughput: true, Vector: true}
	run := func(judge bool) (conv, off int) {
		var refs CanaryReferences
		for seed := range seeds {
			s := NewSynthesizer(noise, code, uint64(seed)+1)
			l := s.Layout()
			if !judge {
				l.VecSpan = 0
			}
			full := s.Layout()
			var ts []Timing
			for range 5 {
				job := s.Job(11)
				refs.Note(full.Estimate(job))
				ts = append(ts, job...)
				e := l.Estimate(ts)
				if e.Converged(0.005, 0.002*float64(code.Instructions)) && e.CanaryClear(refs.Values()) {
					conv++
					if math.Abs(e.Value/code.Cycles-1) > 0.02 {
						off++
					}
					break
				}
			}
		}
		return conv, off
	}
	aConv, aOff := run(false)
	vConv, vOff := run(true)
	t.Logf("adds alone: %d of %d converged, %d of those more than 2 %% off; with the vector canary: %d converged, %d off", aConv, seeds, aOff, vConv, vOff)
	if aOff*10 < aConv {
		t.Errorf("adds alone: %d of %d converged estimates more than 2 %% off; the scenario should fool them (at least 10 %%)", aOff, aConv)
	}
	if vOff*50 > vConv {
		t.Errorf("with the vector canary: %d of %d converged estimates more than 2 %% off, want at most 2 %%", vOff, vConv)
	}
	if vConv < seeds/2 {
		t.Errorf("with the vector canary: converged in %d of %d draws, want at least half", vConv, seeds)
	}
}
