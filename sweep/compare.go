package sweep

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"portlab/internal/stats"
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
	// Together are the groups of benchmarks outside the tolerance that
	// moved by one factor (Shifts), largest first.
	Together []Shift
	// Outside are all the benchmarks outside the tolerance, largest
	// difference first (the HTML report plots them).
	Outside []Difference
	// The sweeps' hosts (CPU signature and microarchitecture, the
	// commonest of each file) and the first and last dates of their
	// results.
	HostA, HostB                 string
	FirstA, LastA, FirstB, LastB string
}

// Shift is a group of benchmarks of one kind that differ between two
// sweeps by one factor (see ShiftGap): noise that only adds
// time adds a different amount to each, so a family of forms that all
// read 22 % slower in one sweep (the Zen 4 guest's vpcmp* k, ymm, m*:
// 0.500 in one, 0.611 in the other, 90 forms) ran in another state of
// the core or host in that sweep, which every pass of it saw alike.
type Shift struct {
	Kind   string  `json:"kind"`
	N      int     `json:"benchmarks"`
	Factor float64 `json:"factor"`   // B / A, the group's median
	A      float64 `json:"a_median"` // the group's median values
	B      float64 `json:"b_median"`
	// Family is the mnemonic prefix most of the group shares ("vpcmp"),
	// Shared how many share it; Examples a few of the group's forms.
	Family string `json:"family,omitempty"`
	Shared int    `json:"family_benchmarks,omitempty"`
	// Stems, for a group without a family, are its commonest mnemonic
	// stems (five letters) with their counts ("14 vpcmp*"), up to three.
	Stems    []string `json:"stems,omitempty"`
	IDs      []string `json:"ids"` // the group's benchmarks (Difference.ID)
	Examples []string `json:"examples"`
}

// A Shift is a run of factors (sorted, in log) no two neighbours of which
// are more than ShiftGap apart, spanning at most ShiftSpread, of at least
// MinShift benchmarks, with no more differences within shiftContext
// around it than it holds itself; within three tolerances of no change,
// most of its forms must also share a mnemonic prefix (Shift.Family).
// Differences crowd just past the tolerance (a 1 % tolerance leaves many
// at 1-2 %, each by its own amount): there a run chains into one wider
// than ShiftSpread, stands in a crowd larger than itself, or gathers
// forms of every kind.
const (
	ShiftGap     = 0.002
	ShiftSpread  = 0.01
	MinShift     = 5
	shiftContext = 0.015
)

// shifts groups disagreeing differences of one kind by their factor B/A
// (see ShiftGap); tol is the comparison's tolerance.
func shifts(diffs []Difference, tol float64) []Shift {
	byKind := map[string][]Difference{}
	for _, d := range diffs {
		if d.A > 0 && d.B > 0 {
			byKind[d.Kind] = append(byKind[d.Kind], d)
		}
	}
	var out []Shift
	for kind, ds := range byKind {
		l := func(i int) float64 { return math.Log(ds[i].B / ds[i].A) }
		sort.Slice(ds, func(i, j int) bool { return ds[i].B/ds[i].A < ds[j].B/ds[j].A })
		for i := 0; i < len(ds); {
			j := i + 1
			for j < len(ds) && l(j)-l(j-1) <= ShiftGap {
				j++
			}
			if n := j - i; n >= MinShift && l(j-1)-l(i) <= ShiftSpread {
				around := 0
				for k := range ds {
					if (k < i || k >= j) && l(k) >= l(i)-shiftContext && l(k) <= l(j-1)+shiftContext {
						around++
					}
				}
				sh := newShift(kind, ds[i:j])
				if around <= n && (sh.Family != "" || math.Abs(math.Log(sh.Factor)) >= 3*tol) {
					out = append(out, sh)
				}
			}
			i = j
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.N > b.N || a.N == b.N && (a.Factor > b.Factor || a.Factor == b.Factor && a.Kind < b.Kind)
	})
	return out
}

func newShift(kind string, ds []Difference) Shift {
	sh := Shift{Kind: kind, N: len(ds)}
	var fs, as, bs []float64
	prefix := map[string]int{}
	for _, d := range ds {
		sh.IDs = append(sh.IDs, d.ID)
		fs, as, bs = append(fs, d.B/d.A), append(as, d.A), append(bs, d.B)
		m := mnemonicOf(d.Form)
		for n := min(len(m), 3); n <= len(m); n++ {
			prefix[m[:n]]++
		}
	}
	sh.Factor, sh.A, sh.B = stats.Median(fs), stats.Median(as), stats.Median(bs)
	// The family: the longest mnemonic prefix (three letters or more)
	// four in five of the group share, else the longest a majority does.
	for _, share := range []float64{0.8, 0.5} {
		for p, n := range prefix {
			if float64(n) > share*float64(len(ds)) && (len(p) > len(sh.Family) || len(p) == len(sh.Family) && p < sh.Family) {
				sh.Family, sh.Shared = p, n
			}
		}
		if sh.Family != "" {
			break
		}
	}
	if sh.Family == "" {
		stems := map[string]int{}
		for _, d := range ds {
			m := mnemonicOf(d.Form)
			stems[m[:min(len(m), 5)]]++
		}
		keys := make([]string, 0, len(stems))
		for k := range stems {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return stems[keys[i]] > stems[keys[j]] || stems[keys[i]] == stems[keys[j]] && keys[i] < keys[j]
		})
		for _, k := range keys[:min(len(keys), 3)] {
			sh.Stems = append(sh.Stems, fmt.Sprintf("%d %s*", stems[k], k))
		}
		if len(keys) > 3 {
			sh.Stems = append(sh.Stems, "...")
		}
	}
	// Examples: the family's forms first, then the others, each once.
	seen := map[string]bool{}
	for _, inFamily := range []bool{true, false} {
		for _, d := range ds {
			if len(sh.Examples) == 3 {
				break
			}
			if seen[d.Form] || strings.HasPrefix(mnemonicOf(d.Form), sh.Family) != inFamily {
				continue
			}
			seen[d.Form] = true
			sh.Examples = append(sh.Examples, d.Form)
		}
	}
	return sh
}

// describe returns the commonest host of results ("signature,
// microarchitecture") and the first and last dates they carry.
func describe(rs []*results.Benchmark) (host, first, last string) {
	hosts, arch := map[string]int{}, map[string]string{}
	for _, r := range rs {
		x := r.Portlab
		if x == nil {
			continue
		}
		if x.Host != "" {
			hosts[x.Host]++
		}
		if x.HostInfo != nil && x.HostInfo.Microarch != "" {
			arch[x.Host] = x.HostInfo.Microarch
		}
		if x.Date != "" {
			if first == "" || x.Date < first {
				first = x.Date
			}
			if x.Date > last {
				last = x.Date
			}
		}
	}
	for h, n := range hosts {
		if n > hosts[host] || n == hosts[host] && h < host {
			host = h
		}
	}
	if a := arch[host]; a != "" {
		host += ", " + a
	}
	return host, first, last
}

// splitForm returns a form name's mnemonic and operands, without its
// encoding prefixes ({evex}, {vex}).
func splitForm(form string) (mnemonic, operands string) {
	for strings.HasPrefix(form, "{") {
		_, form, _ = strings.Cut(form, " ")
	}
	mnemonic, operands, _ = strings.Cut(form, " ")
	return mnemonic, operands
}

func mnemonicOf(form string) string {
	m, _ := splitForm(form)
	return m
}

// FormGroup sorts a form into the groups a repeatability report breaks
// down by: non-temporal stores, broadcasts, memory destinations, memory
// sources, zmm, and the rest (register forms).
func FormGroup(form string) string {
	mnemonic, ops := splitForm(form)
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
	ID       string  `json:"id"`
	Form     string  `json:"form"`
	Kind     string  `json:"kind"`
	Operands string  `json:"operands,omitempty"`
	A        float64 `json:"a"`
	B        float64 `json:"b"`
	Rel      float64 `json:"relative_difference"`
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
		d := Difference{ID: r.Portlab.ID, Form: f, Kind: r.Portlab.Kind, Operands: r.Portlab.Operands, A: x, B: y, Rel: rel}
		if within {
			ag.Within++
		} else {
			formOK[f] = false
			ag.Disagreeing[FormGroup(f)]++
			ag.Outside = append(ag.Outside, d)
		}
		diffs = append(diffs, d)
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
	ag.Together = shifts(ag.Outside, tol)
	sort.Slice(ag.Outside, func(i, j int) bool { return ag.Outside[i].Rel > ag.Outside[j].Rel })
	ag.HostA, ag.FirstA, ag.LastA = describe(a)
	ag.HostB, ag.FirstB, ag.LastB = describe(b)
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
	if len(ag.Together) > 0 {
		n := 0
		for _, sh := range ag.Together {
			n += sh.N
		}
		fmt.Fprintf(w, "moved together: %d of the benchmarks outside the tolerance differ in groups, each by one factor (within %.0f%%): a state of the core or host that held through one sweep's passes, where noise adds a different time to each\n",
			n, 100*ShiftSpread)
		for _, sh := range ag.Together {
			fam := "mixed forms (" + strings.Join(sh.Stems, ", ") + ")"
			if sh.Family != "" {
				fam = fmt.Sprintf("%d of them %s*", sh.Shared, sh.Family)
			}
			fmt.Fprintf(w, "  %d %s benchmarks %+.1f%% (%.4g -> %.4g): %s, e.g. %s\n",
				sh.N, sh.Kind, 100*(sh.Factor-1), sh.A, sh.B, fam, strings.Join(sh.Examples, "; "))
		}
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
