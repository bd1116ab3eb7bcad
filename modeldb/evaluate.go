package modeldb

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"portlab/internal/stats"
	"portlab/results"
)

// MixReport is how well a model predicts measured mixes.
type MixReport struct {
	Model string
	// Predictor names how the mixes were predicted ("bottleneck bound" by
	// default); Fallback counts those it predicted by the model's bound
	// instead (see MixPrediction).
	Predictor string
	Fallback  int
	// N is the number of mixes predicted; Missing those naming a form the
	// model lacks (not predicted).
	N, Missing int
	// Within is the number of mixes predicted within Tolerance (relative).
	Within    int
	Tolerance float64
	// MeanAbs, Median and P90 summarise the absolute relative error; Bias
	// is the mean signed error (positive: the model predicts too slow).
	MeanAbs, Median, P90, Bias float64
	// CrossWidth and CrossWidthWithin count the mixes of 512-bit work
	// with narrower vector forms (see wide512.go) and those within
	// Tolerance.
	CrossWidth, CrossWidthWithin int
	// Mixes are the predictions, worst first.
	Mixes []MixResult
	// MissingForms are forms the model lacked, with how many mixes they cost.
	MissingForms map[string]int
	// ByMemory scores the mixes by how they touch memory (registers only,
	// loads, stores, read-modify-writes and their combinations), ByBound
	// by what bounds their prediction (ports, dispatch, a form's own
	// throughput, the store commit; for a simulation its code's static
	// bound), ByDomain by the register domains of their forms (integer
	// only, FP/vector only, both); the most numerous group first.
	ByMemory, ByBound, ByDomain []GroupScore
	// Repeat is how far the random mixes' two rounds agree where the
	// results hold both (characterize's validation draw): the reach of
	// any model's score on them (RepeatOf).
	Repeat *DrawRepeat `json:",omitempty"`
}

// MixResult is one mix's prediction.
type MixResult struct {
	Parts     []MixPart
	Measured  float64 // cycles per copy
	Predicted float64
	Error     float64 // (predicted - measured) / measured
	Bound     string  // what limits the prediction
	// Index is the mix's place among the mixes evaluated (WithinEach).
	Index int `json:"-"`
}

// Fraction is Within / N.
func (r *MixReport) Fraction() float64 {
	if r.N == 0 {
		return 0
	}
	return float64(r.Within) / float64(r.N)
}

// Summary renders the report with the n worst mixes.
func (r *MixReport) Summary(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %s: %d mixes, %d (%.1f%%) predicted within %s; |error| mean %s, median %s, p90 %s; bias %+.1f%%\n",
		r.Model, r.N, r.Within, 100*r.Fraction(), formatPct(r.Tolerance), formatPct(r.MeanAbs), formatPct(r.Median), formatPct(r.P90), 100*r.Bias)
	if r.Predictor != "" {
		fmt.Fprintf(&b, "predicted by the %s", r.Predictor)
		if r.Fallback > 0 {
			fmt.Fprintf(&b, "; %d mixes by the bottleneck bound (no machine code in their results, or none the model simulates)", r.Fallback)
		}
		b.WriteString("\n")
	}
	if r.CrossWidth > 0 {
		fmt.Fprintf(&b, "  of which %d hold 512-bit work beside narrower vector forms: %d (%.1f%%) within, the other %d: %d (%.1f%%) within\n",
			r.CrossWidth, r.CrossWidthWithin, 100*float64(r.CrossWidthWithin)/float64(r.CrossWidth),
			r.N-r.CrossWidth, r.Within-r.CrossWidthWithin, 100*float64(r.Within-r.CrossWidthWithin)/float64(max(1, r.N-r.CrossWidth)))
	}
	for _, line := range []string{groupLine("by memory access", r.ByMemory), groupLine("by register domain", r.ByDomain), groupLine("by bound", r.ByBound)} {
		if line != "" {
			b.WriteString(line + "\n")
		}
	}
	if d := r.Repeat; d != nil {
		fmt.Fprintf(&b, "the draw's two rounds agree within %s of each other on %.1f%% of %d mixes: the reach of any model's score\n", formatPct(d.Tolerance), 100*d.Within, d.N)
	}
	if r.Missing > 0 {
		var forms []string
		for f := range r.MissingForms {
			forms = append(forms, f)
		}
		sort.Slice(forms, func(i, j int) bool { return r.MissingForms[forms[i]] > r.MissingForms[forms[j]] })
		if len(forms) > 5 {
			forms = forms[:5]
		}
		fmt.Fprintf(&b, "%d mixes not predicted: forms missing from the model (%s)\n", r.Missing, strings.Join(quoteAll(forms), ", "))
	}
	for i, m := range r.Mixes {
		if i == n {
			break
		}
		fmt.Fprintf(&b, "  %+7.1f%%  measured %-8s predicted %-8s (%s)  %s\n", 100*m.Error, FormatNum(m.Measured), FormatNum(m.Predicted), m.Bound, MixString(m.Parts))
	}
	return b.String()
}

// EvaluateMixes predicts every port-conflict mix in the results (those
// with a portlab mix list) with the model and compares with the measured
// cycles per copy: the validation of a built model on mixes it was not
// fitted to (for example Build's held-out mixes, or a separate sweep of
// random mixes of 2-4 forms). tolerance is the relative error that counts
// as a good prediction (0: 10 %).
func EvaluateMixes(m *Model, bs []*results.Benchmark, tolerance float64, which MixSet) *MixReport {
	return EvaluateMixesWith(m, bs, tolerance, which, "", nil)
}

// MixPrediction is a mix's predicted cycles per copy and what limits it.
// Fallback marks a prediction by the model's bottleneck bound from a
// predictor that could not use the mix otherwise (a simulator given a mix
// without machine code).
type MixPrediction struct {
	Cycles   float64
	Bound    string
	Fallback bool
}

// MixPredictor predicts one measured mix.
type MixPredictor func(mx *MixMeasurement) (MixPrediction, error)

// BoundPredictor predicts mixes by the model's bottleneck bound (ports,
// dispatch, the forms' own throughputs; Predictor.PredictWithOverhead)
// and the commit of the mix's stores where its machine code is known
// (MixMeasurement.StoreCommitCycles): what model build fits.
func BoundPredictor(m *Model) MixPredictor {
	pred := NewPredictor(m)
	return func(mx *MixMeasurement) (MixPrediction, error) {
		pr, err := pred.PredictWithOverhead(mx.Parts, mx.Overhead)
		if err != nil {
			return MixPrediction{}, err
		}
		out := MixPrediction{Cycles: pr.Cycles, Bound: pr.Bound}
		if c := mx.StoreCommitCycles(m.StoreCommit); c > out.Cycles*(1+1e-9) {
			out.Cycles, out.Bound = c, "store commit"
		}
		return out, nil
	}
}

// EvaluateMixesWith is EvaluateMixes with another predictor (nil: the
// bottleneck bound), named in the report.
func EvaluateMixesWith(m *Model, bs []*results.Benchmark, tolerance float64, which MixSet, name string, predict MixPredictor) *MixReport {
	ms := CollectMeasurements(bs, CollectOptions{})
	var mixes []*MixMeasurement
	if which != RandomMixesOnly {
		mixes = append(mixes, ms.Mixes...)
	}
	if which != PortMixesOnly {
		mixes = append(mixes, ms.RandomMixes...)
	}
	r := EvaluateMixMeasurementsWith(m, mixes, tolerance, name, predict)
	if which != PortMixesOnly {
		r.Repeat = RepeatOf(bs, tolerance)
	}
	return r
}

// MixSet selects the mixes EvaluateMixes scores.
type MixSet int

// Mix sets: every mix, the mixes model build fits (port-conflict mixes of
// a form with a probe, and random mixes measured for fitting, kind
// fit-mix), or the random mixes measured for validation (kind random-mix).
const (
	AllMixes MixSet = iota
	PortMixesOnly
	RandomMixesOnly
)

// EvaluateMixMeasurements is EvaluateMixes on collected mixes.
func EvaluateMixMeasurements(m *Model, mixes []*MixMeasurement, tolerance float64) *MixReport {
	return EvaluateMixMeasurementsWith(m, mixes, tolerance, "", nil)
}

// WithinEach says for each of the n mixes evaluated (in the order
// EvaluateMixMeasurements was given them) whether the report's model
// predicted it within the tolerance (false where it could not predict
// it): for paired comparisons of two models on one draw (PairOutcomes).
func (r *MixReport) WithinEach(n int) []bool {
	out := make([]bool, n)
	for _, x := range r.Mixes {
		if x.Index < n {
			out[x.Index] = math.Abs(x.Error) <= r.Tolerance
		}
	}
	return out
}

// Paired is two models' predictions of the same mixes, paired mix by
// mix: N mixes both predicted, OnlyA predicted within tolerance by the
// first alone, OnlyB by the second alone, and P the one-sided sign test's
// p-value for the model with more of them (the chance that of the
// OnlyA+OnlyB mixes only one predicts, each a fair coin's toss, as many
// or more fall its way; 1 when they tie): a draw of a few hundred mixes
// separates two models a few mixes apart no better than chance.
type Paired struct {
	N, OnlyA, OnlyB int
	P               float64
}

// PairReports pairs two reports on the same mixes (EvaluateMixes or
// EvaluateMixMeasurements with one tolerance), by each mix's parts and
// measured cycles; mixes only one report holds are left out.
func PairReports(a, b *MixReport) Paired {
	key := func(x MixResult) string { return fmt.Sprintf("%s@%g", MixString(x.Parts), x.Measured) }
	in := map[string][]bool{}
	for _, x := range b.Mixes {
		k := key(x)
		in[k] = append(in[k], math.Abs(x.Error) <= b.Tolerance)
	}
	var wa, wb []bool
	for _, x := range a.Mixes {
		k := key(x)
		if q := in[k]; len(q) > 0 {
			wa, wb = append(wa, math.Abs(x.Error) <= a.Tolerance), append(wb, q[0])
			in[k] = q[1:]
		}
	}
	return PairOutcomes(wa, wb)
}

// PairOutcomes is Paired for two models' outcomes on the same mixes, in
// one order (MixReport.WithinEach).
func PairOutcomes(a, b []bool) Paired {
	p := Paired{N: min(len(a), len(b))}
	for k := 0; k < p.N; k++ {
		switch {
		case a[k] && !b[k]:
			p.OnlyA++
		case b[k] && !a[k]:
			p.OnlyB++
		}
	}
	p.P = stats.SignTest(max(p.OnlyA, p.OnlyB), min(p.OnlyA, p.OnlyB))
	if p.OnlyA == p.OnlyB {
		p.P = 1
	}
	return p
}

// EvaluateMixMeasurementsWith is EvaluateMixMeasurements with another
// predictor (nil: the bottleneck bound), named in the report.
func EvaluateMixMeasurementsWith(m *Model, mixes []*MixMeasurement, tolerance float64, name string, predict MixPredictor) *MixReport {
	if tolerance <= 0 {
		tolerance = 0.10
	}
	if predict == nil {
		predict, name = BoundPredictor(m), "bottleneck bound"
	}
	r := &MixReport{Model: m.Label(), Predictor: name, Tolerance: tolerance, MissingForms: map[string]int{}}
	var abs []float64
	for i, mx := range mixes {
		if mx.Cycles <= 0 {
			continue
		}
		missing := false
		for _, p := range mx.Parts {
			if _, ok := m.Lookup(p.Form); !ok {
				r.MissingForms[p.Form]++
				missing = true
			}
		}
		if missing {
			r.Missing++
			continue
		}
		pr, err := predict(mx)
		if err != nil {
			r.Missing++
			continue
		}
		if pr.Fallback {
			r.Fallback++
		}
		e := (pr.Cycles - mx.Cycles) / mx.Cycles
		r.Mixes = append(r.Mixes, MixResult{Parts: mx.Parts, Measured: mx.Cycles, Predicted: pr.Cycles, Error: e, Bound: pr.Bound, Index: i})
		r.N++
		cross := isCrossWidth(mx)
		if cross {
			r.CrossWidth++
		}
		if math.Abs(e) <= tolerance {
			r.Within++
			if cross {
				r.CrossWidthWithin++
			}
		}
		abs = append(abs, math.Abs(e))
		r.MeanAbs += math.Abs(e)
		r.Bias += e
	}
	if r.N > 0 {
		r.MeanAbs /= float64(r.N)
		r.Bias /= float64(r.N)
		sort.Float64s(abs)
		r.Median = stats.Median(abs)
		r.P90 = abs[int(math.Ceil(0.9*float64(len(abs))))-1]
	}
	sort.SliceStable(r.Mixes, func(i, j int) bool { return math.Abs(r.Mixes[i].Error) > math.Abs(r.Mixes[j].Error) })
	r.ByMemory, r.ByBound, r.ByDomain = byMemory(r.Mixes, tolerance), byBound(r.Mixes, tolerance), byDomain(r.Mixes, tolerance)
	return r
}
