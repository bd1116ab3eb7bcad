package isa

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// DecodeError reports machine code that could not be decoded.
type DecodeError struct {
	Offset int    // offset of the instruction in the code passed to Decode
	Addr   uint64 // its address
	Bytes  []byte // the bytes at Offset (up to 15)
	Msg    string
}

// Error renders the offset, address, message and bytes.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("offset %#x (address %#x): %s: % x", e.Offset, e.Addr, e.Msg, e.Bytes)
}

// Decode decodes 64-bit machine code starting at address addr into
// instructions, mapped to catalog forms where possible. Legacy encodings are
// decoded with golang.org/x/arch/x86/x86asm and the form is picked by
// operand kinds and opcode bytes (which tells "add r64, imm8" from "add
// r64, imm32"); VEX and EVEX encodings are decoded by portlab's own decoder,
// driven by the catalog's opcode strings ("VEX.NDS.256.66.0F38.W1 B8 /r"),
// falling back to x86asm for forms whose opcode the catalog does not give.
// Each instruction records Addr, Len and Bytes.
//
// Decoding stops at the first undecodable instruction: Decode returns the
// instructions before it and a *DecodeError naming the offset and bytes.
func Decode(code []byte, addr uint64) ([]*Inst, error) {
	var out []*Inst
	for off := 0; off < len(code); {
		in, err := DecodeOne(code[off:], addr+uint64(off))
		if err != nil {
			de := err.(*DecodeError)
			de.Offset += off
			return out, de
		}
		out = append(out, in)
		off += in.Len
	}
	return out, nil
}

// DecodeOne decodes the instruction at the start of code, which is at
// address addr. Its error is a *DecodeError with Offset 0.
func DecodeOne(code []byte, addr uint64) (in *Inst, err error) {
	defer func() {
		if r := recover(); r != nil {
			// x86asm or a table bug must not take the caller down.
			in, err = nil, decodeErr(code, addr, fmt.Sprintf("internal error: %v", r))
		}
	}()
	if len(code) == 0 {
		return nil, decodeErr(code, addr, "no bytes")
	}
	pre, ok := scanPrefixes(code)
	if ok && pre.n < len(code) {
		switch c := code[pre.n]; c {
		case 0xC4, 0xC5, 0x62:
			if pre.rex == 0 && pre.mandatory == 0 && !pre.lock {
				return checkLength(decodeVEX(catalogTables(), code, addr, pre))
			}
		}
	}
	return checkLength(decodeLegacy(catalogTables(), code, addr, pre))
}

// checkLength rejects an instruction longer than 15 bytes (prefixes
// included): the CPU raises #GP on it, whatever its bytes would mean.
func checkLength(in *Inst, err error) (*Inst, error) {
	if err != nil || in.Len <= 15 {
		return in, err
	}
	return nil, decodeErr(in.Bytes, in.Addr, fmt.Sprintf("instruction of %d bytes: longer than the 15 x86 allows", in.Len))
}

func decodeErr(code []byte, addr uint64, msg string) *DecodeError {
	n := len(code)
	if n > 15 {
		n = 15
	}
	return &DecodeError{Addr: addr, Bytes: append([]byte(nil), code[:n]...), Msg: msg}
}

// legacyPrefixes are the prefixes in front of the opcode.
type legacyPrefixes struct {
	n         int  // bytes of prefixes including REX
	rex       byte // REX byte, 0 if none
	seg       Reg
	opsize    bool // 66
	addr32    bool // 67
	lock      bool
	rep       bool // F3
	repne     bool // F2
	mandatory byte // last of 66/F2/F3
}

func scanPrefixes(code []byte) (legacyPrefixes, bool) {
	var p legacyPrefixes
	for p.n < len(code) && p.n < 14 {
		switch c := code[p.n]; c {
		case 0x26:
			p.seg = ES
		case 0x2E:
			p.seg = CS
		case 0x36:
			p.seg = SS
		case 0x3E:
			p.seg = DS
		case 0x64:
			p.seg = FS
		case 0x65:
			p.seg = GS
		case 0x66:
			p.opsize = true
			if p.mandatory == 0 {
				p.mandatory = 0x66
			}
		case 0x67:
			p.addr32 = true
		case 0xF0:
			p.lock = true
		case 0xF2:
			p.repne, p.mandatory = true, 0xF2
		case 0xF3:
			p.rep, p.mandatory = true, 0xF3
		default:
			if c&0xF0 == 0x40 {
				p.rex = c
				p.n++
				return p, true
			}
			return p, true
		}
		p.n++
	}
	return p, p.n < len(code)
}

// ---------------------------------------------------------------- opcode strings

// opRole says where an operand of a form is encoded.
type opRole uint8

const (
	roleNone  opRole = iota
	roleReg          // ModRM.reg (+REX.R/VEX.R/EVEX.R')
	roleRM           // ModRM.rm: register or memory
	roleVVVV         // VEX/EVEX vvvv (+EVEX.V')
	roleIs4          // register in imm8[7:4]
	roleImm          // immediate
	roleOpReg        // register in the low 3 bits of the opcode (+REX.B)
	roleFixed        // implicit: fixed register or constant
	roleRel          // relative branch target
	roleMoffs        // 64-bit absolute address
)

// encSpec is a parsed opcode string.
type encSpec struct {
	vex, evex bool
	// VEX/EVEX fields
	mmap uint8 // 1: 0F, 2: 0F38, 3: 0F3A, 5/6: MAP5/MAP6
	pp   uint8 // 0: none, 1: 66, 2: F3, 3: F2
	l    int8  // 0, 1, 2; -1 ignored
	w    int8  // 0, 1; -1 ignored
	// legacy fields
	prefixes []byte // mandatory prefixes (66, F2, F3) and 9B
	rexW     bool
	np       bool
	// common
	opcode  []byte // opcode bytes (without 0F escapes for VEX)
	plusReg bool   // last opcode byte carries a register (+rb, +rd, +i)
	digit   int8   // ModRM.reg digit; -1 for /r; -2 no ModRM
	imm     int    // immediate bytes (ib 1, iw 2, id 4, io 8)
	rel     int    // relative target bytes (cb 1, cw 2, cd 4)
	is4     bool
}

// parseEncSpec parses an opcode string of the catalog.
func parseEncSpec(s string) (encSpec, bool) {
	e := encSpec{digit: -2, l: -1, w: -1}
	f := strings.Fields(s)
	if len(f) == 0 {
		return e, false
	}
	i := 0
	if strings.HasPrefix(f[0], "VEX.") || strings.HasPrefix(f[0], "EVEX.") {
		e.vex = strings.HasPrefix(f[0], "VEX.")
		e.evex = !e.vex
		for _, p := range strings.Split(f[0], ".")[1:] {
			switch p {
			case "NDS", "NDD", "DDS", "":
			case "128", "L0", "LZ":
				e.l = 0
			case "256", "L1":
				e.l = 1
			case "512":
				e.l = 2
			case "LIG":
				e.l = -1
			case "66":
				e.pp = 1
			case "F3":
				e.pp = 2
			case "F2":
				e.pp = 3
			case "NP":
				e.pp = 0
			case "0F":
				e.mmap = 1
			case "0F38":
				e.mmap = 2
			case "0F3A":
				e.mmap = 3
			case "MAP5", "M5":
				e.mmap = 5
			case "MAP6", "M6":
				e.mmap = 6
			case "W0":
				e.w = 0
			case "W1":
				e.w = 1
			case "WIG":
				e.w = -1
			default:
				return e, false
			}
		}
		if e.mmap == 0 {
			return e, false
		}
		i = 1
	}
	for ; i < len(f); i++ {
		t := f[i]
		switch {
		case t == "REX.W":
			e.rexW = true
		case t == "REX" || t == "REX.R" || t == "REX.B" || t == "+":
		case t == "NP":
			e.np = true
		case t == "/r" || t == "/vsib":
			e.digit = -1
		case len(t) == 2 && t[0] == '/' && t[1] >= '0' && t[1] <= '7':
			e.digit = int8(t[1] - '0')
		case t == "/is4":
			e.is4 = true
		case t == "ib":
			e.imm += 1
		case t == "iw":
			e.imm += 2
		case t == "id":
			e.imm += 4
		case t == "io":
			e.imm += 8
		case t == "cm":
			// 64-bit absolute address (moffs), read by the operand role
		case t == "cb":
			e.rel = 1
		case t == "cw":
			e.rel = 2
		case t == "cd":
			e.rel = 4
		case len(t) >= 2 && isHexByte(t[:2]) && (len(t) == 2 || t[2] == '+'):
			b := hexByte(t[:2])
			if len(t) > 2 {
				e.plusReg = true
			}
			if !e.vex && !e.evex && len(e.opcode) == 0 && !e.plusReg && (b == 0x66 || b == 0xF2 || b == 0xF3) && i+1 < len(f) && !strings.HasPrefix(f[i+1], "/") && !strings.HasPrefix(f[i+1], "i") && !strings.HasPrefix(f[i+1], "c") {
				e.prefixes = append(e.prefixes, b)
				continue
			}
			e.opcode = append(e.opcode, b)
		default:
			return e, false
		}
	}
	if len(e.opcode) == 0 {
		return e, false
	}
	return e, true
}

func isHexByte(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return len(s) == 2
}

func hexByte(s string) byte {
	v := byte(0)
	for i := 0; i < 2; i++ {
		c := s[i]
		v <<= 4
		if c <= '9' {
			v |= c - '0'
		} else {
			v |= c - 'A' + 10
		}
	}
	return v
}

// ---------------------------------------------------------------- decoding tables

// decEntry is a form with its parsed encoding and operand roles.
type decEntry struct {
	form  *Form
	spec  encSpec
	roles []opRole
	mem   bool // has a memory (rm) operand
	// memBits is the memory operand's size (element size for broadcasts),
	// the disp8 scale of EVEX compressed displacements.
	memBits int
	// bcast is the number of elements a broadcast fills, 0 if none.
	bcast   int
	vsib    bool
	masked  bool
	zeroing bool
}

type decKey struct {
	evex bool
	mmap uint8
	op   byte
}

// decTables index forms by encoding for the decoder.
type decTables struct {
	vex    map[decKey][]*decEntry
	byForm map[*Form]*decEntry  // legacy forms
	byOp   map[byte][]*decEntry // legacy forms by first opcode byte, longest opcode first
}

var (
	catalogTablesOnce sync.Once
	catalogTabs       *decTables
)

// catalogTables returns the decoding tables of the catalog, built once.
func catalogTables() *decTables {
	catalogTablesOnce.Do(func() { catalogTabs = newDecTables(All()) })
	return catalogTabs
}

// newDecTables parses the opcode strings of the forms.
func newDecTables(all []*Form) *decTables {
	t := &decTables{
		vex:    map[decKey][]*decEntry{},
		byForm: map[*Form]*decEntry{},
		byOp:   map[byte][]*decEntry{},
	}
	{
		type grpKey struct {
			mn, op string
			n      int
		}
		groups := map[grpKey][]*Form{}
		for _, f := range all {
			if f.Opcode == "" {
				continue
			}
			k := grpKey{f.Mnemonic, f.Opcode, len(f.Operands)}
			groups[k] = append(groups[k], f)
		}
		for _, f := range all {
			spec, ok := parseEncSpec(f.Opcode)
			if !ok {
				continue
			}
			e := &decEntry{form: f, spec: spec}
			if len(f.Operands) > 0 {
				e.masked, e.zeroing = f.Operands[0].Masked, f.Operands[0].Zeroing
			}
			e.roles = assignRoles(f, &spec, groups[grpKey{f.Mnemonic, f.Opcode, len(f.Operands)}])
			if e.roles == nil {
				continue
			}
			for i, op := range f.Operands {
				k := op.Kind
				if e.roles[i] == roleRM && (k.IsMemory() || isVSIBKind(k)) {
					e.mem = true
					e.vsib = isVSIBKind(k)
					e.memBits = instKindBits(k)
					if k.IsBroadcast() {
						e.bcast = broadcastElems(f, i, 128<<max(spec.l, 0))
					}
				}
			}
			if spec.vex || spec.evex {
				key := decKey{spec.evex, spec.mmap, spec.opcode[0]}
				if spec.plusReg {
					continue
				}
				t.vex[key] = append(t.vex[key], e)
			} else {
				t.byForm[f] = e
				t.byOp[spec.opcode[0]] = append(t.byOp[spec.opcode[0]], e)
			}
		}
		// longest opcodes first: "9B DB E2" (fclex) before "9B" (fwait)
		for _, es := range t.byOp {
			sort.SliceStable(es, func(i, j int) bool { return len(es[i].spec.opcode) > len(es[j].spec.opcode) })
		}
	}
	return t
}

// broadcastElems returns how many elements the broadcast operand i of f
// fills: the size of the full memory operand of the same form with an mN
// operand at i, divided by the element size. vl, the vector length of the
// encoding in bits (0 if unknown), picks among several such forms
// ("vcvtpd2dq xmm, m128" and "vcvtpd2dq xmm, m256" both fit
// "vcvtpd2dq xmm, m64bcst").
func broadcastElems(f *Form, i int, vl int) int {
	elem := instKindBits(f.Operands[i].Kind)
	if elem == 0 {
		return 0
	}
	best := 0
	for _, g := range ByMnemonic(f.Mnemonic) {
		if g == f || len(g.Operands) != len(f.Operands) || g.Encoding != f.Encoding {
			continue
		}
		same := true
		for j := range g.Operands {
			if j != i && (g.Operands[j].Kind != f.Operands[j].Kind || g.Operands[j].Masked != f.Operands[j].Masked ||
				g.Operands[j].Zeroing != f.Operands[j].Zeroing) {
				same = false
				break
			}
		}
		k := g.Operands[i].Kind
		if !same || !k.IsMemory() || k.IsBroadcast() {
			continue
		}
		b := instKindBits(k)
		if best == 0 || b == vl || (best != vl && b > best) {
			best = b
		}
	}
	if best != 0 && best >= elem {
		return best / elem
	}
	return f.vectorBits() / elem
}

// assignRoles tells where each operand of f is encoded. group holds the
// forms with the same mnemonic, opcode string and operand count (register
// and memory variants of one encoding), which tells which operand is ModRM.rm
// in a register-only form.
func assignRoles(f *Form, spec *encSpec, group []*Form) []opRole {
	n := len(f.Operands)
	roles := make([]opRole, n)
	var regOps []int // register or memory operands needing a role
	for i, op := range f.Operands {
		k := op.Kind
		switch {
		case k.IsImmediate() && k != KindConst1:
			roles[i] = roleImm
		case k == KindConst1 || isDigits(string(k)):
			roles[i] = roleFixed
		case k == KindRel8 || k == KindRel32 || k == "rel16":
			roles[i] = roleRel
		case k == KindMoffs:
			roles[i] = roleMoffs
		default:
			if _, fixed := kindFixedReg(k); fixed {
				roles[i] = roleFixed
				continue
			}
			regOps = append(regOps, i)
		}
	}
	hasModRM := spec.digit != -2
	hasReg := spec.digit == -1
	if spec.plusReg {
		// one register in the opcode byte, the rest fixed
		if len(regOps) != 1 {
			return nil
		}
		roles[regOps[0]] = roleOpReg
		return roles
	}
	if !hasModRM {
		if len(regOps) != 0 {
			return nil
		}
		return roles
	}
	nv := len(regOps) - 1 // rm
	if hasReg {
		nv--
	}
	if spec.is4 {
		nv--
	}
	if nv < 0 || nv > 1 || (nv == 1 && !spec.vex && !spec.evex) {
		return nil
	}
	// which operand is rm?
	rm := -1
	for _, i := range regOps {
		k := f.Operands[i].Kind
		if k.IsMemory() || isVSIBKind(k) {
			rm = i
		}
	}
	if rm < 0 {
		for _, g := range group {
			for _, i := range regOps {
				if k := g.Operands[i].Kind; k.IsMemory() || isVSIBKind(k) {
					rm = i
				}
			}
			if rm >= 0 {
				break
			}
		}
	}
	is4 := -1
	if spec.is4 {
		is4 = regOps[len(regOps)-1]
	}
	if rm < 0 {
		// register-only encodings without a memory variant
		switch {
		case spec.digit >= 0 && nv == 1:
			rm = regOps[1] // VMI: vvvv, rm
		case spec.digit >= 0:
			rm = regOps[0]
		case (spec.vex || spec.evex) && nv == 1 && len(regOps) == 3 && spec.mmap == 1 && spec.opcode[0] == 0x11 && spec.pp >= 2:
			rm = regOps[0] // vmovss/vmovsd xmm1, xmm2, xmm3 store form (MVR)
		case (spec.vex || spec.evex) && spec.mmap == 1 && spec.opcode[0] == 0x7E && spec.pp == 1:
			rm = regOps[0] // vmovd/vmovq r32/r64, xmm (MR)
		case spec.vex || spec.evex:
			rm = regOps[len(regOps)-1]
			if is4 >= 0 {
				rm = regOps[len(regOps)-2]
			}
		default:
			rm = regOps[len(regOps)-1] // RM
		}
	}
	roles[rm] = roleRM
	if is4 >= 0 {
		roles[is4] = roleIs4
	}
	var rest []int
	for _, i := range regOps {
		if roles[i] == roleNone {
			rest = append(rest, i)
		}
	}
	switch {
	case !hasReg && nv == 1 && len(rest) == 1:
		roles[rest[0]] = roleVVVV
	case hasReg && nv == 0 && len(rest) == 1:
		roles[rest[0]] = roleReg
	case hasReg && nv == 1 && len(rest) == 2:
		if rm == regOps[0] {
			roles[rest[0]], roles[rest[1]] = roleVVVV, roleReg // MVR
		} else {
			roles[rest[0]], roles[rest[1]] = roleReg, roleVVVV // RVM, RMV
		}
	case len(rest) == 0 && !hasReg && nv == 0:
	default:
		return nil
	}
	return roles
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------- ModRM

// modrmFields are the register-extension bits in effect.
type modrmFields struct {
	r, x, b    bool // REX/VEX R, X, B (already un-inverted)
	r2, v2     bool // EVEX R', V' (un-inverted)
	evex       bool
	addr32     bool
	seg        Reg
	disp8Scale int
	vsib       RegClass // class of a VSIB index register, ClassNone if not VSIB
}

type modrmResult struct {
	mod, reg, rm byte
	mem          InstMem
	n            int // bytes consumed (ModRM, SIB, displacement)
	ripDispAt    int // offset of a rip-relative displacement within the bytes, -1
}

// decodeModRM decodes a ModRM byte and what follows it.
func decodeModRM(b []byte, f modrmFields) (modrmResult, bool) {
	var r modrmResult
	if len(b) < 1 {
		return r, false
	}
	m := b[0]
	r.mod, r.reg, r.rm = m>>6, (m>>3)&7, m&7
	r.n = 1
	if r.mod == 3 {
		return r, true
	}
	gpr := func(n int) Reg {
		if f.addr32 {
			return GPR(n, 32)
		}
		return GPR(n, 64)
	}
	mem := InstMem{Scale: 1, Segment: f.seg}
	dispBytes := 0
	if r.rm == 4 {
		if len(b) < 2 {
			return r, false
		}
		sib := b[1]
		r.n = 2
		scale, index, base := sib>>6, int((sib>>3)&7), int(sib&7)
		if f.x {
			index |= 8
		}
		if f.vsib != ClassNone {
			if f.evex && f.v2 {
				index |= 16
			}
			mem.Index = regOfClass(f.vsib, 0, index)
			mem.Scale = 1 << scale
		} else if index != 4 {
			mem.Index = gpr(index)
			mem.Scale = 1 << scale
		}
		if base == 5 && r.mod == 0 {
			dispBytes = 4
		} else {
			if f.b {
				base |= 8
			}
			mem.Base = gpr(base)
		}
	} else if r.rm == 5 && r.mod == 0 {
		mem.Base = RIP
		if f.addr32 {
			mem.Base = EIP
		}
		dispBytes = 4
	} else {
		base := int(r.rm)
		if f.b {
			base |= 8
		}
		mem.Base = gpr(base)
	}
	switch r.mod {
	case 1:
		dispBytes = 1
	case 2:
		dispBytes = 4
	}
	if len(b) < r.n+dispBytes {
		return r, false
	}
	switch dispBytes {
	case 1:
		d := int64(int8(b[r.n]))
		if f.disp8Scale > 1 {
			d *= int64(f.disp8Scale)
		}
		mem.Disp = d
	case 4:
		mem.Disp = int64(int32(binary.LittleEndian.Uint32(b[r.n:])))
	}
	r.n += dispBytes
	r.mem = mem
	return r, true
}
