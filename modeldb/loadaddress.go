package modeldb

import (
	"fmt"
	"math"
	"strings"

	"portlab/isa"
)

// Load latency by address shape: on the Zen 3 guest (AuthenticAMD-19-1-1)
// a 64-bit load whose address scales its index or adds three components
// takes a cycle longer to use than one with a simple address: chained
// through the index, `mov rax, [rdi+rax]` runs 4.0 cycles a link,
// `[rdi+rax*2]`, `[rdi+rax+8]` and `[rdi+rax*2+8]` 5.0. Every form's
// latency is measured in a simple shape (a pointer chase through `[base]`
// for the plain load, `[base+index]` for the other memory forms), so no
// form's latency shows it. The model keeps the extra cycles per shape
// (Model.LoadAddressLatency), measured by the load-address chains
// (LoadAddressKind), and the kernel analyzer adds them to the path from a
// load's address registers.

// LoadAddressKind is the result kind of the load-address chains
// (gen.LoadAddressBenches): `mov r64, m64` in one address shape (the
// result's Addressing), its destination, zeroed by `and r32, 0`, the next
// load's index.
const LoadAddressKind = "load-address-latency"

// LoadAddressReference is the shape the other shapes are compared with:
// the shape the memory forms' latencies are measured in.
const LoadAddressReference = "base+index"

// LoadAddressShapes are the shapes the chains measure: those with an
// index the chain can feed (index*s+disp would need an absolute
// address; base+disp and base are the pointer chase's).
var LoadAddressShapes = []string{"base+index", "base+index*s", "base+index+disp", "base+index*s+disp"}

// loadAddressShows is how many cycles longer than the reference a shape's
// chain must run for the extra latency to count: converged chains agree
// within a few hundredths of a cycle, and the simulator's latencies are
// whole cycles.
const loadAddressShows = 0.5

// loadAddressLatencyOf derives the extra cycles per shape from the
// measured chains (cycles a link, the `and` subtracted): each shape's
// difference to the reference, rounded, where it is at least
// loadAddressShows; nil when none shows one or the reference is missing.
func loadAddressLatencyOf(lats map[string]float64) map[string]int {
	ref := lats[LoadAddressReference]
	if ref <= 0 {
		return nil
	}
	var out map[string]int
	for shape, v := range lats {
		if shape == LoadAddressReference || v <= 0 || v-ref < loadAddressShows {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[shape] = int(math.Round(v - ref))
	}
	return out
}

func validateLoadAddressLatency(la map[string]int) error {
	for s, n := range la {
		if !isa.ValidAddressShape(s) {
			return fmt.Errorf("load_address_latency: unknown address shape %q (want one of base, base+disp, %s, index*s+disp, rip+disp)", s, strings.Join(LoadAddressShapes, ", "))
		}
		if n < 0 || n > 16 {
			return fmt.Errorf("load_address_latency: %s: %d extra cycles, want 0 to 16", s, n)
		}
	}
	return nil
}

// loadAddressOf says what the model's load_address_latency does to entry
// e (model show), "" where nothing: the rule takes forms that read memory
// (lea reads none).
func (m *Model) loadAddressOf(e *Entry) string {
	if len(m.LoadAddressLatency) == 0 {
		return ""
	}
	f, ok := isa.Lookup(e.Form)
	if !ok || !ReadsMemory(f) {
		return ""
	}
	return "from its address registers, cycles added by address shape: " + extraCyclesText(m.LoadAddressLatency) + " (the model's load_address_latency)"
}

// ReadsMemory tells whether a form loads through an explicit memory
// operand (lea's m is no access).
func ReadsMemory(f *isa.Form) bool {
	for _, op := range f.Operands {
		if op.Kind.IsMemory() && op.Kind != isa.KindM && op.Access&isa.Read != 0 {
			return true
		}
	}
	return false
}
