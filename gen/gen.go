// Package gen turns instruction forms into benchmark snippets: dependency
// chains for the latency of each (source -> destination) operand pair,
// independent streams for reciprocal throughput, same-register variants that
// expose zero idioms, dependency-breaking idioms and move elimination, and
// port-conflict mixes of a form with probe forms. It chooses registers and
// memory so that what it means to measure is what the hardware sees; it
// runs nothing (package measure does).
package gen

import (
	"bytes"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"portlab/isa"
	"portlab/jit"
	"portlab/measure"
	"portlab/modeldb"
	"portlab/results"
)

// Benchmark kinds.
const (
	KindLatency         = "latency"
	KindThroughput      = "throughput"
	KindDestChain       = "destination-chain" // a throughput stream over one destination register
	KindIdiomLatency    = "idiom-latency"     // all register operands the same, chained
	KindIdiomTP         = "idiom-throughput"  // all register operands the same, independent
	KindMoveLatency     = "move-latency"      // mov a, b; mov b, a chain
	KindPorts           = "ports"             // port-conflict mix
	KindRandomMix       = "random-mix"        // a random mix of 2-4 forms, for validating models
	KindFitMix          = "fit-mix"           // a random mix of 2-4 forms, for fitting models
	KindHelperRoundTrip = "helper"            // calibration of a cross-class helper pair
	// KindAddressLatency and KindAddressTP measure lea in one address shape
	// (Bench.Addressing): not the form's own latency and throughput.
	KindAddressLatency = "address-latency"
	KindAddressTP      = "address-throughput"
	// KindAddressPorts measures lea in one address shape beside a probe
	// form (Bench.Mix: 8 of each a copy), for the shape's ports.
	KindAddressPorts = modeldb.AddressPortsKind
)

// Bench is one generated benchmark.
type Bench struct {
	Form     *isa.Form
	Kind     string
	Operands string // latency pair: "1->0", "mem->0" (address), "rax->rax", "1->flags"
	// Addressing is the address shape (isa.AddressShapes) of a lea
	// benchmark measured in one shape; "" for a form's own benchmarks.
	Addressing string
	Snippet    *measure.Snippet
	// Mode is the exegesis measurement key: latency or inverse_throughput.
	Mode string
	// Helper is the instruction closing a chain whose destination cannot
	// feed its source; HelperKey names the calibration that says its
	// latency (HelperFixed when the latency is known exactly).
	Helper      string
	HelperKey   string
	HelperFixed float64
	Mix         []results.MixPart
}

// LoopRegister is the register generated snippets leave to the harness.
const LoopRegister = "r15"

// memBase is the base register of every memory operand gen emits.
const memBase = "rdi"

// Unmeasurable returns why a form cannot be benchmarked in a user-mode
// snippet, or "" when it can.
func Unmeasurable(f *isa.Form) string {
	switch {
	case f.Has(isa.AttrPrivileged):
		return "privileged: faults in user mode"
	case f.Has(isa.AttrTrap):
		return "always traps"
	case f.Has(isa.AttrBranch):
		return "control flow: leaves a straight-line snippet"
	case f.Has(isa.AttrSystem):
		return "changes system state (segments, descriptor tables)"
	case f.Has(isa.AttrTSX):
		return "transactional-memory control"
	case f.Has(isa.AttrStack):
		return "stack operation: needs balanced push/pop pairs (not generated yet)"
	case f.Has(isa.AttrX87):
		return "x87: needs a valid register stack (not generated yet)"
	case stateRestores[f.Mnemonic]:
		return "restores the whole FP/vector state from memory: needs a saved image (not generated yet)"
	}
	for _, op := range f.Operands {
		switch op.Kind {
		case isa.KindSreg, "cr", "dr", "bnd", isa.KindRel8, isa.KindRel32, "rel16":
			return fmt.Sprintf("operand kind %s is not generated", op.Kind)
		}
		if strings.HasPrefix(string(op.Kind), "vm") {
			return "vector-indexed (gather/scatter) memory is not generated yet"
		}
	}
	for _, r := range append(append([]string{}, f.ImplicitReads...), f.ImplicitWrites...) {
		if jit.GPR64(r) == "rsp" {
			return "uses the stack pointer"
		}
	}
	return ""
}

// class is the register class of an operand kind.
func class(k isa.Kind) string {
	switch k {
	case isa.KindR8, isa.KindR16, isa.KindR32, isa.KindR64:
		return "gpr"
	case isa.KindXMM, isa.KindYMM, isa.KindZMM:
		return "vec"
	case isa.KindK:
		return "k"
	case isa.KindMM:
		return "mm"
	}
	switch {
	case k.IsMemory():
		return "mem"
	case k.IsImmediate():
		return "imm"
	}
	return "fixed"
}

// allocator hands out registers of each class, skipping reserved ones.
type allocator struct {
	used map[string]bool // 64-bit GPR names, "v<n>", "k<n>", "mm<n>"
	vecs int             // 16, or 32 for EVEX forms
	// high gives vector registers from 16-31, which only EVEX forms can
	// name: an EVEX stream of a mix beside VEX or legacy vector forms
	// (which hold 0-15) takes its registers there (see MixNTimed).
	high bool
}

// vecRange is the vector registers take and free draw from.
func (a *allocator) vecRange() (lo, hi int) {
	if a.high {
		return 16, 32
	}
	return 0, a.vecs
}

func newAllocator(f *isa.Form) *allocator {
	a := &allocator{used: map[string]bool{"rsp": true, memBase: true, LoopRegister: true, "k0": true, "k1": true}, vecs: 16}
	if f.Encoding == isa.EVEX {
		a.vecs = 32
	}
	for _, r := range append(append([]string{}, f.ImplicitReads...), f.ImplicitWrites...) {
		a.reserve(r)
	}
	// A divisor never lives in rdx: the set-up zeroes it (the high half of
	// a dividend). `div r8` names no rdx of its own, and in a mix whose
	// other streams took rcx first it was given dl and faulted.
	if isDivide(f) {
		a.reserve("rdx")
	}
	for _, op := range f.Operands {
		if class(op.Kind) == "fixed" {
			a.reserve(string(op.Kind))
		}
	}
	return a
}

// isDivide reports the integer divisions, whose divisors and dividends
// need registers of their own.
func isDivide(f *isa.Form) bool { return f.Mnemonic == "div" || f.Mnemonic == "idiv" }

// reserve marks a named register (any width) as unavailable.
func (a *allocator) reserve(r string) {
	if g := jit.GPR64(r); g != "" {
		a.used[g] = true
		return
	}
	for _, p := range []string{"xmm", "ymm", "zmm"} {
		if strings.HasPrefix(r, p) {
			a.used["v"+r[3:]] = true
			return
		}
	}
	a.used[r] = true
}

var gprOrder = []string{"rax", "rcx", "rdx", "rbx", "rsi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "rbp"}

// take returns n fresh registers of a class ("gpr" gives 64-bit names,
// "vec" gives numbers as strings, "k" and "mm" full names), or fewer if the
// class runs out.
func (a *allocator) take(cls string, n int) []string {
	var out []string
	switch cls {
	case "gpr":
		for _, r := range gprOrder {
			if len(out) == n {
				break
			}
			if !a.used[r] {
				a.used[r] = true
				out = append(out, r)
			}
		}
	case "vec":
		// Prefer 0-15 so that VEX and legacy forms can use them.
		lo, hi := a.vecRange()
		for i := lo; i < hi && len(out) < n; i++ {
			key := "v" + strconv.Itoa(i)
			if !a.used[key] {
				a.used[key] = true
				out = append(out, strconv.Itoa(i))
			}
		}
	case "k":
		for i := 2; i < 8 && len(out) < n; i++ {
			key := "k" + strconv.Itoa(i)
			if !a.used[key] {
				a.used[key] = true
				out = append(out, key)
			}
		}
	case "mm":
		for i := 0; i < 8 && len(out) < n; i++ {
			key := "mm" + strconv.Itoa(i)
			if !a.used[key] {
				a.used[key] = true
				out = append(out, key)
			}
		}
	}
	return out
}

// free counts the registers of a class still available.
func (a *allocator) free(cls string) int {
	n := 0
	switch cls {
	case "gpr":
		for _, r := range gprOrder {
			if !a.used[r] {
				n++
			}
		}
	case "vec":
		lo, hi := a.vecRange()
		for i := lo; i < hi; i++ {
			if !a.used["v"+strconv.Itoa(i)] {
				n++
			}
		}
	case "k", "mm":
		for i := 0; i < 8; i++ {
			if !a.used[cls+strconv.Itoa(i)] && !(cls == "k" && i < 2) {
				n++
			}
		}
	}
	return n
}

// regArg renders an allocated register for an operand of kind k.
func regArg(k isa.Kind, r string) string {
	switch class(k) {
	case "gpr":
		return isa.GPRName(r, k)
	case "vec":
		return string(k) + r
	}
	return r
}

// slot returns the displacement of memory slot n for an operand of size
// bytes: loads cycle through consecutive operand-sized slots from [rdi+0]
// and stores through as many from [rdi+2048], so that loads and stores
// never alias modulo 4 KiB and narrow accesses share cache lines as
// ordinary code's do. The slots span at most 256 bytes (16 slots of up to
// 16 bytes, 8 ymm, 4 zmm): on Zen 4, loads spread over 16 lines ran 5-20 %
// slower than over 4, by an amount that changed from job to job (eight
// runs of vpxorq zmm, zmm, m512 read 1.07-1.19 cycles; over 4 lines 1.00
// every time), and two sweeps disagreed on such forms more than on any.
func slot(n int, store bool, size int) int64 {
	if size < 8 {
		size = 8
	}
	slots := max(1, min(16, 256/size))
	d := int64(size * (n % slots))
	if store {
		d += 2048
		if size > 64 {
			d += int64(size * 16)
		}
	}
	return d
}

// rmwSlots is how many slots the memory operands of read-modify-write forms
// (add m64, r64; shl m32, 1; xadd) cycle through. Each instance reads what
// an earlier instance on its slot stored, a chain through store-to-load
// forwarding of about 5-7 cycles: over the 8 slots of a register form's
// stream that chain, not the ports, set the pace (add m8, imm8 read
// 0.60-0.64 cycles on the Granite Rapids guest, 5.1 per 8 instances, and
// two sweeps disagreed by up to 10 %). Over 32 the chain allows 0.2.
const rmwSlots = 32

// rmwSlot returns the displacement of slot n of a read-modify-write
// operand of size bytes in RMW region r: consecutive operand-sized slots,
// at least 8 bytes apart, from rmwBase. Region 0 is the one of a form
// alone; in a mix every read-modify-write stream has a region of its own
// (its position, stream.pos), so that two such forms never chain through
// one another's slots.
func rmwSlot(n, size, r int) int64 {
	stride := max(size, 8)
	return rmwBase + int64(stride*(r*rmwSlots+n%rmwSlots))
}

// rmwBase is where read-modify-write slots start: past the plain stores'
// (slot: 2048 and up to 256 bytes on), so that a mix's stores never write
// what its read-modify-writes read, which made them a store-to-load
// forwarding experiment rather than a port-conflict one. Both started at
// 2048 once: on the Zen 3 guest 32 `add m64, imm8` and 24 `mov m64, r64`
// a copy, the stores on the read-modify-writes' slots, ran at 42.95
// cycles, on slots apart at 48.0 (the model's 48.00; `portlab validate
// --no-peers` on the two layouts, two runs, 2026-11-29).
const rmwBase = 2048 + 512

// chainsThroughMemory reports whether f's instances on one slot form a
// chain through memory (a read-modify-write form other than a string
// instruction, whose addresses advance): its streams need an instance per
// slot (rmwSlots) to run at its throughput.
func chainsThroughMemory(f *isa.Form) bool {
	return readModifyWrite(f) && !f.Has(isa.AttrString)
}

// readModifyWrite reports whether one of f's memory operands is both read
// and written.
func readModifyWrite(f *isa.Form) bool {
	for _, op := range f.Operands {
		if class(op.Kind) == "mem" && op.Kind != isa.KindMoffs && readsAndWrites(op.Access) {
			return true
		}
	}
	return false
}

// readsAndWrites reports whether an operand access both reads and
// (possibly conditionally) writes.
func readsAndWrites(a isa.Access) bool {
	return a&isa.Read != 0 && a&(isa.Write|isa.CondWrite) != 0
}

// memSize is the size in bytes of a memory operand kind (8 for unknown).
func memSize(k isa.Kind) int {
	s := strings.TrimSuffix(strings.TrimPrefix(string(k), "m"), "bcst")
	n, err := strconv.Atoi(s)
	if err != nil || n < 8 {
		return 8
	}
	return n / 8
}

// instance renders one instance of f with the given per-operand registers
// (for register classes) and memory slot; immediates and fixed operands
// come from the form's example operands.
func instance(f *isa.Form, regs []string, memSlot int) (string, error) {
	return instanceIn(f, regs, memSlot, memSlot, 0)
}

// instanceIn is instance with a read-modify-write operand on slot rmw of
// RMW region region (rmwSlot).
func instanceIn(f *isa.Form, regs []string, memSlot, rmw, region int) (string, error) {
	args := f.ExampleArgs()
	for i, op := range f.Operands {
		a := &args[i]
		switch class(op.Kind) {
		case "gpr", "vec", "k", "mm":
			a.Reg = regArg(op.Kind, regs[i])
		case "mem":
			if op.Kind == isa.KindMoffs {
				a.Mem = &isa.MemRef{Disp: fixedMemAddr}
				continue
			}
			// Masked stores write conditionally: they are stores all the
			// same, and a load of what a masked store just wrote waits for
			// it to retire on Zen 4 (no forwarding): 16 vpmullw xmm, m128
			// beside 8 vmovapd m256 {k} on the same slots took 184 cycles.
			store := op.Access&(isa.Write|isa.CondWrite) != 0
			disp := slot(memSlot, store, memSize(op.Kind))
			if readsAndWrites(op.Access) {
				disp = rmwSlot(rmw, memSize(op.Kind), region)
			}
			if stateSaves[f.Mnemonic] {
				disp = slot(0, true, 8)
			}
			if op.Kind.IsBroadcast() {
				disp = slot(memSlot, store, 8)
			}
			if f.Mnemonic == "lea" && disp == 0 {
				disp = leaDisp
			}
			a.Mem = &isa.MemRef{Base: memBase, Disp: disp}
			if op.Kind == isa.KindM && regs[i] != "" { // lea with an index chain
				a.Mem = &isa.MemRef{Base: memBase, Index: regs[i], Scale: 1}
			} else if regs[i] != "" {
				a.Mem = &isa.MemRef{Base: memBase, Index: regs[i], Scale: 1, Disp: disp}
			}
		}
	}
	intel, _, err := f.Instantiate(args)
	return intel, err
}

// leaDisp is the displacement of a lea whose slot would have none: `lea
// rax, [rdi]` copies a register, and a core may run it as a move (Zen 3
// eliminates it: a throughput stream of twelve leas, one of them so, ran
// at 0.2297 cycles a lea, 11/12 of the four ALUs' 0.25, which no group of
// ALUs gives, and the fit put lea on the address units and two new ports
// instead; port-conflict mixes with the lea probe carried one in sixteen).
// lea never touches memory, so any displacement serves.
const leaDisp = 128

// State save and restore instructions: they need 16- or 64-byte aligned
// areas of up to a few KiB, so they always use one aligned slot.
var (
	stateSaves    = setOf("fxsave", "fxsave64", "xsave", "xsave64", "xsavec", "xsavec64", "xsaveopt", "xsaveopt64", "xsaves", "xsaves64")
	stateRestores = setOf("fxrstor", "fxrstor64", "xrstor", "xrstor64", "xrstors", "xrstors64")
)

// Implicit memory pointers: registers a form dereferences without naming
// them, which must point into the scratch memory.
var implicitPointers = map[string][]string{
	"maskmovdqu": {"rdi"}, "vmaskmovdqu": {"rdi"}, "maskmovq": {"rdi"}, "xlatb": {"rbx"}, "xlat": {"rbx"},
}

// divides are the integer divisions (a zero divisor faults).
var divides = setOf("div", "idiv")

// presets are register values some forms need to run at all: xgetbv and
// rdpkru fault unless ecx is 0.
var presets = map[string]map[string]int64{
	"xgetbv": {"RCX": 0}, "rdpkru": {"RCX": 0},
}

// fixedMemAddr is where absolute-address (moffs) operands point; the
// snippet maps a page there.
const fixedMemAddr = 0x10000000

// newSnippet wraps generated source into a measurable snippet.
func newSnippet(f *isa.Form, kind, info string, lines []string, instances int) *measure.Snippet {
	s := &measure.Snippet{
		Name:         fmt.Sprintf("form %q (%s)", f.Name(), kind),
		Source:       strings.Join(lines, "\n") + "\n",
		LoopReg:      LoopRegister,
		Info:         info,
		Instructions: instances,
		ScratchSelf:  false,
	}
	// One form alone cannot conflict with itself.
	_ = prepareFor(s, f)
	return s
}

// prepareFor adds to s the machine state form f needs to run (memory
// maps, live-in pointers, preset registers, memory and vector contents).
// A mix calls it for every form: a divide by memory that is not the mix's
// first form still needs its non-zero divisor (random mixes faulted with
// #DE before). It fails when f needs memory or vector contents another
// form of the snippet set differently.
func prepareFor(s *measure.Snippet, f *isa.Form) error {
	for _, op := range f.Operands {
		if op.Kind == isa.KindMoffs {
			s.MemDefs = map[string]measure.MemDef{"abs": {Size: 4096, Value: []byte{0}}}
			s.MemMaps = []measure.MemMap{{Name: "abs", Addr: fixedMemAddr}}
		}
	}
	if f.Has(isa.AttrString) {
		s.LiveIns = appendOnce(appendOnce(s.LiveIns, "rsi"), "rdi")
	}
	for _, r := range implicitPointers[f.Mnemonic] {
		s.LiveIns = appendOnce(s.LiveIns, r)
	}
	if p := presets[f.Mnemonic]; p != nil {
		if s.DefRegs == nil {
			s.DefRegs = map[string]*big.Int{}
		}
		for r, v := range p {
			s.DefRegs[r] = big.NewInt(v)
		}
	}
	setFill := func(fill *[]byte, want []byte, what string) error {
		if *fill != nil && !bytes.Equal(*fill, want) {
			return fmt.Errorf("form %q needs %s % x, another form of the snippet % x", f.Name(), what, want, *fill)
		}
		*fill = want
		return nil
	}
	if strings.Contains(f.Mnemonic, "maskmov") {
		// The mask is the sign bit of each element: 1.0 would mask every
		// element off, and an all-zero mask costs a microcode assist on
		// some cores (hundreds of cycles). Measure the ordinary case.
		if err := setFill(&s.VectorFill, []byte{0xff}, "vector registers filled with"); err != nil {
			return err
		}
	}
	if f.Mnemonic == "ldmxcsr" || f.Mnemonic == "vldmxcsr" {
		// MXCSR with reserved bits set faults (#GP): memory holds a valid
		// value (the default, all exceptions masked).
		if err := setFill(&s.ScratchFill, []byte{0x80, 0x1f, 0, 0}, "scratch memory filled with"); err != nil {
			return err
		}
	}
	if divides[f.Mnemonic] && f.HasMemory() {
		// A non-zero divisor in memory.
		if err := setFill(&s.ScratchFill, []byte{0x13}, "scratch memory filled with"); err != nil {
			return err
		}
	}
	return nil
}

// opName names operand i for latency pairs: its index in Intel order.
func opName(i int) string { return strconv.Itoa(i) }

// Generate returns the latency, throughput and idiom benchmarks of a form.
func Generate(f *isa.Form) ([]*Bench, error) {
	if why := Unmeasurable(f); why != "" {
		return nil, fmt.Errorf("form %q: %s", f.Name(), why)
	}
	var out []*Bench
	lat, err := Latency(f)
	if err != nil {
		return nil, err
	}
	out = append(out, lat...)
	out = append(out, Latency512Benches(f, lat)...)
	tp, err := Throughput(f)
	if err != nil {
		return nil, err
	}
	out = append(out, tp)
	dc, err := DestChain(f)
	if err != nil {
		return nil, err
	}
	if dc != nil {
		out = append(out, dc)
	}
	out = append(out, Idioms(f)...)
	out = append(out, AddressShapeBenches(f)...)
	out = append(out, LoadAddressBenches(f)...)
	out = append(out, StoreCommitBenches(f)...)
	out = append(out, LineSplitBenches(f)...)
	out = append(out, LateForwardBenches(f)...)
	out = append(out, MaskWriteBenches(f)...)
	out = append(out, DomainBenches(f)...)
	return out, nil
}

func sortedBenches(bs []*Bench) []*Bench {
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].Operands < bs[j].Operands })
	return bs
}
