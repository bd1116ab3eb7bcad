package gen

import (
	"fmt"
	"slices"
	"strings"

	"portlab/isa"
	"portlab/jit"
)

func reads(op isa.Operand) bool  { return op.Access&(isa.Read|isa.CondWrite) != 0 }
func writes(op isa.Operand) bool { return op.Access&(isa.Write|isa.CondWrite) != 0 }

func isReg(cls string) bool { return cls == "gpr" || cls == "vec" || cls == "k" || cls == "mm" }

// Latency returns one benchmark per (source -> destination) operand pair
// that a dependency chain can measure: same-class pairs chain directly
// (alternating two destination registers when the destination is also read,
// so the destination's own chain runs at half speed and does not hide the
// pair's latency); pairs across register classes close the chain with a
// move back whose latency a round-trip calibration gives; a memory source
// gets an address chain for general-register destinations; an operand that
// is only read by flag-writing forms is chained through the flags with adc.
func Latency(f *isa.Form) ([]*Bench, error) {
	var out []*Bench
	ops := f.Operands
	for j, dst := range ops {
		dc := class(dst.Kind)
		if !writes(dst) || !(isReg(dc) || dc == "mem") {
			continue
		}
		for i, src := range ops {
			sc := class(src.Kind)
			if !reads(src) {
				continue
			}
			var b *Bench
			var err error
			switch {
			case dc == "mem" && i == j:
				b, err = memChain(f, j)
			case dc == "mem" && sc == "gpr" && (f.Mnemonic == "mov" || f.Mnemonic == "movnti"):
				b, err = storeReload(f, i, nil)
			case dc == "mem" && sc == "vec":
				lf := VectorReloadOf(f)
				if lf == nil {
					continue
				}
				b, err = storeReload(f, i, lf)
			case dc == "mem":
				continue
			case i == j || (sc == dc && isReg(sc)):
				b, err = directChain(f, i, j)
			case sc == "mem" && dc == "gpr":
				b, err = addressChain(f, i, j)
			case sc == "mem" && (dc == "vec" || dc == "k" || dc == "mm") && !readsRegisters(f):
				b, err = loadChain(f, i, j)
			case isReg(sc) && isReg(dc):
				b, err = crossChain(f, i, j)
			default:
				continue
			}
			if err != nil {
				return nil, err
			}
			if b != nil {
				out = append(out, b)
			}
		}
	}
	if b, err := flagsChain(f); err != nil {
		return nil, err
	} else if b != nil {
		out = append(out, b)
	}
	if b, err := flagsInChain(f); err != nil {
		return nil, err
	} else if b != nil {
		out = append(out, b)
	}
	if b, err := flagsSelfChain(f); err != nil {
		return nil, err
	} else if b != nil {
		out = append(out, b)
	}
	bs, err := implicitChains(f)
	if err != nil {
		return nil, err
	}
	out = append(out, bs...)
	return sortedBenches(out), nil
}

// constants gives every register operand not in skip its own register.
func constants(f *isa.Form, a *allocator, regs []string, skip ...int) error {
	for k, op := range f.Operands {
		if regs[k] != "" || contains(skip, k) {
			continue
		}
		if c := class(op.Kind); isReg(c) {
			r := a.take(c, 1)
			if len(r) == 0 {
				return fmt.Errorf("form %q: out of %s registers", f.Name(), c)
			}
			regs[k] = r[0]
		}
	}
	return nil
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func latencyBench(f *isa.Form, pair, info string, lines []string, instances int) *Bench {
	s := newSnippet(f, "latency "+pair, info, lines, instances)
	return &Bench{Form: f, Kind: KindLatency, Operands: pair, Snippet: s, Mode: "latency"}
}

// directChain: source operand i and destination j in the same class (or the
// same operand).
func directChain(f *isa.Form, i, j int) (*Bench, error) {
	a := newAllocator(f)
	cls := class(f.Operands[j].Kind)
	// Distinct operands alternate between two registers: with a destination
	// that is also read, its own chain then runs at half speed and cannot
	// hide the pair's latency; with a write-only destination it avoids
	// same-register special cases (mov rax, rax is not a move).
	alternate := i != j
	n := 1
	if alternate {
		n = 2
	}
	chain := a.take(cls, n)
	if len(chain) < n {
		return nil, fmt.Errorf("form %q: out of %s registers", f.Name(), cls)
	}
	base := make([]string, len(f.Operands))
	if err := constants(f, a, base, i, j); err != nil {
		return nil, err
	}
	var lines []string
	for k := 0; k < n; k++ {
		r := append([]string(nil), base...)
		r[j] = chain[k]
		r[i] = chain[(k+1)%n]
		line, err := instance(f, r, 0)
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
	}
	pair := opName(i) + "->" + opName(j)
	info := fmt.Sprintf("latency %s of %s: chain from operand %d to operand %d", pair, f.Name(), i, j)
	if alternate {
		info += " (destination alternates between two registers so its own chain is not the bottleneck)"
	}
	return latencyBench(f, pair, info, lines, n), nil
}

// memChain: a read-modify-write memory operand chained through memory
// (store-to-load forwarding).
func memChain(f *isa.Form, j int) (*Bench, error) {
	a := newAllocator(f)
	regs := make([]string, len(f.Operands))
	if err := constants(f, a, regs); err != nil {
		return nil, err
	}
	line, err := instance(f, regs, 0)
	if err != nil {
		return nil, err
	}
	info := fmt.Sprintf("latency mem->mem of %s: read-modify-write of one address, chained through store-to-load forwarding", f.Name())
	return latencyBench(f, "mem->mem", info, []string{line}, 1), nil
}

// storeReload: a register stored to memory and loaded back into the same
// register, by load form lf (VectorReloadOf) or, for a general register
// (lf nil), by mov; the value is the store-forwarding round trip of that
// register class.
func storeReload(f *isa.Form, i int, lf *isa.Form) (*Bench, error) {
	a := newAllocator(f)
	regs := make([]string, len(f.Operands))
	r := a.take(class(f.Operands[i].Kind), 1)
	if len(r) == 0 {
		return nil, fmt.Errorf("form %q: out of registers", f.Name())
	}
	regs[i] = r[0]
	if err := constants(f, a, regs); err != nil {
		return nil, err
	}
	line, err := instance(f, regs, 0)
	if err != nil {
		return nil, err
	}
	reload := fmt.Sprintf("mov %s, [%s+%d]", isa.GPRName(r[0], f.Operands[i].Kind), memBase, slot(0, true, 8))
	if lf != nil {
		args := lf.ExampleArgs()
		args[0].Reg = regArg(lf.Operands[0].Kind, r[0])
		args[1].Mem = &isa.MemRef{Base: memBase, Disp: slot(0, true, memSize(f.Operands[0].Kind))}
		if reload, _, err = lf.Instantiate(args); err != nil {
			return nil, err
		}
	}
	b := latencyBench(f, opName(i)+"->mem", fmt.Sprintf("store-to-load forwarding round trip of %s: store, then reload into the stored register", f.Name()),
		[]string{line, reload}, 1)
	b.Helper = reload + " (the reload is part of the round trip; nothing subtracted)"
	return b, nil
}

// VectorReloadOf is the load that reads back what vector store f wrote:
// the same mnemonic with the two operands swapped (vmovaps ymm, m256 for
// vmovaps m256, ymm), for an unmasked store of one vector register to
// memory whose load exists (vmovntps has none); nil for other forms. On
// the Zen 3 guest such a round trip is longer than a general register's:
// vmovaps xmm 9.0 cycles a pair, ymm 10.0, vmovsd 9.0, against mov
// 6.06 (testdata/experiments/store_forwarding.s).
func VectorReloadOf(f *isa.Form) *isa.Form {
	if f == nil || len(f.Operands) != 2 || class(f.Operands[0].Kind) != "mem" || class(f.Operands[1].Kind) != "vec" ||
		f.Operands[0].Masked || f.Operands[1].Masked || f.Operands[0].Access&isa.Write == 0 {
		return nil
	}
	name := f.Name()
	k := strings.Index(name, f.Mnemonic+" ")
	if k < 0 {
		return nil
	}
	ops := strings.Split(name[k+len(f.Mnemonic)+1:], ", ")
	if len(ops) != 2 {
		return nil
	}
	lf, ok := isa.Lookup(name[:k] + f.Mnemonic + " " + ops[1] + ", " + ops[0])
	if !ok || len(lf.Operands) != 2 || lf.Operands[0].Access&isa.Write == 0 {
		return nil
	}
	return lf
}

// addressChain: a general-register destination feeds the address of the
// next instance's memory source. A plain 64-bit load chases a pointer
// (memory holds its own address); other forms zero the register with a
// dependency-keeping `and r, 0` (latency 1, subtracted) and use it as index.
func addressChain(f *isa.Form, i, j int) (*Bench, error) {
	a := newAllocator(f)
	regs := make([]string, len(f.Operands))
	r := a.take("gpr", 1)
	if len(r) == 0 {
		return nil, fmt.Errorf("form %q: out of registers", f.Name())
	}
	A := r[0]
	regs[j] = A
	dk := f.Operands[j].Kind
	pair := "mem->" + opName(j)
	if f.Operands[i].Kind == isa.KindM { // lea: no memory access, the value stays in bounds
		regs[i] = A
		if err := constants(f, a, regs, i); err != nil {
			return nil, err
		}
		line, err := instance(f, regs, 0)
		if err != nil {
			return nil, err
		}
		return latencyBench(f, pair, fmt.Sprintf("latency of %s from the index register to the destination", f.Name()), []string{line}, 1), nil
	}
	if f.Mnemonic == "mov" && dk == isa.KindR64 && f.Operands[i].Kind == isa.KindM64 && len(f.Operands) == 2 {
		line := fmt.Sprintf("mov %s, qword ptr [%s]", A, A)
		b := latencyBench(f, pair, fmt.Sprintf("load-to-use latency of %s: pointer chase through memory that holds its own address", f.Name()), []string{line}, 1)
		b.Snippet.ScratchSelf = true
		b.Snippet.DefRegs = nil
		b.Snippet.LiveIns = []string{A}
		return b, nil
	}
	regs[i] = A // the index
	if err := constants(f, a, regs, i); err != nil {
		return nil, err
	}
	line, err := instance(f, regs, 0)
	if err != nil {
		return nil, err
	}
	helper := fmt.Sprintf("and %s, 0", A)
	b := latencyBench(f, pair, fmt.Sprintf("address latency of %s: the destination, zeroed by `%s`, is the index of the next load", f.Name(), helper),
		[]string{line, helper}, 1)
	b.Helper, b.HelperFixed = helper, 1
	return b, nil
}

// Cross-class helpers: the instruction that moves a destination of class
// `to` back into a source of class `from`, and the calibration key of the
// round trip that gives its latency.
type crossHelper struct {
	key  string
	back func(src, dst string) string // src register (class from), dst register (class to)
}

func crossHelperFor(f *isa.Form, from, to string) (crossHelper, bool) {
	vex := f.Encoding != isa.Legacy
	switch {
	case from == "vec" && to == "gpr":
		if vex {
			return crossHelper{"vmovq-gpr-xmm", func(s, d string) string { return fmt.Sprintf("vmovq xmm%s, %s", s, d) }}, true
		}
		return crossHelper{"movq-gpr-xmm", func(s, d string) string { return fmt.Sprintf("movq xmm%s, %s", s, d) }}, true
	case from == "gpr" && to == "vec":
		if vex {
			return crossHelper{"vmovq-gpr-xmm", func(s, d string) string { return fmt.Sprintf("vmovq %s, xmm%s", s, d) }}, true
		}
		return crossHelper{"movq-gpr-xmm", func(s, d string) string { return fmt.Sprintf("movq %s, xmm%s", s, d) }}, true
	case from == "k" && to == "gpr":
		return crossHelper{"kmovw-gpr-k", func(s, d string) string { return fmt.Sprintf("kmovw %s, %s", s, isa.GPRName(d, isa.KindR32)) }}, true
	case from == "gpr" && to == "k":
		return crossHelper{"kmovw-gpr-k", func(s, d string) string { return fmt.Sprintf("kmovw %s, %s", isa.GPRName(s, isa.KindR32), d) }}, true
	case from == "vec" && to == "k":
		return crossHelper{"vpmovm2d-xmm-k", func(s, d string) string { return fmt.Sprintf("vpmovm2d xmm%s, %s", s, d) }}, true
	case from == "k" && to == "vec":
		return crossHelper{"vpmovm2d-xmm-k", func(s, d string) string { return fmt.Sprintf("vpmovd2m %s, xmm%s", s, d) }}, true
	case from == "vec" && to == "mm":
		return crossHelper{"movq2dq-xmm-mm", func(s, d string) string { return fmt.Sprintf("movq2dq xmm%s, %s", s, d) }}, true
	case from == "mm" && to == "vec":
		return crossHelper{"movq2dq-xmm-mm", func(s, d string) string { return fmt.Sprintf("movdq2q %s, xmm%s", s, d) }}, true
	case from == "mm" && to == "gpr":
		return crossHelper{"movq-gpr-mm", func(s, d string) string { return fmt.Sprintf("movq %s, %s", s, d) }}, true
	case from == "gpr" && to == "mm":
		return crossHelper{"movq-gpr-mm", func(s, d string) string { return fmt.Sprintf("movq %s, %s", s, d) }}, true
	}
	return crossHelper{}, false
}

// readsRegisters reports whether f reads one of its register operands (a
// merge-masked destination included; addresses and implicit operands not).
func readsRegisters(f *isa.Form) bool {
	for _, op := range f.Operands {
		if isReg(class(op.Kind)) && (reads(op) || op.Masked && !op.Zeroing) {
			return true
		}
	}
	return false
}

// loadChain: a vector, mask or MMX destination of a form whose only
// sources are in memory (vbroadcastss ymm, m32; vpmovzxbd ymm, m64;
// kmovw k, m16) feeds the address of the next instance through a move to
// a general register (crossHelperFor; half its calibrated round trip
// subtracted) and a dependency-keeping `and r, 0` (1 cycle, subtracted),
// the register then the load's index: the form's load-to-use latency,
// as addressChain gives it for a general-register destination. Without
// it such a form has no latency wherever the base model lacks it (1,017
// AVX-512 forms on the Zen 4 guest, whose nearest LLVM model, znver3, has
// no AVX-512).
func loadChain(f *isa.Form, i, j int) (*Bench, error) {
	line, idx, back, key, err := crossLink(f, i, j, "gpr")
	if line == "" || err != nil {
		return nil, err
	}
	zero := fmt.Sprintf("and %s, 0", idx)
	pair := "mem->" + opName(j)
	b := latencyBench(f, pair, fmt.Sprintf("load-to-use latency of %s: the destination, moved by `%s` and zeroed by `%s`, is the index of the next load", f.Name(), back, zero),
		[]string{line, back, zero}, 1)
	b.Helper, b.HelperKey, b.HelperFixed = back+"; "+zero, key, 1
	return b, nil
}

// crossChain: source and destination in different register classes; a
// move back closes the chain.
func crossChain(f *isa.Form, i, j int) (*Bench, error) {
	line, _, back, key, err := crossLink(f, i, j, class(f.Operands[i].Kind))
	if line == "" || err != nil {
		return nil, err
	}
	pair := opName(i) + "->" + opName(j)
	b := latencyBench(f, pair, fmt.Sprintf("latency %s of %s, closed by `%s` (half of its measured round trip subtracted)", pair, f.Name(), back),
		[]string{line, back}, 1)
	b.Helper, b.HelperKey = back, key
	return b, nil
}

// crossLink is one instance of f with operand i in a register of class sc
// (src; for a memory operand, its index) and destination j in a register
// of its own class, and the move back from j's register into src that
// closes a chain across the two classes (back, and the calibration key of
// its round trip, crossHelperFor); line is "" where no move serves.
func crossLink(f *isa.Form, i, j int, sc string) (line, src, back, key string, err error) {
	dc := class(f.Operands[j].Kind)
	h, ok := crossHelperFor(f, sc, dc)
	if !ok {
		return "", "", "", "", nil
	}
	a := newAllocator(f)
	s := a.take(sc, 1)
	d := a.take(dc, 1)
	if len(s) == 0 || len(d) == 0 {
		return "", "", "", "", fmt.Errorf("form %q: out of registers", f.Name())
	}
	regs := make([]string, len(f.Operands))
	regs[i], regs[j] = s[0], d[0]
	if err := constants(f, a, regs); err != nil {
		return "", "", "", "", err
	}
	if line, err = instance(f, regs, 0); err != nil {
		return "", "", "", "", err
	}
	return line, s[0], h.back(s[0], d[0]), h.key, nil
}

// flagsChain: forms whose only output is the flags (cmp, test, bt,
// kortestw, ptest, ...): latency from a source to the flags, closed by
// `adc r, 0` (latency 1 from the carry flag, subtracted), and for a mask,
// vector or MMX source by a move back into it (flagsLink).
func flagsChain(f *isa.Form) (*Bench, error) {
	if f.FlagsWritten&isa.CF == 0 {
		return nil, nil
	}
	for _, op := range f.Operands {
		if writes(op) {
			return nil, nil
		}
	}
	if writesGPRImplicitly(f) {
		return nil, nil
	}
	for i, op := range f.Operands {
		if class(op.Kind) == "gpr" && reads(op) {
			return flagsLink(f, i, "")
		}
	}
	// No general-register source (kortestw k, k; ptest xmm, xmm): the
	// carry goes to a general register, and a move takes it back into
	// the source (half its calibrated round trip subtracted as well).
	// Not where the form writes a register implicitly (pcmpistrm's xmm0),
	// which would join the chain.
	if len(f.ImplicitWrites) > 0 {
		return nil, nil
	}
	for i, op := range f.Operands {
		if c := class(op.Kind); isReg(c) && reads(op) {
			return flagsLink(f, i, c)
		}
	}
	return nil, nil
}

// writesGPRImplicitly tells whether f writes a general register it does
// not name (mul's rdx:rax), which would join a chain through the flags.
func writesGPRImplicitly(f *isa.Form) bool {
	return slices.ContainsFunc(f.ImplicitWrites, func(r string) bool { return jit.GPR64(r) != "" })
}

// flagsLink is flagsChain's chain from operand i to the flags: through
// `adc r, 0` into that operand where it is a general register (cls ""),
// else into a general register and back by the move crossHelperFor gives
// for class cls (none: no chain).
func flagsLink(f *isa.Form, i int, cls string) (*Bench, error) {
	a := newAllocator(f)
	A := a.take("gpr", 1)
	if len(A) == 0 {
		return nil, nil
	}
	regs := make([]string, len(f.Operands))
	regs[i] = A[0]
	var back string
	var h crossHelper
	if cls != "" {
		var ok bool
		if h, ok = crossHelperFor(f, cls, "gpr"); !ok {
			return nil, nil
		}
		S := a.take(cls, 1)
		if len(S) == 0 {
			return nil, fmt.Errorf("form %q: out of %s registers", f.Name(), cls)
		}
		regs[i] = S[0]
		back = h.back(S[0], A[0])
	}
	if err := constants(f, a, regs); err != nil {
		return nil, err
	}
	line, err := instance(f, regs, 0)
	if err != nil {
		return nil, err
	}
	helper := fmt.Sprintf("adc %s, 0", A[0])
	lines := []string{line, helper}
	if back != "" {
		helper += "; " + back
		lines = append(lines, back)
	}
	pair := opName(i) + "->flags"
	b := latencyBench(f, pair, fmt.Sprintf("latency of %s from operand %d to the flags, closed by `%s`", f.Name(), i, helper), lines, 1)
	b.Helper, b.HelperFixed, b.HelperKey = helper, 1, h.key
	return b, nil
}

// flagsInChain: a register form that reads flags and writes none, with a
// 32- or 64-bit general-register destination (cmovCC r, r), chained from
// the flags to that destination through `cmp A, B` (1 cycle, subtracted),
// which reads the destination and writes the flags the next instance
// reads ("flags->0"). The register pairs' chains never time the flags: on
// the Zen 5 guest the cmov forms whose condition reads two flags (be, a,
// l, ge, le, g) take 2 cycles from the flags and 1 from their registers,
// the others 1 and 1.
func flagsInChain(f *isa.Form) (*Bench, error) {
	if f.FlagsRead == 0 || f.FlagsWritten|f.FlagsUndefined != 0 || f.HasMemory() || len(f.ImplicitWrites) > 0 {
		return nil, nil
	}
	j := -1
	for k, op := range f.Operands {
		if writes(op) && (op.Kind == isa.KindR32 || op.Kind == isa.KindR64) {
			j = k
			break
		}
	}
	if j < 0 {
		return nil, nil
	}
	a := newAllocator(f)
	A := a.take("gpr", 2)
	if len(A) < 2 {
		return nil, nil
	}
	regs := make([]string, len(f.Operands))
	regs[j] = A[0]
	if err := constants(f, a, regs); err != nil {
		return nil, err
	}
	line, err := instance(f, regs, 0)
	if err != nil {
		return nil, err
	}
	helper := fmt.Sprintf("cmp %s, %s", A[0], A[1])
	pair := "flags->" + opName(j)
	b := latencyBench(f, pair, fmt.Sprintf("latency of %s from the flags to operand %d, the flags written by `%s`", f.Name(), j, helper), []string{helper, line}, 1)
	b.Helper, b.HelperFixed = helper, 1
	return b, nil
}

// flagsSelfChain: a register form that reads flags it writes (adc, sbb,
// adcx, rcl, and the shifts and rotates by cl, which leave the flags as
// they were for a count of 0), its instances each on general registers
// of their own, so that the flags are their only chain ("flags->flags").
// Where the core waits for the flags a link is the flags' latency (adc:
// 1); where it does not, the instances run at their ports' rate: on the
// Zen 5 guest 16 `shl r64, cl` on eight registers took 5.37 cycles, as
// many `adc r64, r64` 16.0. Forms that write a general register
// implicitly (mul) are left out.
func flagsSelfChain(f *isa.Form) (*Bench, error) {
	if f.FlagsRead&(f.FlagsWritten|f.FlagsUndefined) == 0 || f.HasMemory() || f.Has(isa.AttrString) {
		return nil, nil
	}
	if writesGPRImplicitly(f) {
		return nil, nil
	}
	var written []int
	for k, op := range f.Operands {
		if !writes(op) {
			continue
		}
		if class(op.Kind) != "gpr" {
			return nil, nil
		}
		written = append(written, k)
	}
	if len(written) == 0 {
		return nil, nil
	}
	a := newAllocator(f)
	regs := make([]string, len(f.Operands)) // written operands: per instance below
	if err := constants(f, a, regs, written...); err != nil {
		return nil, err
	}
	n := 8 / len(written)
	pool := a.take("gpr", n*len(written))
	if len(pool) < 2*len(written) {
		return nil, nil
	}
	n = len(pool) / len(written)
	var lines []string
	for i := 0; i < n; i++ {
		for w, k := range written {
			regs[k] = pool[i*len(written)+w]
		}
		line, err := instance(f, regs, 0)
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
	}
	b := latencyBench(f, "flags->flags", fmt.Sprintf("latency of %s from the flags to the flags, %d instances on registers of their own", f.Name(), n), lines, n)
	return b, nil
}

// implicitChains: an implicit general register both read and written (rax
// of mul and div) chains the form to itself. An unsigned divide gets a
// second chain, through the remainder: the divider's latency depends on
// the quotient's width (Zen 4: `div r64` 9 cycles when the quotient is
// small, 19 when rdx:rax is a full 128-bit dividend), and the rax chain,
// which clears rdx before each divide, times only the small case.
func implicitChains(f *isa.Form) ([]*Bench, error) {
	var rw string
	for _, r := range f.ImplicitReads {
		g := jit.GPR64(r)
		if g == "" || g == "rsp" {
			continue
		}
		for _, w := range f.ImplicitWrites {
			if jit.GPR64(w) == g {
				rw = g
				break
			}
		}
		if rw != "" {
			break
		}
	}
	if rw == "" || f.Has(isa.AttrString) {
		return nil, nil
	}
	a := newAllocator(f)
	regs := make([]string, len(f.Operands))
	if err := constants(f, a, regs); err != nil {
		return nil, err
	}
	line, err := instance(f, regs, 0)
	if err != nil {
		return nil, err
	}
	lines := []string{line}
	var helper string
	byteDiv := len(f.Operands) == 1 && (f.Operands[0].Kind == isa.KindR8 || f.Operands[0].Kind == isa.KindM8)
	switch {
	case divides[f.Mnemonic] && byteDiv && f.Mnemonic == "idiv":
		// ah holds the remainder: a signed quotient of the next division
		// would overflow (#DE). Mask the chain value to al <= 127.
		helper = "and eax, 0x7f"
		lines = []string{line, helper}
	case divides[f.Mnemonic] && !byteDiv:
		// The remainder in rdx would make the next dividend overflow the
		// quotient (#DE); clear it with a zero idiom, which is off the chain.
		lines = []string{"xor edx, edx", line}
	}
	pair := rw + "->" + rw
	info := fmt.Sprintf("latency of %s through its implicit %s (implicit operands: reads %s, writes %s)",
		f.Name(), rw, strings.Join(f.ImplicitReads, ","), strings.Join(f.ImplicitWrites, ","))
	b := latencyBench(f, pair, info, lines, 1)
	if helper != "" {
		b.Helper, b.HelperFixed = helper, 1
	} else if divides[f.Mnemonic] && !byteDiv {
		b.Snippet.Info += "; rdx cleared by a zero idiom before each, so the quotients shrink to 0 (the divider's fastest case)"
	}
	out := []*Bench{b}
	if f.Mnemonic == "div" && !byteDiv {
		// Unsigned: the remainder left in rdx is below the divisor, so
		// the next quotient fits however wide the dividend is (#DE needs
		// rdx >= divisor). `idiv` has no such guarantee.
		info := fmt.Sprintf("latency of %s with full-width dividends: the remainder (rdx) is the next dividend's high half, so every quotient is as wide as the register; chained through rdx and rax", f.Name())
		out = append(out, latencyBench(f, "rdx->rdx", info, []string{line}, 1))
	}
	return out, nil
}

// HelperBenches returns the round trips that calibrate the cross-class
// helpers, keyed as Bench.HelperKey.
func HelperBenches() map[string]*Bench {
	mk := func(key, a, b, info string) *Bench {
		s := newSnippet(&isa.Form{Mnemonic: key}, "helper", info, []string{a, b}, 1)
		s.Name = "helper " + key
		return &Bench{Kind: KindHelperRoundTrip, Operands: key, Snippet: s, Mode: "latency"}
	}
	return map[string]*Bench{
		"movq-gpr-xmm":   mk("movq-gpr-xmm", "movq xmm0, rax", "movq rax, xmm0", "round trip movq xmm, r64 + movq r64, xmm"),
		"vmovq-gpr-xmm":  mk("vmovq-gpr-xmm", "vmovq xmm0, rax", "vmovq rax, xmm0", "round trip vmovq xmm, r64 + vmovq r64, xmm"),
		"kmovw-gpr-k":    mk("kmovw-gpr-k", "kmovw k2, eax", "kmovw eax, k2", "round trip kmovw k, r32 + kmovw r32, k"),
		"movq-gpr-mm":    mk("movq-gpr-mm", "movq mm0, rax", "movq rax, mm0", "round trip movq mm, r64 + movq r64, mm"),
		"vpmovm2d-xmm-k": mk("vpmovm2d-xmm-k", "vpmovm2d xmm0, k2", "vpmovd2m k2, xmm0", "round trip vpmovm2d xmm, k + vpmovd2m k, xmm"),
		"movq2dq-xmm-mm": mk("movq2dq-xmm-mm", "movq2dq xmm0, mm0", "movdq2q mm0, xmm0", "round trip movq2dq xmm, mm + movdq2q mm, xmm"),
	}
}

// HelperFeatures are the CPUID features each helper round trip needs.
var HelperFeatures = map[string][]string{"movq-gpr-xmm": {"sse2"}, "vmovq-gpr-xmm": {"avx"}, "kmovw-gpr-k": {"avx512f"}, "movq-gpr-mm": {"mmx"}, "vpmovm2d-xmm-k": {"avx512dq", "avx512vl"}, "movq2dq-xmm-mm": {"sse2"}}
