package isa

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// catalogReady reports whether the form catalog has any forms.
func catalogReady() bool { return len(csvForms) > 0 }

// knownMnemonic reports whether the catalog has forms with the Intel
// mnemonic m.
func knownMnemonic(m string) bool { return len(ByMnemonic(m)) > 0 }

// gnuSpellings yields the AT&T mnemonics a Form.GNU text lists
// ("movsd/movsl": both), lower case, without the "*" the x86 table marks
// some with.
func gnuSpellings(gnu string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for g := range strings.SplitSeq(gnu, "/") {
			g = strings.TrimSuffix(strings.TrimSpace(strings.ToLower(g)), "*")
			if g != "" && g != "-" && !yield(g) {
				return
			}
		}
	}
}

// gnuIndex maps each AT&T mnemonic to its forms, made on first use from
// the sources of the catalog without building any form.
var gnuIndex struct {
	once    sync.Once
	entries map[string]*gnuEntry
}

// gnuEntry is one AT&T mnemonic: the Intel mnemonics that may have forms
// spelled so (a superset: each form's GNU text decides), and the forms,
// built on first use.
type gnuEntry struct {
	mnemonics []string
	once      sync.Once
	forms     []*Form // sorted by name
}

func gnuEntries() map[string]*gnuEntry {
	gnuIndex.once.Do(func() {
		m := map[string]*gnuEntry{}
		add := func(g, mn string) {
			e := m[g]
			if e == nil {
				e = &gnuEntry{}
				m[g] = e
			}
			if !slices.Contains(e.mnemonics, mn) {
				e.mnemonics = append(e.mnemonics, mn)
			}
		}
		for mn, e := range mnemonicIndex() {
			for i := range e.rows {
				for g := range gnuSpellings(e.rows[i].gnu) {
					add(g, mn)
				}
			}
			for _, f := range e.extra {
				for g := range gnuSpellings(f.GNU) {
					add(g, mn)
				}
			}
			if len(e.evex) > 0 {
				add(mn, mn)
			}
			for _, fm := range e.evex {
				if fm.suffix {
					for _, s := range attLengthSuffixes {
						add(mn+s, mn)
					}
				}
			}
		}
		gnuIndex.entries = m
	})
	return gnuIndex.entries
}

// gnuForms returns the forms whose GNU (AT&T) mnemonic is m, sorted by name.
func gnuForms(m string) []*Form {
	e := gnuEntries()[m]
	if e == nil {
		return nil
	}
	e.once.Do(func() {
		for _, mn := range e.mnemonics {
			for _, f := range formsOf(mn).forms {
				for g := range gnuSpellings(f.GNU) {
					if g == m {
						e.forms = append(e.forms, f)
						break
					}
				}
			}
		}
		sort.Slice(e.forms, func(i, j int) bool { return e.forms[i].name < e.forms[j].name })
		e.forms = slices.Clip(e.forms)
	})
	return e.forms
}

// ccMnemonicStems are the mnemonic stems followed by a condition code.
var ccMnemonicStems = []string{"cmov", "set", "j", "fcmov"}

// mnemonicAliases returns the other spellings of a condition-code mnemonic
// ("jz" -> "je", "jnz"...), and of a few synonyms, in a fixed order.
func mnemonicAliases(m string) []string {
	var out []string
	for _, p := range ccMnemonicStems {
		if !strings.HasPrefix(m, p) || p == "j" && (m == "jmp" || strings.HasSuffix(m, "cxz")) {
			continue
		}
		canon, ok := ccCanonical[m[len(p):]]
		if !ok {
			continue
		}
		for _, cc := range ccSpellings[canon] {
			if p+cc != m {
				out = append(out, p+cc)
			}
		}
	}
	switch m {
	case "sal":
		out = append(out, "shl")
	case "shl":
		out = append(out, "sal")
	case "xlat":
		out = append(out, "xlatb")
	case "movsxd":
		out = append(out, "movsx")
	}
	return out
}

// ccSpellings lists the spellings of each canonical condition code.
var ccSpellings = func() map[string][]string {
	m := map[string][]string{}
	order := []string{"o", "no", "b", "c", "nae", "ae", "nb", "nc", "e", "z", "ne", "nz", "be", "na", "a", "nbe",
		"s", "ns", "p", "pe", "np", "po", "l", "nge", "ge", "nl", "le", "ng", "g", "nle"}
	for _, s := range order {
		c := ccCanonical[s]
		m[c] = append(m[c], s)
	}
	return m
}()

// candidateTiers returns the forms the instruction could map to, by
// mnemonic, in tiers: ResolveForm takes the best match of the first tier
// that has one. Tiers: the rep-prefixed string forms when a rep prefix is
// present; in AT&T syntax the forms whose GNU mnemonic is the one written
// ("lcallq", "fdivr", "cvtss2siq"); the forms of the Intel mnemonic (and its
// alternative spellings); in Intel syntax the forms whose GNU mnemonic is the
// one written ("pushw", "iretw").
func (in *Inst) candidateTiers() [][]*Form {
	var tiers [][]*Form
	m := in.Mnemonic
	if in.Prefix&PrefixRep != 0 {
		tiers = append(tiers, append(append([]*Form(nil), ByMnemonic("rep "+m)...), ByMnemonic("repe "+m)...))
	}
	if in.Prefix&PrefixRepne != 0 {
		tiers = append(tiers, ByMnemonic("repne "+m))
	}
	src := in.SourceMnemonic
	if in.Syntax == SyntaxATT && src != "" {
		tiers = append(tiers, gnuForms(src))
	}
	main := ByMnemonic(m)
	if in.Syntax == SyntaxATT && src != "" && src != m {
		if extra := ByMnemonic(src); len(extra) > 0 {
			main = append(append([]*Form(nil), main...), extra...)
		}
	}
	if len(main) == 0 {
		for _, a := range mnemonicAliases(m) {
			main = append(main, ByMnemonic(a)...)
		}
	}
	tiers = append(tiers, main)
	if in.Syntax != SyntaxATT && src != "" && src != m {
		tiers = append(tiers, gnuForms(src))
	}
	return tiers
}

// candidates returns the forms of all tiers, without duplicates.
func (in *Inst) candidates() []*Form {
	var out []*Form
	seen := map[*Form]bool{}
	for _, t := range in.candidateTiers() {
		for _, f := range t {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// signExtImmMnemonics lists the mnemonics whose immediates narrower than the operand
// size are sign-extended, so that e.g. "add rax, 200" needs imm32.
var signExtImmMnemonics = map[string]bool{
	"add": true, "or": true, "adc": true, "sbb": true, "and": true, "sub": true, "xor": true, "cmp": true,
	"imul": true, "push": true, "mov": true, "test": true,
}

// instKindBits returns the size in bits of a sized memory or immediate kind (64
// for "m64", "imm64", "m64bcst"), 0 for "m", moffs and others.
func instKindBits(k Kind) int {
	s := string(k)
	switch {
	case s == "m16:16":
		return 32
	case s == "m16:32":
		return 48
	case s == "m16:64":
		return 80
	case strings.HasPrefix(s, "imm"):
		s = s[3:]
	case strings.HasPrefix(s, "vm"):
		s = s[2:]
	case strings.HasPrefix(s, "rel"):
		s = s[3:]
	case len(s) > 1 && s[0] == 'm' && s[1] >= '0' && s[1] <= '9':
		s = s[1:]
	default:
		return 0
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	v, _ := strconv.Atoi(s[:n])
	return v
}

// kindFixedReg returns the fixed register a kind names ("al", "cl", "xmm0",
// "st(0)"), if it names one.
func kindFixedReg(k Kind) (Reg, bool) {
	switch k {
	case KindST, KindK, KindMM, KindXMM, KindYMM, KindZMM, KindR8, KindR16, KindR32, KindR64, KindSreg, "cr", "dr", "bnd":
		return RegNone, false
	}
	if len(k) > 0 && (k[0] == 'i' || k[0] == 'm' && (len(k) < 2 || k[1] != 'm')) {
		return RegNone, false // imm*, m*, but not mm0..mm7
	}
	r, ok := regByName[string(k)]
	return r, ok
}

// isVSIBKind reports whether a kind is a vector-index memory kind ("vm32x").
func isVSIBKind(k Kind) bool { return strings.HasPrefix(string(k), "vm") }

// immFitsBits reports whether v can be encoded in an immediate of n bits, given
// whether the immediate is sign-extended to a wider operand.
func immFitsBits(v int64, n int, signExt bool) bool {
	if n >= 64 {
		return true
	}
	lo := -(int64(1) << (n - 1))
	hi := int64(1)<<n - 1
	if signExt {
		hi = int64(1)<<(n-1) - 1
	}
	return v >= lo && v <= hi
}

// formMatchCost is a lexicographic preference: lower is better.
type formMatchCost [6]int

func (a formMatchCost) less(b formMatchCost) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// immOperandWidth returns the width in bits of the widest GPR or memory operand
// kind of f other than operand skip (the operand size an immediate is
// extended to).
func immOperandWidth(f *Form, skip int) int {
	w := 0
	for i, op := range f.Operands {
		if i == skip {
			continue
		}
		k := op.Kind
		b := 0
		if r, ok := kindFixedReg(k); ok && r.IsGPR() {
			b = r.Width()
		} else {
			switch k {
			case KindR8:
				b = 8
			case KindR16:
				b = 16
			case KindR32:
				b = 32
			case KindR64:
				b = 64
			default:
				if k.IsMemory() && !k.IsBroadcast() {
					b = instKindBits(k)
				}
			}
		}
		if b > w {
			w = b
		}
	}
	return w
}

// match reports whether f fits the instruction and at what cost.
func (in *Inst) match(f *Form) (formMatchCost, bool) {
	var c formMatchCost
	if len(f.Operands) != len(in.Args) {
		return c, false
	}
	// a rep prefix selects the rep-prefixed forms of string instructions
	if in.Prefix&(PrefixRep|PrefixRepne) != 0 && !strings.HasPrefix(f.Mnemonic, "rep") {
		c[0] = 1
	}
	// encoding
	switch {
	case in.needsEVEX():
		if f.Encoding != EVEX {
			return c, false
		}
	case in.Prefix&(PrefixVEX|PrefixVEX3) != 0:
		if f.Encoding != VEX {
			return c, false
		}
	case f.Encoding == EVEX:
		c[1] = 1
	}
	if in.Rounding != RoundNone && !roundingAllowed(f) {
		return c, false
	}
	// masking
	masked := len(f.Operands) > 0 && f.Operands[0].Masked
	zeroing := masked && f.Operands[0].Zeroing
	switch {
	case in.Mask != RegNone:
		if !masked || (in.Zeroing && !zeroing) {
			return c, false
		}
		if zeroing != in.Zeroing {
			c[2] = 1
		}
	case masked:
		c[2] = 2 // an unmasked instruction in a masked form: only if nothing better
	}
	for i := range in.Args {
		a := &in.Args[i]
		k := f.Operands[i].Kind
		switch a.Type {
		case OpReg:
			if r, ok := kindFixedReg(k); ok {
				if r != a.Reg {
					return c, false
				}
				continue
			}
			rk := a.Reg.Kind()
			if k != rk {
				return c, false
			}
			c[4]++ // a register class rather than the fixed register of a shorter encoding
		case OpMem:
			if isVSIBKind(k) {
				x := a.Mem.Index
				if !x.IsVector() {
					return c, false
				}
				if x.Class() != vsibClass(k) || a.Mem.Broadcast != 0 {
					return c, false
				}
				if a.Mem.Size != 0 && a.Mem.Size != instKindBits(k) {
					return c, false
				}
				continue
			}
			if !k.IsMemory() || a.Mem.Index.IsVector() {
				return c, false
			}
			if k == KindMoffs {
				if !in.absMoffs || a.Mem.Base != RegNone || a.Mem.Index != RegNone {
					return c, false
				}
				continue
			}
			if k.IsBroadcast() != (a.Mem.Broadcast != 0) {
				return c, false
			}
			if a.Mem.Size == 0 && strings.HasPrefix(string(k), "m16:") && (f.Mnemonic == "call" || f.Mnemonic == "jmp") && !strings.HasPrefix(in.SourceMnemonic, "l") {
				return c, false // an unsized call/jmp operand is near; far ones say lcall/ljmp or a size
			}
			if kb := instKindBits(k); kb != 0 && a.Mem.Size != 0 && kb != a.Mem.Size {
				return c, false
			}
		case OpImm:
			if !k.IsImmediate() && !isDigits(string(k)) {
				return c, false
			}
			if k == KindConst1 || isDigits(string(k)) {
				// a constant operand ("shl r64, 1", "int 3")
				if a.Symbol != "" || strconv.FormatInt(a.Imm, 10) != string(k) {
					return c, false
				}
				continue
			}
			n := instKindBits(k)
			if in.absMoffs && n != 64 {
				return c, false // movabs: the 64-bit immediate
			}
			if f.Mnemonic == "push" && n == 16 && in.SourceMnemonic != "pushw" && in.Prefix&PrefixData16 == 0 {
				return c, false // "push 4096" pushes 8 bytes; pushw is explicit
			}
			if a.Symbol != "" {
				if n < 32 {
					return c, false
				}
			} else {
				w := immOperandWidth(f, i)
				if w == 0 && in.Mnemonic == "push" {
					w = 64
				}
				if !immFitsBits(a.Imm, n, signExtImmMnemonics[f.Mnemonic] && w > n) {
					return c, false
				}
			}
			c[3] += n
		case OpLabel:
			if k != KindRel8 && k != KindRel32 {
				return c, false
			}
			if (k == KindRel32) != (in.Prefix&PrefixDisp32 != 0) {
				c[5]++ // rel8 unless {disp32} asks for rel32
			}
		default:
			return c, false
		}
	}
	return c, true
}

// roundingAllowed reports whether an EVEX form can take embedded rounding or
// {sae}: 512-bit packed forms and scalar forms.
func roundingAllowed(f *Form) bool {
	zmm, ymm := false, false
	for _, op := range f.Operands {
		switch op.Kind {
		case KindZMM:
			zmm = true
		case KindYMM:
			ymm = true
		}
		if op.Kind.IsMemory() {
			return false
		}
	}
	if zmm {
		return true
	}
	if ymm {
		return false
	}
	m := f.Mnemonic
	return strings.HasSuffix(m, "ss") || strings.HasSuffix(m, "sd") || strings.HasSuffix(m, "sh") ||
		strings.Contains(m, "si2") || strings.Contains(m, "2si") || strings.Contains(m, "2usi") ||
		strings.Contains(m, "sd2") || strings.Contains(m, "ss2") || strings.Contains(m, "sh2") ||
		strings.HasPrefix(m, "vcomis") || strings.HasPrefix(m, "vucomis")
}

// argKindString renders the operand kinds of the instruction for messages.
func (in *Inst) argKinds() []string {
	out := make([]string, len(in.Args))
	for i := range in.Args {
		a := &in.Args[i]
		var s string
		switch a.Type {
		case OpReg:
			s = string(a.Reg.Kind())
		case OpMem:
			switch {
			case a.Mem.Index.IsVector():
				s = "vm"
				if a.Mem.Size != 0 {
					s += strconv.Itoa(a.Mem.Size)
				}
				s += a.Mem.Index.Class().String()[:1]
			case a.Mem.Broadcast != 0:
				s = "m"
				if a.Mem.Size != 0 {
					s += strconv.Itoa(a.Mem.Size)
				}
				s += "bcst"
			case a.Mem.Size != 0:
				s = "m" + strconv.Itoa(a.Mem.Size)
			default:
				s = "m"
			}
		case OpImm:
			switch {
			case a.Symbol != "":
				s = "imm32"
			case a.Imm == 1:
				s = "1"
			case immFitsBits(a.Imm, 8, false):
				s = "imm8"
			case immFitsBits(a.Imm, 16, false):
				s = "imm16"
			case immFitsBits(a.Imm, 32, false):
				s = "imm32"
			default:
				s = "imm64"
			}
		case OpLabel:
			s = "rel"
		}
		if i == 0 && in.Mask != RegNone {
			s += " {k}"
			if in.Zeroing {
				s += "{z}"
			}
		}
		out[i] = s
	}
	return out
}

// ResolveForm maps the instruction to its catalog form by mnemonic and
// operand kinds, stores it in in.Form and returns it. Register operands
// give their kinds; memory operands their size (from "qword ptr", an AT&T
// suffix, or, when unsized, from the only form that fits); immediates take
// the smallest immediate kind that holds their value (sign-extension
// respected: "add rax, 200" needs imm32); fixed-register forms ("add al,
// imm8") are preferred as the assembler prefers their shorter encoding.
// Masking, broadcast, rounding, registers 16-31 and the {evex} prefix select
// EVEX forms; otherwise VEX forms are preferred to EVEX ones.
//
// On success unsized memory operands take the form's size and an AT&T
// mnemonic is replaced by the form's Intel mnemonic. The error is a
// *FormError naming the instruction and the candidates.
func (in *Inst) ResolveForm() (*Form, error) {
	tiers := in.candidateTiers()
	n := 0
	for _, t := range tiers {
		n += len(t)
	}
	if n == 0 {
		m := in.SourceMnemonic
		if m == "" {
			m = in.Mnemonic
		}
		return nil, &FormError{Pos: in.Pos, Mnemonic: m, Kinds: in.argKinds(),
			Msg: fmt.Sprintf("unknown instruction %q", m)}
	}
	var best []*Form
	var bestCost formMatchCost
	for _, tier := range tiers {
		for _, f := range tier {
			cost, ok := in.match(f)
			if !ok {
				continue
			}
			switch {
			case best == nil || cost.less(bestCost):
				best, bestCost = []*Form{f}, cost
			case !bestCost.less(cost) && best[len(best)-1] != f:
				best = append(best, f)
			}
		}
		if best != nil {
			break
		}
	}
	if len(best) == 1 {
		in.setForm(best[0])
		return best[0], nil
	}
	names := func(fs []*Form) []string {
		var out []string
		seen := map[string]bool{}
		for _, f := range fs {
			if n := f.Name(); !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
		return out
	}
	if best == nil {
		kinds := in.argKinds()
		return nil, &FormError{Pos: in.Pos, Mnemonic: in.Mnemonic, Kinds: kinds, Candidates: names(in.candidates()),
			Msg: fmt.Sprintf("no form of %q takes (%s)", in.Mnemonic, strings.Join(kinds, ", "))}
	}
	if n := names(best); len(best) > 1 && len(n) > 1 {
		kinds := in.argKinds()
		return nil, &FormError{Pos: in.Pos, Mnemonic: in.Mnemonic, Kinds: kinds, Candidates: n,
			Msg: fmt.Sprintf("ambiguous operand size for %q (%s): add a size (\"qword ptr\" or an AT&T suffix)", in.Mnemonic, strings.Join(kinds, ", "))}
	}
	f := best[0]
	in.setForm(f)
	return f, nil
}

// setForm records f and fills in what the form implies.
func (in *Inst) setForm(f *Form) {
	in.Form = f
	in.Mnemonic = f.Mnemonic
	if strings.HasPrefix(f.Mnemonic, "rep") && strings.Contains(f.Mnemonic, " ") {
		in.Prefix &^= PrefixRep | PrefixRepne
	}
	for i := range in.Args {
		a := &in.Args[i]
		if a.Type != OpMem || i >= len(f.Operands) {
			continue
		}
		k := f.Operands[i].Kind
		if b := instKindBits(k); b != 0 && k != KindM && k != KindMoffs {
			a.Mem.Size = b
		}
		if a.Mem.Broadcast < 0 {
			a.Mem.Broadcast = broadcastElems(f, i, -a.Mem.Broadcast)
		}
	}
}
