package modeldb

import (
	"fmt"
	"strings"

	"portlab/isa"
)

// FalseDependencyOperands returns the operands of f, by index, that a
// false dependency would make it wait for: write-only vector and MMX
// register destinations, the ones the generator's destination chains
// (gen.KindDestChain) time over one register. A destination the form
// reads, one merged under a mask ({k} without {z}) or a general-purpose
// one is none.
func FalseDependencyOperands(f *isa.Form) []int {
	var out []int
	for i, op := range f.Operands {
		switch op.Kind {
		case isa.KindXMM, isa.KindYMM, isa.KindZMM, isa.KindMM:
		default:
			continue
		}
		if op.Access&isa.Write != 0 && op.Access&(isa.Read|isa.CondWrite) == 0 && (!op.Masked || op.Zeroing) {
			out = append(out, i)
		}
	}
	return out
}

// WaitsForDestination reports whether a form's stream over one
// destination register (destChain, cycles an instance) shows it waiting
// for the destination's previous value: more than falseDepMargin times
// its throughput, and slower by falseDepMinCycles or more. The builder's
// false-dependency pass and the generator's mixes (which rotate such
// forms as chained ones) share it.
func WaitsForDestination(destChain, throughput float64) bool {
	return throughput > 0 && destChain > falseDepMargin*throughput && destChain-throughput >= falseDepMinCycles
}

// Thresholds of WaitsForDestination.
const (
	falseDepMargin    = 1.25
	falseDepMinCycles = 0.25
)

// falseDependencies gives a form whose vector or MMX destination is
// write-only the link of its stream over one destination register
// (FormMeasurements.DestChain) as a false dependency where that stream ran
// slower than the form's throughput by the pass's thresholds: register
// renaming gives every instance a fresh register, so a slower stream is a
// form that waits for the old value all the same. A measured form whose
// stream ran at its throughput loses a false dependency its base gave it;
// a form without the measurement keeps its entry's.
func (b *builder) falseDependencies(r *Pass) error {
	measured, waits := 0, 0
	var names []string
	for _, n := range b.names {
		fm := b.ms.Forms[n]
		e, ok := b.m.Lookup(n)
		if !ok || fm == nil || fm.DestChain <= 0 || fm.Throughput <= 0 {
			continue
		}
		f, ok := isa.Lookup(n)
		if !ok || len(FalseDependencyOperands(f)) == 0 {
			continue
		}
		measured++
		e.FalseDependency = 0
		if WaitsForDestination(fm.DestChain, fm.Throughput) {
			e.FalseDependency = round5(fm.DestChain)
			waits++
			if len(names) < 4 {
				names = append(names, fmt.Sprintf("%s %.2f", n, fm.DestChain))
			}
		}
	}
	if measured == 0 {
		r.Evidence = "no stream over one destination register measured (destination-chain results)"
		return nil
	}
	r.Evidence = fmt.Sprintf("%d forms with a write-only vector or MMX destination timed over one destination register, %d of them more than %.2fx their throughput", measured, waits, falseDepMargin)
	if waits > 0 {
		if waits > len(names) {
			names = append(names, "...")
		}
		r.Applied = true
		r.Changes = append(r.Changes, fmt.Sprintf("%d forms wait for their destination (%s)", waits, strings.Join(names, ", ")))
	}
	return nil
}
