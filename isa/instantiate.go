package isa

import (
	"fmt"
	"strconv"
	"strings"
)

// MemRef is a memory operand: [Base + Index*Scale + Disp]. With neither Base
// nor Index it is an absolute address (moffs64 operands of movabs).
type MemRef struct {
	Base  string // 64-bit register or "rip"; "" for none
	Index string // 64-bit register; "" for none
	Scale int    // 1, 2, 4 or 8; 0 means 1
	Disp  int64
}

// Arg is one concrete operand for Form.Instantiate, in the form's (Intel)
// operand order. Set the field the operand's kind needs: Reg for register
// kinds, Mem for memory kinds, Imm for immediates, Label for rel8/rel32.
// Fixed-register operands (al, cl, xmm0, st(0)) and the constants 1 and 3
// need nothing (a Reg, if set, must name the fixed register).
type Arg struct {
	Reg   string  // "rax", "xmm3", "k2", "st(1)"
	Mem   *MemRef // memory operand
	Imm   int64   // immediate
	Label string  // branch target: a label defined around the instruction, or "."
	Mask  string  // opmask of a masked destination ({k}): "k1".."k7"
}

// Instantiate renders the form with concrete operands in Intel syntax (for
// ".intel_syntax noprefix") and AT&T syntax, both accepted by GNU as and
// encoding the same bytes. It checks that every operand fits its kind.
func (f *Form) Instantiate(ops []Arg) (intel, att string, err error) {
	if len(ops) != len(f.Operands) {
		return "", "", fmt.Errorf("form %q: %d operands given, want %d", f.Name(), len(ops), len(f.Operands))
	}
	ir := make([]string, len(ops))
	ar := make([]string, len(ops))
	for i, op := range f.Operands {
		ir[i], ar[i], err = f.renderOperand(i, op, ops[i])
		if err != nil {
			return "", "", fmt.Errorf("form %q: operand %d (%s): %v", f.Name(), i+1, op.Kind, err)
		}
	}
	prefix := ""
	if f.EVEXPrefix {
		prefix = "{evex} "
	}
	if f.hasKind(KindRel32) {
		// GNU as would relax a near target to rel8.
		prefix += "{disp32} "
	}
	intel = prefix + f.intelMnemonic()
	if len(ir) > 0 {
		intel += " " + strings.Join(ir, ", ")
	}
	gnu := f.GNU
	if gnu == "" {
		gnu = f.Mnemonic
	}
	att = prefix + gnu
	if len(ar) > 0 {
		// AT&T reverses the operands, except for enter.
		if f.Mnemonic != "enter" {
			for i, j := 0, len(ar)-1; i < j; i, j = i+1, j-1 {
				ar[i], ar[j] = ar[j], ar[i]
			}
		}
		att += " " + strings.Join(ar, ", ")
	}
	return intel, att, nil
}

// Example renders the form with default operands: distinct registers per
// operand (general-purpose registers from rbx, rcx, rdx, rsi, r8, ...;
// vector registers from 1; opmask operands from k2, with k1 as the write
// mask), memory at [rdi+64] (a broadcast at [rdi]), immediates 1 (2 for
// shift and rotate counts, 4096 for 16- and 32-bit immediates, which keeps
// GNU as from choosing a shorter encoding) and "." as branch target.
func (f *Form) Example() (intel, att string) {
	intel, att, err := f.Instantiate(f.ExampleArgs())
	if err != nil {
		// Unreachable for catalog forms; keep the error visible.
		return "# " + err.Error(), "# " + err.Error()
	}
	return intel, att
}

// ExampleArgs returns the operands Example uses, for callers that want to
// change some of them.
func (f *Form) ExampleArgs() []Arg {
	args := make([]Arg, len(f.Operands))
	gpr, vec, kreg, mm, st, bnd := 0, 1, 2, 1, 1, 1
	for i, op := range f.Operands {
		a := &args[i]
		if op.Masked {
			a.Mask = "k1"
		}
		k := op.Kind
		switch {
		case k.IsBroadcast():
			a.Mem = &MemRef{Base: "rdi"}
		case k == KindMoffs:
			a.Mem = &MemRef{Disp: 0x1000}
		case k.IsMemory():
			a.Mem = &MemRef{Base: "rdi", Disp: 64}
		case k == KindImm8:
			a.Imm = 1
			if shiftMnemonics[f.Mnemonic] {
				a.Imm = 2
			}
		case k == KindImm16 || k == KindImm32 || k == KindImm64:
			a.Imm = 4096
		case k == KindRel8 || k == KindRel32 || k == "rel16":
			a.Label = "."
		case k == KindR8 || k == KindR16 || k == KindR32 || k == KindR64:
			a.Reg = gprName(exampleGPRs[gpr%len(exampleGPRs)], k)
			gpr++
		case k == KindXMM || k == KindYMM || k == KindZMM:
			a.Reg = string(k) + strconv.Itoa(vec)
			vec++
		case k == KindK:
			a.Reg = "k" + strconv.Itoa(kreg)
			kreg++
		case k == KindMM:
			a.Reg = "mm" + strconv.Itoa(mm)
			mm++
		case k == KindST:
			a.Reg = "st(" + strconv.Itoa(st) + ")"
			st++
		case k == "bnd":
			a.Reg = "bnd" + strconv.Itoa(bnd)
			bnd++
		case k == KindSreg:
			a.Reg = "es"
		case k == "cr":
			a.Reg = "cr0"
		case k == "dr":
			a.Reg = "dr0"
		}
	}
	return args
}

// shiftMnemonics take an imm8 count that GNU as would turn into the
// shift-by-one encoding when it is 1.
var shiftMnemonics = setOf("shl", "shr", "sar", "sal", "rol", "ror", "rcl", "rcr")

// exampleGPRs avoids rax (short accumulator encodings), rsp, rbp and rdi
// (the example base register).
var exampleGPRs = []string{"rbx", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11"}

// gprName returns the register of a family at the kind's width.
func gprName(r64 string, k Kind) string {
	switch k {
	case KindR64:
		return r64
	case KindR32:
		if r64[1] >= '0' && r64[1] <= '9' {
			return r64 + "d"
		}
		return "e" + r64[1:]
	case KindR16:
		if r64[1] >= '0' && r64[1] <= '9' {
			return r64 + "w"
		}
		return r64[1:]
	}
	switch r64 {
	case "rbx", "rcx", "rdx", "rax":
		return r64[1:2] + "l"
	case "rsi", "rdi", "rsp", "rbp":
		return r64[1:] + "l"
	}
	return r64 + "b"
}

func (f *Form) hasKind(k Kind) bool {
	for _, op := range f.Operands {
		if op.Kind == k {
			return true
		}
	}
	return false
}

// intelMnemonic returns the mnemonic GNU as wants in Intel syntax.
func (f *Form) intelMnemonic() string {
	switch f.Mnemonic {
	case "mov":
		if f.hasKind(KindMoffs) || f.hasKind(KindImm64) {
			return "movabs"
		}
	case "retf":
		return "retfd"
	case "iret", "popf", "pushf":
		// The 16-bit forms: without a suffix GNU as picks the 64-bit ones.
		return f.Mnemonic + "w"
	case "push":
		if f.hasKind(KindImm16) {
			return "pushw"
		}
	case "sysexit", "sysret":
		// The table's forms are the 32-bit ones (no REX.W).
		return f.Mnemonic + "d"
	}
	return f.Mnemonic
}

// indirectBranch reports whether the form is a jmp/call through a register
// or memory (AT&T marks the operand with '*').
func (f *Form) indirectBranch() bool {
	return (f.Mnemonic == "jmp" || f.Mnemonic == "call") && len(f.Operands) == 1 &&
		f.Operands[0].Kind != KindRel8 && f.Operands[0].Kind != KindRel32
}

// renderOperand renders operand i in both syntaxes.
func (f *Form) renderOperand(i int, op Operand, a Arg) (intel, att string, err error) {
	k := op.Kind
	switch {
	case k == KindConst1 || k == "3" || k == "0":
		if a.Reg != "" {
			return "", "", fmt.Errorf("constant operand takes no register")
		}
		return string(k), "$" + string(k), nil
	case k.IsImmediate():
		if err := checkImm(k, a.Imm); err != nil {
			return "", "", err
		}
		s := strconv.FormatInt(a.Imm, 10)
		return s, "$" + s, nil
	case k == KindRel8 || k == KindRel32 || k == "rel16":
		if a.Label == "" {
			return "", "", fmt.Errorf("branch target needs a label")
		}
		return a.Label, a.Label, nil
	case k.IsMemory():
		if a.Mem == nil {
			return "", "", fmt.Errorf("memory operand needs Mem")
		}
		intel, att, err = f.renderMem(k, *a.Mem)
		if err != nil {
			return "", "", err
		}
		if f.indirectBranch() {
			att = "*" + att
		}
	default:
		reg, err := checkReg(f, k, a.Reg)
		if err != nil {
			return "", "", err
		}
		intel, att = reg, "%"+reg
		if reg == "st(0)" {
			intel, att = "st", "%st"
		}
		if f.indirectBranch() {
			att = "*" + att
		}
	}
	if op.Masked {
		m := strings.ToLower(a.Mask)
		if !isMaskReg(m) || m == "k0" {
			return "", "", fmt.Errorf("masked operand needs a mask register k1-k7, got %q", a.Mask)
		}
		z := ""
		if op.Zeroing {
			z = "{z}"
		}
		intel += " {" + m + "}" + z
		att += "{%" + m + "}" + z
	} else if a.Mask != "" {
		return "", "", fmt.Errorf("operand takes no mask")
	}
	return intel, att, nil
}

func checkImm(k Kind, v int64) error {
	var lo, hi int64
	switch k {
	case KindImm8:
		lo, hi = -128, 255
	case KindImm16:
		lo, hi = -32768, 65535
	case KindImm32:
		lo, hi = -1<<31, 1<<32-1
	default:
		return nil
	}
	if v < lo || v > hi {
		return fmt.Errorf("immediate %d does not fit %s", v, k)
	}
	return nil
}

// intelSize returns the Intel size keyword of a memory kind ("" for untyped
// memory).
func (f *Form) intelSize(k Kind) string {
	switch k {
	case KindM8:
		return "byte"
	case KindM16, KindM16B:
		return "word"
	case KindM32, KindM32B, "m16:16":
		return "dword"
	case KindM64, KindM64B:
		return "qword"
	case KindM80:
		return "tbyte"
	case KindM128:
		return "xmmword"
	case KindM256:
		return "ymmword"
	case KindM512:
		return "zmmword"
	case "m16:32":
		return "fword"
	case "m16:64":
		return "tbyte"
	}
	return ""
}

// renderMem renders a memory operand of kind k.
func (f *Form) renderMem(k Kind, m MemRef) (intel, att string, err error) {
	base, index := strings.ToLower(m.Base), strings.ToLower(m.Index)
	if base != "" && base != "rip" && !isGPR64(base) {
		return "", "", fmt.Errorf("bad base register %q", m.Base)
	}
	if index != "" && (!isGPR64(index) || index == "rsp") {
		return "", "", fmt.Errorf("bad index register %q", m.Index)
	}
	if base == "rip" && index != "" {
		return "", "", fmt.Errorf("rip-relative address takes no index")
	}
	scale := m.Scale
	if scale == 0 {
		scale = 1
	}
	if scale != 1 && scale != 2 && scale != 4 && scale != 8 {
		return "", "", fmt.Errorf("bad scale %d", m.Scale)
	}
	if k == KindMoffs && (base != "" || index != "") {
		return "", "", fmt.Errorf("moffs64 operand is an absolute address (Disp only)")
	}
	if (base != "" || index != "") && (m.Disp < -1<<31 || m.Disp >= 1<<31) {
		return "", "", fmt.Errorf("displacement %d does not fit 32 bits", m.Disp)
	}

	// Intel: size ptr [base+index*scale+disp]
	var b strings.Builder
	if sz := f.intelSize(k); sz != "" {
		b.WriteString(sz + " ptr ")
	} else if k == KindMoffs {
		if sz := f.moffsSize(); sz != "" {
			b.WriteString(sz + " ptr ")
		}
	}
	b.WriteByte('[')
	parts := 0
	if base != "" {
		b.WriteString(base)
		parts++
	}
	if index != "" {
		if parts > 0 {
			b.WriteByte('+')
		}
		b.WriteString(index)
		if scale != 1 {
			b.WriteString("*" + strconv.Itoa(scale))
		}
		parts++
	}
	switch {
	case parts == 0:
		b.WriteString("0x" + strconv.FormatUint(uint64(m.Disp), 16))
	case m.Disp > 0:
		b.WriteString("+" + strconv.FormatInt(m.Disp, 10))
	case m.Disp < 0:
		b.WriteString(strconv.FormatInt(m.Disp, 10))
	}
	b.WriteByte(']')
	intel = b.String()

	// AT&T: disp(base,index,scale)
	b.Reset()
	if parts == 0 {
		b.WriteString("0x" + strconv.FormatUint(uint64(m.Disp), 16))
	} else {
		if m.Disp != 0 {
			b.WriteString(strconv.FormatInt(m.Disp, 10))
		}
		b.WriteString("(")
		if base != "" {
			b.WriteString("%" + base)
		}
		if index != "" {
			b.WriteString(",%" + index + "," + strconv.Itoa(scale))
		}
		b.WriteString(")")
	}
	att = b.String()

	if k.IsBroadcast() {
		n := f.broadcastCount(k)
		if n == 0 {
			return "", "", fmt.Errorf("cannot tell the broadcast count of %s", k)
		}
		suffix := "{1to" + strconv.Itoa(n) + "}"
		intel += suffix
		att += suffix
	}
	return intel, att, nil
}

// moffsSize returns the size keyword of a moffs operand, from the register
// operand of the form.
func (f *Form) moffsSize() string {
	for _, op := range f.Operands {
		switch op.Kind {
		case "al":
			return "byte"
		case "ax":
			return "word"
		case "eax":
			return "dword"
		case "rax":
			return "qword"
		}
	}
	return ""
}

// broadcastCount returns the number of elements a broadcast operand fills.
func (f *Form) broadcastCount(k Kind) int {
	elem := 32
	switch k {
	case KindM64B:
		elem = 64
	case KindM16B:
		elem = 16
	}
	if f.evex.bits != 0 {
		return f.evex.bits / elem
	}
	// A form built outside the catalog: the widest vector operand.
	return f.vectorBits() / elem
}

// vectorBits is the width of the form's widest vector register operand
// (0 without one).
func (f *Form) vectorBits() int {
	bits := 0
	for _, op := range f.Operands {
		switch op.Kind {
		case KindXMM:
			bits = max(bits, 128)
		case KindYMM:
			bits = max(bits, 256)
		case KindZMM:
			bits = max(bits, 512)
		}
	}
	return bits
}

func isGPR64(r string) bool {
	switch r {
	case "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rsp", "rbp":
		return true
	}
	if len(r) >= 2 && r[0] == 'r' {
		n, err := strconv.Atoi(r[1:])
		return err == nil && n >= 8 && n <= 15
	}
	return false
}

func isMaskReg(r string) bool {
	return len(r) == 2 && r[0] == 'k' && r[1] >= '0' && r[1] <= '7'
}

// regNumber parses the number after a prefix ("xmm12" -> 12).
func regNumber(r, prefix string, max int) bool {
	if !strings.HasPrefix(r, prefix) {
		return false
	}
	n, err := strconv.Atoi(r[len(prefix):])
	return err == nil && n >= 0 && n <= max && strconv.Itoa(n) == r[len(prefix):]
}

// extReg reports whether r is one of r8-r15 with a width suffix ("r9d").
func extReg(r, suffix string) bool {
	if !strings.HasSuffix(r, suffix) || !strings.HasPrefix(r, "r") {
		return false
	}
	n, err := strconv.Atoi(r[1 : len(r)-len(suffix)])
	return err == nil && n >= 8 && n <= 15 && strconv.Itoa(n) == r[1:len(r)-len(suffix)]
}

var gpr8 = setOf("al", "bl", "cl", "dl", "ah", "bh", "ch", "dh", "sil", "dil", "spl", "bpl")
var gpr16 = setOf("ax", "bx", "cx", "dx", "si", "di", "sp", "bp")
var gpr32 = setOf("eax", "ebx", "ecx", "edx", "esi", "edi", "esp", "ebp")

// checkReg checks that register r fits kind k and returns it in lower case.
func checkReg(f *Form, k Kind, r string) (string, error) {
	r = strings.ToLower(strings.TrimSpace(r))
	switch k {
	case "al", "ax", "eax", "rax", "cl", "dx", "xmm0", "st(0)", "fs", "gs", "cr8":
		if r == "" || r == string(k) || (k == "st(0)" && r == "st") {
			return string(k), nil
		}
		return "", fmt.Errorf("fixed operand is %s, got %q", k, r)
	}
	if r == "" {
		return "", fmt.Errorf("register operand needs Reg")
	}
	maxVec := 15
	if f.Encoding == EVEX {
		maxVec = 31
	}
	ok := false
	switch k {
	case KindR64:
		ok = isGPR64(r)
	case KindR32:
		ok = gpr32[r] || extReg(r, "d")
	case KindR16:
		ok = gpr16[r] || extReg(r, "w")
	case KindR8:
		ok = gpr8[r] || extReg(r, "b")
	case KindXMM, KindYMM, KindZMM:
		ok = regNumber(r, string(k), maxVec)
	case KindK:
		ok = isMaskReg(r)
	case KindMM:
		ok = regNumber(r, "mm", 7)
	case KindST:
		ok = len(r) == 5 && strings.HasPrefix(r, "st(") && r[3] >= '0' && r[3] <= '7' && r[4] == ')'
	case KindSreg:
		ok = r == "es" || r == "cs" || r == "ss" || r == "ds" || r == "fs" || r == "gs"
	case "cr":
		ok = regNumber(r, "cr", 7)
	case "dr":
		ok = regNumber(r, "dr", 7)
	case "bnd":
		ok = regNumber(r, "bnd", 3)
	default:
		return "", fmt.Errorf("unknown operand kind")
	}
	if !ok {
		return "", fmt.Errorf("register %q does not fit %s", r, k)
	}
	return r, nil
}
