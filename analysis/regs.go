package analysis

import (
	"strconv"
	"strings"

	"portlab/isa"
)

// Register units: the unit of dependency tracking (a register and every
// register inside it: rax, eax, ax, al and ah are one unit; xmm3, ymm3
// and zmm3 are one unit; the arithmetic flags are one unit).
const (
	unitGPR   = 0  // 16 general-purpose registers
	unitFlags = 16 // rflags' arithmetic flags
	unitVec   = 17 // 32 vector registers
	unitK     = 49 // 8 opmask registers
	unitMM    = 57 // 8 MMX registers
	unitST    = 65 // 8 x87 registers
	unitSeg   = 73 // 6 segment registers
	unitMem   = 79 // 16 memory locations a store forwards to a load (see forwardMemory)
	unitCarry = 95 // the carry flag, when it is renamed apart from the others (Builder.splitFlags)
	numUnits  = 96
)

// regUnit returns r's register unit, or -1 for registers not tracked
// (rip, control and debug registers).
func regUnit(r isa.Reg) int {
	if !r.Valid() {
		return -1
	}
	switch r.Class() {
	case isa.ClassGPR:
		return unitGPR + r.Num()
	case isa.ClassXMM, isa.ClassYMM, isa.ClassZMM:
		return unitVec + r.Num()
	case isa.ClassK:
		return unitK + r.Num()
	case isa.ClassMM:
		return unitMM + r.Num()
	case isa.ClassST:
		return unitST + r.Num()
	case isa.ClassSeg:
		return unitSeg + r.Num()
	}
	return -1
}

// regUnitByName returns the unit of an implicit register named in the
// catalog ("rax", "cl", "xmm0", "rflags"), or -1.
func regUnitByName(name string) int {
	switch strings.ToLower(name) {
	case "flags", "eflags", "rflags":
		return unitFlags
	}
	r, ok := isa.RegByName(name)
	if !ok {
		return -1
	}
	return regUnit(r)
}

// implicitKey is the name a model's operand latencies give an implicit
// register: the 64-bit register for any part of a general register (the
// generator names `div r32`'s chains "rax->rax" and "rdx->rdx", the
// catalog its implicit operands eax and edx), else the name itself.
func implicitKey(name string) string {
	if r, ok := isa.RegByName(name); ok && r.IsGPR() {
		return r.Parent().Name()
	}
	return strings.ToLower(name)
}

var gpr64 = [16]string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}

// unitName names a register unit as reports show it ("rax", "xmm3",
// "flags").
func unitName(u int, vecWidth int) string {
	switch {
	case u < 0:
		return "?"
	case u < unitFlags:
		return gpr64[u]
	case u == unitFlags:
		return "flags"
	case u < unitK:
		p := "xmm"
		switch vecWidth {
		case 256:
			p = "ymm"
		case 512:
			p = "zmm"
		}
		return p + strconv.Itoa(u-unitVec)
	case u < unitMM:
		return "k" + strconv.Itoa(u-unitK)
	case u < unitST:
		return "mm" + strconv.Itoa(u-unitMM)
	case u < unitSeg:
		return "st(" + strconv.Itoa(u-unitST) + ")"
	case u < unitMem:
		return [...]string{"es", "cs", "ss", "ds", "fs", "gs"}[u-unitSeg]
	case u < unitCarry:
		return "memory " + strconv.Itoa(u-unitMem)
	case u == unitCarry:
		return "CF"
	}
	return "?"
}

// registerClassUnits maps a register file's name in a model
// (register_files: {gpr: 180, vec: 160}) to the units it renames; classes
// joined with '+' share a file ("gpr+flags").
func registerClassUnits(class string) []int {
	if strings.Contains(class, "+") {
		var out []int
		for _, c := range strings.Split(class, "+") {
			u := registerClassUnits(strings.TrimSpace(c))
			if u == nil {
				return nil
			}
			out = append(out, u...)
		}
		return out
	}
	var out []int
	add := func(lo, n int) {
		for i := 0; i < n; i++ {
			out = append(out, lo+i)
		}
	}
	switch strings.ToLower(class) {
	case "gpr", "int", "integer", "general", "r":
		add(unitGPR, 16)
	case "vec", "vector", "fp", "fpu", "simd", "xmm", "ymm", "zmm", "sse", "avx", "float":
		add(unitVec, 32)
		add(unitMM, 8)
		add(unitST, 8)
	case "k", "mask", "opmask":
		add(unitK, 8)
	case "flags", "eflags", "rflags", "cc":
		add(unitFlags, 1)
		add(unitCarry, 1)
	default:
		return nil
	}
	return out
}
