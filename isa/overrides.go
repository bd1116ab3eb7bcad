package isa

import (
	"strconv"
	"strings"
)

// This file is the hand-kept part of the catalog: what golang.org/x/arch's
// x86 table is silent or wrong about.
//
//   - Implicit registers. ImplicitReads and ImplicitWrites name the registers
//     a form accesses that the caller cannot choose: registers the encoding
//     does not name at all (mul's rdx, push's rsp, movsb's rsi and rdi) and
//     fixed-register operands (the cl of "shl r64, cl", the al of
//     "add al, imm8", the xmm0 of "blendvps xmm, xmm, xmm0"). Registers are
//     named at the width accessed ("cl", "eax", "rdx"); RegFamily maps a
//     name to its 64-bit register.
//   - Flags. FlagsRead, FlagsWritten, FlagsUndefined for every flag-touching
//     instruction. FlagsUndefined is a subset of FlagsWritten: the flag is
//     modified, its value means nothing. A shift or rotate by cl leaves the
//     flags alone when the count is zero, so it also reads the flags it writes.
//   - Access fixes where the table's Action column is wrong or too coarse:
//     cmov's destination keeps its old value when the condition is false
//     (Read|CondWrite), sbb and shifts read their destination, one-operand
//     mul/div only read their explicit operand, setcc writes it, xchg and
//     xadd read and write both, a legacy-SSE scalar operation merges into
//     its destination.
//   - Forms the table lacks: rep-prefixed string operations, and the AVX2
//     ymm forms of vpslld, vpsllq, vpsrld and vpsrlq.

// flagSem is the flag behaviour of a mnemonic.
type flagSem struct{ r, w, u Flag }

const (
	szapc = SF | ZF | AF | PF | CF // lahf/sahf set
	sfzfp = SF | ZF | PF
)

// mnemonicFlags gives flag behaviour by mnemonic (conditions and shifts are
// handled in flagsFor).
var mnemonicFlags = map[string]flagSem{
	"add": {w: AllArith}, "sub": {w: AllArith}, "cmp": {w: AllArith}, "neg": {w: AllArith},
	"xadd": {w: AllArith}, "cmpxchg": {w: AllArith},
	"adc": {r: CF, w: AllArith}, "sbb": {r: CF, w: AllArith},
	"and": {w: AllArith, u: AF}, "or": {w: AllArith, u: AF}, "xor": {w: AllArith, u: AF},
	"test": {w: AllArith, u: AF},
	"inc":  {w: AllArith &^ CF}, "dec": {w: AllArith &^ CF},
	"rcl": {r: CF, w: CF | OF, u: OF}, "rcr": {r: CF, w: CF | OF, u: OF},
	"shld": {w: AllArith, u: AF | OF}, "shrd": {w: AllArith, u: AF | OF},
	"bt": {w: CF | OF | SF | AF | PF, u: OF | SF | AF | PF}, "bts": {w: CF | OF | SF | AF | PF, u: OF | SF | AF | PF},
	"btr": {w: CF | OF | SF | AF | PF, u: OF | SF | AF | PF}, "btc": {w: CF | OF | SF | AF | PF, u: OF | SF | AF | PF},
	"bsf": {w: AllArith, u: CF | OF | SF | AF | PF}, "bsr": {w: AllArith, u: CF | OF | SF | AF | PF},
	"lzcnt": {w: AllArith, u: OF | SF | PF | AF}, "tzcnt": {w: AllArith, u: OF | SF | PF | AF},
	"popcnt": {w: AllArith},
	"imul":   {w: AllArith, u: SF | ZF | AF | PF}, "mul": {w: AllArith, u: SF | ZF | AF | PF},
	"div": {w: AllArith, u: AllArith}, "idiv": {w: AllArith, u: AllArith},
	"adcx": {r: CF, w: CF}, "adox": {r: OF, w: OF},
	"andn": {w: AllArith, u: AF | PF}, "blsi": {w: AllArith, u: AF | PF}, "blsmsk": {w: AllArith, u: AF | PF},
	"blsr": {w: AllArith, u: AF | PF}, "bextr": {w: AllArith, u: AF | SF | PF}, "bzhi": {w: AllArith, u: AF | PF},
	"comiss": {w: AllArith}, "comisd": {w: AllArith}, "ucomiss": {w: AllArith}, "ucomisd": {w: AllArith},
	"vcomiss": {w: AllArith}, "vcomisd": {w: AllArith}, "vucomiss": {w: AllArith}, "vucomisd": {w: AllArith},
	"ptest": {w: AllArith}, "vptest": {w: AllArith}, "vtestps": {w: AllArith}, "vtestpd": {w: AllArith},
	"pcmpestri": {w: AllArith}, "pcmpestrm": {w: AllArith}, "pcmpistri": {w: AllArith}, "pcmpistrm": {w: AllArith},
	"vpcmpestri": {w: AllArith}, "vpcmpestrm": {w: AllArith}, "vpcmpistri": {w: AllArith}, "vpcmpistrm": {w: AllArith},
	"stc": {w: CF}, "clc": {w: CF}, "cmc": {r: CF, w: CF}, "std": {w: DF}, "cld": {w: DF},
	"lahf": {r: szapc}, "sahf": {w: szapc},
	"pushf": {r: AllArith | DF}, "pushfq": {r: AllArith | DF},
	"popf": {w: AllArith | DF}, "popfq": {w: AllArith | DF},
	"iret": {w: AllArith | DF}, "iretd": {w: AllArith | DF}, "iretq": {w: AllArith | DF},
	"sysret": {w: AllArith | DF}, "syscall": {r: AllArith | DF},
	"cmpxchg8b": {w: ZF}, "cmpxchg16b": {w: ZF},
	"rdrand": {w: AllArith}, "rdseed": {w: AllArith}, "xtest": {w: AllArith},
	"lar": {w: ZF}, "lsl": {w: ZF}, "verr": {w: ZF}, "verw": {w: ZF},
	"fcomi": {w: AllArith}, "fcomip": {w: AllArith}, "fucomi": {w: AllArith}, "fucomip": {w: AllArith},
	"movsb": {r: DF}, "movsw": {r: DF}, "movsq": {r: DF}, "stosb": {r: DF}, "stosw": {r: DF}, "stosd": {r: DF},
	"stosq": {r: DF}, "lodsb": {r: DF}, "lodsw": {r: DF}, "lodsd": {r: DF}, "lodsq": {r: DF},
	"insb": {r: DF}, "insw": {r: DF}, "insd": {r: DF}, "outsb": {r: DF}, "outsw": {r: DF}, "outsd": {r: DF},
	"cmpsb": {r: DF, w: AllArith}, "cmpsw": {r: DF, w: AllArith}, "cmpsq": {r: DF, w: AllArith},
	"scasb": {r: DF, w: AllArith}, "scasw": {r: DF, w: AllArith}, "scasd": {r: DF, w: AllArith},
	"scasq": {r: DF, w: AllArith},
	"loope": {r: ZF}, "loopne": {r: ZF},
}

// conditionFlags gives the flags a condition code reads.
var conditionFlags = map[string]Flag{
	"o": OF, "no": OF, "b": CF, "nae": CF, "c": CF, "ae": CF, "nb": CF, "nc": CF,
	"e": ZF, "z": ZF, "ne": ZF, "nz": ZF, "be": CF | ZF, "na": CF | ZF, "a": CF | ZF, "nbe": CF | ZF,
	"s": SF, "ns": SF, "p": PF, "pe": PF, "np": PF, "po": PF,
	"l": SF | OF, "nge": SF | OF, "ge": SF | OF, "nl": SF | OF,
	"le": ZF | SF | OF, "ng": ZF | SF | OF, "g": ZF | SF | OF, "nle": ZF | SF | OF,
	// fcmov's conditions.
	"u": PF, "nu": PF,
}

// condition returns the condition code of a cmovcc/setcc/jcc/fcmovcc
// mnemonic, or "".
func condition(mn string) string {
	for _, p := range []string{"fcmov", "cmov", "set", "j"} {
		if strings.HasPrefix(mn, p) {
			c := mn[len(p):]
			if _, ok := conditionFlags[c]; ok && (p != "j" || c != "mp") {
				return c
			}
		}
	}
	return ""
}

func flagsFor(f *Form) flagSem {
	mn := f.Mnemonic
	if i := strings.IndexByte(mn, ' '); i >= 0 { // rep movsb
		mn = mn[i+1:]
	}
	if c := condition(mn); c != "" {
		return flagSem{r: conditionFlags[c]}
	}
	if mn == "cmpsd" && len(f.Operands) == 0 {
		return flagSem{r: DF, w: AllArith}
	}
	if mn == "movsd" && len(f.Operands) == 0 {
		return flagSem{r: DF}
	}
	if strings.HasPrefix(mn, "kortest") || strings.HasPrefix(mn, "ktest") {
		return flagSem{w: AllArith}
	}
	var count Kind
	if len(f.Operands) == 2 {
		count = f.Operands[1].Kind
	}
	switch mn {
	case "shl", "shr", "sar":
		switch count {
		case KindConst1:
			return flagSem{w: AllArith, u: AF}
		case "cl":
			return flagSem{r: AllArith, w: AllArith, u: AF | OF}
		}
		return flagSem{w: AllArith, u: AF | OF}
	case "rol", "ror":
		switch count {
		case KindConst1:
			return flagSem{w: CF | OF}
		case "cl":
			return flagSem{r: CF | OF, w: CF | OF, u: OF}
		}
		return flagSem{w: CF | OF, u: OF}
	case "rcl", "rcr":
		if count == "cl" {
			return flagSem{r: CF | OF, w: CF | OF, u: OF}
		}
		if count == KindConst1 {
			return flagSem{r: CF, w: CF | OF}
		}
	case "shld", "shrd":
		if len(f.Operands) == 3 && f.Operands[2].Kind == "cl" {
			return flagSem{r: AllArith, w: AllArith, u: AF | OF}
		}
	}
	return mnemonicFlags[mn]
}

// accessFixes replaces the table's access strings by mnemonic.
var accessFixes = map[string]string{
	"sbb": "rw,r", "xchg": "rw,rw", "xadd": "rw,rw",
	"bsf": "rcw,r", "bsr": "rcw,r",
	"shl": "rw,r", "shr": "rw,r", "sar": "rw,r", "rol": "rw,r", "ror": "rw,r", "rcl": "rw,r", "rcr": "rw,r",
	"shld": "rw,r,r", "shrd": "rw,r,r",
	"pop": "w", "push": "r",
}

// sseMergeScalar lists legacy-SSE instructions that write only part of their
// xmm destination (the low element or a lane) and keep the rest: the
// destination is an input too.
var sseMergeScalar = setOf("addss", "addsd", "subss", "subsd", "mulss", "mulsd", "divss", "divsd",
	"minss", "minsd", "maxss", "maxsd", "sqrtss", "sqrtsd", "rcpss", "rsqrtss", "roundss", "roundsd",
	"cvtsi2ss", "cvtsi2sd", "cvtss2sd", "cvtsd2ss", "cmpss", "cmpsd", "movlps", "movhps", "movlpd",
	"movhpd", "pinsrb", "pinsrw", "pinsrd", "pinsrq", "insertps", "movhlps", "movlhps")

func fixAccess(f *Form) {
	mn := f.Mnemonic
	if s, ok := accessFixes[mn]; ok && len(strings.Split(s, ",")) == len(f.Operands) {
		setAccess(f, s)
	}
	switch {
	case strings.HasPrefix(mn, "cmov") || strings.HasPrefix(mn, "fcmov"):
		setAccess(f, "rcw,r")
	case strings.HasPrefix(mn, "set") && condition(mn) != "":
		setAccess(f, "w")
	case (mn == "mul" || mn == "imul" || mn == "div" || mn == "idiv") && len(f.Operands) == 1:
		setAccess(f, "r")
	case mn == "imul" && len(f.Operands) == 3:
		setAccess(f, "w,r,r")
	case (mn == "movss" || mn == "movsd") && len(f.Operands) == 2 &&
		f.Operands[0].Kind == KindXMM && f.Operands[1].Kind == KindXMM:
		// The register form merges: the destination keeps its upper part.
		setAccess(f, "rw,r")
	case f.Encoding == Legacy && sseMergeScalar[mn] && len(f.Operands) > 0 &&
		(f.Operands[0].Kind == KindXMM || f.Operands[0].Kind == KindMM):
		f.Operands[0].Access |= Read
	case maskedStores[mn] && len(f.Operands) > 0 && f.Operands[0].Kind.IsMemory():
		// Only the elements selected by the mask are stored.
		f.Operands[0].Access = CondWrite
	}
}

// maskedStores store only the elements a vector mask selects.
var maskedStores = setOf("vmaskmovps", "vmaskmovpd", "vpmaskmovd", "vpmaskmovq")

func setAccess(f *Form, s string) {
	parts := strings.Split(s, ",")
	if len(parts) != len(f.Operands) {
		return
	}
	for i, p := range parts {
		f.Operands[i].Access = parseAccess(p)
	}
}

// accumulator returns the accumulator register of a size in bits.
func accumulator(bits int) string {
	return map[int]string{8: "al", 16: "ax", 32: "eax", 64: "rax"}[bits]
}

// dataReg returns rdx at a size (dl is never used).
func dataReg(bits int) string {
	return map[int]string{16: "dx", 32: "edx", 64: "rdx"}[bits]
}

// kindBits returns the width in bits of a sized GPR or memory kind.
func kindBits(k Kind) int {
	switch k {
	case KindR8, KindM8, "al", "cl":
		return 8
	case KindR16, KindM16, "ax", "dx":
		return 16
	case KindR32, KindM32, "eax":
		return 32
	case KindR64, KindM64, "rax":
		return 64
	}
	return 0
}

// implicitRegs lists the registers a form reads and writes without naming
// them, by mnemonic (size-dependent ones are computed in implicitFor).
var implicitRegs = map[string][2][]string{
	"cbw": {{"al"}, {"ax"}}, "cwde": {{"ax"}, {"eax"}}, "cdqe": {{"eax"}, {"rax"}},
	"cwd": {{"ax"}, {"dx"}}, "cdq": {{"eax"}, {"edx"}}, "cqo": {{"rax"}, {"rdx"}},
	"cmpxchg8b":  {{"eax", "edx", "ebx", "ecx"}, {"eax", "edx"}},
	"cmpxchg16b": {{"rax", "rdx", "rbx", "rcx"}, {"rax", "rdx"}},
	"cpuid":      {{"eax", "ecx"}, {"eax", "ebx", "ecx", "edx"}},
	"rdtsc":      {nil, {"eax", "edx"}}, "rdtscp": {nil, {"eax", "edx", "ecx"}},
	"rdpmc": {{"ecx"}, {"eax", "edx"}}, "rdmsr": {{"ecx"}, {"eax", "edx"}}, "wrmsr": {{"ecx", "eax", "edx"}, nil},
	"xgetbv": {{"ecx"}, {"eax", "edx"}}, "xsetbv": {{"ecx", "eax", "edx"}, nil},
	"rdpkru": {{"ecx"}, {"eax", "edx"}}, "wrpkru": {{"eax", "ecx", "edx"}, nil},
	"monitor": {{"rax", "ecx", "edx"}, nil}, "mwait": {{"eax", "ecx"}, nil},
	"lahf": {nil, {"ah"}}, "sahf": {{"ah"}, nil},
	"loop": {{"rcx"}, {"rcx"}}, "loope": {{"rcx"}, {"rcx"}}, "loopne": {{"rcx"}, {"rcx"}},
	"jrcxz": {{"rcx"}, nil}, "jecxz": {{"ecx"}, nil},
	"xlatb":      {{"al", "rbx"}, {"al"}},
	"maskmovdqu": {{"rdi"}, nil}, "vmaskmovdqu": {{"rdi"}, nil}, "maskmovq": {{"rdi"}, nil},
	"pcmpestri": {{"eax", "edx"}, {"ecx"}}, "vpcmpestri": {{"eax", "edx"}, {"ecx"}},
	"pcmpestrm": {{"eax", "edx"}, {"xmm0"}}, "vpcmpestrm": {{"eax", "edx"}, {"xmm0"}},
	"pcmpistri": {nil, {"ecx"}}, "vpcmpistri": {nil, {"ecx"}},
	"pcmpistrm": {nil, {"xmm0"}}, "vpcmpistrm": {nil, {"xmm0"}},
	"xsave": {{"eax", "edx"}, nil}, "xsave64": {{"eax", "edx"}, nil}, "xsavec": {{"eax", "edx"}, nil},
	"xsavec64": {{"eax", "edx"}, nil}, "xsaveopt": {{"eax", "edx"}, nil}, "xsaveopt64": {{"eax", "edx"}, nil},
	"xsaves": {{"eax", "edx"}, nil}, "xsaves64": {{"eax", "edx"}, nil},
	"xrstor": {{"eax", "edx"}, nil}, "xrstor64": {{"eax", "edx"}, nil},
	"xrstors": {{"eax", "edx"}, nil}, "xrstors64": {{"eax", "edx"}, nil},
	"ldmxcsr": {nil, {"mxcsr"}}, "vldmxcsr": {nil, {"mxcsr"}}, "stmxcsr": {{"mxcsr"}, nil}, "vstmxcsr": {{"mxcsr"}, nil},
	"syscall": {{"rax"}, {"rcx", "r11"}}, "sysret": {{"rcx", "r11"}, nil},
	"enter": {{"rsp", "rbp"}, {"rsp", "rbp"}}, "leave": {{"rbp"}, {"rsp", "rbp"}},
	"push": {{"rsp"}, {"rsp"}}, "pop": {{"rsp"}, {"rsp"}},
	"pushf": {{"rsp"}, {"rsp"}}, "pushfq": {{"rsp"}, {"rsp"}}, "popf": {{"rsp"}, {"rsp"}}, "popfq": {{"rsp"}, {"rsp"}},
	"call": {{"rsp"}, {"rsp"}}, "ret": {{"rsp"}, {"rsp"}}, "retf": {{"rsp"}, {"rsp"}},
	"iret": {{"rsp"}, {"rsp"}}, "iretd": {{"rsp"}, {"rsp"}}, "iretq": {{"rsp"}, {"rsp"}},
	"movsb": {{"rsi", "rdi"}, {"rsi", "rdi"}}, "movsw": {{"rsi", "rdi"}, {"rsi", "rdi"}},
	"movsq": {{"rsi", "rdi"}, {"rsi", "rdi"}},
	"cmpsb": {{"rsi", "rdi"}, {"rsi", "rdi"}}, "cmpsw": {{"rsi", "rdi"}, {"rsi", "rdi"}},
	"cmpsq": {{"rsi", "rdi"}, {"rsi", "rdi"}},
	"stosb": {{"al", "rdi"}, {"rdi"}}, "stosw": {{"ax", "rdi"}, {"rdi"}}, "stosd": {{"eax", "rdi"}, {"rdi"}},
	"stosq": {{"rax", "rdi"}, {"rdi"}},
	"lodsb": {{"rsi"}, {"al", "rsi"}}, "lodsw": {{"rsi"}, {"ax", "rsi"}}, "lodsd": {{"rsi"}, {"eax", "rsi"}},
	"lodsq": {{"rsi"}, {"rax", "rsi"}},
	"scasb": {{"al", "rdi"}, {"rdi"}}, "scasw": {{"ax", "rdi"}, {"rdi"}}, "scasd": {{"eax", "rdi"}, {"rdi"}},
	"scasq": {{"rax", "rdi"}, {"rdi"}},
	"insb":  {{"dx", "rdi"}, {"rdi"}}, "insw": {{"dx", "rdi"}, {"rdi"}}, "insd": {{"dx", "rdi"}, {"rdi"}},
	"outsb": {{"dx", "rsi"}, {"rsi"}}, "outsw": {{"dx", "rsi"}, {"rsi"}}, "outsd": {{"dx", "rsi"}, {"rsi"}},
}

// vzeroRegs lists ymm0-ymm15, written by vzeroupper and vzeroall.
var vzeroRegs = func() []string {
	r := make([]string, 16)
	for i := range r {
		r[i] = "ymm" + strconv.Itoa(i)
	}
	return r
}()

// implicitFor returns a form's implicit register reads and writes, without
// the fixed-register operands.
func implicitFor(f *Form) (reads, writes []string) {
	mn := f.Mnemonic
	rep := false
	if i := strings.IndexByte(mn, ' '); i >= 0 {
		rep, mn = true, mn[i+1:]
	}
	ops := f.Operands
	switch {
	case (mn == "mul" || mn == "imul") && len(ops) == 1:
		n := kindBits(ops[0].Kind)
		if n == 8 {
			return []string{"al"}, []string{"ax"}
		}
		return []string{accumulator(n)}, []string{accumulator(n), dataReg(n)}
	case (mn == "div" || mn == "idiv") && len(ops) == 1:
		n := kindBits(ops[0].Kind)
		if n == 8 {
			return []string{"ax"}, []string{"ax"}
		}
		return []string{accumulator(n), dataReg(n)}, []string{accumulator(n), dataReg(n)}
	case mn == "cmpxchg" && len(ops) == 2:
		a := accumulator(kindBits(ops[1].Kind))
		return []string{a}, []string{a}
	case mn == "mulx" && len(ops) == 3:
		return []string{dataReg(kindBits(ops[0].Kind))}, nil
	case mn == "vzeroupper" || mn == "vzeroall":
		return nil, vzeroRegs
	case mn == "movsd" && len(ops) == 0:
		reads, writes = []string{"rsi", "rdi"}, []string{"rsi", "rdi"}
	case mn == "cmpsd" && len(ops) == 0:
		reads, writes = []string{"rsi", "rdi"}, []string{"rsi", "rdi"}
	default:
		if (mn == "movsd" || mn == "cmpsd") && len(ops) > 0 {
			return nil, nil
		}
		r := implicitRegs[mn]
		reads, writes = r[0], r[1]
	}
	if rep {
		reads = append(append([]string(nil), reads...), "rcx")
		writes = append(append([]string(nil), writes...), "rcx")
	}
	return reads, writes
}

// fixedRegisterKinds are operand kinds that name one register.
var fixedRegisterKinds = setOf("al", "ax", "eax", "rax", "cl", "dx", "xmm0")

// applyOverrides fills in implicit registers and flags and fixes access.
func applyOverrides(f *Form) {
	fixAccess(f)
	reads, writes := implicitFor(f)
	f.ImplicitReads = append([]string(nil), reads...)
	f.ImplicitWrites = append([]string(nil), writes...)
	for _, op := range f.Operands {
		k := string(op.Kind)
		if !fixedRegisterKinds[k] {
			continue
		}
		if op.Access&Read != 0 || op.Access&CondWrite != 0 {
			f.ImplicitReads = appendUnique(f.ImplicitReads, k)
		}
		if op.Access&(Write|CondWrite) != 0 {
			f.ImplicitWrites = appendUnique(f.ImplicitWrites, k)
		}
	}
	if len(f.ImplicitReads) == 0 {
		f.ImplicitReads = nil
	}
	if len(f.ImplicitWrites) == 0 {
		f.ImplicitWrites = nil
	}
	fs := flagsFor(f)
	f.FlagsRead, f.FlagsWritten, f.FlagsUndefined = fs.r, fs.w|fs.u, fs.u
	if feats, ok := featureFixes[f.Mnemonic]; ok {
		f.Features = feats
	}
}

// featureFixes corrects CPUID features the x86 table gets wrong: it files
// AMD's SSE4a non-temporal scalar stores under plain SSE, and a host
// without SSE4a (every Intel core) raises #UD on them.
var featureFixes = map[string][]string{
	"movntsd": {"sse4a"},
	"movntss": {"sse4a"},
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// RegFamily returns the 64-bit general-purpose register that contains a
// register ("cl" -> "rcx", "r8d" -> "r8", "eax" -> "rax"), the zmm register
// that contains an xmm or ymm register ("xmm3" -> "zmm3"), and other names
// unchanged.
func RegFamily(r string) string {
	r = strings.ToLower(r)
	switch r {
	case "al", "ah", "ax", "eax", "rax":
		return "rax"
	case "bl", "bh", "bx", "ebx", "rbx":
		return "rbx"
	case "cl", "ch", "cx", "ecx", "rcx":
		return "rcx"
	case "dl", "dh", "dx", "edx", "rdx":
		return "rdx"
	case "sil", "si", "esi", "rsi":
		return "rsi"
	case "dil", "di", "edi", "rdi":
		return "rdi"
	case "spl", "sp", "esp", "rsp":
		return "rsp"
	case "bpl", "bp", "ebp", "rbp":
		return "rbp"
	}
	if strings.HasPrefix(r, "r") && len(r) >= 2 && r[1] >= '0' && r[1] <= '9' {
		return strings.TrimRight(r, "bwd")
	}
	if strings.HasPrefix(r, "xmm") || strings.HasPrefix(r, "ymm") {
		return "zmm" + r[3:]
	}
	return r
}

// repForms lists the rep-prefixed string operations the x86 table lacks:
// mnemonic, AT&T spelling.
var repForms = [][2]string{
	{"rep movsb", "rep movsb"}, {"rep movsw", "rep movsw"}, {"rep movsd", "rep movsl"}, {"rep movsq", "rep movsq"},
	{"rep stosb", "rep stosb"}, {"rep stosw", "rep stosw"}, {"rep stosd", "rep stosl"}, {"rep stosq", "rep stosq"},
	{"rep lodsb", "rep lodsb"}, {"rep lodsq", "rep lodsq"},
	{"repe cmpsb", "repe cmpsb"}, {"repe cmpsq", "repe cmpsq"}, {"repne cmpsb", "repne cmpsb"},
	{"repe scasb", "repe scasb"}, {"repe scasq", "repe scasq"}, {"repne scasb", "repne scasb"},
	{"repne scasq", "repne scasq"},
}

// avx2Shifts are the AVX2 ymm shifts the x86 table lacks; they are made
// from the table's xmm forms.
var avx2Shifts = []string{"vpslld", "vpsllq", "vpsrld", "vpsrlq"}

// extraForms returns the forms the catalog adds besides the table and EVEX.
func extraForms() []*Form {
	var out []*Form
	for _, mn := range avx2Shifts {
		for _, src := range []string{"imm8", "xmm", "m128"} {
			r, ok := lookupCSV(mn + " xmm, xmm, " + src)
			if !ok {
				continue
			}
			f := formFromCSV(r)
			if _, dup := lookupCSV(mn + " ymm, ymm, " + src); dup {
				continue
			}
			f.Operands[0].Kind, f.Operands[1].Kind = KindYMM, KindYMM
			f.Opcode = strings.Replace(f.Opcode, ".128.", ".256.", 1)
			f.Features = []string{"avx2"}
			out = append(out, f)
		}
	}
	for _, r := range repForms {
		op := ""
		switch r[0][:strings.IndexByte(r[0], ' ')] {
		case "rep":
			op = "F3"
		case "repe":
			op = "F3"
		case "repne":
			op = "F2"
		}
		base := r[0][strings.IndexByte(r[0], ' ')+1:]
		if f, ok := lookupCSV(base); ok {
			op += " " + f.opcode
		}
		out = append(out, &Form{Mnemonic: r[0], GNU: r[1], Opcode: op})
	}
	return out
}

// lookupCSV finds a table row by name (binary search; the table is sorted).
func lookupCSV(name string) (*csvForm, bool) {
	lo, hi := 0, len(csvForms)
	for lo < hi {
		m := (lo + hi) / 2
		if csvForms[m].name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(csvForms) && csvForms[lo].name == name {
		return &csvForms[lo], true
	}
	return nil, false
}
