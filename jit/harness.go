package jit

import (
	"fmt"
	"regexp"
	"strings"
)

// Frame says how generated harness code sets up the machine around a body.
// The harness is a function called through the trampoline: it loads every
// register from the context block, reads the TSC, runs the body in a loop of
// ctx.LoopCount iterations, reads the TSC again and stores both stamps.
type Frame struct {
	LoopReg string // 64-bit general register counting loop iterations ("r8")
	// VecWidth is the width at which vector registers are initialised: 0 for
	// legacy SSE (after vzeroupper, upper halves clean), 16 for VEX xmm, 32
	// for ymm, 64 for zmm (registers 0-31).
	VecWidth int
	HasAVX   bool // vzeroupper is available
	Masks    bool // initialise k1-k7 (needs avx512f)
	MasksQ   bool // kmovq is available (avx512bw); else kmovw
	MXCSR    bool // load ctx MXCSR before the body (FTZ/DAZ by default)
	// MMX initialises mm0-mm7 from the vector context (after emms), for
	// snippets that use them: otherwise they hold whatever the process's
	// x87 state left there.
	MMX bool
	// Reset lists 64-bit registers reloaded from the context at the start of
	// every loop iteration (inside the timed region: the cost is the same at
	// both body lengths and cancels in the differential), so that pointers a
	// kernel advances cannot run out of the scratch memory.
	Reset []string
	// Warm is the vector width in bytes of the licence warm-up run before
	// the set-up: 32 (256-bit) or 64 (512-bit, needs avx512f) multiplies
	// at full throughput for WarmCycles, so that every function of a job
	// of such code (calibration and canaries included) runs in the
	// frequency licence the job's snippets put the core in; 0 for none.
	Warm int
}

// WarmCycles is about how long a warm-up (Frame.Warm) runs: eight
// independent multiply chains for WarmCycles/4 iterations at two a cycle.
// With the calibration chain's core clock and the snippet's apart (a
// licence step of 7.8 % on the Granite Rapids guest), 512-bit load-op
// streams read 0.50 or 0.58-0.59 cycles from job to job and 256-bit FP
// load-ops 0.50, 0.54 or 0.59. A warm-up of 1,000 cycles left the 512-bit
// ones bimodal; 2,000 and more did not.
const WarmCycles = 4096

var gprNames = [16]string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}

// GPRNumber returns the x86 register number of a 64-bit general register name, or -1.
func GPRNumber(name string) int {
	name = strings.ToLower(strings.TrimPrefix(name, "%"))
	for i, n := range gprNames {
		if n == name {
			return i
		}
	}
	return -1
}

// GPRName returns the name of 64-bit general register number n.
func GPRName(n int) string { return gprNames[n] }

// Marks defined by every harness function, with UnitToken.
const (
	markBody    = "__portlab_body" + UnitToken
	markBodyEnd = "__portlab_bodyend" + UnitToken
)

// HarnessSource returns a function that runs body copies times per loop
// iteration. body is Intel syntax unless att is set. The returned unit
// defines markBody and markBodyEnd around the first copy of the body... and
// the whole loop body respectively.
func HarnessSource(f Frame, body string, att bool, copies int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w(".intel_syntax noprefix")
	w("mov rax, [rsp+8]")
	if f.MXCSR {
		w("ldmxcsr [rax+%d]", ctxMXCSR)
	}
	if f.Warm == 32 || f.Warm == 64 {
		reg := "ymm"
		if f.Warm == 64 {
			reg = "zmm"
		}
		for i := 0; i < 8; i++ {
			w("vpxor ymm%d, ymm%d, ymm%d", i, i, i) // zeroes the zmm register too
		}
		w("mov ecx, %d", WarmCycles/4)
		w("__portlab_warm%s:", UnitToken)
		for i := 0; i < 8; i++ {
			w("vmulpd %s%d, %s%d, %s%d", reg, i, reg, i, reg, i)
		}
		w("dec ecx")
		w("jnz __portlab_warm%s", UnitToken)
	}
	switch {
	case f.VecWidth == 64:
		for i := 0; i < 32; i++ {
			w("vmovdqu64 zmm%d, [rax+%d]", i, ctxVec+64*i)
		}
	case f.VecWidth == 32:
		for i := 0; i < 16; i++ {
			w("vmovdqu ymm%d, [rax+%d]", i, ctxVec+64*i)
		}
	case f.VecWidth == 16:
		if f.HasAVX {
			w("vzeroupper")
		}
		for i := 0; i < 16; i++ {
			w("vmovdqu xmm%d, [rax+%d]", i, ctxVec+64*i)
		}
	default:
		if f.HasAVX {
			w("vzeroupper")
		}
		for i := 0; i < 16; i++ {
			w("movdqu xmm%d, [rax+%d]", i, ctxVec+64*i)
		}
	}
	if f.MMX {
		w("emms")
		for i := 0; i < 8; i++ {
			w("movq mm%d, [rax+%d]", i, ctxVec+64*i)
		}
	}
	if f.Masks {
		for i := 1; i < 8; i++ {
			if f.MasksQ {
				w("kmovq k%d, [rax+%d]", i, ctxK+8*i)
			} else {
				w("kmovw k%d, [rax+%d]", i, ctxK+8*i)
			}
		}
	}
	for i, n := range gprNames {
		if i == 0 || i == 2 || i == 4 || n == f.LoopReg {
			continue
		}
		w("mov %s, [rax+%d]", n, ctxGPR+8*i)
	}
	w("mov %s, [rax+%d]", f.LoopReg, ctxLoopCount)
	w("lfence")
	w("rdtsc")
	w("shl rdx, 32")
	w("or rdx, rax")
	w("mov rax, [rsp+8]")
	w("mov [rax+%d], rdx", ctxTStart)
	w("mov rdx, [rax+%d]", ctxGPR+8*2)
	w("mov rax, [rax+%d]", ctxGPR)
	w(".p2align 6")
	w("__portlab_loop%s:", UnitToken)
	for _, r := range f.Reset {
		if n := GPRNumber(r); n >= 0 && n != 4 && r != f.LoopReg {
			w("mov %s, [rsp+8]", r)
			w("mov %s, [%s+%d]", r, r, ctxGPR+8*n)
		}
	}
	w("%s:", markBody)
	if att {
		w(".att_syntax")
	}
	if copies > 1 {
		w(".rept %d", copies)
	}
	b.WriteString(strings.TrimRight(body, "\n"))
	b.WriteString("\n")
	if copies > 1 {
		w(".endr")
	}
	w(".intel_syntax noprefix")
	w("%s:", markBodyEnd)
	w("dec %s", f.LoopReg)
	w("jnz __portlab_loop%s", UnitToken)
	w("lfence")
	w("rdtsc")
	w("shl rdx, 32")
	w("or rdx, rax")
	w("mov rax, [rsp+8]")
	w("mov [rax+%d], rdx", ctxTEnd)
	// Leave MMX state: an x87/MMX transition must not land in the next
	// function's timed region.
	w("emms")
	// The frequency probe: a fixed chain of TailAdds dependent adds per
	// iteration, timed right after the body, in whatever frequency state the
	// body left the core (AVX-512 licences, turbo steps). Comparing it with
	// the same probe after the calibration chain corrects the calibration
	// for this function's clock.
	w("mov rcx, [rax+%d]", ctxTailIters)
	w("test rcx, rcx")
	w("jz __portlab_tailend%s", UnitToken)
	w("lfence")
	w("rdtsc")
	w("shl rdx, 32")
	w("or rdx, rax")
	w("mov rsi, rdx")
	w(".p2align 5")
	w("__portlab_tail%s:", UnitToken)
	w(".rept %d", TailAdds)
	w("add rax, rax")
	w(".endr")
	w("dec rcx")
	w("jnz __portlab_tail%s", UnitToken)
	w("lfence")
	w("rdtsc")
	w("shl rdx, 32")
	w("or rdx, rax")
	w("sub rdx, rsi")
	w("mov rax, [rsp+8]")
	w("mov [rax+%d], rdx", ctxTailTicks)
	w("__portlab_tailend%s:", UnitToken)
	if f.HasAVX {
		w("vzeroupper")
	}
	w("ret")
	return b.String()
}

// TailAdds is the number of dependent adds per iteration of the frequency
// probe that ends every harness function.
const TailAdds = 64

// ProbeSource returns the snippet with a label on every line, so one
// assembly gives the snippet's bytes and the offset of each source line.
// Line numbers are unchanged (the labels share the lines).
func ProbeSource(body string) string {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		if isContinuation(l) {
			b.WriteString(l)
		} else {
			fmt.Fprintf(&b, "%s: %s", probeMark(i+1), l)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s:\n", probeMark(len(lines)+1))
	return b.String()
}

func isContinuation(l string) bool {
	t := strings.TrimSpace(l)
	// Labels inside .rept/.macro blocks would be defined twice.
	return strings.HasPrefix(t, ".rept") || strings.HasPrefix(t, ".endr") || strings.HasPrefix(t, ".irp") ||
		strings.HasPrefix(t, ".macro") || strings.HasPrefix(t, ".endm")
}

func probeMark(line int) string { return fmt.Sprintf("__portlab_l%s_%d", UnitToken, line) }

// ProbeMarks returns the marks ProbeSource defines for a body of n lines.
func ProbeMarks(n int) []string {
	m := make([]string, n+1)
	for i := range m {
		m[i] = probeMark(i + 1)
	}
	return m
}

var regMention = regexp.MustCompile(`(?i)\b%?(r(?:[89]|1[0-5])[dwb]?|[re]?[abcd]x|[abcd][lh]|[re]?(?:si|di|bp|sp)|(?:si|di|bp|sp)l)\b`)

// MentionedGPRs returns the 64-bit general registers whose any part is named in src.
func MentionedGPRs(src string) map[string]bool {
	out := map[string]bool{}
	for _, m := range regMention.FindAllStringSubmatch(stripComments(src), -1) {
		out[GPR64(m[1])] = true
	}
	return out
}

// stripComments removes GNU as '#' comments ("//" and "/* */" are rare in
// snippets and harmless to over-read).
func stripComments(src string) string {
	var b strings.Builder
	for _, l := range strings.Split(src, "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// GPR64 returns the 64-bit register a general register name is part of
// ("eax" -> "rax", "r9b" -> "r9", "%sil" -> "rsi"), or "" for other names.
func GPR64(r string) string {
	r = strings.ToLower(strings.TrimPrefix(r, "%"))
	switch {
	case strings.HasPrefix(r, "r") && len(r) >= 2 && r[1] >= '0' && r[1] <= '9':
		return strings.TrimRight(r, "dwb")
	}
	base := map[string]string{
		"al": "rax", "ah": "rax", "ax": "rax", "eax": "rax", "rax": "rax",
		"bl": "rbx", "bh": "rbx", "bx": "rbx", "ebx": "rbx", "rbx": "rbx",
		"cl": "rcx", "ch": "rcx", "cx": "rcx", "ecx": "rcx", "rcx": "rcx",
		"dl": "rdx", "dh": "rdx", "dx": "rdx", "edx": "rdx", "rdx": "rdx",
		"sil": "rsi", "si": "rsi", "esi": "rsi", "rsi": "rsi",
		"dil": "rdi", "di": "rdi", "edi": "rdi", "rdi": "rdi",
		"bpl": "rbp", "bp": "rbp", "ebp": "rbp", "rbp": "rbp",
		"spl": "rsp", "sp": "rsp", "esp": "rsp", "rsp": "rsp",
	}
	return base[r]
}

// PickLoopRegister returns the first of r8..r15, rbx, rsi, rdi, rbp, rcx not
// mentioned in src.
func PickLoopRegister(src string) (string, error) {
	used := MentionedGPRs(src)
	for _, r := range []string{"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rbx", "rsi", "rdi", "rbp", "rcx"} {
		if !used[r] {
			return r, nil
		}
	}
	return "", fmt.Errorf("no free general register for the loop counter (name one with LLVM-EXEGESIS-LOOP-REGISTER)")
}

var (
	zmmMention = regexp.MustCompile(`(?i)\b%?(zmm\d+|[xy]mm(1[6-9]|2\d|3[01])|k[1-7])\b|\{k[1-7]\}|\{%k[1-7]\}|\{evex\}`)
	ymmMention = regexp.MustCompile(`(?i)\b%?ymm\d+\b`)
	mmxMention = regexp.MustCompile(`(?i)(^|[^xyz%\w])%?mm[0-7]\b`)
	vexMention = regexp.MustCompile(`(?im)^\s*(?:[A-Za-z_.$0-9]+:\s*)*(?:\{vex\}\s*)?v[a-z0-9]+\b`)
)

// UsesMMX reports whether assembly source names an MMX register (see
// Frame.MMX).
func UsesMMX(src string) bool { return mmxMention.MatchString(stripComments(src)) }

// VectorWidth guesses from the snippet text the widest vector width it uses,
// to initialise vector registers at that width (see Frame.VecWidth): dirty
// upper halves slow legacy SSE code on some cores.
func VectorWidth(src string) int {
	s := stripComments(src)
	switch {
	case zmmMention.MatchString(s):
		return 64
	case ymmMention.MatchString(s):
		return 32
	case vexMention.MatchString(s):
		return 16
	}
	return 0
}
