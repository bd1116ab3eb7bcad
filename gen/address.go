package gen

import (
	"fmt"
	"strings"

	"portlab/isa"
	"portlab/modeldb"
	"portlab/results"
)

// addressOf renders an address of the given shape (isa.AddressShapes)
// from a base and an index register: scaled by 2 where the shape scales,
// displacement 8 where it has one.
func addressOf(shape, base, index string) string {
	var parts []string
	for _, c := range strings.Split(shape, "+") {
		switch c {
		case "base":
			parts = append(parts, base)
		case "index":
			parts = append(parts, index)
		case "index*s":
			parts = append(parts, index+"*2")
		case "disp":
			parts = append(parts, "8")
		}
	}
	return "[" + strings.Join(parts, "+") + "]"
}

// AddressShapeBenches returns, for lea, a latency chain and a throughput
// stream in every address shape (isa.AddressShapes): cores run some shapes
// slower (a three-component lea on Zen 4: 2 cycles, two a cycle), which the
// form's own benchmarks (base+index latency, base+disp throughput) cannot
// show. Each bench's Addressing names its shape; nil for other forms.
func AddressShapeBenches(f *isa.Form) []*Bench {
	if f.Mnemonic != "lea" || len(f.Operands) != 2 || f.Operands[1].Kind != isa.KindM {
		return nil
	}
	dk := f.Operands[0].Kind
	if dk != isa.KindR16 && dk != isa.KindR32 && dk != isa.KindR64 {
		return nil
	}
	var out []*Bench
	// Never-written inputs: rbx (base or index beside the chain) and rdi.
	for _, shape := range isa.AddressShapes {
		// Latency: the destination feeds the next address (the base, or
		// the index where the shape has no base).
		addr, via := addressOf(shape, "rax", "rbx"), "base"
		if !strings.HasPrefix(shape, "base") {
			addr, via = addressOf(shape, "rbx", "rax"), "index"
		}
		lat := latencyBench(f, "mem->0", fmt.Sprintf("latency of %s, address shape %s: the destination is the next address's %s",
			f.Name(), shape, via),
			[]string{fmt.Sprintf("lea %s, %s", isa.GPRName("rax", dk), addr)}, 1)
		lat.Kind, lat.Addressing = KindAddressLatency, shape
		out = append(out, lat)
		// Throughput: independent instances over 8 destinations.
		dsts := []string{"rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11"}
		var lines []string
		for k := 0; k < 16; k++ {
			lines = append(lines, fmt.Sprintf("lea %s, %s", isa.GPRName(dsts[k%len(dsts)], dk), addressOf(shape, "rdi", "rbx")))
		}
		s := newSnippet(f, "throughput "+shape, fmt.Sprintf("throughput of %s, address shape %s: 16 independent instances per copy, destinations rotating over 8 registers", f.Name(), shape), lines, 16)
		out = append(out, &Bench{Form: f, Kind: KindAddressTP, Addressing: shape, Snippet: s, Mode: "inverse_throughput"})
		out = append(out, addressPortBenches(f, shape)...)
	}
	return out
}

// addressProbes are the forms lea is mixed with in each address shape
// (KindAddressPorts), one port kind each on Intel's cores: shifts (ports
// 0 and 6), the multiplier (1), vector ALUs (0, 1, 5), every ALU. Each
// is written with registers of its own: rbx (lea's index) as the only
// source, destinations rotating so that no chain outlasts a copy.
var addressProbes = []struct {
	form string
	line func(k int) string
}{
	{"shl r64, imm8", func(k int) string { return fmt.Sprintf("shl %s, 3", probeRegs[k%len(probeRegs)]) }},
	{"imul r64, r64", func(k int) string { return fmt.Sprintf("imul %s, rbx", probeRegs[k%len(probeRegs)]) }},
	{"paddd xmm, xmm", func(k int) string { return fmt.Sprintf("paddd xmm%d, xmm15", k%8) }},
	{"add r64, r64", func(k int) string { return fmt.Sprintf("add %s, rbx", probeRegs[k%len(probeRegs)]) }},
}

// probeRegs are the address probes' destinations: none of lea's
// (r8-r11), its inputs (rdi, rbx) or the loop register.
var probeRegs = []string{"r12", "r13", "r14", "rbp", "rcx", "rdx", "rsi"}

// addressPortBenches returns lea in one shape mixed with each address
// probe: 8 of each a copy, lea's destinations rotating over r8-r11.
func addressPortBenches(f *isa.Form, shape string) []*Bench {
	dk := f.Operands[0].Kind
	var out []*Bench
	for _, p := range addressProbes {
		var lines []string
		for k := 0; k < 8; k++ {
			lines = append(lines, fmt.Sprintf("lea %s, %s", isa.GPRName([]string{"r8", "r9", "r10", "r11"}[k%4], dk), addressOf(shape, "rdi", "rbx")), p.line(k))
		}
		s := newSnippet(f, "ports "+shape+" with "+p.form, fmt.Sprintf("port conflicts of %s, address shape %s, with %s: 8 of each per copy", f.Name(), shape, p.form), lines, 16)
		out = append(out, &Bench{Form: f, Kind: KindAddressPorts, Addressing: shape, Snippet: s, Mode: "inverse_throughput",
			Mix: []results.MixPart{{Form: f.Name(), Count: 8}, {Form: p.form, Count: 8}}})
	}
	return out
}

// KindLoadAddress is a chain of plain 64-bit loads in one address shape
// (Bench.Addressing, modeldb.LoadAddressShapes): each load's destination,
// zeroed by `and r32, 0` (1 cycle, subtracted), is the next load's index.
// Compared with the base+index chain it shows what a shape adds to the
// load-to-use latency (modeldb.Model.LoadAddressLatency).
const KindLoadAddress = modeldb.LoadAddressKind

// LoadAddressBenches returns, for `mov r64, m64`, a load chain in every
// shape of modeldb.LoadAddressShapes; nil for other forms.
func LoadAddressBenches(f *isa.Form) []*Bench {
	if f.Mnemonic != "mov" || len(f.Operands) != 2 || f.Operands[0].Kind != isa.KindR64 || f.Operands[1].Kind != isa.KindM64 {
		return nil
	}
	a := newAllocator(f)
	r := a.take("gpr", 1)
	if len(r) == 0 {
		return nil
	}
	A := r[0]
	var out []*Bench
	for _, shape := range modeldb.LoadAddressShapes {
		helper := "and " + isa.GPRName(A, isa.KindR32) + ", 0"
		b := latencyBench(f, "mem->0", fmt.Sprintf("load-to-use latency of %s, address shape %s: the destination, zeroed by `%s`, is the next load's index",
			f.Name(), shape, helper),
			[]string{fmt.Sprintf("mov %s, qword ptr %s", A, addressOf(shape, memBase, A)), helper}, 1)
		b.Kind, b.Addressing = KindLoadAddress, shape
		b.Helper, b.HelperFixed = helper, 1
		out = append(out, b)
	}
	return out
}
