package isa

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is a position in a source file; Line and Col are 1-based, Col counts
// bytes. The zero Pos means "no position" (decoded instructions).
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether the position has a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders "file:line:col" (parts that are unknown are left out).
func (p Pos) String() string {
	s := p.File
	if p.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	return s
}

// Syntax is an assembly syntax.
type Syntax uint8

// Syntaxes. SyntaxUnknown is the zero value (nothing decided it yet).
const (
	SyntaxUnknown Syntax = iota
	SyntaxATT
	SyntaxIntel
)

// String returns "att", "intel" or "unknown".
func (s Syntax) String() string {
	switch s {
	case SyntaxATT:
		return "att"
	case SyntaxIntel:
		return "intel"
	}
	return "unknown"
}

// Prefix is a set of instruction prefixes, including the assembler's
// pseudo-prefixes that select an encoding ({vex}, {evex}).
type Prefix uint32

// Prefixes.
const (
	PrefixLock     Prefix = 1 << iota // lock
	PrefixRep                         // rep, repe, repz
	PrefixRepne                       // repne, repnz
	PrefixData16                      // data16: operand-size override 0x66 written explicitly
	PrefixAddr32                      // addr32: address-size override 0x67
	PrefixREX                         // rex (explicit empty REX prefix)
	PrefixREXW                        // rex.w / rex64
	PrefixVEX                         // {vex} (also spelled {vex2})
	PrefixVEX3                        // {vex3}: three-byte VEX
	PrefixEVEX                        // {evex}: EVEX encoding
	PrefixNotrack                     // notrack
	PrefixBnd                         // bnd
	PrefixXacquire                    // xacquire
	PrefixXrelease                    // xrelease
	PrefixDisp8                       // {disp8}
	PrefixDisp32                      // {disp32}
	PrefixLoad                        // {load}
	PrefixStore                       // {store}
)

// prefixNames lists the spelling of each prefix bit, in bit order.
var prefixNames = []string{
	"lock", "rep", "repne", "data16", "addr32", "rex", "rex.w", "{vex}", "{vex3}", "{evex}",
	"notrack", "bnd", "xacquire", "xrelease", "{disp8}", "{disp32}", "{load}", "{store}",
}

// prefixByName maps every accepted prefix spelling to its bit.
var prefixByName = map[string]Prefix{
	"lock": PrefixLock, "rep": PrefixRep, "repe": PrefixRep, "repz": PrefixRep,
	"repne": PrefixRepne, "repnz": PrefixRepne, "data16": PrefixData16, "addr32": PrefixAddr32,
	"rex": PrefixREX, "rex.w": PrefixREXW, "rex64": PrefixREXW, "{rex}": PrefixREX,
	"{vex}": PrefixVEX, "{vex2}": PrefixVEX, "{vex3}": PrefixVEX3, "{evex}": PrefixEVEX,
	"notrack": PrefixNotrack, "bnd": PrefixBnd, "xacquire": PrefixXacquire, "xrelease": PrefixXrelease,
	"{disp8}": PrefixDisp8, "{disp32}": PrefixDisp32, "{load}": PrefixLoad, "{store}": PrefixStore,
}

// Names returns the prefixes' spellings in a fixed order ("lock", "{evex}").
func (p Prefix) Names() []string {
	var out []string
	for i, n := range prefixNames {
		if p&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// String joins Names with blanks.
func (p Prefix) String() string { return strings.Join(p.Names(), " ") }

// Rounding is an AVX-512 embedded rounding or suppress-all-exceptions
// operand.
type Rounding uint8

// Roundings.
const (
	RoundNone    Rounding = iota
	RoundNearest          // {rn-sae}
	RoundDown             // {rd-sae}
	RoundUp               // {ru-sae}
	RoundZero             // {rz-sae}
	RoundSAE              // {sae}: suppress all exceptions, no rounding override
)

var roundingNames = [...]string{"", "{rn-sae}", "{rd-sae}", "{ru-sae}", "{rz-sae}", "{sae}"}

// String renders the rounding as written in assembly ("{rn-sae}"), or "".
func (r Rounding) String() string {
	if int(r) < len(roundingNames) {
		return roundingNames[r]
	}
	return ""
}

// OperandType says which field of an InstOperand is meaningful.
type OperandType uint8

// Operand types.
const (
	OpNone  OperandType = iota
	OpReg               // Reg
	OpMem               // Mem
	OpImm               // Imm (plus Symbol for a symbolic immediate such as $sym+4)
	OpLabel             // a branch target: Symbol ("loop", "1b", "1f"), or Imm as an absolute address when Symbol is ""
)

// String returns "reg", "mem", "imm", "label" or "none".
func (t OperandType) String() string {
	switch t {
	case OpReg:
		return "reg"
	case OpMem:
		return "mem"
	case OpImm:
		return "imm"
	case OpLabel:
		return "label"
	}
	return "none"
}

// InstMem is a memory operand: Segment:[Base + Index*Scale + Symbol + Disp].
type InstMem struct {
	Segment Reg   // segment override (fs, gs, ...), RegNone if none
	Base    Reg   // base register, RIP for rip-relative addressing, RegNone if none
	Index   Reg   // index register (a vector register for VSIB), RegNone if none
	Scale   int   // 1, 2, 4 or 8 (1 when there is no index)
	Disp    int64 // displacement
	Symbol  string
	// Size is the access size in bits (64 for qword ptr or a q suffix; for a
	// broadcast the element size), 0 when the source left it to be inferred.
	Size int
	// Broadcast is N of an EVEX {1toN} embedded broadcast, 0 if none.
	Broadcast int
}

// RIPRelative reports whether the address is relative to the instruction
// pointer.
func (m InstMem) RIPRelative() bool { return m.Base == RIP || m.Base == EIP }

// BroadcastString renders the broadcast as "1to8", or "" when there is none.
func (m InstMem) BroadcastString() string {
	if m.Broadcast == 0 {
		return ""
	}
	return "1to" + strconv.Itoa(m.Broadcast)
}

// InstOperand is one explicit operand of an instruction.
type InstOperand struct {
	Type OperandType
	Reg  Reg     // OpReg
	Mem  InstMem // OpMem
	Imm  int64   // OpImm; OpLabel with an absolute target (decoded code)
	// Symbol names the symbol of an immediate ("$sym+4" has Symbol "sym" and
	// Imm 4) or the target of a label operand.
	Symbol string
	// Indirect marks an AT&T "*" operand of jmp/call.
	Indirect bool
	// Pos is where the operand starts in the source.
	Pos Pos
}

// RegOp returns a register operand.
func RegOp(r Reg) InstOperand { return InstOperand{Type: OpReg, Reg: r} }

// ImmOp returns an immediate operand.
func ImmOp(v int64) InstOperand { return InstOperand{Type: OpImm, Imm: v} }

// MemOp returns a memory operand.
func MemOp(m InstMem) InstOperand { return InstOperand{Type: OpMem, Mem: m} }

// Inst is one instruction, parsed from assembly text or decoded from machine
// code. Operands are in Intel order (destination first) whatever the source
// syntax.
type Inst struct {
	Pos      Pos    // where the instruction starts (the first prefix or the mnemonic)
	Prefix   Prefix // prefixes and pseudo-prefixes
	Mnemonic string // Intel mnemonic, lower case ("add", "vaddpd", "movzx")
	Args     []InstOperand
	// Mask is the opmask register applied to the destination ({k1}), RegNone
	// if none. Zeroing is {z}.
	Mask    Reg
	Zeroing bool
	// Rounding is the embedded rounding / SAE operand of an EVEX instruction.
	Rounding Rounding
	// Form is the instruction form the instruction maps to, nil until
	// resolved (see ResolveForm).
	Form *Form

	// Syntax is the syntax the instruction was parsed from (SyntaxUnknown for
	// decoded instructions). SourceMnemonic is the mnemonic as written
	// (lower case), e.g. "addq" in AT&T source; Text is the source text of
	// the statement, without comments.
	Syntax         Syntax
	SourceMnemonic string
	Text           string

	// Addr, Len and Bytes are set for decoded instructions: the address of the
	// first byte, the encoded length and the bytes themselves.
	Addr  uint64
	Len   int
	Bytes []byte

	// absMoffs allows the moffs forms of mov: set for movabs and for decoded
	// A0-A3 encodings.
	absMoffs bool
	// decoder records which decoder produced a decoded instruction.
	decoder decoderKind
}

// decoderKind names the decoder of an instruction (for tests and reports).
type decoderKind uint8

const (
	decNone    decoderKind = iota
	decVEX                 // portlab's VEX/EVEX decoder, from catalog opcode strings
	decX86asm              // x86asm, form picked by kinds and opcode string
	decCatalog             // catalog opcode strings alone (x86asm failed or disagreed)
)

func (d decoderKind) String() string {
	return [...]string{"none", "vex", "x86asm", "catalog"}[d]
}

// String renders the instruction in Intel syntax.
func (in *Inst) String() string { return in.Intel() }

// HasMemory reports whether an explicit operand is a memory operand.
func (in *Inst) HasMemory() bool {
	for i := range in.Args {
		if in.Args[i].Type == OpMem {
			return true
		}
	}
	return false
}

// Memory returns the instruction's explicit memory operand; false when
// it has none or several.
func (in *Inst) Memory() (InstMem, bool) {
	var out InstMem
	n := 0
	for _, a := range in.Args {
		if a.Type == OpMem {
			out = a.Mem
			n++
		}
	}
	return out, n == 1
}

// needsEVEX reports whether something in the instruction can only be encoded
// with EVEX: masking, broadcast, rounding, registers 16-31, zmm or k
// operands of vector instructions, or the {evex} pseudo-prefix.
func (in *Inst) needsEVEX() bool {
	if in.Prefix&PrefixEVEX != 0 || in.Mask != RegNone || in.Zeroing || in.Rounding != RoundNone {
		return true
	}
	for i := range in.Args {
		a := &in.Args[i]
		switch a.Type {
		case OpReg:
			if a.Reg.IsVector() && (a.Reg.Num() >= 16 || a.Reg.Class() == ClassZMM) {
				return true
			}
		case OpMem:
			if a.Mem.Broadcast != 0 {
				return true
			}
			if x := a.Mem.Index; x.IsVector() && (x.Num() >= 16 || x.Class() == ClassZMM) {
				return true
			}
		}
	}
	return false
}

// ParseError is an error in assembly source, positioned at the offending
// token: "kernel.s:12:7: unknown register "%ymm32"".
type ParseError struct {
	File string
	Line int // 1-based
	Col  int // 1-based byte column
	Msg  string
}

// Error renders "file:line:col: message".
func (e *ParseError) Error() string {
	return Pos{e.File, e.Line, e.Col}.String() + ": " + e.Msg
}

// Pos returns the error's position.
func (e *ParseError) Pos() Pos { return Pos{e.File, e.Line, e.Col} }

// ParseErrors is the list of errors found in one source file, in source
// order. Its Error method describes the first one and counts the rest.
type ParseErrors []*ParseError

// Error describes the first error and counts the others.
func (l ParseErrors) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

// Unwrap returns the errors, for errors.As and errors.Is.
func (l ParseErrors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// FormError is returned when an instruction does not map to a catalog form.
type FormError struct {
	Pos        Pos
	Mnemonic   string
	Kinds      []string // the operand kinds computed for the instruction ("zmm", "m?" for an unsized memory operand)
	Candidates []string // names of the forms with this mnemonic
	Msg        string   // what went wrong ("no form of "vaddpd" takes (zmm, zmm, r64)")
}

// Error renders the position (when known), the message and up to eight
// candidate forms.
func (e *FormError) Error() string {
	s := e.Msg
	if len(e.Candidates) > 0 {
		const max = 8
		c := e.Candidates
		more := ""
		if len(c) > max {
			more = fmt.Sprintf(", ... (%d more)", len(c)-max)
			c = c[:max]
		}
		s += "; candidates: " + strings.Join(c, "; ") + more
	}
	if e.Pos.IsValid() {
		return e.Pos.String() + ": " + s
	}
	return s
}
