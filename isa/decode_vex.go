package isa

import "strings"

// vexFields are the fields of a VEX or EVEX prefix, un-inverted.
type vexFields struct {
	evex    bool
	size    int // prefix bytes (2, 3 or 4)
	r, x, b bool
	r2, v2  bool // EVEX R', V'
	mmap    uint8
	w       int
	vvvv    int
	l       int
	pp      uint8
	z, bb   bool // EVEX z, b
	aaa     int
}

// parseVEXPrefix reads the VEX/EVEX prefix at code[0].
func parseVEXPrefix(code []byte) (vexFields, string) {
	var v vexFields
	switch code[0] {
	case 0xC5:
		if len(code) < 2 {
			return v, "truncated VEX prefix"
		}
		b1 := code[1]
		v.size = 2
		v.r = b1&0x80 == 0
		v.vvvv = int(^b1>>3) & 15
		v.l = int(b1 >> 2 & 1)
		v.pp = b1 & 3
		v.mmap = 1
	case 0xC4:
		if len(code) < 3 {
			return v, "truncated VEX prefix"
		}
		b1, b2 := code[1], code[2]
		v.size = 3
		v.r, v.x, v.b = b1&0x80 == 0, b1&0x40 == 0, b1&0x20 == 0
		v.mmap = b1 & 0x1F
		v.w = int(b2 >> 7)
		v.vvvv = int(^b2>>3) & 15
		v.l = int(b2 >> 2 & 1)
		v.pp = b2 & 3
	case 0x62:
		if len(code) < 4 {
			return v, "truncated EVEX prefix"
		}
		p0, p1, p2 := code[1], code[2], code[3]
		v.evex = true
		v.size = 4
		v.r, v.x, v.b, v.r2 = p0&0x80 == 0, p0&0x40 == 0, p0&0x20 == 0, p0&0x10 == 0
		if p0&0x08 != 0 {
			return v, "reserved EVEX bit set"
		}
		v.mmap = p0 & 7
		v.w = int(p1 >> 7)
		v.vvvv = int(^p1>>3) & 15
		if p1&4 == 0 {
			return v, "reserved EVEX bit clear"
		}
		v.pp = p1 & 3
		v.z = p2&0x80 != 0
		v.l = int(p2 >> 5 & 3)
		v.bb = p2&0x10 != 0
		v.v2 = p2&8 == 0
		v.aaa = int(p2 & 7)
	}
	return v, ""
}

// saeOnlyMnemonic reports whether EVEX.b on a register form of the
// instruction means {sae} (suppress exceptions) rather than a rounding mode.
func saeOnlyMnemonic(m string) bool {
	for _, p := range []string{"vcmp", "vmax", "vmin", "vcvtt", "vgetexp", "vgetmant", "vrange", "vreduce",
		"vrndscale", "vfixupimm", "vucomi", "vcomi", "vexp2", "vrcp28", "vrsqrt28"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	switch m {
	case "vcvtps2pd", "vcvtss2sd", "vcvtph2ps", "vcvtps2ph", "vcvtph2pd", "vcvtsh2sd", "vcvtsh2ss":
		return true
	}
	return false
}

// regForKind returns register number n of the class a kind names.
func regForKind(k Kind, n int, rex bool) Reg {
	switch k {
	case KindR8:
		if !rex && n >= 4 && n < 8 {
			return AH + Reg(n-4)
		}
		return GPR(n&15, 8)
	case KindR16:
		return GPR(n&15, 16)
	case KindR32:
		return GPR(n&15, 32)
	case KindR64:
		return GPR(n&15, 64)
	case KindXMM:
		return VecReg(n&31, 128)
	case KindYMM:
		return VecReg(n&31, 256)
	case KindZMM:
		return VecReg(n&31, 512)
	case KindK:
		return KReg(n & 7)
	case KindMM:
		return MM0 + Reg(n&7)
	case KindST:
		return ST0 + Reg(n&7)
	case KindSreg:
		return regOfClass(ClassSeg, 0, n&7)
	case "cr":
		return regOfClass(ClassCR, 0, n&15)
	case "dr":
		return regOfClass(ClassDR, 0, n&15)
	case "bnd":
		return regOfClass(ClassBND, 0, n&3)
	}
	if r, ok := kindFixedReg(k); ok {
		return r
	}
	return RegNone
}

// vsibClass returns the index register class of a VSIB kind ("vm32y").
func vsibClass(k Kind) RegClass {
	if !isVSIBKind(k) {
		return ClassNone
	}
	switch k[len(k)-1] {
	case 'y':
		return ClassYMM
	case 'z':
		return ClassZMM
	}
	return ClassXMM
}

// decodeVEX decodes a VEX- or EVEX-encoded instruction.
func decodeVEX(tabs *decTables, code []byte, addr uint64, pre legacyPrefixes) (*Inst, error) {
	v, bad := parseVEXPrefix(code[pre.n:])
	if bad != "" {
		return nil, decodeErr(code, addr, bad)
	}
	p := pre.n + v.size
	if p >= len(code) {
		return nil, decodeErr(code, addr, "truncated instruction")
	}
	op := code[p]
	p++
	var cands []*decEntry
	for _, e := range tabs.vex[decKey{v.evex, v.mmap, op}] {
		s := &e.spec
		if s.pp != v.pp || (s.w >= 0 && int(s.w) != v.w) {
			continue
		}
		cands = append(cands, e)
	}
	needModRM := false
	for _, e := range cands {
		if e.spec.digit != -2 {
			needModRM = true
		}
	}
	var mod, reg byte
	if needModRM {
		if p >= len(code) {
			return nil, decodeErr(code, addr, "truncated instruction")
		}
		mod, reg = code[p]>>6, (code[p]>>3)&7
	}
	var best *decEntry
	for _, e := range cands {
		s := &e.spec
		if needModRM {
			if s.digit == -2 || (s.digit >= 0 && byte(s.digit) != reg) || e.mem != (mod != 3) {
				continue
			}
		} else if s.digit != -2 {
			continue
		}
		if v.evex {
			l := v.l
			if v.bb && mod == 3 {
				l = 2 // rounding control replaces the vector length
			}
			if s.l >= 0 && int(s.l) != l {
				continue
			}
			if (v.aaa != 0) != e.masked || (v.z && !e.zeroing) {
				continue
			}
			if e.mem && v.bb != (e.bcast > 0) {
				continue
			}
			if best != nil && best.zeroing == v.z {
				continue
			}
		} else {
			if s.l >= 0 && int(s.l) != v.l {
				continue
			}
			if best != nil {
				continue
			}
		}
		best = e
	}
	if best == nil {
		// The catalog has no opcode string for this encoding: let x86asm
		// decode it and map the result by operand kinds.
		return decodeLegacy(tabs, code, addr, pre)
	}
	e := best
	f := e.form
	in := &Inst{Mnemonic: f.Mnemonic, Form: f, Addr: addr, decoder: decVEX}
	var mr modrmResult
	if needModRM {
		mf := modrmFields{r: v.r, x: v.x, b: v.b, r2: v.r2, v2: v.v2, evex: v.evex, addr32: pre.addr32, seg: pre.seg}
		for i, r := range e.roles {
			if r == roleRM {
				mf.vsib = vsibClass(f.Operands[i].Kind)
			}
		}
		if v.evex && e.mem {
			mf.disp8Scale = disp8Scale(f, e.memBits)
		}
		var ok bool
		mr, ok = decodeModRM(code[p:], mf)
		if !ok {
			return nil, decodeErr(code, addr, "truncated instruction")
		}
		p += mr.n
	}
	imm := -1
	if e.spec.imm > 0 || e.spec.is4 {
		if p >= len(code) {
			return nil, decodeErr(code, addr, "truncated immediate")
		}
		imm = int(code[p])
		p++
	}
	b2i := func(b bool, bit int) int {
		if b {
			return bit
		}
		return 0
	}
	in.Args = make([]InstOperand, len(f.Operands))
	for i, r := range e.roles {
		k := f.Operands[i].Kind
		a := &in.Args[i]
		switch r {
		case roleReg:
			n := int(mr.reg) | b2i(v.r, 8)
			if v.evex && (k == KindXMM || k == KindYMM || k == KindZMM) {
				n |= b2i(v.r2, 16)
			}
			a.Type, a.Reg = OpReg, regForKind(k, n, true)
		case roleVVVV:
			n := v.vvvv
			if v.evex && (k == KindXMM || k == KindYMM || k == KindZMM) {
				n |= b2i(v.v2, 16)
			}
			a.Type, a.Reg = OpReg, regForKind(k, n, true)
		case roleRM:
			if mod == 3 {
				n := int(mr.rm) | b2i(v.b, 8)
				if v.evex && (k == KindXMM || k == KindYMM || k == KindZMM) {
					n |= b2i(v.x, 16)
				}
				a.Type, a.Reg = OpReg, regForKind(k, n, true)
			} else {
				a.Type, a.Mem = OpMem, mr.mem
				a.Mem.Size = e.memBits
				if k == KindM {
					a.Mem.Size = 0
				}
				if v.bb {
					a.Mem.Broadcast = e.bcast
				}
			}
		case roleIs4:
			a.Type, a.Reg = OpReg, regForKind(k, imm>>4, true)
		case roleImm:
			a.Type, a.Imm = OpImm, int64(imm)
		case roleFixed:
			if r, ok := kindFixedReg(k); ok {
				a.Type, a.Reg = OpReg, r
			} else {
				a.Type, a.Imm = OpImm, int64(atoiKind(k))
			}
		default:
			return nil, decodeErr(code, addr, "unsupported operand "+string(k)+" in "+f.Name())
		}
	}
	if v.evex {
		if v.aaa != 0 {
			in.Mask = KReg(v.aaa)
		}
		in.Zeroing = v.z
		if v.bb && mod == 3 {
			if saeOnlyMnemonic(f.Mnemonic) {
				in.Rounding = RoundSAE
			} else {
				in.Rounding = RoundNearest + Rounding(v.l)
			}
		}
	} else if code[pre.n] == 0xC4 && v.mmap == 1 && v.w == 0 && !v.x && !v.b {
		in.Prefix |= PrefixVEX3 // a two-byte VEX would have done
	}
	in.Len = p
	in.Bytes = append([]byte(nil), code[:p]...)
	return in, nil
}

func atoiKind(k Kind) int {
	n := 0
	for i := 0; i < len(k); i++ {
		n = n*10 + int(k[i]-'0')
	}
	return n
}

// disp8Scale returns N of the EVEX compressed displacement disp8*N: the
// memory operand's size in bytes (the element size for broadcasts and
// scalars, which their kinds already give), except for compress and expand,
// whose displacement scales with the element size (tuple T1S).
func disp8Scale(f *Form, memBits int) int {
	m := f.Mnemonic
	if strings.Contains(m, "compress") || strings.Contains(m, "expand") {
		switch {
		case strings.HasSuffix(m, "b"):
			return 1
		case strings.HasSuffix(m, "w"):
			return 2
		case strings.HasSuffix(m, "d") && !strings.HasSuffix(m, "pd"), strings.HasSuffix(m, "ps"):
			return 4
		default:
			return 8
		}
	}
	return memBits / 8
}
