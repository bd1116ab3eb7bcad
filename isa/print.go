package isa

import (
	"strconv"
	"strings"
)

// intelSizeNames spells memory sizes for Intel syntax.
var intelSizeNames = map[int]string{
	8: "byte", 16: "word", 32: "dword", 48: "fword", 64: "qword", 80: "tbyte",
	128: "xmmword", 256: "ymmword", 512: "zmmword",
}

// Intel renders the instruction in Intel syntax as GNU as accepts it after
// ".intel_syntax noprefix": "vaddpd zmm0{k1}{z}, zmm1, qword ptr [rax+8]{1to8}".
func (in *Inst) Intel() string {
	var b strings.Builder
	in.writePrefixes(&b)
	switch {
	case in.Form != nil:
		b.WriteString(in.Form.intelMnemonic())
	case in.absMoffs && in.Mnemonic == "mov":
		b.WriteString("movabs")
	default:
		b.WriteString(in.Mnemonic)
	}
	ops := in.operandOrder()
	for i, k := range ops {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		if k < 0 {
			b.WriteString(in.Rounding.String())
			continue
		}
		in.writeIntelOperand(&b, k)
	}
	return b.String()
}

// ATT renders the instruction in AT&T syntax as GNU as accepts it after
// ".att_syntax": "addq $1, 8(%rax)", "vaddpd (%rax){1to8}, %zmm1, %zmm0{%k1}{z}".
// The mnemonic is the form's GNU spelling when the form is known (which
// carries the size suffix where operands leave the size open); otherwise a
// suffix is added when no register operand gives the size.
func (in *Inst) ATT() string {
	var b strings.Builder
	in.writePrefixes(&b)
	b.WriteString(in.attMnemonicText())
	ops := in.operandOrder()
	reverse := !(len(in.Args) == 2 && in.Args[0].Type == OpImm && in.Args[1].Type == OpImm)
	if reverse {
		for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
			ops[i], ops[j] = ops[j], ops[i]
		}
	}
	branch := isBranch(in.Mnemonic) || isBranch(in.SourceMnemonic)
	for i, k := range ops {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		if k < 0 {
			b.WriteString(in.Rounding.String())
			continue
		}
		in.writeATTOperand(&b, k, branch)
	}
	return b.String()
}

// operandOrder returns the operand indexes in Intel order, with -1 where the
// rounding operand goes: after the last register or memory operand, before
// trailing immediates.
func (in *Inst) operandOrder() []int {
	ops := make([]int, 0, len(in.Args)+1)
	for i := range in.Args {
		ops = append(ops, i)
	}
	if in.Rounding == RoundNone {
		return ops
	}
	at := len(ops)
	for at > 0 && in.Args[at-1].Type == OpImm {
		at--
	}
	ops = append(ops, 0)
	copy(ops[at+1:], ops[at:])
	ops[at] = -1
	return ops
}

func (in *Inst) writePrefixes(b *strings.Builder) {
	p := in.Prefix
	if in.Form != nil && in.Form.Encoding == EVEX && !in.needsEVEX() {
		p |= PrefixEVEX
	}
	if in.Form != nil && in.Form.Encoding != EVEX {
		p &^= PrefixEVEX
	}
	if in.Form != nil && in.Form.hasKind(KindRel32) {
		p |= PrefixDisp32 // GNU as would relax the branch to rel8
	}
	// Prefixes the mnemonic already implies are not repeated ("rep movsb"
	// forms carry rep in their mnemonic).
	if strings.HasPrefix(in.Mnemonic, "rep") && strings.Contains(in.Mnemonic, " ") {
		p &^= PrefixRep | PrefixRepne
	}
	for _, n := range p.Names() {
		b.WriteString(n)
		b.WriteByte(' ')
	}
}

// formKind returns the form's kind for operand i, or "".
func (in *Inst) formKind(i int) Kind {
	if in.Form != nil && i < len(in.Form.Operands) {
		return in.Form.Operands[i].Kind
	}
	return ""
}

// memSize returns the memory operand's size in bits, from the operand or
// the form.
func (in *Inst) memSize(i int) int {
	a := &in.Args[i]
	if a.Mem.Size != 0 {
		return a.Mem.Size
	}
	k := in.formKind(i)
	if k == KindM || k == KindMoffs {
		return 0
	}
	return instKindBits(k)
}

func (in *Inst) writeMask(b *strings.Builder, i int, sigil string) {
	if i != 0 || in.Mask == RegNone {
		return
	}
	b.WriteString("{" + sigil + in.Mask.Name() + "}")
	if in.Zeroing {
		b.WriteString("{z}")
	}
}

func formatInt(v int64) string {
	if v > -10 && v < 10 {
		return strconv.FormatInt(v, 10)
	}
	if v < 0 {
		return "-0x" + strconv.FormatUint(uint64(-v), 16)
	}
	return "0x" + strconv.FormatUint(uint64(v), 16)
}

// symPlus renders "sym", "sym+8", "sym-8", or the number alone.
func symPlus(sym string, v int64) string {
	if sym == "" {
		return formatInt(v)
	}
	switch {
	case v == 0:
		return sym
	case v < 0:
		return sym + formatInt(v)
	}
	return sym + "+" + formatInt(v)
}

func (in *Inst) writeIntelOperand(b *strings.Builder, i int) {
	a := &in.Args[i]
	switch a.Type {
	case OpReg:
		b.WriteString(a.Reg.Name())
	case OpImm:
		if a.Symbol != "" {
			b.WriteString("offset ")
		}
		b.WriteString(symPlus(a.Symbol, a.Imm))
	case OpLabel:
		b.WriteString(labelText(a))
	case OpMem:
		m := &a.Mem
		if sz := in.memSize(i); sz != 0 && intelSizeNames[sz] != "" && in.formKind(i) != KindM {
			b.WriteString(intelSizeNames[sz])
			b.WriteString(" ptr ")
		}
		if m.Segment != RegNone {
			b.WriteString(m.Segment.Name())
			b.WriteByte(':')
		}
		b.WriteByte('[')
		n := 0
		if m.Base != RegNone {
			b.WriteString(m.Base.Name())
			n++
		}
		if m.Index != RegNone {
			if n > 0 {
				b.WriteByte('+')
			}
			b.WriteString(m.Index.Name())
			b.WriteByte('*')
			sc := m.Scale
			if sc == 0 {
				sc = 1
			}
			b.WriteString(strconv.Itoa(sc))
			n++
		}
		if m.Symbol != "" {
			if n > 0 {
				b.WriteByte('+')
			}
			b.WriteString(m.Symbol)
			n++
		}
		if m.Disp != 0 || n == 0 {
			if m.Disp >= 0 && n > 0 {
				b.WriteByte('+')
			}
			b.WriteString(formatInt(m.Disp))
		}
		b.WriteByte(']')
		if m.Broadcast != 0 {
			b.WriteString("{1to" + strconv.Itoa(m.Broadcast) + "}")
		}
	}
	in.writeMask(b, i, "")
}

func labelText(a *InstOperand) string {
	if a.Symbol == "" {
		return "0x" + strconv.FormatUint(uint64(a.Imm), 16)
	}
	return symPlus(a.Symbol, a.Imm)
}

func (in *Inst) writeATTOperand(b *strings.Builder, i int, branch bool) {
	a := &in.Args[i]
	if branch && (a.Type == OpReg || a.Type == OpMem) || a.Indirect {
		b.WriteByte('*')
	}
	switch a.Type {
	case OpReg:
		b.WriteString("%" + a.Reg.Name())
	case OpImm:
		b.WriteString("$" + symPlus(a.Symbol, a.Imm))
	case OpLabel:
		b.WriteString(labelText(a))
	case OpMem:
		m := &a.Mem
		if m.Segment != RegNone {
			b.WriteString("%" + m.Segment.Name() + ":")
		}
		if m.Symbol != "" || m.Disp != 0 || (m.Base == RegNone && m.Index == RegNone) {
			b.WriteString(symPlus(m.Symbol, m.Disp))
		}
		if m.Base != RegNone || m.Index != RegNone {
			b.WriteByte('(')
			if m.Base != RegNone {
				b.WriteString("%" + m.Base.Name())
			}
			if m.Index != RegNone {
				sc := m.Scale
				if sc == 0 {
					sc = 1
				}
				b.WriteString(",%" + m.Index.Name() + "," + strconv.Itoa(sc))
			}
			b.WriteByte(')')
		}
		if m.Broadcast != 0 {
			b.WriteString("{1to" + strconv.Itoa(m.Broadcast) + "}")
		}
	}
	in.writeMask(b, i, "%")
}

// attSuffixes maps operand sizes to AT&T suffixes.
var attSuffixes = map[int]string{8: "b", 16: "w", 32: "l", 64: "q"}

// attMnemonicText returns the AT&T mnemonic.
func (in *Inst) attMnemonicText() string {
	if in.Form != nil && in.Form.GNU != "" {
		g := strings.TrimSuffix(strings.ToLower(in.Form.GNU), "*")
		if i := strings.LastIndexByte(g, '/'); i >= 0 {
			g = g[i+1:]
		}
		return g
	}
	if in.Syntax == SyntaxATT && in.SourceMnemonic != "" {
		return in.SourceMnemonic
	}
	// A legacy instruction whose size no register gives: add a suffix from
	// the memory operand.
	size := 0
	for i := range in.Args {
		a := &in.Args[i]
		switch a.Type {
		case OpReg:
			if a.Reg.IsGPR() || a.Reg.IsVector() || a.Reg.Class() == ClassK || a.Reg.Class() == ClassMM {
				return in.Mnemonic
			}
		case OpMem:
			if a.Mem.Broadcast == 0 && in.Mnemonic != "lea" {
				size = in.memSize(i)
			}
		}
	}
	if s, ok := attSuffixes[size]; ok && !strings.HasPrefix(in.Mnemonic, "v") && !strings.HasPrefix(in.Mnemonic, "f") {
		return in.Mnemonic + s
	}
	return in.Mnemonic
}
