package modeldb

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"portlab/isa"
)

// Mask writes: on the Zen 4 guest (AuthenticAMD-19-11-1) a compare into a
// mask register (vpcmpeqb k, xmm, xmm) runs on the multiply pipes and
// korw on the add pipes, two a cycle each alone, yet together they take
// the sum of their times: every write to a mask register takes one of two
// slots a cycle, whichever pipe computes it, and a 512-bit compare two
// (testdata/experiments/mask_writes.s). No port mapping of the two forms
// says it without also saying that each conflicts with the other's pipes,
// which it does not. The builder adds the slots as ports of their own
// (MaskWritePort.0, ...) where this host's mask-write streams show them
// (MaskWritesKind), and a use of them to every form that writes a mask
// register.

// MaskWritesKind is the result kind of the mask-write streams
// (gen.MaskWriteBenches), by Operands: MaskWritesLogic (korw alone),
// MaskWritesCompare (a compare into a mask alone), MaskWritesPair (the
// two in turn), and the same with the 512-bit compare
// (MaskWritesCompareZMM, MaskWritesPairZMM). Each value is cycles an
// instruction.
const MaskWritesKind = "mask-writes"

// The mask-write streams.
const (
	MaskWritesLogic      = "korw"
	MaskWritesCompare    = "compare"
	MaskWritesPair       = "compare and korw"
	MaskWritesCompareZMM = "512-bit compare"
	MaskWritesPairZMM    = "512-bit compare and korw"
)

// The forms of the mask-write streams below 512 bits; the streams hang
// off the first (gen.MaskWriteBenches).
const (
	MaskWritesLogicForm   = "korw k, k, k"
	MaskWritesCompareForm = "vpcmpeqd k, xmm, xmm"
)

// MaskWritePort is the name of the mask-write slots' ports, numbered
// MaskWritePort.0, MaskWritePort.1, ... as the load ports are.
const MaskWritePort = "MaskWrite"

// MaskWritesRun is the mask-write streams' cycles an instruction (0: not
// measured); Noisy marks streams of which one never converged.
type MaskWritesRun struct {
	Logic, Compare, Pair, CompareZMM, PairZMM float64
	Noisy                                     bool
}

// maskWritesShow is how far toward the sum of the two forms' times the
// pair must run, from the time disjoint pipes allow, for the slots to
// count: half the way (the Zen 4 guest ran all of it; a pair on disjoint
// pipes that shares nothing runs at none of it).
const maskWritesShow = 0.5

// maskSlotsOf reads the streams: the slots a cycle (0: the pair shows no
// shared limit) and what a 512-bit write takes of them (1 when not
// measured). The pair's n + n instructions take n*max(logic, compare) on
// disjoint pipes and n*(logic+compare) where every write takes a slot of
// a shared unit; its cycles an instruction are half that.
func maskSlotsOf(x *MaskWritesRun) (slots int, wide float64) {
	if x == nil || x.Logic <= 0 || x.Compare <= 0 || x.Pair <= 0 {
		return 0, 1
	}
	disjoint := max(x.Logic, x.Compare) / 2
	shared := (x.Logic + x.Compare) / 2
	if x.Pair-disjoint < maskWritesShow*(shared-disjoint) {
		return 0, 1
	}
	slots = max(1, int(math.Round(1/x.Pair)))
	wide = 1
	if x.PairZMM > 0 {
		// n 512-bit compares and n korw take n*(w+1)/slots cycles.
		w := 2*x.PairZMM*float64(slots) - 1
		wide = max(1, math.Round(w))
	}
	return slots, wide
}

// writesMask reports whether a form writes a mask register: its first
// operand is one and is written (kortest and ktest only read theirs).
func writesMask(f *isa.Form) bool {
	return len(f.Operands) > 0 && f.Operands[0].Kind == isa.KindK && f.Operands[0].Access&(isa.Write|isa.CondWrite) != 0
}

// isMaskWritePort reports whether a port is one of the mask-write slots.
func isMaskWritePort(p string) bool {
	return strings.HasPrefix(p, MaskWritePort+".")
}

// withoutMaskWrites returns m without the mask-write slots (its ports and
// every use of them), m itself when it has none: a build measures them on
// its own host, never inherits them from its base.
func withoutMaskWrites(m *Model) *Model {
	if m == nil || !slices.ContainsFunc(m.Ports, isMaskWritePort) {
		return m
	}
	c := m.Clone()
	c.Ports = slices.DeleteFunc(c.Ports, isMaskWritePort)
	strip := func(pp PortPressure) PortPressure {
		return slices.DeleteFunc(pp, func(u PortUse) bool { return slices.ContainsFunc(u.Ports, isMaskWritePort) })
	}
	for _, e := range c.Forms {
		e.PortPressure = strip(e.PortPressure)
		for _, a := range e.Addressing {
			a.PortPressure = strip(a.PortPressure)
		}
	}
	return c
}

// maskWrites adds the mask-write slots where the streams show them.
func (b *builder) maskWrites(r *Pass) error {
	x := b.ms.MaskWrites
	if x == nil || x.Pair <= 0 {
		r.Evidence = "mask-write streams not measured (hosts without AVX-512, or sweeps that left korw out)"
		return nil
	}
	r.Evidence = fmt.Sprintf("korw %.3f, a compare into a mask %.3f cycles an instruction alone, the two in turn %.3f (disjoint pipes allow %.3f, one shared unit %.3f)",
		x.Logic, x.Compare, x.Pair, max(x.Logic, x.Compare)/2, (x.Logic+x.Compare)/2)
	if x.PairZMM > 0 {
		r.Evidence += fmt.Sprintf("; the 512-bit compare %.3f alone, with korw %.3f", x.CompareZMM, x.PairZMM)
	}
	if x.Noisy {
		r.Evidence += "; a stream never converged: no slots"
		return nil
	}
	slots, wide := maskSlotsOf(x)
	if slots == 0 {
		r.Evidence += ": no shared limit"
		return nil
	}
	// Where the fitted ports already give the pair its time (the two
	// forms share a pipe on this host), the slots would add a limit the
	// pair does not show.
	pair := []MixPart{{Form: MaskWritesLogicForm, Count: 8}, {Form: MaskWritesCompareForm, Count: 8}}
	if c := PredictThroughput(b.m, pair) / 16; c >= 0.9*x.Pair {
		r.Evidence += fmt.Sprintf(": the fitted ports give the pair %.3f already (they share a pipe here)", c)
		return nil
	}
	var ports []string
	for k := 0; k < slots; k++ {
		ports = append(ports, fmt.Sprintf("%s.%d", MaskWritePort, k))
	}
	b.m.Ports = append(b.m.Ports, ports...)
	n, capped := 0, 0
	for _, e := range b.m.Forms {
		f, ok := isa.Lookup(e.Form)
		if !ok {
			continue
		}
		if !writesMask(f) {
			continue
		}
		use := 1.0
		if Is512BitOp(f) {
			use = wide
		}
		// A form alone never runs slower than measured for the slots.
		if e.Throughput > 0 && use/float64(slots) > e.Throughput*1.02 {
			use = e.Throughput * float64(slots)
			capped++
		}
		e.PortPressure = append(e.PortPressure, PortUse{Cycles: roundCycles(use), Ports: ports})
		n++
	}
	r.Applied = n > 0
	ch := fmt.Sprintf("%d mask-write slots a cycle (ports %s), a 512-bit write taking %s: a use of them on %d forms that write a mask register",
		slots, strings.Join(ports, ", "), FormatNum(wide), n)
	if capped > 0 {
		ch += fmt.Sprintf(" (%d of them measured faster alone take less)", capped)
	}
	r.Changes = append(r.Changes, ch)
	return nil
}
