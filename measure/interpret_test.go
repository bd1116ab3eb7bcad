package measure

import (
	"math"
	"testing"

	"portlab/jit"
	"portlab/perf"
)

// fakeJob lays out a one-snippet job as buildJob does (shared functions,
// then the snippet's short and long body) without assembling anything.
func fakeJob() (*prepared, *jobLayout) {
	p := &prepared{s: &Snippet{Name: "fake"}, copies: 100, instrs: 1}
	job := &jit.Job{}
	for k := 0; k < nShared; k++ {
		job.Funcs = append(job.Funcs, jit.Func{Group: k / 2, Mult: 1})
	}
	job.Funcs = append(job.Funcs, jit.Func{Group: sharedGroups, Mult: 1}, jit.Func{Group: sharedGroups, Mult: 1})
	job.Schedule = []int{fCalibN, fCalib2N, nShared, nShared + 1, fLatN, fLat2N, fTpN, fTp2N, fVecN, fVec2N, fLdN, fLd2N, fCalibN, fCalib2N}
	return p, &jobLayout{job: job, funcs: [][]int{{nShared, nShared + 1}}}
}

// With hardware cycle counts the value comes from the counters, not from
// the TSC: here the TSC says 2 cycles per instruction but the counters 3.
func TestInterpretHardwareCycles(t *testing.T) {
	p, l := fakeJob()
	const count = 10
	res := &jit.Result{Counts: []uint64{count, count, count, count, count, count}}
	// ticks at 2 ticks/cycle; the snippet 2 cycles per copy by the TSC.
	ticks := []uint64{
		2 * calibCopies * count, 2 * 2 * calibCopies * count, // calibration: 1 cycle per add
		2 * 2 * 100 * count, 2 * 2 * 200 * count, // snippet: 2 cycles
		2 * 3 * latCopies * count, 2 * 3 * 2 * latCopies * count, // imul: 3
		2 * 32 * count, 2 * 64 * count, // adds: 0.25
		2 * 48 * count, 2 * 96 * count, // por: 0.25
		2 * 64 * count, 2 * 128 * count, // loads: 1/3
		2 * calibCopies * count, 2 * 2 * calibCopies * count,
	}
	cycles := []uint64{
		calibCopies * count, 2 * calibCopies * count,
		3 * 100 * count, 3 * 200 * count, // the counters: 3 cycles
		3 * latCopies * count, 3 * 2 * latCopies * count,
		32 * count, 64 * count,
		48 * count, 96 * count,
		64 * count, 128 * count,
		calibCopies * count, 2 * calibCopies * count,
	}
	for r := 0; r < 5; r++ {
		res.Ticks = append(res.Ticks, ticks)
		res.Cycles = append(res.Cycles, cycles)
		res.ContextSwitches = append(res.ContextSwitches, 0)
		res.Migrations = append(res.Migrations, 0)
	}
	ts, lay, clock := interpret(p, l, 0, res, Options{Repetition: MiddleHalfDuplicate})
	if clock.Source != perf.HardwareCycles {
		t.Errorf("clock %q, want hardware cycles", clock.Source)
	}
	est := lay.Estimate(ts)
	if math.Abs(est.Value-3) > 1e-9 || math.Abs(est.LatCanary-3) > 1e-9 || est.Disturbed != 0 || est.Uncertainty > 1e-9 {
		t.Fatalf("estimate %+v: want 3 cycles per copy from the counters, latency canary 3, no uncertainty", est)
	}
	// An integer snippet in registers: the vector and load canaries are
	// measured but do not judge it; a vector load judged by both.
	if lay.VecSpan != 0 || lay.LdSpan != 0 || est.VecCanary != 0 || est.LdCanary != 0 || ts[0].Vec[1] == 0 || ts[0].Ld[1] == 0 {
		t.Errorf("integer snippet: layout %+v, canaries %v %v, timing %+v: want the vector and load points recorded, not judged", lay, est.VecCanary, est.LdCanary, ts[0])
	}
	p.vec, p.mem = true, true
	ts, lay, _ = interpret(p, l, 0, res, Options{Repetition: MiddleHalfDuplicate})
	est = lay.Estimate(ts)
	if math.Abs(est.VecCanary-0.25) > 1e-9 || math.Abs(est.LdCanary-1.0/3) > 1e-9 {
		t.Errorf("vector load: canaries %v %v, want 0.25 a por and 1/3 a load", est.VecCanary, est.LdCanary)
	}
	p.vec, p.mem = false, false
	// Without counters the same job reads the TSC: 2 cycles.
	res.Cycles = nil
	ts, lay, clock = interpret(p, l, 0, res, Options{Repetition: MiddleHalfDuplicate})
	est = lay.Estimate(ts)
	if clock.Source != perf.CalibratedTSC || math.Abs(est.Value-2) > 1e-9 || math.Abs(est.CyclesPerTick-0.5) > 1e-9 {
		t.Errorf("TSC: clock %q estimate %+v", clock.Source, est)
	}
	// A context switch marks the repetition disturbed.
	res.ContextSwitches[2] = 1
	ts, lay, _ = interpret(p, l, 0, res, Options{Repetition: MiddleHalfDuplicate})
	if est := lay.Estimate(ts); est.Disturbed != 1 {
		t.Errorf("%d disturbed repetitions, want 1", est.Disturbed)
	}
}

// The frequency probe is reported (not applied) for a function that ran at
// a different clock.
func TestInterpretFrequencyProbe(t *testing.T) {
	p, l := fakeJob()
	const count = 10
	res := &jit.Result{Counts: []uint64{count, count, count, count, count, count}}
	for r := 0; r < 5; r++ {
		res.Ticks = append(res.Ticks, []uint64{
			calibCopies * count, 2 * calibCopies * count,
			300 * count, 600 * count,
			3 * latCopies * count, 3 * 2 * latCopies * count,
			32 * count, 64 * count,
			48 * count, 96 * count,
			64 * count, 128 * count,
			calibCopies * count, 2 * calibCopies * count,
		})
		// The snippet's probe took 25% more ticks; one calibration probe
		// was interrupted (an interruption only adds ticks).
		res.Tail = append(res.Tail, []uint64{16000, 16000, 20000, 20000, 16000, 16000, 16000, 16000, 16000, 16000, 16000, 16000, 16000, 90000})
	}
	ts, lay, clock := interpret(p, l, 0, res, Options{Repetition: MiddleHalfDuplicate})
	if v := lay.Estimate(ts).Value; math.Abs(clock.FrequencyFactor-1.25) > 1e-9 || math.Abs(v-3) > 1e-9 {
		t.Errorf("factor %v value %v, want 1.25 reported and the value 3 untouched", clock.FrequencyFactor, v)
	}
}
