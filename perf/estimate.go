package perf

import (
	"fmt"
	"math"
	"slices"
)

// Timing is one repetition of a job as the estimator sees it. Every point
// is the fewest TSC ticks (Calib always; the others hardware cycles when
// the host has counters) of the calls at that point, divided by the loop
// count of the point's group, so that repetitions of different jobs of
// one benchmark compare.
type Timing struct {
	// Calib is the calibration chain before and after the measured code,
	// each at its two lengths: [before, after][n, 2n].
	Calib [2][2]float64 `json:"calib"`
	Lat   [2]float64    `json:"lat"`  // latency canary at its two lengths
	Tp    [2]float64    `json:"tp"`   // throughput canary (integer adds) at its two lengths
	Snip  [2]float64    `json:"snip"` // the measured code at its two lengths (one in single-length modes)
	// Vec and Ld are the vector and load canaries at their two lengths,
	// in the repetitions of a snippet that they judge (Layout.VecSpan,
	// LdSpan; zero otherwise).
	Vec [2]float64 `json:"vec,omitzero"`
	Ld  [2]float64 `json:"ld,omitzero"`
	// Alt is min mode's loop variant at its one length (0 otherwise).
	Alt             float64 `json:"alt,omitempty"`
	ContextSwitches uint64  `json:"cs,omitempty"`
	Migrations      uint64  `json:"mig,omitempty"`
}

// Layout says how a job's points turn into cycles: the work between a
// point's two lengths per loop count.
type Layout struct {
	CalibSpan float64 `json:"calib_span"` // cycles of the calibration chain (adds of latency 1)
	LatSpan   float64 `json:"lat_span"`   // instructions of the latency canary (imul, latency LatCanaryExpected)
	TpSpan    float64 `json:"tp_span"`    // instructions of the throughput canary
	// VecSpan and LdSpan are the instructions of the vector and load
	// canaries, where they judge the snippet (it names vector registers,
	// it touches memory); 0 where they do not.
	VecSpan float64 `json:"vec_span,omitempty"`
	LdSpan  float64 `json:"ld_span,omitempty"`
	// Span is the snippet copies between Snip[0] and Snip[1]
	// (Differential), or in Snip[0] (single length); AltSpan those in
	// Alt.
	Span    float64 `json:"span"`
	AltSpan float64 `json:"alt_span,omitempty"`
	// Differential: the value is Snip[1]-Snip[0] (the middle-half modes);
	// else Snip[0] alone (and Alt, the smaller of the two, when AltSpan is set).
	Differential bool `json:"differential"`
	// Hardware: Lat, Tp, Snip and Alt are core cycles, not TSC ticks.
	Hardware bool `json:"hardware,omitempty"`
}

// Estimate is what a benchmark's repetitions say, with how sure they are.
//
// The estimator rests on one property of the noise on shared hosts: it
// only ever adds time. An interrupt, a busy SMT sibling, a slower core
// clock for a while, a cold cache line: each makes a call slower, none
// makes it faster than the quiet machine runs it. So every point of the
// schedule has a floor, the quiet value at the fastest clock, and the
// fewest ticks a point showed over the repetitions converge to it from
// above as repetitions accumulate. The estimate is computed from those
// floors, each point's on its own: the calibration chain's floors give the
// core cycles per tick at the fastest clock, the snippet's floors at its
// two lengths its ticks at that clock, and the difference of the floors
// (not the floor of the per-repetition differences, which a disturbance
// of the shorter length drags below the truth) the cycles of the copies
// between them.
//
// How sure: the uncertainty is how far the estimate would move if every
// floor were its next-fewest sample instead (summed, as a bound), plus how
// far the latency canary, computed from the same floors, is from its known
// value (the clock conversion checked in the same job). A quiet host has
// many samples at the floor and an uncertainty near zero; a host where the
// floor was reached once has a large one, and the engine measures more.
type Estimate struct {
	Value       float64 // cycles per snippet copy
	Uncertainty float64 // cycles per snippet copy
	// CyclesPerTick is core cycles per TSC tick at the fastest clock the
	// calibration chain saw.
	CyclesPerTick float64
	// LatCanary and TpCanary are the canaries from their floors, cycles
	// per instruction; TpUncertainty is the throughput canary's
	// uncertainty (its floors' next-fewest samples and the calibration's,
	// as for the value).
	LatCanary, TpCanary, TpUncertainty float64
	// VecCanary and LdCanary are the vector and load canaries the same
	// way, with their uncertainties; 0 where they do not judge the
	// snippet (Layout.VecSpan, LdSpan).
	VecCanary, VecUncertainty, LdCanary, LdUncertainty float64
	// Values are the per-repetition values (cycles per copy, each from
	// the repetition's own points and the floor calibration): their
	// spread is what the noise did.
	Values Stats
	Reps   int
	// Disturbed counts the repetitions with a point more than
	// DisturbedSlack above its floor, or with a context switch or
	// migration.
	Disturbed int
	// Sibling is the median slowdown of the throughput canary against its
	// floor (0.10: 10 % slower in the typical repetition): the activity of
	// a neighbour on the core's other hardware thread, which slows
	// throughput-bound code and leaves latency chains alone.
	Sibling float64
	// ClockRange is how much slower than its floor the calibration chain
	// ran in the slowest tenth of the repetitions (the 90th percentile):
	// how much the core clock moved.
	ClockRange float64
}

// DisturbedSlack is how far above its floor a point may be before its
// repetition counts as disturbed.
const DisturbedSlack = 0.01

// LatCanaryExpected is the latency of imul r64, r64 on every x86-64 core
// since Core 2 and K10: the latency canary.
const LatCanaryExpected = 3.0

// Converged reports whether the uncertainty is within rel of the value or
// within abs cycles per copy, whichever is larger.
func (e Estimate) Converged(rel, abs float64) bool {
	if e.Reps == 0 || math.IsNaN(e.Value) || math.IsNaN(e.Uncertainty) {
		return false
	}
	return e.Uncertainty <= math.Max(rel*math.Abs(e.Value), abs)
}

// DisturbedShare is the share of disturbed repetitions.
func (e Estimate) DisturbedShare() float64 {
	if e.Reps == 0 {
		return 0
	}
	return float64(e.Disturbed) / float64(e.Reps)
}

// Summary says the estimate in a line: value, uncertainty and the noise.
func (e Estimate) String() string {
	return fmt.Sprintf("%.4f ± %.4f cycles (%d repetitions, %.0f%% disturbed, sibling %+.1f%%)",
		e.Value, e.Uncertainty, e.Reps, 100*e.DisturbedShare(), 100*e.Sibling)
}

// floors holds the k-th fewest value of every point over the repetitions.
type floors struct {
	calib [2]float64 // n, 2n (both positions pooled)
	lat   [2]float64
	tp    [2]float64
	vec   [2]float64
	ld    [2]float64
	snip  [2]float64
	alt   float64
}

// orderStat returns the k-th smallest positive value (k from 1), or the
// largest when there are fewer.
func orderStat(v []float64, k int) float64 {
	s := make([]float64, 0, len(v))
	for _, x := range v {
		if x > 0 && !math.IsInf(x, 0) && !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	return s[min(k, len(s))-1]
}

func kthFloors(ts []Timing, k int) floors {
	var f floors
	col := func(get func(Timing) []float64) []float64 {
		var v []float64
		for _, t := range ts {
			v = append(v, get(t)...)
		}
		return v
	}
	for i := range 2 {
		f.calib[i] = orderStat(col(func(t Timing) []float64 { return []float64{t.Calib[0][i], t.Calib[1][i]} }), k)
		f.lat[i] = orderStat(col(func(t Timing) []float64 { return []float64{t.Lat[i]} }), k)
		f.tp[i] = orderStat(col(func(t Timing) []float64 { return []float64{t.Tp[i]} }), k)
		f.vec[i] = orderStat(col(func(t Timing) []float64 { return []float64{t.Vec[i]} }), k)
		f.ld[i] = orderStat(col(func(t Timing) []float64 { return []float64{t.Ld[i]} }), k)
		f.snip[i] = orderStat(col(func(t Timing) []float64 { return []float64{t.Snip[i]} }), k)
	}
	f.alt = orderStat(col(func(t Timing) []float64 { return []float64{t.Alt} }), k)
	return f
}

// canaries are the canaries of a set of floors, cycles per instruction
// (0 for a throughput canary that does not judge the snippet).
type canaries struct{ lat, tp, vec, ld float64 }

// value computes the snippet's cycles per copy, the canaries and the
// ticks per cycle from a set of floors.
func (l Layout) value(f floors) (v float64, c canaries, ticksPerCycle float64) {
	ticksPerCycle = (f.calib[1] - f.calib[0]) / l.CalibSpan
	conv := ticksPerCycle
	if l.Hardware {
		conv = 1
	}
	c.lat = (f.lat[1] - f.lat[0]) / conv / l.LatSpan
	c.tp = (f.tp[1] - f.tp[0]) / conv / l.TpSpan
	if l.VecSpan > 0 {
		c.vec = (f.vec[1] - f.vec[0]) / conv / l.VecSpan
	}
	if l.LdSpan > 0 {
		c.ld = (f.ld[1] - f.ld[0]) / conv / l.LdSpan
	}
	if l.Differential {
		v = (f.snip[1] - f.snip[0]) / conv / l.Span
	} else {
		v = f.snip[0] / conv / l.Span
		if l.AltSpan > 0 && f.alt > 0 {
			v = math.Min(v, f.alt/conv/l.AltSpan)
		}
	}
	return v, c, ticksPerCycle
}

// nPoints is the floors floorMoves replaces in turn: the calibration at
// n and 2n, the snippet at n and 2n, the loop variant, the latency canary
// at n and 2n, the throughput, vector and load canaries at n and 2n.
const nPoints = 13

// floorMoves returns how far the value and the canaries move when one
// floor of f1 in turn is replaced by the same point's in next (in the
// order of nPoints).
func (l Layout) floorMoves(f1, next floors) (value [nPoints]float64, cs [nPoints]canaries) {
	v, c, _ := l.value(f1)
	for i := range nPoints {
		g := f1
		switch i {
		case 0, 1:
			g.calib[i] = next.calib[i]
		case 2, 3:
			g.snip[i-2] = next.snip[i-2]
		case 4:
			g.alt = next.alt
		case 5, 6:
			g.lat[i-5] = next.lat[i-5]
		case 7, 8:
			g.tp[i-7] = next.tp[i-7]
		case 9, 10:
			g.vec[i-9] = next.vec[i-9]
		case 11, 12:
			g.ld[i-11] = next.ld[i-11]
		}
		w, wc, _ := l.value(g)
		value[i] = math.Abs(w - v)
		cs[i] = canaries{lat: math.Abs(wc.lat - c.lat), tp: math.Abs(wc.tp - c.tp), vec: math.Abs(wc.vec - c.vec), ld: math.Abs(wc.ld - c.ld)}
	}
	return value, cs
}

// Estimate computes the estimate of a benchmark's repetitions (see the
// type's comment for the method).
func (l Layout) Estimate(ts []Timing) Estimate {
	e := Estimate{Reps: len(ts), Value: math.NaN(), Uncertainty: math.NaN()}
	if len(ts) == 0 {
		return e
	}
	f1 := kthFloors(ts, 1)
	v, c, tpc := l.value(f1)
	lat := c.lat
	e.Value, e.LatCanary, e.TpCanary, e.VecCanary, e.LdCanary = v, c.lat, c.tp, c.vec, c.ld
	if tpc > 0 {
		e.CyclesPerTick = 1 / tpc
	}
	// How far the estimate moves when one point's floor is its next-fewest
	// sample: each point on its own, the moves summed. A canary's
	// uncertainty is its own two floors' moves and the calibration's.
	moves, cmoves := l.floorMoves(f1, kthFloors(ts, 2))
	u := 0.0
	for i := range nPoints {
		if i < 5 {
			u += moves[i]
		}
		if i < 2 || i == 7 || i == 8 {
			e.TpUncertainty += cmoves[i].tp
		}
		if c.vec > 0 && (i < 2 || i == 9 || i == 10) {
			e.VecUncertainty += cmoves[i].vec
		}
		if c.ld > 0 && (i < 2 || i == 11 || i == 12) {
			e.LdUncertainty += cmoves[i].ld
		}
	}
	// The clock conversion, checked by the latency canary from the same
	// floors: a canary off its known value by x says the cycles may be off
	// by as much.
	if lat > 0 {
		u += math.Abs(lat/LatCanaryExpected-1) * math.Abs(v)
	} else {
		u = math.Inf(1)
	}
	if len(ts) < 2 {
		u = math.Inf(1)
	}
	e.Uncertainty = u

	// What the noise did.
	conv := tpc
	if l.Hardware {
		conv = 1
	}
	var vals, tpSlow, cals []float64
	for _, t := range ts {
		var x float64
		if l.Differential {
			x = (t.Snip[1] - t.Snip[0]) / conv / l.Span
		} else {
			x = t.Snip[0] / conv / l.Span
		}
		vals = append(vals, x)
		if f1.tp[1] > 0 {
			tpSlow = append(tpSlow, t.Tp[1]/f1.tp[1]-1)
		}
		for _, c := range t.Calib {
			cals = append(cals, (c[1]-c[0])/l.CalibSpan)
		}
		disturbed := t.ContextSwitches > 0 || t.Migrations > 0
		check := func(x, floor float64) {
			if floor > 0 && x > floor*(1+DisturbedSlack) {
				disturbed = true
			}
		}
		check(t.Snip[0], f1.snip[0])
		if l.Differential {
			check(t.Snip[1], f1.snip[1])
		}
		check(t.Tp[1], f1.tp[1])
		if l.VecSpan > 0 {
			check(t.Vec[1], f1.vec[1])
		}
		if l.LdSpan > 0 {
			check(t.Ld[1], f1.ld[1])
		}
		if disturbed {
			e.Disturbed++
		}
	}
	e.Values = NewStats(vals)
	if len(tpSlow) > 0 {
		e.Sibling = NewStats(tpSlow).Median
	}
	if tpc > 0 && len(cals) > 0 {
		slices.Sort(cals)
		e.ClockRange = math.Max(0, cals[(len(cals)-1)*9/10]/tpc-1)
	}
	return e
}

// References are a run's throughput canary references
// (CanaryReferences.Values): the integer adds', the vector canary's and
// the load canary's, each 0 before the run has one.
type References struct{ Tp, Vec, Ld float64 }

// BusyShare is the share of repetitions that ran beside a busy SMT
// sibling or were switched out: a throughput canary that judges the
// snippet, in cycles at the repetition's own clock (its longer length
// over the calibration chain's, against the floors of ts), more than
// SiblingSlack slower than its reference, or a context switch or
// migration. A canary whose reference is 0 is judged against its floors'
// own value, so a neighbour busy in every repetition goes unseen until the
// run has a reference (CanaryReference).
func (l Layout) BusyShare(ts []Timing, refs References) float64 {
	if len(ts) == 0 {
		return 0
	}
	f1 := kthFloors(ts, 1)
	_, c, _ := l.value(f1)
	// A canary's longer length over the calibration chain's (ticks over
	// ticks: the clock cancels), or its cycles (counters).
	ratio := func(x, calib float64) float64 {
		if l.Hardware {
			return x
		}
		return x / calib
	}
	type canary struct {
		point     func(Timing) float64
		floor, at float64 // its longer length's floor; its value there
		ref       float64
	}
	cs := []canary{{func(t Timing) float64 { return t.Tp[1] }, f1.tp[1], c.tp, refs.Tp}}
	if l.VecSpan > 0 {
		cs = append(cs, canary{func(t Timing) float64 { return t.Vec[1] }, f1.vec[1], c.vec, refs.Vec})
	}
	if l.LdSpan > 0 {
		cs = append(cs, canary{func(t Timing) float64 { return t.Ld[1] }, f1.ld[1], c.ld, refs.Ld})
	}
	busy := 0
	for _, t := range ts {
		slow := t.ContextSwitches > 0 || t.Migrations > 0
		calib := math.Min(t.Calib[0][1], t.Calib[1][1])
		for _, k := range cs {
			ref := k.ref
			if ref <= 0 {
				ref = k.at
			}
			if k.at*ratio(k.point(t), calib)/ratio(k.floor, f1.calib[1]) > ref*(1+SiblingSlack) {
				slow = true
			}
		}
		if slow {
			busy++
		}
	}
	return float64(busy) / float64(len(ts))
}

// CanaryReference is a throughput canary of a run's quiet moments: the
// canary that CanaryQuantile of its jobs' canaries reach (at least two of
// them), counted only from jobs whose own canary floors are sure
// (uncertainty within 0.5 %) and whose latency canary reads
// LatCanaryExpected within 1 %. At least two jobs must agree, and in a
// long run one job in fifty, so the few jobs whose clock conversion read
// the canary too fast cannot make every later one look slow: on the
// Emerald Rapids guest (five ALUs, where twelve adds cannot run faster
// than 0.200 cycles an add) the second fastest of 50,000 jobs read 0.193,
// and 16,000 fit mixes failed the 3 % rule against it. It lives in memory
// for one run: a new host needs none, and no file can carry a poisoned
// value from one run to the next.
type CanaryReference struct {
	canaries []float64
	value    float64
	at       int // len(canaries) when value was last computed
}

// CanaryQuantile is the share of a run's sure throughput canaries at or
// below its reference.
const CanaryQuantile = 0.02

// Note records a job's estimate (from that job's repetitions alone): its
// throughput canary (the integer adds).
func (r *CanaryReference) Note(e Estimate) { r.note(e.TpCanary, e.TpUncertainty, e.LatCanary, e.Reps) }

func (r *CanaryReference) note(c, u, lat float64, reps int) {
	if reps < 2 || !(c > 0) || u > 0.005*c || math.Abs(lat/LatCanaryExpected-1) > 0.01 {
		return
	}
	r.canaries = append(r.canaries, c)
}

// Notes is how many jobs' canaries the reference has counted.
func (r *CanaryReference) Notes() int { return len(r.canaries) }

// Value is the reference, 0 before two jobs have been noted. It is
// computed again after every note while there are fewer than 64, then
// once the notes have grown by a thirty-second since.
func (r *CanaryReference) Value() float64 {
	n := len(r.canaries)
	if n < 2 {
		return 0
	}
	if n != r.at && (n < 64 || n-r.at >= n/32) {
		s := slices.Clone(r.canaries)
		slices.Sort(s)
		k := max(2, int(math.Ceil(CanaryQuantile*float64(n))))
		r.value, r.at = s[k-1], n
	}
	return r.value
}

// CanaryReferences are a run's references of its three throughput
// canaries, each counted from the jobs it judged.
type CanaryReferences struct{ Tp, Vec, Ld CanaryReference }

// Note records a job's estimate: each canary it carries.
func (r *CanaryReferences) Note(e Estimate) {
	r.Tp.Note(e)
	r.Vec.note(e.VecCanary, e.VecUncertainty, e.LatCanary, e.Reps)
	r.Ld.note(e.LdCanary, e.LdUncertainty, e.LatCanary, e.Reps)
}

// Values are the three references now.
func (r *CanaryReferences) Values() References {
	return References{Tp: r.Tp.Value(), Vec: r.Vec.Value(), Ld: r.Ld.Value()}
}

// SiblingSlack is how much slower (or faster) than the run's reference
// (Value) a throughput canary of a converged estimate may be.
const SiblingSlack = 0.03

// CanaryClear reports whether every throughput canary that judges the
// estimate is within SiblingSlack of its reference (always, before there
// is one).
//
// Slower: a neighbour busy throughout a benchmark's jobs leaves floors
// that agree with each other and are all slow, and only a reference from a
// quieter moment shows it.
//
// Faster: twelve independent adds cannot run faster than the ALUs allow,
// and the reference is what a run's quiet jobs read. A canary well below
// it is a difference of floors from different moments: its shorter length
// never ran undisturbed while its longer one did, and the snippet's
// points in the same repetitions are no surer. On the Emerald Rapids guest
// with its neighbour busy (2026-11-27, two full sweeps) 660 and 873
// results that had converged read the canary 3-50 % fast; 5.2 % of them
// disagreed with the other sweep by more than 1 %, against 1.1 % of the
// results whose canary read right (`sar r32, cl` latency 2.00 for 1.00,
// the canary at 0.157 cycles an add).
//
// Three canaries, because a sibling does not take every unit at once: on
// the Zen 3 guest (2026-11-28, `go run ./tools/cputrace -units`) with the
// adds clear, twelve vpand ymm ran more than 3 % slow in 3-44 % of 20 us
// chunks and twelve loads over 96 bytes in 9-24 %; with the vector
// (twelve por xmm) or the load canary clear as well, 2-6 % and 9-14 %.
// Two full sweeps there had converged on `vpand ymm, ymm, ymm` 0.2505
// and 0.3047 cycles, the adds clear in both.
func (e Estimate) CanaryClear(r References) bool { return len(e.SlowCanaries(r)) == 0 }

// SlowCanaries says which throughput canaries that judge the estimate
// are off their references by more than SiblingSlack: "integer adds
// 0.262 for 0.250", one phrase each.
func (e Estimate) SlowCanaries(r References) []string {
	var out []string
	check := func(name string, c, ref float64, always bool) {
		if ref <= 0 || (c == 0 && !always) || (c <= ref*(1+SiblingSlack) && c >= ref*(1-SiblingSlack)) {
			return
		}
		out = append(out, fmt.Sprintf("%s %.3f for %.3f (%+.0f%%)", name, c, ref, 100*(c/ref-1)))
	}
	// The adds judge every estimate; the others those they were measured
	// beside (0 otherwise).
	check("integer adds", e.TpCanary, r.Tp, true)
	check("vector", e.VecCanary, r.Vec, false)
	check("loads", e.LdCanary, r.Ld, false)
	return out
}
