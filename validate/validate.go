// Package validate closes portlab's loop: it measures real kernels on the
// host (BHive's way: the block repeated at two lengths, the difference over
// the extra copies, registers set up as for snippets and pointer registers
// reloaded every iteration so they cannot run away), predicts the same
// kernels with portlab's models and with peers (llvm-mca), and scores every
// predictor: mean absolute percentage error, Kendall's tau, the worst
// kernels, and the bottleneck each prediction named.
package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"portlab/analysis/input"
	"portlab/isa"
	"portlab/measure"
)

// Kernel is one region of a kernel file.
type Kernel struct {
	Name   string // file base name, plus ":region" when the file has several
	File   string
	Region *input.Region
	Source string // Intel-syntax text of the region (what is measured)
}

// Load reads kernel files (assembly with optional LLVM-MCA-BEGIN/END
// regions, ELF objects, or hex with hex=true) into kernels, one per region.
func Load(paths []string, opt input.Options) ([]*Kernel, error) {
	return LoadFS(nil, paths, opt)
}

// LoadFS is Load reading the paths from fsys (nil: the file system).
func LoadFS(fsys fs.FS, paths []string, opt input.Options) ([]*Kernel, error) {
	var out []*Kernel
	for _, p := range paths {
		var data []byte
		var err error
		if fsys == nil {
			data, err = os.ReadFile(p)
		} else {
			data, err = fs.ReadFile(fsys, p)
		}
		if err != nil {
			return nil, err
		}
		regions, err := input.Read(p, data, opt, nil)
		if err != nil {
			return nil, err
		}
		base := p[strings.LastIndexByte(p, '/')+1:]
		for _, r := range regions {
			if len(r.Insts) == 0 {
				continue
			}
			name := strings.TrimSuffix(base, ".s")
			if len(regions) > 1 || (r.Name != "" && r.Name != name) {
				name += ":" + r.Label()
			}
			var lines []string
			for _, in := range r.Insts {
				lines = append(lines, in.Intel())
			}
			out = append(out, &Kernel{Name: name, File: p, Region: r, Source: strings.Join(lines, "\n") + "\n"})
		}
	}
	return out, nil
}

// Measured is a kernel's measured steady-state cost.
type Measured struct {
	Cycles   float64 // cycles per iteration (the kept pass's estimate)
	Min, Max float64
	Clean    int
	Reps     int
	// Passes are the cycles per iteration of each pass (each in a worker
	// process of its own; Cycles is the lower-quartile one), when there
	// were several.
	Passes []float64
	// Copies is the kernel's copies in the short body. Every kernel is
	// also measured at a second length (LongerCopies copies, half as many
	// again) in the same passes (measure.Options.LengthCheck): Longer is
	// the cycles per iteration there, PassAgree which passes are used:
	// their two lengths within 2 % of each other, or one function off the
	// line of the other three. Cycles comes from those
	// passes where there are any.
	Copies, LongerCopies int
	Longer               float64
	PassAgree            []bool // by pass, as Passes: the pass is used (measure.LengthCheck.Agree)
	// Fitted is, by pass, the cycles per iteration a used pass gave: its
	// own where its lengths agree, the intact pair's where one function
	// ran off the line of the other three (measure.LengthCheck.Fitted).
	Fitted   []float64
	Warnings []string
	Err      error
}

// Used is how many passes were used (PassAgree).
func (m Measured) Used() int {
	n := 0
	for _, a := range m.PassAgree {
		if a {
			n++
		}
	}
	return n
}

// LengthDependent reports whether no pass read the kernel's two body
// lengths alike: its steady state depends on how many copies the loop
// holds (a store-bound stream and the pointer reset that ends every
// iteration), so Cycles is the cost at Copies copies only.
func (m Measured) LengthDependent() bool {
	return m.Err == nil && m.Longer > 0 && m.Used() == 0 && len(m.Passes) > 0
}

// PassSpread is how far above its fastest pass a kernel's kept pass (the
// lower quartile, measure.Options.LowerQuartilePass) may be before the
// report names it: on the Zen 3 guest with a busy neighbour (2026-11-29)
// 30 of the 57 kernels had a pass 5 % slower than their fastest, most of
// them one disturbed pass; in 11 the median was (gcc_cmul_ymm 1.85-3.40
// cycles by pass, the median 3.38; mixed_int_fp_tput 3.93-6.10, 6.09),
// and xcheck's processes read those near the fastest pass.
const PassSpread = 0.05

// Spread returns the fastest and slowest pass, and whether the kept pass
// is more than PassSpread above the fastest. Where some passes are used
// (their two body lengths alike, or a function off the line of the other
// three), only those count, with the value each gave (Fitted): the others
// are not kept (Disagreed).
func (m Measured) Spread() (lo, hi float64, wide bool) {
	ps := m.Passes
	if m.Used() > 0 && len(m.PassAgree) == len(m.Passes) {
		ps = nil
		for i, v := range m.Passes {
			if m.PassAgree[i] {
				if i < len(m.Fitted) && m.Fitted[i] > 0 {
					v = m.Fitted[i]
				}
				ps = append(ps, v)
			}
		}
	}
	if len(ps) < 2 {
		return 0, 0, false
	}
	lo, hi = slices.Min(ps), slices.Max(ps)
	return lo, hi, lo > 0 && m.Cycles > lo*(1+PassSpread)
}

// spreadCause says why a kernel's passes may spread (Spread): where some
// passes read the two loop lengths apart (Disagreed), the kernel settles
// into more than one steady state and the spread is its own; otherwise a
// neighbour busy through most passes and a state of the core that lasts
// a pass look alike from inside the guest (on the Zen 4 guest
// gcc_cmul_ymm read 1.69-2.15 cycles from pass to pass with every
// canary clear), and only another run tells them apart.
func (m Measured) spreadCause() string {
	if n, _, _ := m.Disagreed(); n > 0 {
		return fmt.Sprintf("it settles into more than one steady state here (%d of its passes read its two loop lengths apart)", n)
	}
	return "it ran slower in most passes here: a neighbour busy through them, or a steady state of the core that lasts a pass (run it again to tell them apart)"
}

// Disagreed returns the passes, of a kernel where some were used, that
// were not (Spread), with their range.
func (m Measured) Disagreed() (n int, lo, hi float64) {
	if m.Used() == 0 || len(m.PassAgree) != len(m.Passes) {
		return 0, 0, 0
	}
	lo = math.Inf(1)
	for i, v := range m.Passes {
		if !m.PassAgree[i] {
			n++
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if n == 0 {
		lo = 0
	}
	return n, lo, hi
}

// Unsupported returns why the host (has) cannot run kernel k: the first
// instruction whose form needs a CPU feature the host lacks, with its
// position; "" when every instruction can run.
func Unsupported(k *Kernel, has func(string) bool) string {
	if has == nil {
		return ""
	}
	for _, in := range k.Region.Insts {
		if in.Form == nil {
			continue
		}
		if miss := in.Form.MissingFeatures(has); len(miss) > 0 {
			return fmt.Sprintf("%s: %s needs %s, which this host lacks", in.Pos, in.Form.Name(), strings.Join(miss, ", "))
		}
	}
	return ""
}

// Measure times kernels on the host: cycles per iteration of each block.
// Kernels using instructions the host lacks are not run (they would die of
// SIGILL); their error names the instruction and the missing feature.
func Measure(eng *measure.Engine, ks []*Kernel, o measure.Options) []Measured {
	out := make([]Measured, len(ks))
	var snips []*measure.Snippet
	var idx []int
	for i, k := range ks {
		if why := Unsupported(k, eng.Host.Has); why != "" {
			out[i].Err = errors.New(why)
			continue
		}
		idx = append(idx, i)
		snips = append(snips, &measure.Snippet{
			Name:          k.Name,
			Source:        k.Source,
			Instructions:  len(k.Region.Insts),
			ResetPointers: true,
			Info:          "kernel " + k.Name,
		})
	}
	if o.Mode == "" {
		o.Mode = "inverse_throughput"
	}
	// Two body lengths in every pass: a pass whose N- and 2N-copy
	// functions ran in different states reads a difference that is no
	// cost of the kernel (docs/method.md, "Measuring kernels").
	o.LengthCheck = true
	if len(snips) == 0 {
		return out
	}
	for j, m := range eng.MeasureAll(snips, o, nil) {
		var passes []float64
		for _, v := range m.PassMedians {
			passes = append(passes, v*float64(snips[j].Instructions))
		}
		out[idx[j]] = Measured{Cycles: m.PerSnippet.Median, Min: m.PerSnippet.Min, Max: m.PerSnippet.Max,
			Clean: m.Clean, Reps: m.Reps, Passes: passes, Copies: m.Copies, Warnings: m.Warnings, Err: m.Err}
		if l := m.Length; l != nil {
			out[idx[j]].LongerCopies, out[idx[j]].Longer = l.Copies, l.Value
			out[idx[j]].PassAgree, out[idx[j]].Fitted = l.Agree, l.Fitted
		}
	}
	return out
}

// Prediction is a predictor's answer for one kernel.
type Prediction struct {
	Cycles     float64 // cycles per iteration
	Bottleneck string
	Err        error
}

// Predictor predicts kernels.
type Predictor interface {
	Name() string
	Predict(ks []*Kernel) []Prediction
}

// Row is one kernel's line in a validation report.
type Row struct {
	Kernel      string
	Measured    Measured
	Predictions map[string]Prediction // by predictor name
}

// Score summarises one predictor over the kernels both it and the
// measurement could handle.
type Score struct {
	Predictor string
	N         int     // kernels scored
	Failed    int     // kernels the predictor could not predict
	MAPE      float64 // mean absolute percentage error, percent
	Median    float64 // median absolute percentage error, percent
	Tau       float64 // Kendall's tau-b between measured and predicted (KendallTauB)
	Within10  int     // kernels within 10%
	Worst     []string
}

// Report is a whole validation run.
type Report struct {
	Host       string
	Predictors []string
	Rows       []*Row
	Scores     []Score
	// Date is when the kernels were measured (RFC 3339), Command the
	// command line that reproduces the report; the reports give both.
	Date    string
	Command string
}

// Run measures and predicts every kernel and scores the predictors.
func Run(eng *measure.Engine, ks []*Kernel, preds []Predictor, o measure.Options, host string) *Report {
	date := time.Now().UTC().Format(time.RFC3339)
	rep := Build(ks, Measure(eng, ks, o), preds, host)
	rep.Date = date
	return rep
}

// Build predicts every kernel, pairs the predictions with the kernels'
// measurements (meas, in the order of ks) and scores the predictors.
func Build(ks []*Kernel, meas []Measured, preds []Predictor, host string) *Report {
	rep := &Report{Host: host}
	for _, k := range ks {
		rep.Rows = append(rep.Rows, &Row{Kernel: k.Name, Predictions: map[string]Prediction{}})
	}
	for i := range ks {
		rep.Rows[i].Measured = meas[i]
	}
	for _, p := range preds {
		rep.Predictors = append(rep.Predictors, p.Name())
		for i, pr := range p.Predict(ks) {
			rep.Rows[i].Predictions[p.Name()] = pr
		}
	}
	for _, p := range rep.Predictors {
		rep.Scores = append(rep.Scores, score(p, rep.Rows))
	}
	return rep
}

// APE is the absolute percentage error of a prediction.
func APE(pred, meas float64) float64 { return 100 * math.Abs(pred-meas) / meas }

func score(name string, rows []*Row) Score {
	s := Score{Predictor: name}
	var xs, ys, apes []float64
	type worst struct {
		k   string
		ape float64
	}
	var ws []worst
	for _, r := range rows {
		p, ok := r.Predictions[name]
		if r.Measured.Err != nil || r.Measured.Cycles <= 0 {
			continue
		}
		if !ok || p.Err != nil || p.Cycles <= 0 {
			s.Failed++
			continue
		}
		a := APE(p.Cycles, r.Measured.Cycles)
		apes = append(apes, a)
		xs = append(xs, r.Measured.Cycles)
		ys = append(ys, p.Cycles)
		if a <= 10+1e-9 {
			s.Within10++
		}
		ws = append(ws, worst{r.Kernel, a})
	}
	s.N = len(apes)
	if s.N == 0 {
		return s
	}
	s.MAPE = stat.Mean(apes, nil)
	sorted := append([]float64(nil), apes...)
	sort.Float64s(sorted)
	s.Median = stat.Quantile(0.5, stat.Empirical, sorted, nil)
	if s.N > 1 {
		s.Tau = KendallTauB(xs, ys)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].ape > ws[j].ape })
	for i := 0; i < len(ws) && i < 5; i++ {
		s.Worst = append(s.Worst, fmt.Sprintf("%s (%.0f%%)", ws[i].k, ws[i].ape))
	}
	return s
}

// KendallTauB returns Kendall's tau-b rank correlation of x and y: (C-D)
// / sqrt((C+D+Ty)(C+D+Tx)), with C and D the concordant and discordant
// pairs and Tx, Ty the pairs tied in x only and in y only (the variant
// SciPy's kendalltau and R's cor(method="kendall") compute). Predictions
// tie often (two 4-cycle chains both predicted 4.03); tau-b leaves such
// pairs out rather than counting them as agreeing or disagreeing by the
// order the kernels came in, as gonum's stat.Kendall (tau-a, sign-bit
// comparison) does. 0 when either side is constant.
func KendallTauB(x, y []float64) float64 {
	var c, d, tx, ty float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case (dx > 0) == (dy > 0):
				c++
			default:
				d++
			}
		}
	}
	den := math.Sqrt((c + d + tx) * (c + d + ty))
	if den == 0 {
		return 0
	}
	return (c - d) / den
}

// instsOf returns a kernel's instructions.
func instsOf(k *Kernel) []*isa.Inst { return k.Region.Insts }
