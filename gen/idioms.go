package gen

import (
	"fmt"

	"portlab/isa"
)

// Mnemonics whose same-register form may be recognised as a zero idiom
// (result 0 whatever the input), a ones idiom (all ones), and register moves
// that may be eliminated at rename.
var (
	zeroIdioms = setOf("xor", "sub", "sbb", "pxor", "vpxor", "vpxord", "vpxorq", "xorps", "xorpd", "vxorps", "vxorpd",
		"psubb", "psubw", "psubd", "psubq", "vpsubb", "vpsubw", "vpsubd", "vpsubq",
		"pcmpgtb", "pcmpgtw", "pcmpgtd", "pcmpgtq", "vpcmpgtb", "vpcmpgtw", "vpcmpgtd", "vpcmpgtq",
		"andnps", "andnpd", "vandnps", "vandnpd", "pandn", "vpandn")
	onesIdioms = setOf("pcmpeqb", "pcmpeqw", "pcmpeqd", "pcmpeqq", "vpcmpeqb", "vpcmpeqw", "vpcmpeqd", "vpcmpeqq")
	moves      = setOf("mov", "movaps", "movapd", "movups", "movupd", "movdqa", "movdqu", "vmovaps", "vmovapd",
		"vmovups", "vmovupd", "vmovdqa", "vmovdqu", "vmovdqa32", "vmovdqa64", "vmovdqu8", "vmovdqu16", "vmovdqu32", "vmovdqu64",
		"movzx", "movq")
)

func setOf(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// sameClassRegs reports whether every operand is a register of one kind,
// with no masking, and returns the class.
func sameClassRegs(f *isa.Form) (string, bool) {
	if len(f.Operands) < 2 {
		return "", false
	}
	k := f.Operands[0].Kind
	for _, op := range f.Operands {
		if op.Kind != k || op.Masked {
			return "", false
		}
	}
	c := class(k)
	return c, isReg(c)
}

// IsIdiomCandidate reports whether the form's same-register variant may be
// a zero or ones idiom.
func IsIdiomCandidate(f *isa.Form) bool {
	_, ok := sameClassRegs(f)
	return ok && (zeroIdioms[f.Mnemonic] || onesIdioms[f.Mnemonic])
}

// IsMoveCandidate reports whether the form is a register-to-register move
// that may be eliminated at rename.
func IsMoveCandidate(f *isa.Form) bool {
	if len(f.Operands) != 2 || !moves[f.Mnemonic] {
		return false
	}
	d, s := f.Operands[0], f.Operands[1]
	if d.Masked || class(d.Kind) != class(s.Kind) || !isReg(class(d.Kind)) {
		return false
	}
	// movzx r32, r8 is eliminated on some cores; other widening moves and
	// partial-register writes are not moves of the whole register.
	if f.Mnemonic == "movzx" {
		return d.Kind == isa.KindR32 && s.Kind == isa.KindR8
	}
	return d.Kind == s.Kind && d.Kind != isa.KindR8 && d.Kind != isa.KindR16
}

// Idioms returns the benchmarks that expose idioms and move elimination:
// for idiom candidates the same-register chain (a latency near zero means
// the form breaks the dependency) and same-register independent instances
// (faster than the form's ordinary throughput means it is eliminated at
// rename); for moves, a chain of two moves back and forth (well under a
// cycle per move means move elimination).
func Idioms(f *isa.Form) []*Bench {
	var out []*Bench
	if cls, ok := sameClassRegs(f); ok && IsIdiomCandidate(f) {
		a := newAllocator(f)
		regs := a.take(cls, poolSize(cls, a.vecs))
		if len(regs) > 0 {
			same := func(r string) []string {
				rs := make([]string, len(f.Operands))
				for i := range rs {
					rs[i] = r
				}
				return rs
			}
			line, err := instance(f, same(regs[0]), 0)
			if err == nil {
				s := newSnippet(f, "idiom latency", fmt.Sprintf("same-register chain of %s: near zero if it breaks the dependency", f.Name()), []string{line}, 1)
				out = append(out, &Bench{Form: f, Kind: KindIdiomLatency, Operands: "same", Snippet: s, Mode: "latency"})
			}
			var lines []string
			for k := 0; k < 2*len(regs); k++ {
				l, err := instance(f, same(regs[k%len(regs)]), 0)
				if err != nil {
					lines = nil
					break
				}
				lines = append(lines, l)
			}
			if lines != nil {
				s := newSnippet(f, "idiom throughput", fmt.Sprintf("same-register independent instances of %s: faster than its throughput if eliminated at rename", f.Name()), lines, len(lines))
				out = append(out, &Bench{Form: f, Kind: KindIdiomTP, Operands: "same", Snippet: s, Mode: "inverse_throughput"})
			}
		}
	}
	if IsMoveCandidate(f) {
		a := newAllocator(f)
		cls := class(f.Operands[0].Kind)
		r := a.take(cls, 2)
		if len(r) == 2 {
			l1, err1 := instance(f, []string{r[0], r[1]}, 0)
			l2, err2 := instance(f, []string{r[1], r[0]}, 0)
			if err1 == nil && err2 == nil {
				s := newSnippet(f, "move latency", fmt.Sprintf("move chain of %s back and forth: well under a cycle per move if moves are eliminated", f.Name()), []string{l1, l2}, 2)
				out = append(out, &Bench{Form: f, Kind: KindMoveLatency, Operands: "0<->1", Snippet: s, Mode: "latency"})
			}
		}
	}
	return out
}
