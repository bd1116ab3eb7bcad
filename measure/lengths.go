package measure

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"portlab/perf"
)

// A snippet measured at two lengths (Options.LengthCheck) has four
// functions in every pass: N and 2N copies, and N' and 2N' copies. In
// one steady state their cycles an iteration lie on one line, T(k) = c +
// k t, whose slope t is the cost of a copy and whose intercept c is the
// loop's own cost. A function that settled into another state is off the
// line, and the difference of its pair is no cost of the code: on the
// Zen 4 guest gcc_absmax_i32_ymm's N-copy function ran at 1.157 cycles a
// copy where the other three ran at 1.00, its pair read 0.843 and its
// intercept 13.7 cycles against the others' 0.1; stream_add_sse's
// N-copy function (15 copies) ran about 2 cycles an iteration slow and
// its pair read 2.37 where the other three lie on a line of 2.50.

// Line-check tolerances: a function lies on a pair's line within
// lineInlier of its cycles (plus lineSlack cycles), and off it by more
// than lineOutlier.
const (
	lineInlier  = 0.01
	lineSlack   = 0.1
	lineOutlier = 0.02
)

// functionCycles returns the cycles an iteration of a pass's N- and
// 2N-copy functions from its repetitions' floors and the pass's own
// calibration; false where the pass has no differential timings.
func functionCycles(m *Measurement) (tn, t2n float64, ok bool) {
	if m == nil || m.Err != nil || len(m.Timings) == 0 || !m.Layout.Differential || m.Layout.CalibSpan <= 0 {
		return 0, 0, false
	}
	floor := func(get func(perf.Timing) []float64) float64 {
		f := math.Inf(1)
		for _, t := range m.Timings {
			for _, v := range get(t) {
				if v > 0 {
					f = min(f, v)
				}
			}
		}
		return f
	}
	conv := 1.0
	if !m.Layout.Hardware {
		c0 := floor(func(t perf.Timing) []float64 { return []float64{t.Calib[0][0], t.Calib[1][0]} })
		c1 := floor(func(t perf.Timing) []float64 { return []float64{t.Calib[0][1], t.Calib[1][1]} })
		conv = (c1 - c0) / m.Layout.CalibSpan
	}
	s0 := floor(func(t perf.Timing) []float64 { return []float64{t.Snip[0]} })
	s1 := floor(func(t perf.Timing) []float64 { return []float64{t.Snip[1]} })
	if !(conv > 0) || math.IsInf(s0, 0) || math.IsInf(s1, 0) || math.IsInf(conv, 0) {
		return 0, 0, false
	}
	return s0 / conv, s1 / conv, true
}

// offFunction finds which of a pass's four functions ran in another
// state than the other three: the pass's pairs are (n, tn, t2n) and (nl,
// tl, t2l), cycles an iteration at n and 2n copies, nl and 2nl. Each
// pair's two functions define a line; where one function of the other
// pair lies on it and the other does not, that other function is off and
// the line's pair is intact. It returns whether the intact pair is the
// longer one and which function is off (0-3: n, 2n, nl, 2nl); false
// where no function, or more than one, can be named so.
func offFunction(n, tn, t2n, nl, tl, t2l float64) (longIntact bool, off int, ok bool) {
	on := func(c, t, k, y float64) bool { return math.Abs(y-(c+t*k)) <= lineInlier*y+lineSlack }
	away := func(c, t, k, y float64) bool { return math.Abs(y-(c+t*k)) > lineOutlier*y }
	found := 0
	// The longer pair's line, and the shorter pair's functions on it.
	lt, lc := (t2l-tl)/nl, 2*tl-t2l
	if on(lc, lt, 2*n, t2n) && away(lc, lt, n, tn) {
		longIntact, off, found = true, 0, found+1
	}
	if on(lc, lt, n, tn) && away(lc, lt, 2*n, t2n) {
		longIntact, off, found = true, 1, found+1
	}
	st, sc := (t2n-tn)/n, 2*tn-t2n
	if on(sc, st, 2*nl, t2l) && away(sc, st, nl, tl) {
		longIntact, off, found = false, 2, found+1
	}
	if on(sc, st, nl, tl) && away(sc, st, 2*nl, t2l) {
		longIntact, off, found = false, 3, found+1
	}
	return longIntact, off, found == 1
}

// lengthsWithin reports whether a pass's two lengths read within spread
// of each other.
func lengthsWithin(short, long *Measurement, spread float64) bool {
	r := short.PerSnippet.Median / long.PerSnippet.Median
	return r <= 1+spread && r >= 1/(1+spread)
}

// lengthsAgree judges the passes of a snippet measured at two lengths
// (short, by pass, and its twin long, the same passes). A pass is usable
// where its two lengths read within spread of each other (the shorter's
// value), or where one function of a pair lies on the other pair's line
// and its partner does not (offFunction): the intact pair's value, in a
// copy of the pass's measurement that says so where that is the longer
// one. It returns the usable passes' measurements, which
// passes those are and their values (cycles a copy; 0 elsewhere).
func lengthsAgree(short, long []*Measurement, spread float64) (usable []*Measurement, which []bool, fitted []float64) {
	which, fitted = make([]bool, len(short)), make([]float64, len(short))
	for p, m := range short {
		if p >= len(long) || m.Err != nil || long[p].Err != nil || m.PerSnippet.Median <= 0 || long[p].PerSnippet.Median <= 0 {
			continue
		}
		if lengthsWithin(m, long[p], spread) {
			which[p], fitted[p] = true, m.PerSnippet.Median
			usable = append(usable, m)
			continue
		}
		tn, t2n, ok1 := functionCycles(m)
		tl, t2l, ok2 := functionCycles(long[p])
		if !ok1 || !ok2 || m.Copies <= 0 || long[p].Copies <= 0 {
			continue
		}
		longIntact, off, ok := offFunction(float64(m.Copies), tn, t2n, float64(long[p].Copies), tl, t2l)
		if !ok {
			continue
		}
		all := []int{m.Copies, 2 * m.Copies, long[p].Copies, 2 * long[p].Copies}
		if !longIntact {
			// The shorter pair is intact: the pass's own value stands.
			which[p], fitted[p] = true, m.PerSnippet.Median
			usable = append(usable, m)
			continue
		}
		c := *m
		c.PerInstr.Median = m.PerInstr.Median * long[p].PerSnippet.Median / m.PerSnippet.Median
		c.PerSnippet.Median = long[p].PerSnippet.Median
		c.Warnings = append(slices.Clone(m.Warnings), fmt.Sprintf("its %d-copy function ran in another state than the %d- and %d-copy ones, on whose line the %d-copy one lies: %.4g cycles a copy (theirs), not the %.4g of its pair",
			all[off], all[2], all[3], all[1-off], c.PerSnippet.Median, m.PerSnippet.Median))
		which[p], fitted[p] = true, c.PerSnippet.Median
		usable = append(usable, &c)
	}
	return usable, which, fitted
}

// keptOfLengths is the kept pass of a snippet measured at two lengths
// (Options.LengthCheck): of the usable passes (lengthsAgree) where there
// are any, else of every pass (ok, those that did not fail) with a
// warning that the value depends on the body's length. Its PassMedians
// list every pass as measured at the shorter length, its Length the
// longer length's and the usable passes' values.
func keptOfLengths(short, long, ok []*Measurement, o Options, spread float64) *Measurement {
	usable, which, fitted := lengthsAgree(short, long, spread)
	pool := usable
	if len(pool) == 0 {
		pool = ok
	}
	best := keptPass(slices.Clone(pool), o)
	best.PassMedians, best.PassWorkers = passRecord(ok)
	lc := &LengthCheck{Agree: which, Fitted: fitted}
	var longOK []*Measurement
	for p, m := range long {
		v := 0.0
		if m.Err == nil {
			v = m.PerInstr.Median
			lc.Copies = m.Copies
			if p < len(which) && (which[p] || len(usable) == 0) {
				longOK = append(longOK, m)
			}
		}
		lc.PassMedians = append(lc.PassMedians, v)
	}
	if len(longOK) > 0 {
		slices.SortFunc(longOK, func(a, b *Measurement) int { return cmp.Compare(a.PerSnippet.Median, b.PerSnippet.Median) })
		div := 2
		if o.LowerQuartilePass {
			div = 4
		}
		if o.FastestPass {
			div = len(longOK) + 1
		}
		lc.Value = longOK[(len(longOK)-1)/div].PerSnippet.Median
	}
	best.Length = lc
	lined := 0 // usable passes whose lengths disagree
	for p, w := range which {
		if w && p < len(long) && long[p].PerSnippet.Median > 0 {
			if !lengthsWithin(short[p], long[p], spread) {
				lined++
			}
		}
	}
	switch {
	case len(usable) == 0 && lc.Value > 0:
		best.Warnings = append(best.Warnings, fmt.Sprintf("%.4g cycles a copy at %d copies, %.4g at %d, in every pass: the steady state depends on the body's length (kept the shorter)",
			best.PerSnippet.Median, best.Copies, lc.Value, lc.Copies))
	case len(usable) < len(ok) || lined > 0:
		best.Warnings = append(best.Warnings, fmt.Sprintf("%d of %d passes read their two body lengths (%d and %d copies) more than %.0f %% apart: %d with one function off the line of the other three (the intact pair's value taken), %d not used",
			len(ok)-len(usable)+lined, len(ok), best.Copies, lc.Copies, 100*spread, lined, len(ok)-len(usable)))
	}
	return best
}
