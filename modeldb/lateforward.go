package modeldb

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"portlab/isa"
)

// Late forwarding: on the Emerald Rapids guest (GenuineIntel-6-cf-2) a
// one-cycle vector integer instruction that reads a result of a
// multiply-class instruction (vpmaddwd, vpmullw, vpmuludq, vcvtdq2ps:
// four cycles or more) directly takes longer on its own chain: a vpaddd
// zmm accumulator fed by vpmaddwd zmm advances every 3.00 cycles, not 1;
// the ymm one every 1.64 (3.00 once 512-bit work runs beside it). An
// instruction between them (vpxord) hides it; the same accumulator fed by
// a one-cycle op or by a load runs at 1.00. No port or latency of either
// form says it. The model keeps the extra cycles per vector width
// (Model.LateForwarding), measured by the late-forwarding chains
// (LateForwardKind), and the kernel analyzer adds them to the consumer's
// result latency.

// LateForwardKind is the result kind of the late-forwarding chains
// (gen.LateForwardBenches): a vpaddd accumulator chain of one width,
// alone or fed by vpmaddwd (Operands LateForwardAlone, LateForwardFed).
const LateForwardKind = "late-forward"

// The late-forwarding chains: alone (each link beside a vpmaddwd whose
// result it does not read), fed (each link reads it), and beside two
// vpmaddwd a link that it does not read (BesideMulticycleDelay).
const (
	LateForwardAlone   = "alone"
	LateForwardFed     = "fed by vpmaddwd"
	LateForwardBeside2 = "beside two vpmaddwd"
)

// LateForwardMinLatency is the execution latency from which a producer
// counts as multiply-class: the delay was measured behind producers of
// 4 to 6 cycles and is absent behind one-cycle ones (behind three-cycle
// shuffles it is partial, and the model leaves it out).
const LateForwardMinLatency = 4

// LateForwardRun is one width's pair of chains: cycles per link alone and
// fed by a multiply-class result, and how far each may be off (the
// estimator's uncertainty; 0 in results files that predate it).
type LateForwardRun struct {
	Alone, Fed                       float64
	AloneUncertainty, FedUncertainty float64
	// Beside2 is the chain beside two vpmaddwd a link (0: not measured).
	Beside2, Beside2Uncertainty float64
}

// lateForwardShows is how many cycles a link the fed chain must take
// longer than the chain alone for the delay to count: converged chains
// agree within a few hundredths of a cycle, the delay measured was 0.44
// cycles and more.
const lateForwardShows = 0.3

// lateForwardingOf derives the extra cycles per width from the measured
// chains: the delay (fed - alone) where it is at least lateForwardShows
// beyond the two chains' uncertainties, rounded up from that threshold to
// whole cycles, which is what the simulator's latencies are (ymm,
// 0.44-0.64 cycles on the Emerald Rapids guest, becomes 1; zmm, 2.00,
// stays 2); nil when no width shows it. On the Zen 3 guest, with the
// neighbour busy, the xmm and ymm chains read 1.00 or 1.31-1.37 a link
// from sweep to sweep, unconverged (fed 1.37 +- 0.25 against alone
// 1.02 +- 0.03): a delay the uncertainty covers is no delay.
func lateForwardingOf(runs map[string]*LateForwardRun) map[string]int {
	var out map[string]int
	for w, r := range runs {
		if r == nil || r.Alone <= 0 || r.Fed <= 0 || r.Fed-r.Alone-r.AloneUncertainty-r.FedUncertainty < lateForwardShows {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[w] = int(math.Ceil(r.Fed - r.Alone - lateForwardShows))
	}
	return out
}

// extraCyclesText is extra cycles by key (a vector width, an address
// shape) as model diff, model show and the build report print them
// ("ymm +1, zmm +2"; "" for none).
func extraCyclesText(extra map[string]int) string {
	return keyedText(extra, func(n int) string { return fmt.Sprintf("+%d", n) })
}

// keyedText prints a header map by sorted key, each value as format
// writes it ("xmm +1, zmm +2"; "" for none).
func keyedText[V any](m map[string]V, format func(V) string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+" "+format(m[k]))
	}
	return strings.Join(parts, ", ")
}

// LateForwardWidths are the widths the header may name.
var LateForwardWidths = []string{"xmm", "ymm", "zmm"}

func validateLateForwarding(lf map[string]int) error {
	return checkKeyed("late_forwarding", "width", lf, LateForwardWidths, 0, 16, func(n int) string { return fmt.Sprintf("%d extra cycles", n) })
}

// checkKeyed checks a header field keyed by vector width or register
// class (late_forwarding, beside_multicycle_delay, load_line_split):
// every key one of allowed, every value from lo to hi, said as show says
// it.
func checkKeyed[V int | float64](field, noun string, m map[string]V, allowed []string, lo, hi V, show func(V) string) error {
	for k, v := range m {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("%s: unknown %s %q (want %s or %s)", field, noun, k, strings.Join(allowed[:len(allowed)-1], ", "), allowed[len(allowed)-1])
		}
		if v < lo || v > hi || v != v { // v != v: NaN
			return fmt.Errorf("%s: %s: %s, want %v to %v", field, k, show(v), lo, hi)
		}
	}
	return nil
}

// VectorDest is the width of a form's first operand when it is a vector
// register ("xmm", "ymm", "zmm"), else "": the width late forwarding
// goes by.
func VectorDest(f *isa.Form) string {
	if f == nil || len(f.Operands) == 0 {
		return ""
	}
	switch f.Operands[0].Kind {
	case isa.KindXMM:
		return "xmm"
	case isa.KindYMM:
		return "ymm"
	case isa.KindZMM:
		return "zmm"
	}
	return ""
}

// lateForwardingOf says what the model's late forwarding does to entry e
// (model show), "" where nothing: the rule takes one-cycle vector forms
// without a memory operand (analysis/lateforward.go).
func (m *Model) lateForwardingOf(e *Entry) string {
	if len(m.LateForwarding) == 0 || math.Round(e.Latency) != 1 {
		return ""
	}
	f, ok := isa.Lookup(e.Form)
	if !ok || f.HasMemory() {
		return ""
	}
	w := VectorDest(f)
	n, wide := m.LateForwarding[w], m.LateForwarding["zmm"]
	if w == "" || (n == 0 && wide == 0) {
		return ""
	}
	s := fmt.Sprintf("+%d cycle(s) on its result when it reads a result of %d-cycle-or-longer vector work directly", n, LateForwardMinLatency)
	if w != "zmm" && wide != n {
		s += fmt.Sprintf(" (+%d beside 512-bit work)", wide)
	}
	return s + " (the model's late_forwarding)"
}
