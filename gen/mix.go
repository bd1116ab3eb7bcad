package gen

import (
	"fmt"

	"portlab/isa"
	"portlab/results"
)

// Mix returns a port-conflict benchmark: a instances of f interleaved with
// b instances of probe, each form's instances independent of each other and
// of the other form's (separate register pools). Its value per copy, set
// against the two forms' throughputs alone, says whether they compete for
// ports: two forms on disjoint ports take max(a*tpF, b*tpP); on the same
// ports, the sum.
func Mix(f, probe *isa.Form, a, b int) (*Bench, error) {
	if a < 1 || b < 1 {
		return nil, fmt.Errorf("mix of %q and %q: counts must be positive", f.Name(), probe.Name())
	}
	for _, x := range []*isa.Form{f, probe} {
		if why := Unmeasurable(x); why != "" {
			return nil, fmt.Errorf("form %q: %s", x.Name(), why)
		}
	}
	al := newAllocator(f)
	// The probe's fixed and implicit registers are off limits too.
	pa := newAllocator(probe)
	for r := range pa.used {
		al.used[r] = true
	}
	if probe.Encoding == isa.Legacy || f.Encoding == isa.Legacy || probe.Encoding == isa.VEX || f.Encoding == isa.VEX {
		al.vecs = 16
	}
	// Forms whose destinations are inputs get the rotating registers; the
	// others need only two each.
	shareF, shareP := 0.5, 0.5
	switch cf, cp := chained(f), chained(probe); {
	case cf && !cp:
		shareF, shareP = 0.85, 0
	case cp && !cf:
		shareF, shareP = 0, 0.85
	case !cf && !cp:
		shareF, shareP = 0, 0
	}
	sp, err := newStream(probe, al, shareP)
	if err != nil {
		return nil, err
	}
	if shareF > 0 {
		// Whatever the probe left, less its constants' needs.
		shareF = 1
	}
	sf, err := newStream(f, al, shareF)
	if err != nil {
		return nil, err
	}
	sp.slotOff = 8
	// Interleave evenly: Bresenham over a+b slots, repeated so each copy has
	// at least 12 instructions.
	// Each stream cycles through its whole register pool within one copy
	// (a copy shorter than the pool would reuse registers and chain).
	reps := 1
	for (a+b)*reps < 12 || a*reps < sf.k || b*reps < sp.k {
		reps++
	}
	var lines []string
	fi, pi := 0, 0
	for r := 0; r < reps; r++ {
		for k := 0; k < a+b; k++ {
			st, n := sp, &pi
			if (k+1)*a/(a+b) > k*a/(a+b) { // spread f's instances evenly
				st, n = sf, &fi
			}
			lines = append(lines, st.resets...)
			l, err := st.line(*n)
			if err != nil {
				return nil, err
			}
			lines = append(lines, l)
			*n++
		}
	}
	info := fmt.Sprintf("port-conflict mix: %d x %s with %d x %s", a, f.Name(), b, probe.Name())
	s := newSnippet(f, "mix with "+probe.Name(), info, lines, (a+b)*reps)
	s.Name = fmt.Sprintf("mix %q x%d + %q x%d", f.Name(), a, probe.Name(), b)
	return &Bench{Form: f, Kind: KindPorts, Snippet: s, Mode: "inverse_throughput",
		Mix: []results.MixPart{{Form: f.Name(), Count: a * reps}, {Form: probe.Name(), Count: b * reps}}}, nil
}

// MixCounts picks small instance counts (a, b) for a mix of forms with
// reciprocal throughputs tpF and tpP, so that each alone would take about
// the same time: a*tpF ≈ b*tpP.
func MixCounts(tpF, tpP float64) (int, int) {
	if tpF <= 0 || tpP <= 0 {
		return 1, 1
	}
	bestA, bestB, bestErr := 1, 1, 1e9
	for a := 1; a <= 8; a++ {
		for b := 1; b <= 8; b++ {
			x, y := float64(a)*tpF, float64(b)*tpP
			e := (x - y) / (x + y)
			if e < 0 {
				e = -e
			}
			if e < bestErr-1e-9 {
				bestA, bestB, bestErr = a, b, e
			}
		}
	}
	return bestA, bestB
}
