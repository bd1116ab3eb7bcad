package sweep

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"portlab/results"
)

// Agreement compares two sweeps of the same forms.
type Agreement struct {
	Compared, Within int     // benchmarks measured in both; those within the tolerance
	Tolerance        float64 // relative
	FormsCompared    int
	FormsWithin      int // forms all of whose benchmarks agree
	Worst            []Difference
	// Noisy counts the compared benchmarks whose result was noisy in
	// either sweep (fewer than half of its repetitions clean); of the
	// others, QuietWithin agree within the tolerance, and of the forms none
	// of whose benchmarks was noisy, QuietFormsWithin agree on every one
	// (out of QuietForms): the method's repeatability apart from the
	// machine's.
	Noisy                                     int
	QuietWithin, QuietForms, QuietFormsWithin int
	// Disagreeing counts the benchmarks outside the tolerance by kind of
	// form (FormGroup), so a report says where the noise is.
	Disagreeing map[string]int
}

// FormGroup sorts a form into the groups a repeatability report breaks
// down by: non-temporal stores, broadcasts, memory destinations, memory
// sources, zmm, and the rest (register forms).
func FormGroup(form string) string {
	for strings.HasPrefix(form, "{") { // encoding prefixes: {evex}, {vex}
		_, form, _ = strings.Cut(form, " ")
	}
	mnemonic, ops, _ := strings.Cut(form, " ")
	dst, _, _ := strings.Cut(ops, ",")
	switch {
	case strings.Contains(mnemonic, "movnt"):
		return "non-temporal store"
	case strings.Contains(ops, "bcst"):
		return "broadcast"
	case strings.HasPrefix(strings.TrimSpace(dst), "m"):
		return "memory destination"
	case strings.Contains(ops, " m") || strings.HasPrefix(ops, "m"):
		return "memory source"
	case strings.Contains(ops, "zmm"):
		return "zmm register"
	}
	return "register"
}

// Difference is one benchmark's values in the two sweeps.
type Difference struct {
	ID, Form, Kind, Operands string
	A, B, Rel                float64
}

// Compare matches results by content ID and reports how many agree within
// tol (relative to the smaller value; values under 0.05 cycles are compared
// absolutely, to 0.005 cycles). Of several results of one benchmark in a
// file the cleanest counts (results.Cleanest).
func Compare(a, b []*results.Benchmark, tol float64, worst int) Agreement {
	ag := Agreement{Tolerance: tol, Disagreeing: map[string]int{}}
	a, b = results.Cleanest(a), results.Cleanest(b)
	index := map[string]*results.Benchmark{}
	for _, r := range b {
		if r.Portlab != nil && r.Error == "" && len(r.Measurements) > 0 {
			index[r.Portlab.ID] = r
		}
	}
	formOK, formNoisy := map[string]bool{}, map[string]bool{}
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
		noisy := r.Noisy() || o.Noisy()
		if noisy {
			ag.Noisy++
			formNoisy[r.Portlab.Form] = true
		} else if within {
			ag.QuietWithin++
		}
		f := r.Portlab.Form
		if _, seen := formOK[f]; !seen {
			formOK[f] = true
		}
		if within {
			ag.Within++
		} else {
			formOK[f] = false
			ag.Disagreeing[FormGroup(f)]++
		}
		diffs = append(diffs, Difference{ID: r.Portlab.ID, Form: f, Kind: r.Portlab.Kind, Operands: r.Portlab.Operands, A: x, B: y, Rel: rel})
	}
	for f, ok := range formOK {
		ag.FormsCompared++
		if ok {
			ag.FormsWithin++
		}
		if !formNoisy[f] {
			ag.QuietForms++
			if ok {
				ag.QuietFormsWithin++
			}
		}
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].Rel > diffs[j].Rel })
	if len(diffs) > worst {
		diffs = diffs[:worst]
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
	if ag.Noisy > 0 {
		fmt.Fprintf(w, "%d of the benchmarks (%.2f%%) were noisy in either sweep (fewer than half of one job's repetitions clean after retries): the machine was disturbed\n",
			ag.Noisy, pct(ag.Noisy, ag.Compared))
		quiet := ag.Compared - ag.Noisy
		fmt.Fprintf(w, "without them: %d of %d forms (%.2f%%) agree on every benchmark; %d of %d benchmarks (%.2f%%)\n",
			ag.QuietFormsWithin, ag.QuietForms, pct(ag.QuietFormsWithin, ag.QuietForms), ag.QuietWithin, quiet, pct(ag.QuietWithin, quiet))
	}
	if len(ag.Disagreeing) > 0 {
		groups := make([]string, 0, len(ag.Disagreeing))
		for g := range ag.Disagreeing {
			groups = append(groups, g)
		}
		sort.Slice(groups, func(i, j int) bool {
			gi, gj := ag.Disagreeing[groups[i]], ag.Disagreeing[groups[j]]
			return gi > gj || gi == gj && groups[i] < groups[j]
		})
		fmt.Fprint(w, "benchmarks outside the tolerance:")
		for i, g := range groups {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(w, "%s %d %s", sep, ag.Disagreeing[g], g)
		}
		fmt.Fprintln(w)
	}
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
