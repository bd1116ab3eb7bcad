package isa

import "strings"

// Kind is an operand kind in the Intel manual's spelling, one kind per operand:
// "r64", "r32", "r16", "r8", "m64", "m128", "m256", "m512", "m32bcst", "m64bcst",
// "imm8", "imm16", "imm32", "imm64", "xmm", "ymm", "zmm", "k", "mm", "st",
// "rel8", "rel32", "m" (address only, as for lea), "moffs64", or a fixed register
// written as the register itself ("al", "ax", "eax", "rax", "cl", "dx", "xmm0", "1").
type Kind string

// Operand kinds used throughout the catalog.
const (
	KindR8     Kind = "r8"
	KindR16    Kind = "r16"
	KindR32    Kind = "r32"
	KindR64    Kind = "r64"
	KindM      Kind = "m"
	KindM8     Kind = "m8"
	KindM16    Kind = "m16"
	KindM32    Kind = "m32"
	KindM64    Kind = "m64"
	KindM80    Kind = "m80"
	KindM128   Kind = "m128"
	KindM256   Kind = "m256"
	KindM512   Kind = "m512"
	KindM16B   Kind = "m16bcst"
	KindM32B   Kind = "m32bcst"
	KindM64B   Kind = "m64bcst"
	KindImm8   Kind = "imm8"
	KindImm16  Kind = "imm16"
	KindImm32  Kind = "imm32"
	KindImm64  Kind = "imm64"
	KindXMM    Kind = "xmm"
	KindYMM    Kind = "ymm"
	KindZMM    Kind = "zmm"
	KindK      Kind = "k"
	KindMM     Kind = "mm"
	KindST     Kind = "st"
	KindRel8   Kind = "rel8"
	KindRel32  Kind = "rel32"
	KindSreg   Kind = "sreg"
	KindMoffs  Kind = "moffs64"
	KindConst1 Kind = "1"
)

// IsMemory reports whether the kind is a memory operand (including broadcasts
// and the address-only "m" of lea).
func (k Kind) IsMemory() bool {
	return k == KindM || k == KindMoffs || (len(k) > 1 && k[0] == 'm' && k[1] >= '0' && k[1] <= '9')
}

// IsImmediate reports whether the kind is an immediate.
func (k Kind) IsImmediate() bool { return strings.HasPrefix(string(k), "imm") || k == KindConst1 }

// IsBroadcast reports whether the kind is an EVEX embedded-broadcast memory operand.
func (k Kind) IsBroadcast() bool { return strings.HasSuffix(string(k), "bcst") }

// Access is how an instruction uses an operand.
type Access uint8

// Access bits. ReadWrite is both; CondWrite marks a destination that is only
// written under a condition (cmov, masked merges), so its old value is an input.
const (
	Read Access = 1 << iota
	Write
	CondWrite
	ReadWrite = Read | Write
)

// String renders the access as "r", "w", "rw", "cw" or "rcw".
func (a Access) String() string {
	s := ""
	if a&Read != 0 {
		s += "r"
	}
	if a&Write != 0 {
		s += "w"
	}
	if a&CondWrite != 0 {
		s += "cw"
	}
	return s
}

// Operand is one explicit operand of a form.
type Operand struct {
	Kind   Kind
	Access Access
	// Masked is set on the destination of an EVEX form that takes an opmask
	// ({k}) and, with Zeroing, {k}{z}.
	Masked  bool
	Zeroing bool
}

// Encoding is the encoding space of a form.
type Encoding uint8

// Encodings.
const (
	Legacy Encoding = iota
	VEX
	EVEX
)

func (e Encoding) String() string {
	switch e {
	case VEX:
		return "vex"
	case EVEX:
		return "evex"
	}
	return "legacy"
}

// Flag is a bit set of arithmetic flags.
type Flag uint8

// Flag bits.
const (
	CF Flag = 1 << iota
	PF
	AF
	ZF
	SF
	OF
	DF
	AllArith = CF | PF | AF | ZF | SF | OF
)

// String renders flags as e.g. "cf|zf".
func (f Flag) String() string {
	names := []string{"cf", "pf", "af", "zf", "sf", "of", "df"}
	var parts []string
	for i, n := range names {
		if f&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// Form is one instruction form: a mnemonic with one operand kind per operand.
// Its canonical name (Name) is the key used everywhere in portlab.
type Form struct {
	Mnemonic string    // Intel mnemonic, lower case: "vfmadd231pd"
	Operands []Operand // Intel order (destination first)
	Encoding Encoding
	// EVEXOnlyName is true when the form's name needs the "{evex}" pseudo-prefix
	// to differ from a VEX form with the same operand kinds.
	EVEXPrefix bool
	Features   []string // CPUID features required (names as in Features); all must be present
	Opcode     string   // encoding text from the Intel manual ("VEX.256.66.0F38.W1 B8 /r")
	GNU        string   // AT&T mnemonic GNU as accepts for this form ("addq", "vfmadd231pd")

	ImplicitReads  []string // implicit registers read ("rax", "rdx", "cl", "rsp", ...)
	ImplicitWrites []string // implicit registers written
	FlagsRead      Flag
	FlagsWritten   Flag
	FlagsUndefined Flag // flags left undefined (written, but with no meaning)

	// name caches Name for catalog forms (set once the form is built).
	name string
	// evex describes generated EVEX forms (see evexForms).
	evex evexMeta

	// Attrs marks properties that decide whether and how a form can be
	// benchmarked in user mode (privileged, branch, stack, x87, ...).
	Attrs Attr
}

// Name returns the canonical form name: Intel operand order, lower case, one
// kind per operand, masks as "{k}" / "{k}{z}" after the destination, and the
// "{evex}" prefix where an EVEX form would otherwise share a VEX form's name.
// Examples: "add r64, r64", "vfmadd231pd ymm, ymm, m256",
// "vaddpd zmm {k}{z}, zmm, m64bcst", "{evex} vaddpd ymm, ymm, ymm".
func (f *Form) Name() string {
	if f.name != "" {
		return f.name
	}
	var b strings.Builder
	if f.EVEXPrefix {
		b.WriteString("{evex} ")
	}
	b.WriteString(f.Mnemonic)
	for i, op := range f.Operands {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		b.WriteString(string(op.Kind))
		if op.Masked {
			b.WriteString(" {k}")
			if op.Zeroing {
				b.WriteString("{z}")
			}
		}
	}
	return b.String()
}

// String is Name.
func (f *Form) String() string { return f.Name() }

// HasMemory reports whether any explicit operand is a memory operand.
func (f *Form) HasMemory() bool {
	for _, op := range f.Operands {
		if op.Kind.IsMemory() {
			return true
		}
	}
	return false
}

// WithKind returns a copy of f whose operand i has kind k: a name to look
// up in the catalog, not a catalog form itself.
func (f *Form) WithKind(i int, k Kind) *Form {
	g := *f
	g.name, g.evex = "", evexMeta{}
	g.Operands = append([]Operand(nil), f.Operands...)
	g.Operands[i].Kind = k
	return &g
}
