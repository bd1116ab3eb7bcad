package perf

import (
	"math"
	"math/rand/v2"
)

// Noise describes synthetic noise of the kinds seen on shared hosts, for
// testing estimators where no noisy host is at hand. Times are in
// microseconds of the simulated run.
type Noise struct {
	// Interrupts: a mean of one every InterruptEvery us, each adding an
	// exponentially distributed InterruptMean us to the call it lands in.
	InterruptEvery, InterruptMean float64
	// ClockSteps: the core clock changes level after exponentially
	// distributed stretches of mean ClockDwell us, within repetitions as
	// well as between them; a level is the fastest clock half the time and
	// up to ClockSlow (fraction) slower otherwise.
	ClockDwell, ClockSlow float64
	// Sibling: a neighbour on the core's other hardware thread, busy for
	// stretches of mean SiblingOn us and idle for SiblingOff us; while
	// busy it slows throughput-bound code by a fraction drawn from
	// [SiblingMin, SiblingMax] per stretch, latency chains by a tenth of
	// that.
	SiblingOn, SiblingOff  float64
	SiblingMin, SiblingMax float64
	// VectorOn, VectorOff, VectorMin, VectorMax: a neighbour's vector
	// work, in stretches of its own, that slows vector code (SynthCode.
	// Vector, the vector canary) and leaves the ALUs alone, as on the Zen
	// 3 guest (docs/method.md, "Three throughput canaries").
	VectorOn, VectorOff  float64
	VectorMin, VectorMax float64
}

// SynthCode is the code a synthetic benchmark times: Cycles per snippet
// copy, spread over Instructions; Throughput says whether a busy sibling
// slows it (throughput-bound code) or barely (a latency chain).
type SynthCode struct {
	Cycles       float64
	Instructions int
	Throughput   bool
	// Vector: the code runs on the vector units (a vector neighbour slows
	// it, and the vector canary judges it).
	Vector bool
}

// Synthesizer simulates a job's schedule on a noisy core: the
// calibration chain, the canaries and the snippet at two lengths, each
// point the fewest ticks of its calls per loop count, as the worker
// reports them. It exists for tests and benchmarks of estimators.
type Synthesizer struct {
	Noise Noise
	Code  SynthCode
	// TicksPerCycle at the fastest clock (default 0.7), Calls per point
	// (default 3), CallUS the length of one call in us (default 20),
	// Overhead the cycles of a call outside its body per loop count
	// (default 12).
	TicksPerCycle float64
	Calls         int
	CallUS        float64
	Overhead      float64

	rng       *rand.Rand
	now       float64 // us
	clock     struct{ until, slow float64 }
	sib, vsib stretch
	nextIRQ   float64
}

// NewSynthesizer returns a synthesizer seeded with seed.
func NewSynthesizer(n Noise, code SynthCode, seed uint64) *Synthesizer {
	s := &Synthesizer{Noise: n, Code: code, TicksPerCycle: 0.7, Calls: 3, CallUS: 20, Overhead: 12,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	s.nextIRQ = s.exp(n.InterruptEvery)
	return s
}

func (s *Synthesizer) exp(mean float64) float64 {
	if mean <= 0 {
		return math.Inf(1)
	}
	return s.rng.ExpFloat64() * mean
}

// advance moves the simulated time on and returns the clock and sibling
// state at the new time.
func (s *Synthesizer) state() (clockSlow, sibling float64) {
	n := s.Noise
	for n.ClockDwell > 0 && s.now >= s.clock.until {
		s.clock.until = s.now + s.exp(n.ClockDwell)
		s.clock.slow = 0
		if s.rng.IntN(2) == 1 {
			s.clock.slow = s.rng.Float64() * n.ClockSlow
		}
	}
	s.advance(&s.sib, n.SiblingOn, n.SiblingOff, n.SiblingMin, n.SiblingMax)
	s.advance(&s.vsib, n.VectorOn, n.VectorOff, n.VectorMin, n.VectorMax)
	return s.clock.slow, s.sib.slow
}

// stretch is a neighbour's busy or idle stretch and how much it slows
// the code it concerns.
type stretch struct {
	until, slow float64
	busy        bool
}

// advance moves a neighbour's stretches on to the simulated time: busy
// for a mean of on us, slowing by a fraction in [lo, hi], idle for off.
func (s *Synthesizer) advance(st *stretch, on, off, lo, hi float64) {
	for on > 0 && s.now >= st.until {
		st.busy = !st.busy
		if st.busy {
			st.until = s.now + s.exp(on)
			st.slow = lo + s.rng.Float64()*(hi-lo)
		} else {
			st.until = s.now + s.exp(off)
			st.slow = 0
		}
	}
}

// point simulates the calls of one schedule point whose body takes cycles
// per loop count; throughput says how a busy sibling slows it.
func (s *Synthesizer) point(cycles float64, throughput bool) float64 {
	return s.unitPoint(cycles, throughput, false)
}

// unitPoint is point for code that may run on the vector units.
func (s *Synthesizer) unitPoint(cycles float64, throughput, vector bool) float64 {
	count := math.Max(1, math.Round(s.CallUS*1e3/(cycles+s.Overhead))) // ~1 GHz of cycles per us is near enough for sizing
	best := math.Inf(1)
	for range s.Calls {
		slow, sib := s.state()
		if !throughput {
			sib /= 10
		}
		if vector {
			sib = (1+sib)*(1+s.vsib.slow) - 1
		}
		ticks := (cycles + s.Overhead) * count * s.TicksPerCycle * (1 + slow) * (1 + sib)
		dur := ticks / s.TicksPerCycle / 1e3 // us at ~1 GHz: only the order matters
		for s.nextIRQ < s.now+dur {
			extra := s.exp(s.Noise.InterruptMean)
			ticks += extra * 1e3 * s.TicksPerCycle
			dur += extra
			s.nextIRQ += s.exp(s.Noise.InterruptEvery)
		}
		s.now += dur
		best = math.Min(best, ticks)
	}
	return best / count
}

// Layout is the layout of the synthetic jobs (the engine's spans, a
// middle-half duplicate body of 16 copies), the vector canary judging
// vector code.
func (s *Synthesizer) Layout() Layout {
	l := Layout{CalibSpan: 128, LatSpan: 64, TpSpan: 128, Span: 16, Differential: true}
	if s.Code.Vector {
		l.VecSpan = synthVecSpan
	}
	return l
}

// synthVecSpan is the vector canary's span in synthetic jobs (por at 0.25
// cycles).
const synthVecSpan = 192

// Rep simulates one repetition of the schedule.
func (s *Synthesizer) Rep() Timing {
	var t Timing
	l := s.Layout()
	calib := func(k int) [2]float64 {
		return [2]float64{s.point(l.CalibSpan, false), s.point(2*l.CalibSpan, false)}
	}
	t.Calib[0] = calib(0)
	v := s.Code.Vector
	t.Snip = [2]float64{s.unitPoint(l.Span*s.Code.Cycles, s.Code.Throughput, v), s.unitPoint(2*l.Span*s.Code.Cycles, s.Code.Throughput, v)}
	t.Lat = [2]float64{s.point(l.LatSpan*LatCanaryExpected, false), s.point(2*l.LatSpan*LatCanaryExpected, false)}
	t.Tp = [2]float64{s.point(l.TpSpan*0.25, true), s.point(2*l.TpSpan*0.25, true)}
	if v || s.Noise.VectorOn > 0 {
		t.Vec = [2]float64{s.unitPoint(synthVecSpan*0.25, true, true), s.unitPoint(2*synthVecSpan*0.25, true, true)}
	}
	t.Calib[1] = calib(1)
	return t
}

// Job simulates reps repetitions.
func (s *Synthesizer) Job(reps int) []Timing {
	out := make([]Timing, reps)
	for i := range out {
		out[i] = s.Rep()
	}
	return out
}
