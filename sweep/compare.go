package sweep

import (
	"fmt"
	"io"
	"math"
	"sort"

	"portlab/results"
)

// Agreement compares two sweeps of the same forms.
type Agreement struct {
	Compared, Within int     // benchmarks measured in both; those within the tolerance
	Tolerance        float64 // relative
	FormsCompared    int
	FormsWithin      int // forms all of whose benchmarks agree
	Worst            []Difference
}

// Difference is one benchmark's values in the two sweeps.
type Difference struct {
	ID, Form, Kind, Operands string
	A, B, Rel                float64
}

// Compare matches results by content ID and reports how many agree within
// tol (relative to the smaller value; values under 0.05 cycles are compared
// absolutely, to 0.005 cycles).
func Compare(a, b []*results.Benchmark, tol float64) Agreement {
	ag := Agreement{Tolerance: tol}
	index := map[string]*results.Benchmark{}
	for _, r := range b {
		if r.Portlab != nil && r.Error == "" && len(r.Measurements) > 0 {
			index[r.Portlab.ID] = r
		}
	}
	formOK := map[string]bool{}
	var diffs []Difference
	for _, r := range a {
		if r.Portlab == nil || r.Error != "" || len(r.Measurements) == 0 {
			continue
		}
		o, ok := index[r.Portlab.ID]
		if !ok {
			continue
		}
		x, y := r.Portlab.Median, o.Portlab.Median
		rel := math.Abs(x-y) / math.Max(math.Min(math.Abs(x), math.Abs(y)), 1e-9)
		within := rel <= tol || math.Abs(x-y) <= 0.005
		ag.Compared++
		f := r.Portlab.Form
		if _, seen := formOK[f]; !seen {
			formOK[f] = true
		}
		if within {
			ag.Within++
		} else {
			formOK[f] = false
		}
		diffs = append(diffs, Difference{ID: r.Portlab.ID, Form: f, Kind: r.Portlab.Kind, Operands: r.Portlab.Operands, A: x, B: y, Rel: rel})
	}
	for _, ok := range formOK {
		ag.FormsCompared++
		if ok {
			ag.FormsWithin++
		}
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].Rel > diffs[j].Rel })
	if len(diffs) > 20 {
		diffs = diffs[:20]
	}
	ag.Worst = diffs
	return ag
}

// WriteAgreement prints an agreement report.
func WriteAgreement(w io.Writer, ag Agreement) {
	pct := func(n, d int) float64 {
		if d == 0 {
			return 0
		}
		return 100 * float64(n) / float64(d)
	}
	fmt.Fprintf(w, "%d of %d forms (%.2f%%) agree within %.1f%% on every benchmark; %d of %d benchmarks (%.2f%%)\n",
		ag.FormsWithin, ag.FormsCompared, pct(ag.FormsWithin, ag.FormsCompared), 100*ag.Tolerance,
		ag.Within, ag.Compared, pct(ag.Within, ag.Compared))
	if len(ag.Worst) > 0 && ag.Worst[0].Rel > ag.Tolerance {
		fmt.Fprintln(w, "largest differences:")
		for _, d := range ag.Worst {
			if d.Rel <= ag.Tolerance {
				break
			}
			fmt.Fprintf(w, "  %-40s %-10s %-8s %10.4f %10.4f  %6.1f%%\n", d.Form, d.Kind, d.Operands, d.A, d.B, 100*d.Rel)
		}
	}
}
