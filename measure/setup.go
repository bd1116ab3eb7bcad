package measure

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"portlab/jit"
)

var (
	memIntel = regexp.MustCompile(`\[([^\]]*)\]`)
	memATT   = regexp.MustCompile(`\(\s*(%[a-z0-9]+)?\s*(?:,\s*(%[a-z0-9]+)\s*)?(?:,\s*\d+\s*)?\)`)
	regWord  = regexp.MustCompile(`(?i)\b(r(?:[89]|1[0-5])d?|[re](?:ax|bx|cx|dx|si|di|bp|sp))\b`)
)

// memRegisters finds the general registers used as base and index in src.
func memRegisters(src string, att bool) (bases, indexes map[string]bool) {
	bases, indexes = map[string]bool{}, map[string]bool{}
	text := stripAll(src)
	if att {
		for _, m := range memATT.FindAllStringSubmatch(text, -1) {
			if m[1] != "" {
				bases[jit.GPR64(m[1][1:])] = true
			}
			if m[2] != "" {
				indexes[jit.GPR64(m[2][1:])] = true
			}
		}
		return
	}
	for _, m := range memIntel.FindAllStringSubmatch(text, -1) {
		// [base + index*scale + disp]: the first register without a scale is
		// the base, any other register an index ([rdi+rax] is base rdi,
		// index rax).
		haveBase := false
		for _, term := range strings.FieldsFunc(m[1], func(r rune) bool { return r == '+' || r == '-' }) {
			regs := regWord.FindAllString(term, -1)
			if len(regs) == 0 {
				continue
			}
			r := jit.GPR64(regs[0])
			if strings.Contains(term, "*") || haveBase {
				indexes[r] = true
				continue
			}
			bases[r] = true
			haveBase = true
		}
	}
	return
}

// memoryAccesses returns the lines of src that access memory: without lea
// (an address computed, never loaded) and nop (a memory operand for its
// length only).
func memoryAccesses(src string) string {
	var keep []string
	for _, line := range strings.Split(src, "\n") {
		f := strings.Fields(stripAll(line))
		if len(f) > 0 {
			m := strings.ToLower(f[0])
			if strings.HasPrefix(m, "lea") || strings.HasPrefix(m, "nop") {
				continue
			}
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}

var (
	vecMention  = regexp.MustCompile(`(?i)(^|[^\w])%?([xyz]?mm\d+|st(\(\d\))?)\b`)
	x87Mnemonic = regexp.MustCompile(`(?i)^f[a-z0-9]+$`)
	// memImplicit are mnemonics that touch memory with no operand saying
	// so: the stack, the string instructions.
	memImplicit = regexp.MustCompile(`(?i)^(push|pop|call|ret|enter|leave|(rep\w*\s+)?(movs|stos|lods|cmps|scas|ins|outs)[bwdq]?|xlatb?)`)
)

// judgedBy says which canaries beside the integer adds judge a snippet
// (docs/method.md, "Noise and how sure a result is"): the vector canary
// where it names a vector, MMX or x87 register or is an x87 instruction,
// the load canary where it touches memory (lea and nop do not).
func judgedBy(src string, att bool) (vec, mem bool) {
	for _, line := range strings.Split(stripAll(src), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		m := strings.ToLower(f[0])
		if strings.HasPrefix(m, "{") && len(f) > 1 { // {vex}, {evex}
			m = strings.ToLower(f[1])
		}
		if vecMention.MatchString(line) || x87Mnemonic.MatchString(m) {
			vec = true
		}
		if memImplicit.MatchString(strings.TrimSpace(line)) {
			mem = true
		}
	}
	acc := memoryAccesses(stripAll(src))
	if att {
		mem = mem || memATT.MatchString(acc)
	} else {
		mem = mem || memIntel.MatchString(acc)
	}
	return vec, mem
}

// loadedRegisters returns the general-purpose registers the snippet loads
// from memory (mov, movzx, movsx, movsxd with a memory source): an index
// or pointer chain through memory, which must carry from copy to copy.
func loadedRegisters(src string, att bool) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(stripAll(src), "\n") {
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) < 2 {
			continue
		}
		if !strings.HasPrefix(strings.ToLower(f[0]), "mov") { // vector moves fall out below: no GPR destination
			continue
		}
		ops := strings.Join(f[1:], " ")
		first, last, ok := strings.Cut(ops, ",")
		if !ok {
			continue
		}
		dst, srcOp := strings.TrimSpace(first), last
		if att {
			i := strings.LastIndex(ops, ",")
			dst, srcOp = strings.TrimPrefix(strings.TrimSpace(ops[i+1:]), "%"), ops[:i]
		}
		if !strings.ContainsAny(srcOp, "[(") {
			continue
		}
		if r := jit.GPR64(strings.ToLower(dst)); r != "" {
			out[r] = true
		}
	}
	return out
}

// Default register values: small, odd and non-zero, so that divisors are
// non-zero, shift counts are not zero, and RDX:RAX / r never overflows.
const defaultGPR = 0x13

// setup fills the machine state: defaults first, then the snippet's own
// annotations.
func (e *Engine) setup(p *prepared, o Options, in *jit.Init, regions *[]jit.Region) error {
	s := p.s
	for i := range in.GPR {
		in.GPR[i] = defaultGPR
	}
	in.GPR[2] = 0 // rdx: high half of dividends
	bases, indexes := memRegisters(s.Source, s.ATT)
	// Base registers point into the scratch buffer, each at its own 8 KiB
	// slot offset by a different multiple of 256 bytes, so that streams of
	// different bases never alias modulo 4 KiB. The buffer starts 64 KiB in
	// so negative displacements stay inside it.
	slot := 0
	for _, r := range sortedKeys(bases) {
		n := jit.GPRNumber(r)
		if n < 0 || n == 4 {
			continue
		}
		in.GPR[n] = uint64(64<<10 + slot*(8<<10) + slot*256)
		in.GPRScratch[n] = true
		slot++
	}
	for r := range indexes {
		if n := jit.GPRNumber(r); n >= 0 && !bases[r] {
			in.GPR[n] = 0
		}
	}
	for _, r := range s.LiveIns {
		n := jit.GPRNumber(r)
		in.GPR[n] = 0
		in.GPRScratch[n] = true
	}
	// Vector registers: 1.0 in the element type the snippet uses, so that
	// multiplies and divides stay put and nothing becomes denormal.
	pattern := vectorPattern(s.Source)
	if len(s.VectorFill) > 0 {
		pattern = s.VectorFill
	}
	for i := range in.Vec {
		for j := 0; j < 64; j += len(pattern) {
			copy(in.Vec[i][j:], pattern)
		}
	}
	for i := range in.K {
		in.K[i] = ^uint64(0)
	}
	in.MXCSR = 0x9fc0 // FTZ | DAZ | all exceptions masked: no denormal assists
	if o.NoFTZ {
		in.MXCSR = 0x1f80 // the default: all exceptions masked
	}
	in.ScratchSelf = s.ScratchSelf
	in.ScratchFill = s.ScratchFill
	for _, name := range s.sortedDefRegs() {
		v := s.DefRegs[name]
		lname := strings.ToLower(name)
		switch {
		case jit.GPRNumber(lname) >= 0:
			n := jit.GPRNumber(lname)
			if n == 4 {
				return fmt.Errorf("%s: LLVM-EXEGESIS-DEFREG cannot set RSP", s.Name)
			}
			in.GPR[n] = v.Uint64()
			in.GPRScratch[n] = false
		case vecReg.MatchString(name):
			m := vecReg.FindStringSubmatch(name)
			var idx int
			fmt.Sscanf(m[2], "%d", &idx)
			b := leBytes(v, 0)
			width := map[string]int{"X": 16, "Y": 32, "Z": 64}[m[1]]
			if len(b) > width {
				return fmt.Errorf("%s: LLVM-EXEGESIS-DEFREG %s: value wider than %d bytes", s.Name, name, width)
			}
			var row [64]byte
			copy(row[:], b)
			in.Vec[idx] = row
		case maskReg.MatchString(name):
			in.K[name[1]-'0'] = v.Uint64()
		case name == "MXCSR":
			in.MXCSR = uint32(v.Uint64())
		}
	}
	for _, mm := range s.MemMaps {
		d := s.MemDefs[mm.Name]
		*regions = append(*regions, jit.Region{Name: mm.Name, Addr: mm.Addr, Size: d.Size, Fill: d.Value})
	}
	return nil
}

func sortedKeys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }

var (
	doubleOps = regexp.MustCompile(`(?im)^\s*(?:\{[a-z]+\}\s*)?v?[a-z0-9]*(?:pd|sd)\b`)
	halfOps   = regexp.MustCompile(`(?im)^\s*(?:\{[a-z]+\}\s*)?v[a-z0-9]*(?:ph|sh)\b`)
)

func vectorPattern(src string) []byte {
	text := stripAll(src)
	switch {
	case doubleOps.MatchString(text):
		return []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f} // 1.0
	case halfOps.MatchString(text):
		return []byte{0x00, 0x3c} // 1.0 (binary16)
	}
	return []byte{0, 0, 0x80, 0x3f} // 1.0f
}
