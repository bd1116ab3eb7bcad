package sweep

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"portlab/gen"
	"portlab/results"
)

// QuickForms are representative forms for a quick host characterisation:
// integer ALU, multiply and divide, loads and stores, scalar and vector
// floating point, shuffles, conversions and AVX-512.
var QuickForms = []string{
	"add r64, r64", "adc r64, r64", "imul r64, r64", "mul r64", "div r64", "shl r64, cl", "popcnt r64, r64",
	"lzcnt r64, r64", "cmovb r64, r64", "lea r64, m", "xor r64, r64", "mov r64, r64",
	"mov r64, m64", "mov m64, r64", "add r64, m64",
	"movaps xmm, xmm", "addsd xmm, xmm", "mulsd xmm, xmm", "divsd xmm, xmm", "sqrtsd xmm, xmm", "cvttsd2si r64, xmm",
	"vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vfmadd231pd ymm, ymm, ymm", "vdivpd ymm, ymm, ymm",
	"vsqrtpd ymm, ymm", "vminpd ymm, ymm, ymm", "vpaddd ymm, ymm, ymm", "vpmulld ymm, ymm, ymm", "vpshufb ymm, ymm, ymm",
	"vpermd ymm, ymm, ymm", "vpxor ymm, ymm, ymm", "vmovq xmm, r64", "vmovapd ymm, m256", "vmovapd m256, ymm",
	"vaddpd zmm, zmm, zmm", "vfmadd231pd zmm, zmm, zmm", "vpternlogd zmm, zmm, zmm, imm8", "vpermt2d zmm, zmm, zmm",
	"vmovapd zmm, m512",
}

// FormSummary is what a set of results says about one form.
type FormSummary struct {
	Form         string
	Latencies    map[string]float64 // by operand pair
	Throughput   float64            // reciprocal, cycles per instruction; NaN if not measured
	Props        []string
	Errors       []string
	Unmeasurable string
	Warnings     int
	// TpUncertainty is the throughput's uncertainty (cycles per
	// instruction; NaN when the result has none), Noisy how many of the
	// form's results did not converge.
	TpUncertainty float64
	Noisy         int
	// Addressing holds lea's figures per address shape (Latencies["mem->0"]
	// and Throughput of each).
	Addressing map[string]*FormSummary
}

// newFormSummary is an empty summary: no latency, throughput NaN.
func newFormSummary(form string) *FormSummary {
	return &FormSummary{Form: form, Latencies: map[string]float64{}, Throughput: math.NaN(), TpUncertainty: math.NaN()}
}

// Latency returns the largest latency over operand pairs (NaN if none).
func (s *FormSummary) Latency() float64 {
	v := math.NaN()
	for _, l := range s.Latencies {
		if math.IsNaN(v) || l > v {
			v = l
		}
	}
	return v
}

// Summarize groups results by form.
func Summarize(bs []*results.Benchmark) []*FormSummary {
	m := map[string]*FormSummary{}
	for _, b := range results.Cleanest(bs) {
		x := b.Portlab
		if x == nil || x.Form == "" || x.Kind == gen.KindHelperRoundTrip || x.Kind == gen.KindPorts {
			continue
		}
		s := m[x.Form]
		if s == nil {
			s = newFormSummary(x.Form)
			m[x.Form] = s
		}
		if len(x.Props) > 0 {
			s.Props = x.Props
		}
		if x.Unmeasurable != "" {
			s.Unmeasurable = x.Unmeasurable
		}
		if b.Error != "" {
			s.Errors = append(s.Errors, b.Error)
			continue
		}
		if len(x.Warnings) > 0 {
			s.Warnings++
		}
		if b.Noisy() {
			s.Noisy++
		}
		switch x.Kind {
		case gen.KindLatency:
			s.Latencies[x.Operands] = x.Median
		case gen.KindThroughput:
			s.Throughput = x.Median
			if x.Converged != nil {
				s.TpUncertainty = x.Uncertainty
			}
		case gen.KindAddressLatency, gen.KindAddressTP:
			if s.Addressing == nil {
				s.Addressing = map[string]*FormSummary{}
			}
			a := s.Addressing[x.Addressing]
			if a == nil {
				a = newFormSummary(x.Form)
				s.Addressing[x.Addressing] = a
			}
			if x.Kind == gen.KindAddressLatency {
				a.Latencies[x.Operands] = x.Median
			} else {
				a.Throughput = x.Median
			}
		}
	}
	out := make([]*FormSummary, 0, len(m))
	for _, s := range m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Form < out[j].Form })
	return out
}

// NoiseLine says in a line how sure a set of results is and what the
// host's noise did to them: results not converged, the share of disturbed
// repetitions, the throughput canary's typical and largest slowdown.
func NoiseLine(bs []*results.Benchmark) string {
	var n, noisy, reps int
	var disturbed float64
	var sibling []float64
	for _, b := range results.Cleanest(bs) {
		x := b.Portlab
		if x == nil || b.Error != "" || x.Noise == nil {
			continue
		}
		n++
		if b.Noisy() {
			noisy++
		}
		reps += x.Reps
		disturbed += x.Noise.Disturbed * float64(x.Reps)
		sibling = append(sibling, x.Noise.Sibling)
	}
	if n == 0 || reps == 0 {
		return ""
	}
	sort.Float64s(sibling)
	return fmt.Sprintf("%d of %d results converged (± is the estimate's uncertainty); %.0f%% of %d repetitions disturbed; throughput canary slowed %.1f%% in the typical result, %.1f%% at most",
		n-noisy, n, 100*disturbed/float64(reps), reps, 100*sibling[len(sibling)/2], 100*sibling[len(sibling)-1])
}

// WriteTable prints one line per form: latency per operand pair,
// reciprocal throughput and properties.
func WriteTable(w io.Writer, sums []*FormSummary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "form\tlatency (operand pairs)\trecip. throughput\tproperties")
	for _, s := range sums {
		var lat []string
		pairs := make([]string, 0, len(s.Latencies))
		for p := range s.Latencies {
			pairs = append(pairs, p)
		}
		sort.Strings(pairs)
		for _, p := range pairs {
			lat = append(lat, fmt.Sprintf("%s %.2f", p, s.Latencies[p]))
		}
		tp := "-"
		if !math.IsNaN(s.Throughput) {
			tp = fmt.Sprintf("%.3f", s.Throughput)
			if !math.IsNaN(s.TpUncertainty) {
				tp += fmt.Sprintf(" ±%.3f", s.TpUncertainty)
			}
		}
		note := strings.Join(s.Props, ", ")
		switch {
		case s.Unmeasurable != "":
			note = "not measured: " + s.Unmeasurable
		case len(s.Errors) > 0:
			note = "error: " + s.Errors[0]
		case s.Noisy > 0:
			note = strings.TrimPrefix(note+", noisy (not converged)", ", ")
		}
		l := strings.Join(lat, ", ")
		if l == "" {
			l = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Form, l, tp, note)
	}
	return tw.Flush()
}
