package gen

import (
	"fmt"
	"slices"
	"strings"

	"portlab/isa"
	"portlab/jit"
)

// poolSize is how many rotating destination registers a throughput stream
// gets per class: enough independent chains that a destination that is also
// read (latency L) limits throughput only below L/size per instruction.
// Chains must outnumber the ports well, not just match them: the scheduler
// binds a uop to a port when it is allocated, so a few chains pile up on
// one port now and then. `add r64, r64` on a core with five integer ALUs
// (Emerald Rapids guest, 2026-11-26) streamed at 0.237 cycles with five
// chains, 0.211 with eight, 0.2007 with ten and 0.200 with twelve.
func poolSize(cls string, vecs int) int {
	switch cls {
	case "gpr":
		return 12
	case "vec":
		if vecs == 32 {
			return 24
		}
		return 12
	case "k":
		return 4
	case "mm":
		return 6
	}
	return 1
}

// stream is the register plan of independent instances of one form.
type stream struct {
	f      *isa.Form
	base   []string   // constant registers of read-only operands
	dsts   [][]string // rotating registers per written register operand (nil for others)
	k      int        // instances per rotation
	resets []string   // dependency-breaking resets of implicit registers before each instance
	// pos is the stream's position in a mix (0 alone): it sets the
	// stream's memory slots (slotOff) and read-modify-write region.
	pos int
}

// slotOff is where the stream's memory slots start: 0 for the first form
// of a mix, 8 for the second (the layout of two-form mixes), then 32
// apart.
func (st *stream) slotOff() int {
	if st.pos >= 2 {
		return 32 * st.pos
	}
	return 8 * st.pos
}

// chained reports whether a form's written registers are also inputs
// (read-write or merging destinations): independent instances then need
// many rotating registers; otherwise renaming makes two enough.
func chained(f *isa.Form) bool {
	return slices.ContainsFunc(f.Operands, chainedOperand)
}

// chainedOperand reports a register operand that a form writes and reads,
// or writes in part (r8, r16: the rest of the register is merged in).
func chainedOperand(op isa.Operand) bool {
	c := class(op.Kind)
	return isReg(c) && writes(op) && (reads(op) || op.Kind == isa.KindR8 || op.Kind == isa.KindR16)
}

// newStream plans independent instances of f. share scales the rotating
// pools (mixes leave room for a second form); share 0 means two registers
// per written operand.
func newStream(f *isa.Form, a *allocator, share float64) (*stream, error) {
	st := &stream{f: f, base: make([]string, len(f.Operands)), dsts: make([][]string, len(f.Operands)), k: 8}
	// Implicit registers read and written (rax, rdx of mul/div) would chain
	// every instance; reset them with dependency-breaking writes: zero
	// idioms, which take no execution port, but for a dividend (a zero
	// dividend would time the divider's fastest case). A `mov eax, imm`
	// before each `mul r64` slowed it from 1.00 to 1.40 cycles on Zen 4
	// (measured 2026-11-25; `xor eax, eax` or `mov rax, rbx` leave 1.00).
	for _, r := range f.ImplicitReads {
		g := jit.GPR64(r)
		if g == "" || g == "rsp" || f.Has(isa.AttrString) {
			continue
		}
		for _, w := range f.ImplicitWrites {
			if jit.GPR64(w) != g {
				continue
			}
			r32 := isa.GPRName(g, isa.KindR32)
			if g == "rdx" || !isDivide(f) {
				st.resets = appendOnce(st.resets, fmt.Sprintf("xor %s, %s", r32, r32))
			} else {
				st.resets = appendOnce(st.resets, fmt.Sprintf("mov %s, 0x13", r32))
			}
		}
	}
	// A form that reads flags it writes (adc, sbb, adcx, adox, rcl, rcr,
	// cmc) would chain every instance to the previous one through them; a
	// zero idiom before each instance (xor r32, r32: resolved at rename, no
	// execution port) gives it fresh flags, so the throughput is the
	// ports', not the flag chain's.
	if f.FlagsRead&f.FlagsWritten != 0 && !f.Has(isa.AttrString) {
		fresh := false
		for _, r := range st.resets {
			fresh = fresh || strings.HasPrefix(r, "xor ")
		}
		if !fresh {
			regs := a.take("gpr", 1)
			if len(regs) == 0 {
				return nil, fmt.Errorf("form %q: out of general-purpose registers for a flags reset", f.Name())
			}
			r32 := isa.GPRName(regs[0], isa.KindR32)
			st.resets = append(st.resets, fmt.Sprintf("xor %s, %s", r32, r32))
		}
	}
	// The resets come first: a flags reset needs a register of its own,
	// which the rotating pools below must leave free.
	// Written register operands rotate; sized by class (share < 1 when a
	// mix leaves room for a second form), split between operands of one
	// class (mulx writes two registers), leaving one for each constant.
	written, readOnly := map[string]int{}, map[string]int{}
	for _, op := range f.Operands {
		if c := class(op.Kind); isReg(c) && writes(op) {
			written[c]++
		} else if isReg(c) {
			readOnly[c]++
		}
	}
	for i, op := range f.Operands {
		c := class(op.Kind)
		if !isReg(c) || !writes(op) {
			continue
		}
		n := int(float64(poolSize(c, a.vecs))*share) / written[c]
		if share == 0 {
			n = 2
		}
		if free := a.free(c) - readOnly[c]; n > free/written[c] {
			n = free / written[c]
		}
		if n < 2 {
			n = 2
		}
		regs := a.take(c, n)
		if len(regs) == 0 {
			return nil, fmt.Errorf("form %q: out of %s registers", f.Name(), c)
		}
		st.dsts[i] = regs
		if len(regs) < st.k || st.k == 8 {
			st.k = len(regs)
		}
	}
	if err := constants(f, a, st.base, indexesOf(st.dsts)...); err != nil {
		return nil, err
	}
	return st, nil
}

func appendOnce(xs []string, x string) []string {
	for _, v := range xs {
		if v == x {
			return xs
		}
	}
	return append(xs, x)
}

func indexesOf(d [][]string) []int {
	var out []int
	for i, r := range d {
		if r != nil {
			out = append(out, i)
		}
	}
	return out
}

// instances renders instances 0..n-1 of the stream, each after the
// stream's resets.
func (st *stream) instances(n int) ([]string, error) {
	var lines []string
	for k := 0; k < n; k++ {
		lines = append(lines, st.resets...)
		l, err := st.line(k)
		if err != nil {
			return nil, err
		}
		lines = append(lines, l)
	}
	return lines, nil
}

// renamedVector reports the register classes whose write-only
// destinations DestChain times (vector and MMX registers).
func renamedVector(class string) bool { return class == "vec" || class == "mm" }

// line renders instance n of the stream.
func (st *stream) line(n int) (string, error) {
	r := append([]string(nil), st.base...)
	for i, pool := range st.dsts {
		if pool != nil {
			r[i] = pool[n%len(pool)]
		}
	}
	return instanceIn(st.f, r, n+st.slotOff(), n, st.pos)
}

// Throughput returns the reciprocal-throughput benchmark of a form:
// independent instances with rotating destination registers, read-only
// operands in constant registers, memory operands cycling through slots
// (rmwSlots for read-modify-write operands), and dependency-breaking
// resets of implicit registers and flags the form both reads and writes.
func Throughput(f *isa.Form) (*Bench, error) {
	a := newAllocator(f)
	st, err := newStream(f, a, 1)
	if err != nil {
		return nil, err
	}
	n := st.k
	if n < 8 {
		n = 8 * st.k // at least 8 instances per copy
	}
	if n > 24 {
		n = 24
	}
	if chainsThroughMemory(f) {
		// One instance per slot: the chain through memory must not set
		// the pace (rmwSlots).
		n = rmwSlots
	}
	lines, err := st.instances(n)
	if err != nil {
		return nil, err
	}
	info := fmt.Sprintf("throughput of %s: %d independent instances per copy", f.Name(), n)
	if st.k > 1 && len(indexesOf(st.dsts)) > 0 {
		info += fmt.Sprintf(", destinations rotating over %d registers", st.k)
	}
	if n == rmwSlots && readModifyWrite(f) {
		info += fmt.Sprintf(", its memory operand on %d addresses (one per instance)", rmwSlots)
	}
	if len(st.resets) > 0 {
		info += fmt.Sprintf(", each after `%s`", strings.Join(st.resets, "; "))
	}
	s := newSnippet(f, "throughput", info, lines, n)
	return &Bench{Form: f, Kind: KindThroughput, Snippet: s, Mode: "inverse_throughput"}, nil
}

// DestChain returns, for a form whose vector or MMX destination the catalog
// calls write-only, its throughput stream with every instance writing one
// destination register: register renaming makes that the form's
// throughput, unless the form waits for its destination's previous value
// all the same, and then it is that chain's link. Mixes give such forms
// two destinations (their chains were thought not to exist), so a form
// that waits must be known: Zen 4's vexpandpd ymm, ymm ran at 2.00 cycles
// an instance over two destinations, 1.00 over four and its 0.667 over
// eight (Zen 4 guest, 2026-11-29); Zen 3's cvtpi2pd xmm, mm 3 cycles a
// link (testdata/experiments/false_dependency.s). nil for other forms.
func DestChain(f *isa.Form) (*Bench, error) {
	if chained(f) || chainsThroughMemory(f) {
		return nil, nil
	}
	a := newAllocator(f)
	st, err := newStream(f, a, 1)
	if err != nil {
		return nil, err
	}
	one := false
	for i, pool := range st.dsts {
		if pool == nil {
			continue
		}
		if !renamedVector(class(f.Operands[i].Kind)) {
			return nil, nil
		}
		st.dsts[i] = pool[:1]
		one = true
	}
	if !one {
		return nil, nil
	}
	st.k = 1
	const n = destChainInstances
	lines, err := st.instances(n)
	if err != nil {
		return nil, err
	}
	info := fmt.Sprintf("destination chain of %s: %d instances per copy, all writing one destination (its throughput, unless it waits for the destination's previous value)", f.Name(), n)
	s := newSnippet(f, "destination chain", info, lines, n)
	return &Bench{Form: f, Kind: KindDestChain, Snippet: s, Mode: "inverse_throughput"}, nil
}

// destChainInstances is the instances of a destination-chain stream per
// copy.
const destChainInstances = 12
