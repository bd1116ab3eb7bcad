package isa

import (
	"strconv"
	"strings"
)

// RegClass is the class of a register.
type RegClass uint8

// Register classes.
const (
	ClassNone RegClass = iota
	ClassGPR           // general-purpose registers of every width (rax, eax, ax, al, ah, r8b, ...)
	ClassIP            // rip, eip
	ClassSeg           // es, cs, ss, ds, fs, gs
	ClassXMM           // xmm0-xmm31
	ClassYMM           // ymm0-ymm31
	ClassZMM           // zmm0-zmm31
	ClassK             // k0-k7 (AVX-512 opmask)
	ClassMM            // mm0-mm7 (MMX)
	ClassST            // st(0)-st(7) (x87 stack)
	ClassCR            // control registers cr0-cr15
	ClassDR            // debug registers dr0-dr15
	ClassBND           // MPX bound registers bnd0-bnd3
)

var classNames = [...]string{"none", "gpr", "ip", "seg", "xmm", "ymm", "zmm", "k", "mm", "st", "cr", "dr", "bnd"}

// String returns the class name ("gpr", "xmm", ...).
func (c RegClass) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "RegClass(" + strconv.Itoa(int(c)) + ")"
}

// Reg is a machine register. The zero value, RegNone, is no register.
// Registers are laid out in blocks: the 64-, 32-, 16- and low 8-bit GPRs
// numbered 0-15 each, the high byte registers, rip/eip, segment registers,
// xmm/ymm/zmm 0-31, k0-7, mm0-7, st(0)-st(7), cr0-15, dr0-15 and bnd0-3.
type Reg uint16

// RegNone is no register.
const RegNone Reg = 0

// Base values of the register blocks.
const (
	regGPR64 Reg = 1
	regGPR32 Reg = regGPR64 + 16
	regGPR16 Reg = regGPR32 + 16
	regGPR8  Reg = regGPR16 + 16 // al, cl, dl, bl, spl, bpl, sil, dil, r8b..r15b
	regGPR8H Reg = regGPR8 + 16  // ah, ch, dh, bh
	regIP    Reg = regGPR8H + 4  // rip, eip
	regSeg   Reg = regIP + 2
	regXMM   Reg = regSeg + 6
	regYMM   Reg = regXMM + 32
	regZMM   Reg = regYMM + 32
	regK     Reg = regZMM + 32
	regMM    Reg = regK + 8
	regST    Reg = regMM + 8
	regCR    Reg = regST + 8
	regDR    Reg = regCR + 16
	regBND   Reg = regDR + 16
	regEnd   Reg = regBND + 4
)

// The 64-bit general-purpose registers, RAX+n being register number n.
const (
	RAX Reg = regGPR64 + iota
	RCX
	RDX
	RBX
	RSP
	RBP
	RSI
	RDI
	R8
	R9
	R10
	R11
	R12
	R13
	R14
	R15
)

// Other named registers. Registers are laid out in blocks of one class and
// width in number order, so EAX+n, AX+n, AL+n (4-7 being spl, bpl, sil, dil),
// X0+n, Y0+n, Z0+n, K0+n, MM0+n and ST0+n are register number n.
const (
	EAX  = regGPR32
	ECX  = regGPR32 + 1
	EDX  = regGPR32 + 2
	EBX  = regGPR32 + 3
	ESP  = regGPR32 + 4
	EBP  = regGPR32 + 5
	ESI  = regGPR32 + 6
	EDI  = regGPR32 + 7
	AX   = regGPR16
	CX   = regGPR16 + 1
	DX   = regGPR16 + 2
	BX   = regGPR16 + 3
	AL   = regGPR8
	CL   = regGPR8 + 1
	DL   = regGPR8 + 2
	BL   = regGPR8 + 3
	SPL  = regGPR8 + 4
	BPL  = regGPR8 + 5
	SIL  = regGPR8 + 6
	DIL  = regGPR8 + 7
	AH   = regGPR8H
	CH   = regGPR8H + 1
	DH   = regGPR8H + 2
	BH   = regGPR8H + 3
	RIP  = regIP
	EIP  = regIP + 1
	ES   = regSeg
	CS   = regSeg + 1
	SS   = regSeg + 2
	DS   = regSeg + 3
	FS   = regSeg + 4
	GS   = regSeg + 5
	X0   = regXMM
	Y0   = regYMM
	Z0   = regZMM
	K0   = regK
	MM0  = regMM
	ST0  = regST
	regN = regEnd
)

var (
	gpr64Names = [16]string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}
	gpr32Names = [16]string{"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"}
	gpr16Names = [16]string{"ax", "cx", "dx", "bx", "sp", "bp", "si", "di", "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"}
	gpr8Names  = [16]string{"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"}
	gpr8HNames = [4]string{"ah", "ch", "dh", "bh"}
	segNames   = [6]string{"es", "cs", "ss", "ds", "fs", "gs"}
)

// regInfo describes one register.
type regInfo struct {
	name  string
	class RegClass
	width uint16 // bits
	num   uint8
	high  bool // ah, ch, dh, bh
}

var (
	regTable  [regN]regInfo
	regByName = map[string]Reg{}
)

func init() {
	add := func(r Reg, name string, c RegClass, w uint16, n int, high bool) {
		regTable[r] = regInfo{name, c, w, uint8(n), high}
		regByName[name] = r
	}
	for i := 0; i < 16; i++ {
		add(regGPR64+Reg(i), gpr64Names[i], ClassGPR, 64, i, false)
		add(regGPR32+Reg(i), gpr32Names[i], ClassGPR, 32, i, false)
		add(regGPR16+Reg(i), gpr16Names[i], ClassGPR, 16, i, false)
		add(regGPR8+Reg(i), gpr8Names[i], ClassGPR, 8, i, false)
	}
	for i := 0; i < 4; i++ {
		add(regGPR8H+Reg(i), gpr8HNames[i], ClassGPR, 8, i, true)
	}
	add(RIP, "rip", ClassIP, 64, 0, false)
	add(EIP, "eip", ClassIP, 32, 0, false)
	for i := 0; i < 6; i++ {
		add(regSeg+Reg(i), segNames[i], ClassSeg, 16, i, false)
	}
	for i := 0; i < 32; i++ {
		s := strconv.Itoa(i)
		add(regXMM+Reg(i), "xmm"+s, ClassXMM, 128, i, false)
		add(regYMM+Reg(i), "ymm"+s, ClassYMM, 256, i, false)
		add(regZMM+Reg(i), "zmm"+s, ClassZMM, 512, i, false)
	}
	for i := 0; i < 8; i++ {
		s := strconv.Itoa(i)
		add(regK+Reg(i), "k"+s, ClassK, 64, i, false)
		add(regMM+Reg(i), "mm"+s, ClassMM, 64, i, false)
		add(regST+Reg(i), "st("+s+")", ClassST, 80, i, false)
		regByName["st"+s] = regST + Reg(i) // llvm spelling
	}
	for i := 0; i < 16; i++ {
		s := strconv.Itoa(i)
		add(regCR+Reg(i), "cr"+s, ClassCR, 64, i, false)
		add(regDR+Reg(i), "dr"+s, ClassDR, 64, i, false)
	}
	for i := 0; i < 4; i++ {
		add(regBND+Reg(i), "bnd"+strconv.Itoa(i), ClassBND, 128, i, false)
	}
	// Aliases accepted on input.
	regByName["st"] = ST0
	for i := 8; i < 16; i++ {
		regByName["r"+strconv.Itoa(i)+"l"] = regGPR8 + Reg(i) // r8l, Intel's spelling
	}
}

// RegByName returns the register with the given name (case-insensitive, no
// "%" sigil): "rax", "r8d", "xmm17", "k1", "st(3)", "st". It reports false for
// an unknown name.
func RegByName(name string) (Reg, bool) {
	if r, ok := regByName[name]; ok {
		return r, true
	}
	r, ok := regByName[lowerASCII(name)]
	if !ok {
		// st( 1 ) with blanks
		if n := strings.ReplaceAll(lowerASCII(name), " ", ""); n != name {
			r, ok = regByName[n]
		}
	}
	return r, ok
}

func (r Reg) info() *regInfo {
	if r < regN {
		return &regTable[r]
	}
	return &regTable[0]
}

// Valid reports whether r is a register (not RegNone, not out of range).
func (r Reg) Valid() bool { return r > RegNone && r < regN }

// Name returns the register's name in lower case without sigil ("rax", "st(1)").
func (r Reg) Name() string {
	if !r.Valid() {
		return ""
	}
	return r.info().name
}

// String is Name, or "Reg(n)" for an invalid register.
func (r Reg) String() string {
	if !r.Valid() {
		if r == RegNone {
			return "none"
		}
		return "Reg(" + strconv.Itoa(int(r)) + ")"
	}
	return r.info().name
}

// Class returns the register class.
func (r Reg) Class() RegClass { return r.info().class }

// Width returns the width in bits: 8, 16, 32, 64 for GPRs; 128, 256, 512 for
// vector registers; 64 for k and mm registers; 80 for st(i); 16 for
// segment registers.
func (r Reg) Width() int { return int(r.info().width) }

// Num returns the register number as encoded (0-15 for GPRs, 0-31 for vector
// registers, 0-7 for k, mm and st). For ah, ch, dh and bh it returns the
// number of the parent register (0-3) rather than the encoding (4-7).
func (r Reg) Num() int { return int(r.info().num) }

// IsHighByte reports whether r is ah, ch, dh or bh.
func (r Reg) IsHighByte() bool { return r.info().high }

// IsGPR reports whether r is a general-purpose register of any width.
func (r Reg) IsGPR() bool { return r.Class() == ClassGPR }

// IsVector reports whether r is an xmm, ymm or zmm register.
func (r Reg) IsVector() bool {
	c := r.Class()
	return c == ClassXMM || c == ClassYMM || c == ClassZMM
}

// Parent returns the architectural register that r is part of, the unit of
// dependency tracking: the 64-bit GPR for any GPR (eax, ax, al and ah all
// give rax), zmm n for xmm n and ymm n, rip for eip, and r itself otherwise.
func (r Reg) Parent() Reg {
	in := r.info()
	switch in.class {
	case ClassGPR:
		return regGPR64 + Reg(in.num)
	case ClassXMM, ClassYMM:
		return regZMM + Reg(in.num)
	case ClassIP:
		return RIP
	}
	return r
}

// WriteZeroExtends reports whether writing r clears the rest of its parent:
// true for 32-bit GPRs (writing eax zeroes the upper half of rax) and for the
// 64-bit GPRs, which are the whole parent. Writing an 8- or 16-bit GPR merges
// into the parent, which makes the old value an input. (For vector registers
// the answer depends on the encoding: VEX and EVEX writes zero the upper bits,
// legacy SSE writes merge; see WriteMerges.)
func (r Reg) WriteZeroExtends() bool {
	in := r.info()
	return in.class == ClassGPR && in.width >= 32
}

// WriteMerges reports whether writing r through an instruction of the given
// encoding keeps the untouched bits of its parent, so the old value of the
// parent is an input: 8- and 16-bit GPRs always; xmm registers written by a
// legacy SSE instruction (the upper bits of ymm/zmm are kept).
func (r Reg) WriteMerges(enc Encoding) bool {
	in := r.info()
	switch in.class {
	case ClassGPR:
		return in.width < 32
	case ClassXMM:
		return enc == Legacy
	}
	return false
}

// regOfClass returns the register of class c with number n, or RegNone.
func regOfClass(c RegClass, width, n int) Reg {
	switch c {
	case ClassGPR:
		if n < 0 || n > 15 {
			return RegNone
		}
		switch width {
		case 64:
			return regGPR64 + Reg(n)
		case 32:
			return regGPR32 + Reg(n)
		case 16:
			return regGPR16 + Reg(n)
		case 8:
			return regGPR8 + Reg(n)
		}
	case ClassXMM, ClassYMM, ClassZMM:
		if n < 0 || n > 31 {
			return RegNone
		}
		switch c {
		case ClassXMM:
			return regXMM + Reg(n)
		case ClassYMM:
			return regYMM + Reg(n)
		default:
			return regZMM + Reg(n)
		}
	case ClassK:
		if n >= 0 && n < 8 {
			return regK + Reg(n)
		}
	case ClassMM:
		if n >= 0 && n < 8 {
			return regMM + Reg(n)
		}
	case ClassST:
		if n >= 0 && n < 8 {
			return regST + Reg(n)
		}
	case ClassSeg:
		if n >= 0 && n < 6 {
			return regSeg + Reg(n)
		}
	case ClassCR:
		if n >= 0 && n < 16 {
			return regCR + Reg(n)
		}
	case ClassDR:
		if n >= 0 && n < 16 {
			return regDR + Reg(n)
		}
	case ClassBND:
		if n >= 0 && n < 4 {
			return regBND + Reg(n)
		}
	}
	return RegNone
}

// GPR returns the general-purpose register number n (0-15) of the given width
// in bits (8, 16, 32, 64); for width 8, numbers 4-7 are spl, bpl, sil, dil.
// It returns RegNone for an invalid combination.
func GPR(n, width int) Reg { return regOfClass(ClassGPR, width, n) }

// VecReg returns vector register n (0-31) of the given width in bits (128,
// 256, 512), or RegNone.
func VecReg(n, width int) Reg {
	switch width {
	case 128:
		return regOfClass(ClassXMM, 0, n)
	case 256:
		return regOfClass(ClassYMM, 0, n)
	case 512:
		return regOfClass(ClassZMM, 0, n)
	}
	return RegNone
}

// KReg returns opmask register k n (0-7), or RegNone.
func KReg(n int) Reg { return regOfClass(ClassK, 0, n) }

// Kind returns the operand kind a register operand has in a form: "r64",
// "r32", "r16", "r8", "xmm", "ymm", "zmm", "k", "mm", "st", "sreg", "cr",
// "dr", "bnd".
func (r Reg) Kind() Kind {
	in := r.info()
	switch in.class {
	case ClassGPR:
		switch in.width {
		case 64:
			return KindR64
		case 32:
			return KindR32
		case 16:
			return KindR16
		default:
			return KindR8
		}
	case ClassXMM:
		return KindXMM
	case ClassYMM:
		return KindYMM
	case ClassZMM:
		return KindZMM
	case ClassK:
		return KindK
	case ClassMM:
		return KindMM
	case ClassST:
		return KindST
	case ClassSeg:
		return KindSreg
	case ClassCR:
		return "cr"
	case ClassDR:
		return "dr"
	case ClassBND:
		return "bnd"
	}
	return ""
}

// lowerASCII lower-cases ASCII letters without allocating when s is already
// lower case.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
