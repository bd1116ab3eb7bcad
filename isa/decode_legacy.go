package isa

import (
	"encoding/binary"
	"strings"
	"sync"

	"golang.org/x/arch/x86/x86asm"
)

// x86asm register -> Reg, built from x86asm's register names.
var (
	x86RegOnce sync.Once
	x86RegMap  map[x86asm.Reg]Reg
)

func x86Reg(r x86asm.Reg) Reg {
	x86RegOnce.Do(func() {
		x86RegMap = map[x86asm.Reg]Reg{}
		for x := x86asm.Reg(1); x < 255; x++ {
			s := strings.ToLower(x.String())
			if strings.HasPrefix(s, "reg(") {
				break
			}
			name := s
			switch {
			case s == "spb" || s == "bpb" || s == "sib" || s == "dib":
				name = s[:2] + "l"
			case len(s) >= 3 && s[0] == 'r' && s[len(s)-1] == 'l' && s[1] >= '0' && s[1] <= '9':
				name = s[:len(s)-1] + "d" // r8l -> r8d
			case len(s) >= 2 && s[1] >= '0' && s[1] <= '9':
				num := s[1:]
				switch s[0] {
				case 'f':
					name = "st(" + num + ")"
				case 'm':
					name = "mm" + num
				case 'x':
					name = "xmm" + num
				case 'y':
					name = "ymm" + num
				case 'z':
					name = "zmm" + num
				}
			}
			if reg, ok := RegByName(name); ok {
				x86RegMap[x] = reg
			}
		}
	})
	return x86RegMap[r]
}

// stringOps are the string instructions; x86asm lists their implicit memory
// operands, which forms do not have.
func isStringOp(m string) bool {
	for _, p := range []string{"movs", "cmps", "scas", "lods", "stos", "ins", "outs"} {
		if strings.HasPrefix(m, p) && len(m) == len(p)+1 && strings.ContainsAny(m[len(p):], "bwdq") {
			return true
		}
	}
	return false
}

// fromX86asm converts an x86asm instruction. It reports false for
// instructions it cannot represent.
func fromX86asm(xi *x86asm.Inst, code []byte, addr uint64, pre legacyPrefixes) (*Inst, bool) {
	m := strings.ToLower(xi.Op.String())
	if strings.HasPrefix(m, "op(") || m == "" {
		return nil, false
	}
	sse := strings.HasSuffix(m, "_xmm")
	m = strings.TrimSuffix(m, "_xmm")
	switch m {
	case "lcall":
		m = "call"
	case "ljmp":
		m = "jmp"
	case "lret":
		m = "retf"
	}
	in := &Inst{Mnemonic: m, Addr: addr, Len: xi.Len, decoder: decX86asm}
	in.Bytes = append([]byte(nil), code[:xi.Len]...)
	if pre.lock {
		in.Prefix |= PrefixLock
	}
	// EVEX mask bits, which x86asm reports as an operand
	var evexAAA, evexVL int
	if pre.n < len(code) && code[pre.n] == 0x62 && pre.n+3 < len(code) {
		evexAAA = int(code[pre.n+3] & 7)
		evexVL = 128 << (code[pre.n+3] >> 5 & 3)
	}
	if isStringOp(m) && !sse {
		if pre.rep {
			in.Prefix |= PrefixRep
		}
		if pre.repne {
			in.Prefix |= PrefixRepne
		}
		return in, true
	}
	for i, a := range xi.Args {
		if a == nil {
			break
		}
		switch a := a.(type) {
		case x86asm.Reg:
			r := x86Reg(a)
			if r == RegNone {
				return nil, false
			}
			if evexAAA != 0 && i == 1 && r == KReg(evexAAA) && in.Mask == RegNone {
				in.Mask = r
				continue
			}
			in.Args = append(in.Args, RegOp(r))
		case x86asm.Mem:
			mem := InstMem{Scale: int(a.Scale), Disp: a.Disp}
			if mem.Scale == 0 {
				mem.Scale = 1
			}
			if a.Segment != 0 {
				mem.Segment = x86Reg(a.Segment)
			}
			if a.Base != 0 {
				if mem.Base = x86Reg(a.Base); mem.Base == RegNone {
					return nil, false
				}
			}
			if a.Index != 0 {
				if mem.Index = x86Reg(a.Index); mem.Index == RegNone {
					return nil, false
				}
			}
			mem.Size = xi.MemBytes * 8
			if xi.Broadcast {
				mem.Broadcast = -evexVL // count filled in from the form
			}
			in.Args = append(in.Args, MemOp(mem))
		case x86asm.Imm:
			in.Args = append(in.Args, ImmOp(int64(a)))
		case x86asm.Rel:
			in.Args = append(in.Args, InstOperand{Type: OpLabel, Imm: int64(addr) + int64(xi.Len) + int64(a)})
		default:
			return nil, false
		}
	}
	in.Zeroing = xi.Zeroing
	if xi.SAE {
		if saeOnlyMnemonic(m) {
			in.Rounding = RoundSAE
		} else {
			in.Rounding = RoundNearest + Rounding(xi.Rounding&3)
		}
	}
	if op := code[pre.n]; op >= 0xA0 && op <= 0xA3 {
		in.absMoffs = true
	}
	return in, true
}

// legacyOpSize returns the operand size in bits a legacy form encodes with
// 66 / REX.W (16, 32, 64), or 0 when the form does not tell (x87, SSE,
// no sized operands).
func legacyOpSize(f *Form) int {
	if f.Has(AttrX87) {
		return 0
	}
	mem := 0
	for _, op := range f.Operands {
		switch k := op.Kind; k {
		case "m16:16":
			return 16
		case "m16:32":
			return 32
		case "m16:64":
			return 64
		case KindR16, "ax":
			return 16
		case KindR32, "eax":
			return 32
		case KindR64, "rax":
			return 64
		case KindXMM, KindYMM, KindZMM, KindMM, KindK, KindST, "bnd", "cr", "dr", KindSreg:
			return 0
		default:
			if k.IsMemory() {
				mem = instKindBits(k)
			}
		}
	}
	switch f.Mnemonic {
	case "push", "pop", "call", "jmp", "cmpxchg8b", "cmpxchg16b":
		return 0
	}
	if mem == 16 || mem == 32 || mem == 64 {
		return mem
	}
	return 0
}

// hasVectorOperand reports whether a form has xmm or mm operands (whose
// 66/F2/F3 prefixes select the instruction).
func hasVectorOperand(f *Form) bool {
	for _, op := range f.Operands {
		switch op.Kind {
		case KindXMM, KindMM, "xmm0":
			return true
		}
	}
	return false
}

// Match levels of an opcode string against bytes.
const (
	matchNone   = iota
	matchOpcode // opcode bytes, ModRM digit and the prefixes the string names
	matchStrict // and the operand size and mandatory prefixes the form implies
)

// specMatches tells how well a legacy form's opcode string matches the bytes.
func specMatches(f *Form, s *encSpec, code []byte, pre legacyPrefixes) int {
	if !specMatchesOpcode(s, code, pre) {
		return matchNone
	}
	if !specMatchesSize(f, s, pre) {
		return matchOpcode
	}
	return matchStrict
}

func specMatchesOpcode(s *encSpec, code []byte, pre legacyPrefixes) bool {
	for _, b := range s.prefixes {
		switch b {
		case 0x66:
			if !pre.opsize {
				return false
			}
		case 0xF2:
			if !pre.repne {
				return false
			}
		case 0xF3:
			if !pre.rep {
				return false
			}
		default:
			return false
		}
	}
	if s.np && (pre.opsize || pre.rep || pre.repne) {
		return false
	}
	if s.rexW && pre.rex&8 == 0 {
		return false
	}
	i := pre.n
	for j, b := range s.opcode {
		if i+j >= len(code) {
			return false
		}
		c := code[i+j]
		if j == len(s.opcode)-1 && s.plusReg {
			c &^= 7
		}
		if c != b {
			return false
		}
	}
	if s.digit >= 0 {
		at := i + len(s.opcode)
		if at >= len(code) || int8(code[at]>>3&7) != s.digit {
			return false
		}
	}
	return true
}

// specMatchesSize checks the prefixes the form implies without naming them:
// mandatory 66/F2/F3 of two-byte opcodes, 66 and REX.W for the operand size.
func specMatchesSize(f *Form, s *encSpec, pre legacyPrefixes) bool {
	has := map[byte]bool{}
	for _, b := range s.prefixes {
		has[b] = true
	}
	// mandatory prefixes of two-byte opcodes select the instruction
	if s.opcode[0] == 0x0F && !f.Has(AttrString) {
		if pre.rep && !has[0xF3] || pre.repne && !has[0xF2] {
			return false
		}
		if pre.opsize && !has[0x66] && hasVectorOperand(f) {
			return false
		}
	}
	switch legacyOpSize(f) {
	case 16:
		if !pre.opsize && !has[0x66] || pre.rex&8 != 0 {
			return false
		}
	case 32:
		if pre.rex&8 != 0 || pre.opsize && !has[0x66] {
			return false
		}
	case 64:
		if pre.opsize && !has[0x66] {
			return false
		}
	default:
		if pre.opsize && !has[0x66] && !hasVectorOperand(f) && s.opcode[0] == 0x0F && len(f.Operands) > 0 {
			return false
		}
	}
	return true
}

// specLength returns the length of the instruction at code if encoded as s.
func specLength(f *Form, s *encSpec, code []byte, pre legacyPrefixes) (int, bool) {
	p := pre.n + len(s.opcode)
	if s.digit != -2 {
		mr, ok := decodeModRM(code[p:], modrmFields{addr32: pre.addr32})
		if !ok {
			return 0, false
		}
		p += mr.n
	}
	p += s.imm + s.rel
	for _, op := range f.Operands {
		if op.Kind == KindMoffs {
			p += 8
		}
	}
	return p, p <= len(code)
}

// decodeLegacy decodes with x86asm and picks the form by operand kinds and
// opcode bytes; encodings x86asm gets wrong or does not know are decoded
// from the catalog's opcode strings.
func decodeLegacy(tabs *decTables, code []byte, addr uint64, pre legacyPrefixes) (*Inst, error) {
	if pre.n < len(code) && code[pre.n] == 0x9B {
		// fwait-prefixed x87 control instructions (fclex, fstsw, ...), which
		// x86asm decodes as two instructions
		if cin := decodeByCatalog(tabs, code, addr, pre, matchOpcode); cin != nil {
			return cin, nil
		}
	}
	xi, err := x86asm.Decode(code, 64)
	var in *Inst
	level := matchNone
	if err == nil && xi.Len > 0 {
		var ok bool
		in, ok = fromX86asm(&xi, code, addr, pre)
		if ok {
			level = in.resolveDecoded(tabs, code, pre)
		} else {
			in = nil
		}
	}
	if level == matchStrict {
		return in, nil
	}
	// x86asm did not decode it, or its operands fit no form exactly (it
	// ignores REX.W on some forms, e.g. adcx, lar, rdrand): decode from the
	// catalog's opcode strings.
	if cin := decodeByCatalog(tabs, code, addr, pre, matchStrict); cin != nil {
		return cin, nil
	}
	if level == matchOpcode {
		return in, nil
	}
	if cin := decodeByCatalog(tabs, code, addr, pre, matchOpcode); cin != nil {
		return cin, nil
	}
	if in != nil {
		in.Form = nil
		return in, nil // decoded, but no catalog form
	}
	msg := "unknown instruction"
	if err != nil {
		msg = err.Error()
	}
	if len(code) < 15 {
		padded := append(append([]byte(nil), code...), make([]byte, 15)...)
		if xi, err := x86asm.Decode(padded, 64); err == nil && xi.Len > len(code) {
			msg = "truncated instruction"
		}
	}
	return nil, decodeErr(code, addr, msg)
}

// resolveDecoded picks the form of an x86asm-decoded instruction: among the
// forms its operand kinds fit, the one whose opcode string matches the bytes
// best. It returns the match level (matchNone if no form fits).
func (in *Inst) resolveDecoded(tabs *decTables, code []byte, pre legacyPrefixes) int {
	var best *Form
	var bestCost formMatchCost
	bestLevel := matchNone
	for _, f := range in.candidates() {
		cost, ok := in.match(f)
		if !ok {
			continue
		}
		level := matchOpcode // forms without a usable opcode string: kinds only
		if e := tabs.byForm[f]; e != nil {
			level = specMatches(f, &e.spec, code, pre)
			if n, ok := specLength(f, &e.spec, code, pre); level != matchNone && (!ok || n != in.Len) {
				level = matchNone
			}
		} else if strings.HasPrefix(f.Opcode, "VEX.") || strings.HasPrefix(f.Opcode, "EVEX.") {
			continue // decodeVEX handles forms with VEX/EVEX opcode strings
		}
		if level == matchNone {
			continue
		}
		if best == nil || level > bestLevel || level == bestLevel && cost.less(bestCost) {
			best, bestCost, bestLevel = f, cost, level
		}
	}
	if best == nil && pre.n+3 < len(code) && code[pre.n] == 0x62 {
		return in.resolveEVEXWidths(code, pre)
	}
	if best != nil {
		in.setForm(best)
	}
	return bestLevel
}

// resolveEVEXWidths works around x86asm giving the wrong vector width to
// some EVEX register operands (128-bit narrowing and widening conversions
// come back with a ymm operand): it matches the forms of the vector length
// the EVEX prefix encodes, with register widths taken from the form.
func (in *Inst) resolveEVEXWidths(code []byte, pre legacyPrefixes) int {
	p2 := code[pre.n+3]
	vl := 128 << (p2 >> 5 & 3)
	vec := func(k Kind) bool { return k == KindXMM || k == KindYMM || k == KindZMM }
	var best *Inst
	var bestForm *Form
	var bestCost formMatchCost
	for _, f := range in.candidates() {
		if f.Encoding != EVEX || len(f.Operands) != len(in.Args) || formVectorBits(f) != vl {
			continue
		}
		trial := *in
		trial.Args = append([]InstOperand(nil), in.Args...)
		for i := range trial.Args {
			a := &trial.Args[i]
			if k := f.Operands[i].Kind; a.Type == OpReg && a.Reg.IsVector() && vec(k) {
				a.Reg = regForKind(k, a.Reg.Num(), true)
			}
		}
		if cost, ok := trial.match(f); ok && (best == nil || cost.less(bestCost)) {
			best, bestForm, bestCost = &trial, f, cost
		}
	}
	if best == nil {
		return matchNone
	}
	*in = *best
	in.setForm(bestForm)
	return matchOpcode
}

// formVectorBits returns the widest vector register or memory operand of a
// form in bits.
func formVectorBits(f *Form) int {
	bits := 0
	for _, op := range f.Operands {
		b := 0
		switch k := op.Kind; {
		case k == KindXMM:
			b = 128
		case k == KindYMM:
			b = 256
		case k == KindZMM:
			b = 512
		case k.IsMemory() && !k.IsBroadcast():
			b = instKindBits(k)
		}
		bits = max(bits, b)
	}
	return bits
}

// decodeByCatalog decodes a legacy encoding from the catalog's opcode
// strings alone (used where x86asm fails, e.g. adcx/adox).
func decodeByCatalog(tabs *decTables, code []byte, addr uint64, pre legacyPrefixes, minLevel int) *Inst {
	if pre.n >= len(code) {
		return nil
	}
	rex := pre.rex
	for _, e := range tabs.byOp[code[pre.n]] {
		s := &e.spec
		if specMatches(e.form, s, code, pre) < minLevel {
			continue
		}
		p := pre.n + len(s.opcode)
		var mr modrmResult
		if s.digit != -2 {
			mf := modrmFields{r: rex&4 != 0, x: rex&2 != 0, b: rex&1 != 0, addr32: pre.addr32, seg: pre.seg}
			var ok bool
			mr, ok = decodeModRM(code[p:], mf)
			if !ok || e.mem != (mr.mod != 3) {
				continue
			}
			p += mr.n
		}
		in := &Inst{Mnemonic: e.form.Mnemonic, Addr: addr, decoder: decCatalog}
		okAll := true
		in.Args = make([]InstOperand, len(e.roles))
		for i, r := range e.roles {
			k := e.form.Operands[i].Kind
			a := &in.Args[i]
			switch r {
			case roleReg:
				a.Type, a.Reg = OpReg, regForKind(k, int(mr.reg)|int(rex>>2&1)<<3, rex != 0)
			case roleRM:
				if mr.mod == 3 {
					a.Type, a.Reg = OpReg, regForKind(k, int(mr.rm)|int(rex&1)<<3, rex != 0)
				} else {
					a.Type, a.Mem = OpMem, mr.mem
					if k != KindM {
						a.Mem.Size = instKindBits(k)
					}
				}
			case roleOpReg:
				a.Type, a.Reg = OpReg, regForKind(k, int(code[pre.n+len(s.opcode)-1]&7)|int(rex&1)<<3, rex != 0)
			case roleFixed:
				if r, ok := kindFixedReg(k); ok {
					a.Type, a.Reg = OpReg, r
				} else {
					a.Type, a.Imm = OpImm, int64(atoiKind(k))
				}
			case roleImm:
				n := s.imm
				if n == 0 || p+n > len(code) {
					okAll = false
					break
				}
				a.Type, a.Imm = OpImm, readSigned(code[p:p+n])
				p += n
			case roleRel:
				n := s.rel
				if n == 0 || p+n > len(code) {
					okAll = false
					break
				}
				rel := readSigned(code[p : p+n])
				p += n
				a.Type = OpLabel
				a.Imm = rel // fixed up below, once the length is known
			case roleMoffs:
				if p+8 > len(code) {
					okAll = false
					break
				}
				a.Type = OpMem
				a.Mem = InstMem{Scale: 1, Disp: int64(binary.LittleEndian.Uint64(code[p:])), Segment: pre.seg}
				p += 8
				in.absMoffs = true
			default:
				okAll = false
			}
		}
		if !okAll {
			continue
		}
		for i := range in.Args {
			if in.Args[i].Type == OpLabel {
				in.Args[i].Imm += int64(addr) + int64(p)
			}
		}
		if pre.lock {
			in.Prefix |= PrefixLock
		}
		in.Form = e.form
		in.Len = p
		in.Bytes = append([]byte(nil), code[:p]...)
		return in
	}
	return nil
}

func readSigned(b []byte) int64 {
	switch len(b) {
	case 1:
		return int64(int8(b[0]))
	case 2:
		return int64(int16(binary.LittleEndian.Uint16(b)))
	case 4:
		return int64(int32(binary.LittleEndian.Uint32(b)))
	case 8:
		return int64(binary.LittleEndian.Uint64(b))
	}
	return 0
}
