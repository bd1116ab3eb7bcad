package gen

import (
	"bytes"
	"errors"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"portlab/isa"
	"portlab/jit"
)

func form(t *testing.T, name string) *isa.Form {
	t.Helper()
	f, ok := isa.Lookup(name)
	if !ok {
		t.Fatalf("no form %q", name)
	}
	return f
}

func byPair(t *testing.T, bs []*Bench) map[string]*Bench {
	m := map[string]*Bench{}
	for _, b := range bs {
		m[b.Kind+" "+b.Operands] = b
	}
	return m
}

func lines(b *Bench) []string { return strings.Split(strings.TrimSpace(b.Snippet.Source), "\n") }

func TestLatencyChains(t *testing.T) {
	cases := []struct {
		form  string
		pair  string
		src   []string
		key   string
		fixed float64
	}{
		{"add r64, r64", "0->0", []string{"add rax, rcx"}, "", 0},
		{"add r64, r64", "1->0", []string{"add rax, rcx", "add rcx, rax"}, "", 0},
		{"vaddpd ymm, ymm, ymm", "1->0", []string{"vaddpd ymm0, ymm1, ymm2", "vaddpd ymm1, ymm0, ymm2"}, "", 0},
		{"vfmadd231pd ymm, ymm, ymm", "0->0", []string{"vfmadd231pd ymm0, ymm1, ymm2"}, "", 0},
		{"vfmadd231pd ymm, ymm, ymm", "2->0", []string{"vfmadd231pd ymm0, ymm2, ymm1", "vfmadd231pd ymm1, ymm2, ymm0"}, "", 0},
		{"cvttsd2si r64, xmm", "1->0", []string{"cvttsd2si rax, xmm0", "movq xmm0, rax"}, "movq-gpr-xmm", 0},
		{"vmovq xmm, r64", "1->0", []string{"vmovq xmm0, rax", "vmovq rax, xmm0"}, "vmovq-gpr-xmm", 0},
		{"cmp r64, r64", "0->flags", []string{"cmp rax, rcx", "adc rax, 0"}, "", 1},
		// Flags into a general register: cmp writes them from the
		// destination the form writes.
		{"cmovbe r64, r64", "flags->0", []string{"cmp rax, rcx", "cmovbe rax, rdx"}, "", 1},
		{"cmovl r32, r32", "flags->0", []string{"cmp rax, rcx", "cmovl eax, edx"}, "", 1},
		// Forms that read the flags they write, each instance on a
		// register of its own: the flags are their only chain.
		{"shl r64, cl", "flags->flags", []string{"shl rax, cl", "shl rdx, cl", "shl rbx, cl", "shl rsi, cl", "shl r8, cl", "shl r9, cl", "shl r10, cl", "shl r11, cl"}, "", 0},
		{"adc r64, r64", "flags->flags", []string{"adc rcx, rax", "adc rdx, rax", "adc rbx, rax", "adc rsi, rax", "adc r8, rax", "adc r9, rax", "adc r10, rax", "adc r11, rax"}, "", 0},
		// Flags from mask or vector registers: the carry goes to a
		// general register and back into the source.
		{"kortestw k, k", "0->flags", []string{"kortestw k2, k3", "adc rax, 0", "kmovw k2, eax"}, "kmovw-gpr-k", 1},
		{"ptest xmm, xmm", "0->flags", []string{"ptest xmm0, xmm1", "adc rax, 0", "movq xmm0, rax"}, "movq-gpr-xmm", 1},
		{"add r64, m64", "mem->0", []string{"add rax, qword ptr [rdi+rax]", "and rax, 0"}, "", 1},
		{"mov r64, m64", "mem->0", []string{"mov rax, qword ptr [rax]"}, "", 0},
		{"add m64, r64", "mem->mem", []string{"add qword ptr [rdi+2560], rax"}, "", 0},
		{"mul r64", "rax->rax", []string{"mul rcx"}, "", 0},
		// Divides: quotients shrinking to 0 (rdx cleared), and full-width
		// dividends (the remainder chains on in rdx, below the divisor).
		{"div r64", "rax->rax", []string{"xor edx, edx", "div rcx"}, "", 0},
		{"div r64", "rdx->rdx", []string{"div rcx"}, "", 0},
		{"div r32", "rdx->rdx", []string{"div ecx"}, "", 0},
		{"lea r64, m", "mem->0", []string{"lea rax, [rdi+rax]"}, "", 0},
		// Loads into vector, mask and MMX registers: the value moved to a
		// general register becomes the next load's index.
		{"vbroadcastss ymm, m32", "mem->0", []string{"vbroadcastss ymm0, dword ptr [rdi+rax]", "vmovq rax, xmm0", "and rax, 0"}, "vmovq-gpr-xmm", 1},
		{"vmovdqu64 zmm, m512", "mem->0", []string{"vmovdqu64 zmm0, zmmword ptr [rdi+rax]", "vmovq rax, xmm0", "and rax, 0"}, "vmovq-gpr-xmm", 1},
		{"pmovzxbd xmm, m32", "mem->0", []string{"pmovzxbd xmm0, dword ptr [rdi+rax]", "movq rax, xmm0", "and rax, 0"}, "movq-gpr-xmm", 1},
		{"kmovw k, m16", "mem->0", []string{"kmovw k2, word ptr [rdi+rax]", "kmovw eax, k2", "and rax, 0"}, "kmovw-gpr-k", 1},
		{"movq mm, m64", "mem->0", []string{"movq mm0, qword ptr [rdi+rax]", "movq rax, mm0", "and rax, 0"}, "movq-gpr-mm", 1},
		// Vector to mask and back: vpmovm2d and vpmovd2m close the chain.
		{"vpcmpeqb k, xmm, xmm", "1->0", []string{"vpcmpeqb k2, xmm0, xmm1", "vpmovm2d xmm0, k2"}, "vpmovm2d-xmm-k", 0},
		{"vpmovm2d xmm, k", "1->0", []string{"vpmovm2d xmm0, k2", "vpmovd2m k2, xmm0"}, "vpmovm2d-xmm-k", 0},
		// Vector to MMX and back: movq2dq and movdq2q.
		{"cvtps2pi mm, xmm", "1->0", []string{"cvtps2pi mm0, xmm0", "movq2dq xmm0, mm0"}, "movq2dq-xmm-mm", 0},
		{"cvtpi2pd xmm, mm", "1->0", []string{"cvtpi2pd xmm0, mm0", "movdq2q mm0, xmm0"}, "movq2dq-xmm-mm", 0},
	}
	for _, c := range cases {
		bs, err := Latency(form(t, c.form))
		if err != nil {
			t.Fatalf("%s: %v", c.form, err)
		}
		b := byPair(t, bs)["latency "+c.pair]
		if b == nil {
			t.Errorf("%s: no latency pair %s (have %v)", c.form, c.pair, keys(byPair(t, bs)))
			continue
		}
		if got := lines(b); strings.Join(got, "; ") != strings.Join(c.src, "; ") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.form, c.pair, got, c.src)
		}
		if b.HelperKey != c.key || b.HelperFixed != c.fixed {
			t.Errorf("%s %s: helper %q key %q fixed %v, want key %q fixed %v", c.form, c.pair, b.Helper, b.HelperKey, b.HelperFixed, c.key, c.fixed)
		}
		if b.Snippet.LoopReg != LoopRegister || b.Snippet.Instructions != 1 && !strings.Contains(c.pair, "->") {
			t.Errorf("%s: loop register %q", c.form, b.Snippet.LoopReg)
		}
	}
	// Only register forms that read flags, write none and write a 32- or
	// 64-bit general register chain from the flags.
	for _, n := range []string{"setl r8", "adc r64, r64", "cmovl r16, r16", "cmovl r64, m64", "add r64, r64"} {
		bs, _ := Latency(form(t, n))
		for k := range byPair(t, bs) {
			if strings.HasPrefix(k, "latency flags->") && k != "latency flags->flags" {
				t.Errorf("%s got a chain from the flags: %s", n, k)
			}
		}
	}
	// No flags->flags chain where the flags are not both read and
	// written, where memory is, or where a general register is written
	// implicitly.
	for _, n := range []string{"add r64, r64", "cmovl r64, r64", "adc m64, r64", "mul r64", "shl r64, imm8"} {
		bs, _ := Latency(form(t, n))
		if byPair(t, bs)["latency flags->flags"] != nil {
			t.Errorf("%s got a chain from the flags to the flags", n)
		}
	}
	// Signed divides have no full-width chain: a remainder in rdx can make
	// the next quotient overflow.
	if bs, _ := Latency(form(t, "idiv r64")); byPair(t, bs)["latency rdx->rdx"] != nil {
		t.Error("idiv r64 got a full-width dividend chain")
	}
	// A load-op form keeps the latency of its register sources alone, and
	// a merge-masked load reads its destination: no load-to-use chain.
	for _, n := range []string{"vaddps ymm, ymm, m256", "vbroadcastss ymm {k}, m32"} {
		if bs, _ := Latency(form(t, n)); byPair(t, bs)["latency mem->0"] != nil {
			t.Errorf("%s got a load-to-use chain", n)
		}
	}
	if bs, _ := Latency(form(t, "vbroadcastss ymm {k}{z}, m32")); byPair(t, bs)["latency mem->0"] == nil {
		t.Error("a zero-masked load got no load-to-use chain")
	}
	// The pointer chase needs memory holding its own address.
	bs, _ := Latency(form(t, "mov r64, m64"))
	if b := byPair(t, bs)["latency mem->0"]; !b.Snippet.ScratchSelf || len(b.Snippet.LiveIns) != 1 {
		t.Errorf("pointer chase set-up: self %v liveins %v", b.Snippet.ScratchSelf, b.Snippet.LiveIns)
	}
}

func keys(m map[string]*Bench) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A read-modify-write form's mixes with plain stores never store into its
// slots: the store probe's addresses and the read-modify-writes' are
// disjoint (they overlapped once, and such a mix timed store-to-load
// forwarding between the two forms: 10 % faster than its ports on the
// Zen 3 guest).
func TestReadModifyWritesApartFromStores(t *testing.T) {
	addr := regexp.MustCompile(`\[rdi\+(\d+)\]`)
	for _, name := range []string{"add m64, imm8", "neg m64", "add m32, r32", "shl m16, 1"} {
		m, err := Mix(form(t, name), form(t, "mov m64, r64"), 4, 3)
		if err != nil {
			t.Fatal(err)
		}
		stored, rmw := map[string]bool{}, map[string]bool{}
		for _, l := range lines(m) {
			a := addr.FindStringSubmatch(l)
			if a == nil {
				continue
			}
			if strings.HasPrefix(l, "mov ") {
				stored[a[1]] = true
			} else {
				rmw[a[1]] = true
			}
		}
		if len(stored) == 0 || len(rmw) == 0 {
			t.Fatalf("%s with mov m64, r64: %d store and %d read-modify-write addresses:\n%s", name, len(stored), len(rmw), m.Snippet.Source)
		}
		for a := range rmw {
			if stored[a] {
				t.Errorf("%s with mov m64, r64: [rdi+%s] is stored to and read-modified-written:\n%s", name, a, m.Snippet.Source)
			}
		}
	}
}

// A lea always has a displacement or an index: `lea r, [base]` is a
// register copy to the core, which may eliminate it, so a stream or a mix
// with one would time fewer leas than it holds.
func TestLeaNeverCopiesABase(t *testing.T) {
	bare := regexp.MustCompile(`lea \w+, \[\w+\]`)
	lea := form(t, "lea r64, m")
	var bs []*Bench
	tp, err := Throughput(lea)
	if err != nil {
		t.Fatal(err)
	}
	bs = append(bs, tp)
	for _, probe := range []string{"add r64, r64", "vaddpd ymm, ymm, ymm"} {
		m, err := Mix(form(t, probe), lea, 3, 16)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, m)
	}
	for _, b := range bs {
		n := 0
		for _, l := range lines(b) {
			if strings.HasPrefix(l, "lea ") {
				n++
			}
			if bare.MatchString(l) {
				t.Errorf("%s: %q copies a register", b.Snippet.Info, l)
			}
		}
		if n == 0 {
			t.Errorf("%s: no lea in\n%s", b.Snippet.Info, b.Snippet.Source)
		}
	}
}

func TestThroughputStreams(t *testing.T) {
	b, err := Throughput(form(t, "vfmadd231pd ymm, ymm, ymm"))
	if err != nil {
		t.Fatal(err)
	}
	ls := lines(b)
	if len(ls) != 12 || b.Snippet.Instructions != 12 {
		t.Fatalf("want 12 independent instances, got %d: %q", len(ls), ls)
	}
	dsts := map[string]bool{}
	for _, l := range ls {
		f := strings.Fields(strings.NewReplacer(",", " ").Replace(l))
		if dsts[f[1]] {
			t.Errorf("destination %s used twice: %q", f[1], ls)
		}
		dsts[f[1]] = true
		if dsts[f[2]] || dsts[f[3]] {
			t.Errorf("a source is a rotating destination: %q", l)
		}
	}
	// mul: implicit rax is reset before each instance so they are independent.
	b, _ = Throughput(form(t, "div r64"))
	if !strings.Contains(b.Snippet.Source, "xor edx, edx\ndiv rcx") || !strings.Contains(b.Snippet.Source, "mov eax, 0x13") || b.Snippet.Instructions != 8 {
		t.Errorf("div throughput:\n%s", b.Snippet.Source)
	}
	// EVEX forms use 24 destinations among 32 registers.
	b, _ = Throughput(form(t, "vaddpd zmm, zmm, zmm"))
	if len(lines(b)) != 24 || !strings.Contains(b.Snippet.Source, "zmm23") {
		t.Errorf("zmm throughput:\n%s", b.Snippet.Source)
	}
	// Loads of 8 bytes share cache lines; 64-byte loads take one line each.
	b, _ = Throughput(form(t, "mov r64, m64"))
	if !strings.Contains(b.Snippet.Source, "[rdi+8]") {
		t.Errorf("narrow loads should be 8 bytes apart:\n%s", b.Snippet.Source)
	}
	b, _ = Throughput(form(t, "vmovapd m512, zmm"))
	if !strings.Contains(b.Snippet.Source, "[rdi+2112]") {
		t.Errorf("zmm stores should be 64 bytes apart from 2048:\n%s", b.Snippet.Source)
	}
	// Read-modify-write memory: one instance per slot, 32 distinct
	// addresses, so the chain through store-to-load forwarding on each
	// (5-7 cycles) is not the bottleneck.
	for _, name := range []string{"add m8, imm8", "xadd m64, r64", "shl m32, cl"} {
		b, _ = Throughput(form(t, name))
		addrs := map[string]bool{}
		for _, l := range lines(b) {
			if i := strings.Index(l, "["); i >= 0 {
				addrs[l[i:strings.Index(l, "]")+1]] = true
			}
		}
		if len(addrs) != 32 || b.Snippet.Instructions != 32 || !addrs["[rdi+2560]"] || !addrs["[rdi+2808]"] {
			t.Errorf("%s: %d instances over %d addresses, want 32 over 32 from [rdi+2560]:\n%s", name, b.Snippet.Instructions, len(addrs), b.Snippet.Source)
		}
	}
}

func TestIdiomsAndMoves(t *testing.T) {
	m := byPair(t, Idioms(form(t, "xor r64, r64")))
	if b := m["idiom-latency same"]; b == nil || lines(b)[0] != "xor rax, rax" {
		t.Errorf("xor idiom latency: %v", m)
	}
	if b := m["idiom-throughput same"]; b == nil || len(lines(b)) < 8 {
		t.Errorf("xor idiom throughput: %v", m)
	}
	m = byPair(t, Idioms(form(t, "vpcmpeqd ymm, ymm, ymm")))
	if m["idiom-latency same"] == nil {
		t.Error("vpcmpeqd is a ones-idiom candidate")
	}
	m = byPair(t, Idioms(form(t, "movaps xmm, xmm")))
	if b := m["move-latency 0<->1"]; b == nil || strings.Join(lines(b), "; ") != "movaps xmm0, xmm1; movaps xmm1, xmm0" {
		t.Errorf("movaps move chain: %v", m)
	}
	for _, name := range []string{"add r64, r64", "movzx r64, r8", "vaddpd ymm, ymm, ymm"} {
		if bs := Idioms(form(t, name)); len(bs) != 0 {
			t.Errorf("%s: no idiom benchmark expected, got %d", name, len(bs))
		}
	}
}

func TestMix(t *testing.T) {
	b, err := Mix(form(t, "vfmadd231pd ymm, ymm, ymm"), form(t, "vmulpd ymm, ymm, ymm"), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Mix) != 2 || b.Mix[0].Count != b.Mix[1].Count || b.Snippet.Instructions != b.Mix[0].Count*2 {
		t.Fatalf("mix %+v, instructions %d", b.Mix, b.Snippet.Instructions)
	}
	// The two streams' destinations are disjoint.
	fmaDst, mulDst := map[string]bool{}, map[string]bool{}
	for _, l := range lines(b) {
		f := strings.Fields(strings.NewReplacer(",", " ").Replace(l))
		if f[0] == "vfmadd231pd" {
			fmaDst[f[1]] = true
		} else {
			mulDst[f[1]] = true
		}
	}
	for r := range fmaDst {
		if mulDst[r] {
			t.Errorf("register %s written by both streams", r)
		}
	}
	if a, c := MixCounts(0.5, 1); a != 2 || c != 1 {
		t.Errorf("MixCounts(0.5, 1) = %d, %d; want 2, 1", a, c)
	}
	if _, err := Mix(form(t, "hlt"), form(t, "add r64, r64"), 1, 1); err == nil {
		t.Error("mix with a privileged form should fail")
	}
	// A divisor is never rdx (zero after the set-up): with the store
	// probe taking rcx first, div r8 was given dl and faulted.
	for _, div := range []string{"div r8", "idiv r8", "div r64"} {
		d, err := Mix(form(t, div), form(t, "mov m64, r64"), 1, 6)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines(d) {
			if f := strings.Fields(l); (f[0] == "div" || f[0] == "idiv") && strings.Contains("rdx edx dx dl", f[1]) {
				t.Errorf("%s mixed with stores divides by %s: %q", div, f[1], l)
			}
		}
	}
}

// TestMixKeepsLoadsOffStoredBytes: a masked store is a store too; in a
// mix its slots are the stores' area, never bytes another stream loads (a
// load of a masked store's bytes waits for it to retire: no forwarding).
func TestMixKeepsLoadsOffStoredBytes(t *testing.T) {
	b, err := Mix(form(t, "vpmullw xmm {k}{z}, xmm, m128"), form(t, "vmovapd m256 {k}, ymm"), 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	stored, loaded := map[int64]bool{}, map[int64]bool{}
	file, err := isa.Parse("mix.s", []byte(".intel_syntax noprefix\n"+strings.Join(lines(b), "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range file.Insts() {
		for _, a := range in.Args {
			if a.Type != isa.OpMem {
				continue
			}
			size := int64(16)
			if in.Mnemonic == "vmovapd" {
				size = 32
			}
			for d := a.Mem.Disp; d < a.Mem.Disp+size; d++ {
				if in.Mnemonic == "vmovapd" {
					stored[d] = true
				} else {
					loaded[d] = true
				}
			}
		}
	}
	if len(stored) == 0 || len(loaded) == 0 {
		t.Fatalf("no stores or no loads in %q", lines(b))
	}
	for d := range stored {
		if loaded[d] {
			t.Fatalf("byte %d both stored by vmovapd {k} and loaded by vpmullw:\n%s", d, strings.Join(lines(b), "\n"))
		}
	}
}

// TestMixPreparesEveryForm: the machine state a form needs is set up
// wherever it stands in a mix (a random mix with div m8 third faults on a
// zero divisor when only the first form's needs are met).
func TestMixPreparesEveryForm(t *testing.T) {
	b, err := MixN([]*isa.Form{form(t, "vpmaxsq zmm, zmm, m64bcst"), form(t, "div m8"), form(t, "vmaskmovps m256, ymm, ymm")}, []int{4, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if s := b.Snippet; !bytes.Equal(s.ScratchFill, []byte{0x13}) || !bytes.Equal(s.VectorFill, []byte{0xff}) {
		t.Errorf("scratch fill % x, vector fill % x: want the divisor 13 and maskmov's ff masks", s.ScratchFill, s.VectorFill)
	}
	if _, err := MixN([]*isa.Form{form(t, "ldmxcsr m32"), form(t, "div m8")}, []int{1, 1}); err == nil || !strings.Contains(err.Error(), `"div m8"`) {
		t.Errorf("ldmxcsr's MXCSR image and div's divisor in one scratch: %v", err)
	}
}

// TestMixGivesChainsTheirClassPool: a form that reads its destination
// (FMA, merge masking, cmov) shares rotating registers only with such
// forms of its own register class, and a legacy form without vector
// operands does not confine an EVEX form to xmm0-15. Otherwise a masked
// FMA beside cmov gets 6 ymm registers: at latency 4 no more than 1.5
// FMAs a cycle, so the mix measures the chains, not the ports.
func TestMixGivesChainsTheirClassPool(t *testing.T) {
	for _, c := range []struct {
		fma, other string
		atLeast    int
	}{
		{"vfnmsub213ps ymm {k}, ymm, ymm", "cmovl r64, r64", 16},
		{"vfmadd231pd ymm, ymm, ymm", "add r64, r64", 8},
		{"vfmadd231pd ymm, ymm, ymm", "vfmadd231ps ymm, ymm, ymm", 6},
	} {
		b, err := Mix(form(t, c.other), form(t, c.fma), 8, 8)
		if err != nil {
			t.Fatal(err)
		}
		mn := strings.Fields(c.fma)[0]
		dsts := map[string]bool{}
		for _, l := range lines(b) {
			if f := strings.Fields(strings.NewReplacer(",", " ").Replace(l)); f[0] == mn {
				dsts[f[1]] = true
			}
		}
		if len(dsts) < c.atLeast {
			t.Errorf("%s beside %s rotates over %d registers %v, want at least %d", c.fma, c.other, len(dsts), dsts, c.atLeast)
		}
	}
}

// Beside VEX forms (which can name only 0-15) an EVEX form takes its
// vector registers from 16-31: sharing 0-15, 3 vpermi2b ymm {k}{z} beside
// 12 vfmsub132pd xmm got ymm12 and ymm13, a chain of two 7-cycle links a
// copy that the mix measured (14 cycles where ports allow 6).
func TestMixGivesEVEXFormsTheHighRegisters(t *testing.T) {
	b, err := Mix(form(t, "vpermi2b ymm {k}{z}, ymm, ymm"), form(t, "vfmsub132pd xmm, xmm, m128"), 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
	if err != nil {
		t.Fatal(err)
	}
	dsts := map[int]bool{}
	for _, in := range file.Insts() {
		evex := in.Mnemonic == "vpermi2b"
		for _, a := range in.Args {
			if a.Type != isa.OpReg || !a.Reg.IsVector() {
				continue
			}
			if n := a.Reg.Num(); evex != (n >= 16) {
				t.Errorf("%q: register %s (EVEX form: %v)", in.Text, a.Reg.Name(), evex)
			}
		}
		if evex {
			dsts[in.Args[0].Reg.Num()] = true
		}
	}
	if len(dsts) < 8 {
		t.Errorf("vpermi2b rotates over %d registers, want at least 8", len(dsts))
	}
}

// With the forms' measured times, forms that read the register they write
// split their class by the chains each needs: 60 add r64, r64 (latency 1,
// 0.21 cycles) beside 8 crc32 r32, m16 (latency 3, 1 cycle) need about 5
// and 2 chains to keep up with the 12.6 cycles the mix takes at least.
// Split evenly the adds got 6 registers, 10 instances deep a copy.
func TestMixTimedSplitsChainsByNeed(t *testing.T) {
	times := FormTimes{
		"add r64, r64":   {Latency: 1, Throughput: 0.21},
		"crc32 r32, m16": {Latency: 3, Throughput: 1},
	}
	for _, order := range [][2]string{{"crc32 r32, m16", "add r64, r64"}, {"add r64, r64", "crc32 r32, m16"}} {
		counts := map[string]int{"add r64, r64": 60, "crc32 r32, m16": 8}
		forms := []*isa.Form{form(t, order[0]), form(t, order[1])}
		timed, err := MixNTimed(forms, []int{counts[order[0]], counts[order[1]]}, times)
		if err != nil {
			t.Fatal(err)
		}
		even, err := MixN(forms, []int{counts[order[0]], counts[order[1]]})
		if err != nil {
			t.Fatal(err)
		}
		least := 12.6 // 60 * 0.21
		d := chainDepths(timed)
		for _, f := range order {
			mn := strings.Fields(f)[0]
			if chain := float64(d[mn]) * times[f].Latency; chain > least {
				t.Errorf("%v: %s chains %d deep a copy (%.0f cycles), more than the %.1f the mix takes at least\n%s", order, f, d[mn], chain, least, timed.Snippet.Source)
			}
		}
		if de := chainDepths(even); order[1] == "add r64, r64" && de["add"] < 10 {
			t.Errorf("split evenly, the adds chain %d deep: the test no longer shows what the times change", de["add"])
		}
	}
}

// With times, a read-modify-write stream's copy need only outlast its
// chain through memory, not cover 32 slots: 1 sbb m16, imm16 a round
// beside 8 xorpd, 7 cmovg r32, m32 and 8 cmp m16, imm16 made copies of
// 768 instructions, which read 501 and 1,243 cycles in two sweeps.
func TestMixTimedKeepsReadModifyWriteCopiesShort(t *testing.T) {
	names := []string{"xorpd xmm, xmm", "cmovg r32, m32", "cmp m16, imm16", "sbb m16, imm16"}
	counts := []int{8, 7, 8, 1}
	times := FormTimes{
		"xorpd xmm, xmm": {Latency: 1, Throughput: 0.33},
		"cmovg r32, m32": {Latency: 1, Throughput: 0.5},
		"cmp m16, imm16": {Latency: 1, Throughput: 0.5},
		"sbb m16, imm16": {Latency: 1, Throughput: 3.34, MemoryLatency: 8},
	}
	var forms []*isa.Form
	for _, n := range names {
		forms = append(forms, form(t, n))
	}
	timed, err := MixNTimed(forms, counts, times)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := MixN(forms, counts)
	if err != nil {
		t.Fatal(err)
	}
	count := func(b *Bench, f string) int {
		for _, p := range b.Mix {
			if p.Form == f {
				return p.Count
			}
		}
		return 0
	}
	if n := count(plain, "sbb m16, imm16"); n < rmwSlots {
		t.Errorf("without times: %d sbb a copy, want %d (every slot)", n, rmwSlots)
	}
	reps := count(timed, "sbb m16, imm16")
	round := 4.0 // 8 * 0.5
	if float64(reps)*round < rmwMargin*8 || reps >= rmwSlots {
		t.Errorf("with times: %d rounds a copy (%.0f cycles), want the fewest that outlast %v x the 8-cycle chain", reps, float64(reps)*round, rmwMargin)
	}
	// Each sbb of a copy on a slot of its own.
	slots := map[string]bool{}
	for _, l := range lines(timed) {
		if strings.HasPrefix(l, "sbb ") {
			if slots[l] {
				t.Errorf("two sbb of a copy on one slot: %q", l)
			}
			slots[l] = true
		}
	}
}

// TestMixN: mixes of three and four forms keep the counts' proportions,
// spread each form over the copy, and give every stream its own registers.
func TestMixN(t *testing.T) {
	forms := []*isa.Form{form(t, "vfmadd231pd ymm, ymm, ymm"), form(t, "imul r64, r64"), form(t, "vaddpd ymm, ymm, ymm"), form(t, "add r64, r64")}
	counts := []int{2, 1, 3, 2}
	b, err := MixN(forms, counts)
	if err != nil {
		t.Fatal(err)
	}
	reps := b.Mix[0].Count / counts[0]
	total := 0
	for i, p := range b.Mix {
		if p.Form != forms[i].Name() || p.Count != counts[i]*reps {
			t.Fatalf("part %d = %+v, want %d x %q", i, p, counts[i]*reps, forms[i].Name())
		}
		total += p.Count
	}
	if b.Snippet.Instructions != total || len(lines(b)) != total {
		t.Fatalf("%d instructions, %d lines, want %d", b.Snippet.Instructions, len(lines(b)), total)
	}
	dst := map[string]string{} // register -> the mnemonic writing it
	seen := map[string]int{}
	for k, l := range lines(b) {
		f := strings.Fields(strings.NewReplacer(",", " ").Replace(l))
		seen[f[0]]++
		if w, ok := dst[f[1]]; ok && w != f[0] {
			t.Errorf("register %s written by %s and %s", f[1], w, f[0])
		}
		dst[f[1]] = f[0]
		// Evenly spread: in every window of one round (8 slots) each form
		// appears its count, give or take one.
		if k+1 >= 8 && (k+1)%8 == 0 {
			for i, x := range forms {
				if d := seen[x.Mnemonic] - counts[i]*(k+1)/8; d < -1 || d > 1 {
					t.Errorf("after %d slots %d x %s, want about %d", k+1, seen[x.Mnemonic], x.Mnemonic, counts[i]*(k+1)/8)
				}
			}
		}
	}
	if got := MixCountsN([]float64{0.25, 1, 0.5, 20}); got[0] != 8 || got[1] != 8 || got[2] != 8 || got[3] != 1 {
		t.Errorf("MixCountsN = %v, want [8 8 8 1] (capped at 8)", got)
	}
	if got := MixCountsN([]float64{0.25, 1, 0.5}); got[0] != 4 || got[1] != 1 || got[2] != 2 {
		t.Errorf("MixCountsN = %v, want [4 1 2]", got)
	}
	if _, err := MixN(forms[:1], counts[:1]); err == nil {
		t.Error("a mix of one form should fail")
	}
}

func TestUnmeasurableReasons(t *testing.T) {
	cases := map[string]string{
		"hlt":          "privileged",
		"jmp rel32":    "control flow",
		"push r64":     "stack",
		"fadd st, m64": "x87",
		"ud2":          "traps",
	}
	for name, want := range cases {
		f, ok := isa.Lookup(name)
		if !ok {
			continue
		}
		if got := Unmeasurable(f); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to mention %q", name, got, want)
		}
	}
	if got := Unmeasurable(form(t, "add r64, r64")); got != "" {
		t.Errorf("add r64, r64 unmeasurable: %q", got)
	}
}

// Every measurable catalog form generates benchmarks, and every generated
// snippet assembles (one batched run of GNU as).
func TestEveryFormGeneratesAssemblableSnippets(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	var units []*jit.Unit
	var owners []string
	measurable, generated := 0, 0
	for _, f := range isa.All() {
		if Unmeasurable(f) != "" {
			continue
		}
		measurable++
		bs, err := Generate(f)
		if err != nil {
			t.Errorf("%s: %v", f.Name(), err)
			continue
		}
		if len(bs) == 0 {
			t.Errorf("%s: no benchmark", f.Name())
		}
		generated += len(bs)
		for _, b := range bs {
			units = append(units, &jit.Unit{Name: b.Snippet.Name, Source: b.Snippet.Source})
			owners = append(owners, f.Name())
		}
	}
	a := &jit.Assembler{Path: "as"}
	_, errs := a.Assemble(units)
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			if failed <= 20 {
				t.Errorf("%s: %v", owners[i], err)
			}
		}
	}
	t.Logf("%d measurable forms, %d benchmarks generated, %d failed to assemble", measurable, generated, failed)
	if measurable < 9000 {
		t.Errorf("only %d measurable forms", measurable)
	}
}

// TestMixGivesReadModifyWriteFormsAllTheirSlots: a read-modify-write form
// in a mix cycles through all its memory slots in every copy (8 instances of
// sub m16, r16 on 8 slots chained through store forwarding and ran one a
// cycle beside vpmovsqd, two a cycle alone), and two such forms never
// touch one another's bytes.
func TestMixGivesReadModifyWriteFormsAllTheirSlots(t *testing.T) {
	b, err := MixN([]*isa.Form{form(t, "sub m16, r16"), form(t, "vpmovsqd xmm, xmm"), form(t, "add m64, imm8")}, []int{8, 4, 2})
	if err != nil {
		t.Fatal(err)
	}
	file, err := isa.Parse("mix.s", []byte(".intel_syntax noprefix\n"+strings.Join(lines(b), "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	addrs := map[string]map[int64]int{} // mnemonic -> displacement -> instances
	owner := map[int64]string{}         // byte -> mnemonic writing it
	for _, in := range file.Insts() {
		for _, a := range in.Args {
			if a.Type != isa.OpMem {
				continue
			}
			if addrs[in.Mnemonic] == nil {
				addrs[in.Mnemonic] = map[int64]int{}
			}
			addrs[in.Mnemonic][a.Mem.Disp]++
			size := map[string]int64{"sub": 2, "add": 8}[in.Mnemonic]
			for d := a.Mem.Disp; d < a.Mem.Disp+size; d++ {
				if w, ok := owner[d]; ok && w != in.Mnemonic {
					t.Fatalf("byte %d written by %s and %s", d, w, in.Mnemonic)
				}
				owner[d] = in.Mnemonic
			}
		}
	}
	for _, mn := range []string{"sub", "add"} {
		if len(addrs[mn]) != rmwSlots {
			t.Errorf("%s on %d addresses per copy, want %d", mn, len(addrs[mn]), rmwSlots)
		}
		lo, hi := 1<<30, 0
		for _, n := range addrs[mn] {
			lo, hi = min(lo, n), max(hi, n)
		}
		if hi > lo+1 {
			t.Errorf("%s: %d to %d instances per address in one copy, want them even", mn, lo, hi)
		}
	}
}

// chainDepths returns, per mnemonic, the most instances one destination
// register of it takes in a copy of a mix.
func chainDepths(b *Bench) map[string]int {
	per := map[string]map[string]int{}
	out := map[string]int{}
	for _, l := range lines(b) {
		f := strings.Fields(strings.NewReplacer(",", " ").Replace(l))
		if per[f[0]] == nil {
			per[f[0]] = map[string]int{}
		}
		per[f[0]][f[1]]++
		out[f[0]] = max(out[f[0]], per[f[0]][f[1]])
	}
	return out
}

// A mix whose chained stream has fewer registers than its chains need is
// refused, naming the form: 6 pshufw mm, m64, imm8 beside 6 pmaddubsw mm,
// mm (latency 3, two a cycle) left pmaddubsw five MMX registers, mm0 took
// two links a copy, and the copy read the chain's 6 cycles where the
// ports allow 3. Without times nothing is judged.
func TestMixRefusesRegisterChains(t *testing.T) {
	forms := []*isa.Form{form(t, "pshufw mm, m64, imm8"), form(t, "pmaddubsw mm, mm")}
	times := FormTimes{
		"pshufw mm, m64, imm8": {Latency: 1, Throughput: 0.5},
		"pmaddubsw mm, mm":     {Latency: 3, Throughput: 0.5},
	}
	_, err := MixNTimed(forms, []int{1, 1}, times)
	if !errors.Is(err, ErrChained) {
		t.Fatalf("err = %v, want ErrChained", err)
	}
	if !strings.Contains(err.Error(), `"pmaddubsw mm, mm"`) || !strings.Contains(err.Error(), "registers") {
		t.Errorf("the error does not name the form and its registers: %v", err)
	}
	if _, err := MixN(forms, []int{1, 1}); err != nil {
		t.Errorf("without times: %v", err)
	}
	// A shorter latency fits in the same registers.
	times["pmaddubsw mm, mm"] = FormTime{Latency: 1, Throughput: 0.5}
	if _, err := MixNTimed(forms, []int{1, 1}, times); err != nil {
		t.Errorf("latency 1: %v", err)
	}
}

// Every mix the generator makes with times keeps each chained register's
// links a copy within the least time of the copy's ports, and a register
// written in part and not read (mov r16, m16) is sized by its one-cycle
// merge, not its load: sized by the load's 5 cycles it left add r64, r64
// three registers for 18 instances, a chain of 6 cycles where the ports
// take 4.5.
func TestMixChainsFitTheCopy(t *testing.T) {
	times := FormTimes{
		"add r64, r64":               {Latency: 1, Throughput: 0.25},
		"imul r64, r64":              {Latency: 3, Throughput: 1},
		"mov r16, m16":               {Latency: 5, Throughput: 0.33},
		"subsd xmm, xmm":             {Latency: 3, Throughput: 0.5},
		"cmpsd xmm, xmm, imm8":       {Latency: 1, Throughput: 0.5},
		"vfmadd231pd ymm, ymm, ymm":  {Latency: 4, Throughput: 0.5},
		"vfnmadd213ps xmm, xmm, xmm": {Latency: 4, Throughput: 0.5},
		"vpaddd ymm, ymm, ymm":       {Latency: 1, Throughput: 0.25},
		"cmovl r16, r16":             {Latency: 1, Throughput: 0.5},
	}
	var names []string
	for n := range times {
		names = append(names, n)
	}
	slices.Sort(names)
	made, refused := 0, []string(nil)
	for _, a := range names {
		for _, b := range names {
			if a >= b {
				continue
			}
			ca, cb := MixCounts(times[a].Throughput, times[b].Throughput)
			m, err := MixNTimed([]*isa.Form{form(t, a), form(t, b)}, []int{ca, cb}, times)
			if errors.Is(err, ErrChained) {
				refused = append(refused, a+" + "+b)
				continue
			}
			if err != nil {
				continue // not a chain (a legacy and a VEX form out of registers together)
			}
			made++
			reps := m.Mix[0].Count / ca
			least := float64(reps) * max(float64(ca)*times[a].Throughput, float64(cb)*times[b].Throughput)
			d := chainDepths(m)
			for _, f := range []string{a, b} {
				fm := form(t, f)
				lat := times[f].Latency
				if f == "mov r16, m16" {
					lat = 1
				}
				if !chained(fm) {
					continue
				}
				if chain := float64(d[fm.Mnemonic]) * lat; chain > chainSlack*least {
					t.Errorf("%s + %s: %s chains %d deep a copy (%.2f cycles) in a copy of %.2f\n%s", a, b, f, d[fm.Mnemonic], chain, least, m.Snippet.Source)
				}
			}
		}
	}
	if made < 30 || len(refused) > 3 {
		t.Errorf("%d mixes made, refused %v: want nearly all pairs made", made, refused)
	}
	if slices.Contains(refused, "add r64, r64 + mov r16, m16") {
		t.Errorf("add r64, r64 beside mov r16, m16 refused: the partial write is sized by its load")
	}
}

// TestDestChain: a form whose vector or MMX destination the catalog calls
// write-only gets a stream of instances all writing one destination
// register (the rest of each instance as in its throughput stream);
// chained forms, general-register destinations and read-modify-writes of
// memory get none.
func TestDestChain(t *testing.T) {
	for _, name := range []string{"vexpandpd ymm, ymm", "vaddpd ymm, ymm, ymm", "cvtpi2pd xmm, mm", "vpcompressd ymm {k}{z}, ymm", "vaddps xmm, xmm, m128"} {
		b, err := DestChain(form(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			t.Fatalf("%s: no destination-chain benchmark", name)
		}
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b.Snippet.Source)
		}
		dests := map[string]bool{}
		n := 0
		for _, in := range file.Insts() {
			f, err := in.ResolveForm()
			if err != nil {
				t.Fatal(err)
			}
			if f.Name() != name {
				continue
			}
			n++
			dests[in.Args[0].Reg.String()] = true
		}
		if n != destChainInstances || len(dests) != 1 || b.Snippet.Instructions != n || b.Kind != KindDestChain || b.Mode != "inverse_throughput" {
			t.Errorf("%s: %d instances over destinations %v, %d counted, kind %s mode %s\n%s", name, n, dests, b.Snippet.Instructions, b.Kind, b.Mode, b.Snippet.Source)
		}
	}
	for _, name := range []string{"add r64, r64", "vfmadd231pd ymm, ymm, ymm", "vpaddd ymm {k}, ymm, ymm", "popcnt r64, r64", "add m64, r64", "vmovups m256, ymm"} {
		if b, err := DestChain(form(t, name)); err != nil || b != nil {
			t.Errorf("%s: %v, %v; want no destination-chain benchmark", name, b, err)
		}
	}
}

// A form that waits for its write-only destination (its stream over one
// destination measured slower than its throughput: vexpandpd ymm, ymm on
// the Zen 4 guest, 4.00 against 0.667) rotates in a mix over the
// registers its chain needs, not two: beside add r64, r64 over two it ran
// 2.00 cycles an instance, where the ports allow 0.667. Without the
// measurement, or when the stream over one destination ran at the
// throughput, two.
func TestMixRotatesFormsThatWaitForTheirDestination(t *testing.T) {
	forms := []*isa.Form{form(t, "vexpandpd ymm, ymm"), form(t, "add r64, r64")}
	expandRegs := func(times FormTimes) (int, int) {
		m, err := MixNTimed(forms, []int{6, 16}, times)
		if err != nil {
			t.Fatal(err)
		}
		regs := map[string]int{}
		deepest := 0
		for _, l := range lines(m) {
			f := strings.Fields(strings.NewReplacer(",", " ").Replace(l))
			if f[0] == "vexpandpd" {
				regs[f[1]]++
				deepest = max(deepest, regs[f[1]])
			}
		}
		return len(regs), deepest
	}
	times := FormTimes{
		"vexpandpd ymm, ymm": {Latency: 4, Throughput: 0.667, DestLatency: 4},
		"add r64, r64":       {Latency: 1, Throughput: 0.25},
	}
	n, deepest := expandRegs(times)
	// A copy's ports take at least 6 x 0.667 = 4 cycles a round: one link
	// of 4 cycles per register and round.
	if n < 6 {
		t.Errorf("a form waiting for its destination rotates over %d registers, want 6 or more", n)
	}
	if m, _ := MixNTimed(forms, []int{6, 16}, times); m != nil {
		rounds := strings.Count(m.Snippet.Source, "vexpandpd") / 6
		if float64(deepest)*4 > chainSlack*float64(rounds)*4 {
			t.Errorf("a register takes %d links a copy of %d rounds", deepest, rounds)
		}
	}
	times["vexpandpd ymm, ymm"] = FormTime{Latency: 4, Throughput: 0.667, DestLatency: 0.667}
	if n, _ := expandRegs(times); n != 2 {
		t.Errorf("a form that does not wait rotates over %d registers, want 2", n)
	}
	delete(times, "vexpandpd ymm, ymm")
	if n, _ := expandRegs(times); n != 2 {
		t.Errorf("without its times %d registers, want 2", n)
	}
}
