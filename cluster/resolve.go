package cluster

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"portlab/isa"
	"portlab/modeldb"
)

// Resolve gives every point without a form the canonical portlab form of its
// key instruction, where one can be found, and sets Memory on every point.
// Exegesis key instructions are LLVM MCInst strings ("ADD64rm RAX RAX RDI
// i_0x1 %noreg i_0x0 %noreg"); their operands (registers, the five-part
// memory reference, immediates) and the opcode's name (mnemonic, operand
// size, Y/Z vector width, rr/rm/mr/ri suffix) are matched against the forms
// of that mnemonic in the model (m may be nil) and in the isa catalog, tied
// operands and condition-code immediates taken into account. User snippets
// written in Intel or AT&T syntax are matched the same way. It returns the
// identities (opcodes) it could not resolve, sorted.
func Resolve(points []*Point, m *modeldb.Model) []string {
	r := newResolver(m)
	miss := map[string]bool{}
	for _, p := range points {
		if p.Aux {
			continue
		}
		if p.Form == "" && p.Bench != nil && len(p.Bench.Key.Instructions) > 0 {
			ins := strings.TrimSpace(p.Bench.Key.Instructions[0])
			att := p.Bench.Portlab != nil && p.Bench.Portlab.Syntax == "att"
			if f, ok := r.resolve(ins, att); ok {
				p.Form = f
			}
		}
		switch {
		case p.Form != "":
			p.Memory = formHasMemory(p.Form)
		case p.Bench != nil && len(p.Bench.Key.Instructions) > 0:
			p.Memory = textHasMemory(p.Bench.Key.Instructions[0])
		}
		if p.Form == "" {
			miss[p.Opcode] = true
		}
	}
	var out []string
	for o := range miss {
		out = append(out, o)
	}
	sort.Strings(out)
	return out
}

// ResolveInstruction returns the canonical form of one instruction: an LLVM
// MCInst string as exegesis writes it, or Intel or (att) AT&T assembly.
func ResolveInstruction(ins string, att bool, m *modeldb.Model) (string, bool) {
	return newResolver(m).resolve(ins, att)
}

type resolver struct {
	model map[string][]string // mnemonic -> model form names
	cache map[string]string
}

func newResolver(m *modeldb.Model) *resolver {
	r := &resolver{model: map[string][]string{}, cache: map[string]string{}}
	if m != nil {
		for _, e := range m.Forms {
			mn, _ := splitForm(e.Form)
			r.model[mn] = append(r.model[mn], e.Form)
		}
	}
	return r
}

func (r *resolver) resolve(ins string, att bool) (string, bool) {
	key := ins
	if att {
		key = "att\x00" + ins
	}
	if f, ok := r.cache[key]; ok {
		return f, f != ""
	}
	var f string
	switch {
	case isMCInst(ins):
		f = r.resolveMCInst(ins)
	default:
		f = r.resolveAsm(ins, att)
	}
	r.cache[key] = f
	return f, f != ""
}

// ---- form names ----

// formOp is one operand of a form name.
type formOp struct {
	kind    string
	masked  bool
	zeroing bool
}

// splitForm splits a canonical form name into its mnemonic and operands.
func splitForm(name string) (string, []formOp) {
	name = strings.TrimSpace(strings.TrimPrefix(name, "{evex}"))
	mn, rest, _ := strings.Cut(name, " ")
	if isRepPrefix(mn) && rest != "" {
		var m2 string
		m2, rest, _ = strings.Cut(rest, " ")
		mn += " " + m2
	}
	var ops []formOp
	if strings.TrimSpace(rest) == "" {
		return mn, nil
	}
	for _, o := range strings.Split(rest, ",") {
		o = strings.TrimSpace(o)
		fo := formOp{kind: o}
		if i := strings.Index(o, "{"); i >= 0 {
			fo.kind = strings.TrimSpace(o[:i])
			fo.masked = strings.Contains(o[i:], "{k}")
			fo.zeroing = strings.Contains(o[i:], "{z}")
		}
		ops = append(ops, fo)
	}
	return mn, ops
}

func isRepPrefix(s string) bool {
	switch s {
	case "rep", "repe", "repz", "repne", "repnz", "lock":
		return true
	}
	return false
}

func formHasMemory(name string) bool {
	_, ops := splitForm(name)
	for _, o := range ops {
		if isa.Kind(o.kind).IsMemory() {
			return true
		}
	}
	return false
}

// textHasMemory guesses from instruction text whether it has a memory
// operand: an MCInst memory reference, Intel brackets or AT&T parentheses.
func textHasMemory(ins string) bool {
	if isMCInst(ins) {
		f := strings.Fields(ins)
		for _, t := range mcOperands(f[1:]) {
			if t.kind == "M" {
				return true
			}
		}
		return false
	}
	return strings.ContainsAny(ins, "[(")
}

// ---- operands ----

// opTok is one operand of an instruction: a register (kind is its class),
// a memory reference ("M") or an immediate ("I").
type opTok struct {
	kind  string
	reg   string // lower-case register name
	size  int    // memory or immediate size in bits when known
	bcst  bool   // EVEX broadcast memory operand
	imm   int64
	noreg bool
}

var regClass = func() map[string]string {
	m := map[string]string{}
	for _, r := range []string{"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "rip"} {
		m[r] = "r64"
	}
	for _, r := range []string{"eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp"} {
		m[r] = "r32"
	}
	for _, r := range []string{"ax", "bx", "cx", "dx", "si", "di", "bp", "sp"} {
		m[r] = "r16"
	}
	for _, r := range []string{"al", "bl", "cl", "dl", "ah", "bh", "ch", "dh", "sil", "dil", "bpl", "spl"} {
		m[r] = "r8"
	}
	for i := 8; i < 16; i++ {
		n := "r" + strconv.Itoa(i)
		m[n], m[n+"d"], m[n+"w"], m[n+"b"], m[n+"l"] = "r64", "r32", "r16", "r8", "r8"
	}
	for i := 0; i < 32; i++ {
		n := strconv.Itoa(i)
		m["xmm"+n], m["ymm"+n], m["zmm"+n] = "xmm", "ymm", "zmm"
	}
	for i := 0; i < 8; i++ {
		n := strconv.Itoa(i)
		m["k"+n], m["mm"+n], m["st"+n], m["st("+n+")"], m["fp"+n] = "k", "mm", "st", "st", "st"
	}
	m["st"] = "st"
	for _, r := range []string{"cs", "ds", "es", "fs", "gs", "ss"} {
		m[r] = "sreg"
	}
	return m
}()

// mcOperands classifies MCInst operand tokens and folds each five-part
// memory reference (base, scale, index, displacement, segment) into one "M".
func mcOperands(toks []string) []opTok {
	var ops []opTok
	for _, t := range toks {
		switch {
		case t == "%noreg" || t == "$noreg" || t == "noreg":
			ops = append(ops, opTok{kind: "noreg", noreg: true})
		case strings.HasPrefix(t, "i_"):
			v, _ := strconv.ParseInt(strings.TrimPrefix(t, "i_"), 0, 64)
			ops = append(ops, opTok{kind: "I", imm: v})
		case strings.HasPrefix(t, "f_"):
			ops = append(ops, opTok{kind: "I"})
		default:
			r := strings.ToLower(t)
			if c, ok := regClass[r]; ok {
				ops = append(ops, opTok{kind: c, reg: r})
			} else {
				ops = append(ops, opTok{kind: "?", reg: r})
			}
		}
	}
	var out []opTok
	for i := 0; i < len(ops); i++ {
		if i+4 < len(ops) && isAddrReg(ops[i]) && ops[i+1].kind == "I" && isScale(ops[i+1].imm) &&
			isAddrReg(ops[i+2]) && ops[i+3].kind == "I" && (ops[i+4].noreg || ops[i+4].kind == "sreg") {
			out = append(out, opTok{kind: "M"})
			i += 4
			continue
		}
		if ops[i].noreg || ops[i].kind == "?" && (ops[i].reg == "eflags" || ops[i].reg == "mxcsr" || ops[i].reg == "fpsw" || ops[i].reg == "fpcw") {
			continue
		}
		out = append(out, ops[i])
	}
	return out
}

func isAddrReg(t opTok) bool {
	return t.noreg || t.kind == "r64" || t.kind == "r32" || t.kind == "xmm" || t.kind == "ymm" || t.kind == "zmm"
}

func isScale(v int64) bool { return v == 1 || v == 2 || v == 4 || v == 8 }

// isMCInst reports whether ins looks like an LLVM MCInst string: an
// upper-case opcode name followed by space-separated operands, no commas.
func isMCInst(ins string) bool {
	f := strings.Fields(ins)
	if len(f) == 0 || strings.Contains(ins, ",") {
		return false
	}
	return mcOpcodeRE.MatchString(f[0]) && f[0] != strings.ToLower(f[0])
}

var mcOpcodeRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*$`)

// ---- LLVM opcode names ----

var llvmOpcodeRE = regexp.MustCompile(`^(?:MMX_)?([A-Z][A-Z0-9_]*?)(8|16|32|64)?(Z128|Z256|Z|Y)?` +
	`(rCL|mCL|r1|m1|rrr|rrm|rmr|rri|rmi|mri|mrr|rrk|rrkz|rr|rm|mr|ri|mi|kk|kr|rk|km|mk|r|m|i)` +
	`(8|16|32|64|32S)?(_REV)?(b)?(k|kz)?(_Int|_REV|_EVEX|_NF|_ND)?$`)

// llvmCond are LLVM's X86 condition codes in order (X86::CondCode).
var llvmCond = []string{"o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"}

// opcodeHints is what an LLVM opcode name says about the instruction.
type opcodeHints struct {
	mnemonic string
	size     int  // general operand size in bits (ADD64rr), 0 if not given
	vec      int  // vector width from Y/Z suffixes (256, 512, 128 for Z128)
	evex     bool // Z-suffixed: an EVEX form
	imm      int  // immediate size from ri8/ri32 suffixes
	bcst     bool
	masked   bool
	zeroing  bool
	implicit string // a fixed operand the opcode names ("cl" for rCL, "1" for r1)
}

func parseLLVMOpcode(op string) (opcodeHints, bool) {
	m := llvmOpcodeRE.FindStringSubmatch(op)
	if m == nil {
		return opcodeHints{mnemonic: strings.ToLower(op)}, false
	}
	h := opcodeHints{mnemonic: strings.ToLower(m[1])}
	if m[2] != "" {
		h.size, _ = strconv.Atoi(m[2])
	}
	switch m[3] {
	case "Y", "Z256":
		h.vec = 256
	case "Z":
		h.vec = 512
	case "Z128":
		h.vec = 128
	}
	h.evex = strings.HasPrefix(m[3], "Z")
	if m[5] != "" && (strings.HasSuffix(m[4], "i") || strings.HasSuffix(m[4], "1")) {
		h.imm, _ = strconv.Atoi(strings.TrimSuffix(m[5], "S"))
	}
	h.bcst = m[7] != ""
	h.masked = m[8] != "" || strings.HasSuffix(m[4], "k") || strings.HasSuffix(m[4], "kz")
	h.zeroing = m[8] == "kz" || strings.HasSuffix(m[4], "kz")
	switch {
	case strings.HasSuffix(m[4], "CL"):
		h.implicit = "cl"
	case strings.HasSuffix(m[4], "1"):
		h.implicit = "1"
	}
	return h, true
}

func (r *resolver) resolveMCInst(ins string) string {
	f := strings.Fields(ins)
	h, _ := parseLLVMOpcode(f[0])
	ops := mcOperands(f[1:])
	switch h.mnemonic {
	case "cmov", "setcc", "jcc":
		if n := len(ops); n > 0 && ops[n-1].kind == "I" && ops[n-1].imm >= 0 && int(ops[n-1].imm) < len(llvmCond) {
			cc := llvmCond[ops[n-1].imm]
			ops = ops[:n-1]
			switch h.mnemonic {
			case "cmov":
				h.mnemonic = "cmov" + cc
			case "setcc":
				h.mnemonic = "set" + cc
			default:
				h.mnemonic = "j" + cc
			}
		}
	}
	// Operand-list variants: as written; without a tied copy of the
	// destination; without a masked form's pass-through and mask.
	variants := [][]opTok{ops}
	if len(ops) > 1 && ops[1].reg != "" && ops[1].reg == ops[0].reg {
		variants = append(variants, drop(ops, 1))
	}
	if h.masked {
		v := ops
		if len(v) > 1 && v[1].reg != "" && v[1].reg == v[0].reg {
			v = drop(v, 1)
		}
		if len(v) > 1 && v[1].kind == "k" {
			variants = append(variants, drop(v, 1))
		}
	}
	return r.best(h, variants)
}

func drop(ops []opTok, i int) []opTok {
	out := append([]opTok(nil), ops[:i]...)
	return append(out, ops[i+1:]...)
}

// candidates returns the form names of a mnemonic known to the model or the
// catalog, and whether each is the model's.
func (r *resolver) candidates(mn string) map[string]bool {
	out := map[string]bool{}
	for _, f := range isa.ByMnemonic(mn) {
		out[f.Name()] = false
	}
	for _, f := range r.model[mn] {
		out[f] = true
	}
	return out
}

// best scores every candidate form against every operand variant and
// returns the best match, "" when none fits.
func (r *resolver) best(h opcodeHints, variants [][]opTok) string {
	cands := r.candidates(h.mnemonic)
	if len(cands) == 0 {
		return ""
	}
	names := make([]string, 0, len(cands))
	for n := range cands {
		names = append(names, n)
	}
	sort.Strings(names)
	bestName, bestScore := "", -1.0
	for _, n := range names {
		_, fops := splitForm(n)
		evexName := strings.HasPrefix(n, "{evex}")
		masked := len(fops) > 0 && fops[0].masked
		if masked != h.masked || (masked && fops[0].zeroing != h.zeroing) {
			continue
		}
		for vi, v := range variants {
			s, ok := matchOps(fops, v, h)
			if !ok {
				continue
			}
			s -= 0.1 * float64(vi)
			if cands[n] {
				s += 0.5
			}
			if h.evex == evexName {
				s += 0.25
			}
			if s > bestScore {
				bestName, bestScore = n, s
			}
		}
	}
	return bestName
}

// matchOps aligns an instruction's operands with a form's, letting fixed
// registers and constants of the form ("cl", "1", "al") be implicit.
func matchOps(fops []formOp, v []opTok, h opcodeHints) (float64, bool) {
	score := 0.0
	j := 0
	for _, fo := range fops {
		k := fo.kind
		if j < len(v) {
			if s, ok := opScore(k, v[j], h); ok {
				score += s
				j++
				continue
			}
		}
		if isFixed(k) {
			// An implicit operand: right when the opcode names it.
			if h.implicit == k {
				score += 1
			} else if h.implicit != "" {
				return 0, false
			} else {
				score -= 0.5
			}
			continue
		}
		return 0, false
	}
	if j != len(v) {
		return 0, false
	}
	return score, true
}

func isFixed(k string) bool {
	if k == "1" {
		return true
	}
	_, ok := regClass[k]
	return ok
}

func opScore(k string, t opTok, h opcodeHints) (float64, bool) {
	kind := isa.Kind(k)
	switch {
	case t.kind == "M":
		if !kind.IsMemory() {
			return 0, false
		}
		if k == "m" {
			return 3, true
		}
		s := 2.0
		size := memSize(k)
		if t.size != 0 {
			if size == t.size {
				s += 1.5
			} else if size != 0 {
				s -= 1
			}
		}
		if kind.IsBroadcast() == (h.bcst || t.bcst) {
			s += 0.5
		} else {
			s -= 2
		}
		if h.vec != 0 && size == h.vec {
			s += 1
		} else if h.size != 0 && size == h.size {
			s += 1
		}
		return s, true
	case t.kind == "I":
		if !kind.IsImmediate() || k == "1" {
			return 0, false
		}
		s := 2.0
		size, _ := strconv.Atoi(strings.TrimPrefix(k, "imm"))
		switch {
		case t.size != 0:
			if size == t.size {
				s += 1
			}
		case h.imm != 0:
			if size == h.imm {
				s += 1
			}
		case h.size == 64 && h.mnemonic == "mov":
			if size == 64 {
				s += 1
			}
		case h.size != 0:
			if size == min(h.size, 32) {
				s += 1
			}
		}
		if t.size == 0 && h.imm == 0 && h.size == 0 && fitsImm(t.imm, size) {
			s += map[int]float64{8: 0.5, 16: 0.3}[size] + 0.1
		}
		return s, true
	case t.reg != "" && k == t.reg:
		return 2, true
	case t.reg != "" && k == t.kind:
		return 3, true
	}
	return 0, false
}

func fitsImm(v int64, bits int) bool {
	switch bits {
	case 8:
		return v >= -128 && v <= 255
	case 16:
		return v >= -32768 && v <= 65535
	}
	return true
}

// memSize is the size in bits of a memory kind (m64 -> 64, m32bcst -> 32).
func memSize(k string) int {
	s := strings.TrimPrefix(k, "m")
	s = strings.TrimSuffix(s, "bcst")
	s = strings.TrimSuffix(s, "fp")
	s = strings.TrimSuffix(s, "int")
	n, _ := strconv.Atoi(s)
	return n
}

// ---- assembly text ----

var intelSizes = map[string]int{"byte": 8, "word": 16, "dword": 32, "qword": 64, "tbyte": 80, "xword": 80,
	"oword": 128, "xmmword": 128, "ymmword": 256, "zmmword": 512, "mmword": 64}

// resolveAsm matches one line of Intel (or AT&T) assembly.
func (r *resolver) resolveAsm(ins string, att bool) string {
	ins = strings.TrimSpace(ins)
	if i := strings.IndexAny(ins, "#;"); i >= 0 {
		ins = strings.TrimSpace(ins[:i])
	}
	if ins == "" {
		return ""
	}
	if strings.Contains(ins, "%") || strings.Contains(ins, "$") {
		att = true
	}
	mn, rest, _ := strings.Cut(ins, " ")
	mn = strings.ToLower(mn)
	if isRepPrefix(mn) && rest != "" {
		var m2 string
		m2, rest, _ = strings.Cut(strings.TrimSpace(rest), " ")
		mn += " " + strings.ToLower(m2)
	}
	var ops []opTok
	for _, o := range splitOperands(rest) {
		var t opTok
		if att {
			t = attOperand(o)
		} else {
			t = intelOperand(o)
		}
		if t.kind == "?" {
			return ""
		}
		ops = append(ops, t)
	}
	if att {
		for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
			ops[i], ops[j] = ops[j], ops[i]
		}
	}
	h := opcodeHints{mnemonic: mn}
	if ops := splitOperands(rest); len(ops) > 0 {
		dst := ops[0]
		if att {
			dst = ops[len(ops)-1]
		}
		h.masked = strings.Contains(dst, "{%k") || strings.Contains(strings.ToLower(dst), "{k")
		h.zeroing = h.masked && strings.Contains(dst, "{z}")
	}
	if f := r.best(h, [][]opTok{ops}); f != "" || !att {
		return f
	}
	// AT&T mnemonics may carry a size suffix (addq); try the forms whose GNU
	// spelling is the mnemonic, then the mnemonic without its suffix.
	for _, f := range isa.All() {
		if f.GNU == mn {
			h.mnemonic = f.Mnemonic
			if s := r.best(h, [][]opTok{ops}); s != "" {
				return s
			}
			break
		}
	}
	if n := len(mn); n > 1 && strings.ContainsRune("bwlq", rune(mn[n-1])) {
		h.mnemonic = mn[:n-1]
		h.size = map[byte]int{'b': 8, 'w': 16, 'l': 32, 'q': 64}[mn[n-1]]
		return r.best(h, [][]opTok{ops})
	}
	return ""
}

// splitOperands splits at commas outside brackets and parentheses.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func intelOperand(o string) opTok {
	l := strings.ToLower(strings.TrimSpace(o))
	bcst := strings.Contains(l, "{1to")
	l = strings.TrimSpace(strings.Split(l, "{")[0])
	if c, ok := regClass[l]; ok {
		return opTok{kind: c, reg: l}
	}
	if strings.Contains(l, "[") {
		t := opTok{kind: "M"}
		for w, n := range intelSizes {
			if strings.HasPrefix(l, w+" ptr") {
				t.size = n
			}
		}
		t.bcst = bcst
		return t
	}
	if v, err := strconv.ParseInt(strings.TrimSuffix(l, "h"), 0, 64); err == nil {
		return opTok{kind: "I", imm: v}
	}
	return opTok{kind: "?", reg: l}
}

func attOperand(o string) opTok {
	l := strings.ToLower(strings.TrimSpace(o))
	l = strings.TrimPrefix(l, "*")
	switch {
	case strings.HasPrefix(l, "$"):
		v, _ := strconv.ParseInt(l[1:], 0, 64)
		return opTok{kind: "I", imm: v}
	case strings.HasPrefix(l, "%") && !strings.Contains(l, "("):
		r := strings.TrimPrefix(l, "%")
		r = strings.TrimSpace(strings.Split(r, "{")[0])
		if c, ok := regClass[r]; ok {
			return opTok{kind: c, reg: r}
		}
	case strings.Contains(l, "("):
		return opTok{kind: "M", bcst: strings.Contains(l, "{1to")}
	default:
		if _, err := strconv.ParseInt(l, 0, 64); err == nil {
			return opTok{kind: "M"} // absolute address
		}
	}
	return opTok{kind: "?", reg: l}
}
