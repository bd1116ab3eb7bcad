package isa

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

func mustLookup(t *testing.T, name string) *Form {
	t.Helper()
	f, ok := Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q): not found", name)
	}
	return f
}

func accessList(f *Form) []string {
	var a []string
	for _, op := range f.Operands {
		a = append(a, op.Access.String())
	}
	return a
}

func TestCatalogCounts(t *testing.T) {
	s := Stats()
	if n := len(csvForms); s.Table != n || n != 3188 {
		t.Errorf("table forms = %d, want 3188 (len(csvForms) = %d)", s.Table, len(csvForms))
	}
	if s.Extra != len(repForms)+12 {
		t.Errorf("extra forms = %d, want %d rep forms + 12 AVX2 shifts", s.Extra, len(repForms))
	}
	if s.EVEX != 8518 || s.EVEXDups != 21 {
		t.Errorf("EVEX forms = %d (dropped %d), want 8518 (21)", s.EVEX, s.EVEXDups)
	}
	if s.Total != s.Table+s.Extra+s.EVEX || s.Total != len(All()) {
		t.Errorf("total %d != %d + %d + %d (All has %d)", s.Total, s.Table, s.Extra, s.EVEX, len(All()))
	}
	if s.Total < 2000 {
		t.Errorf("catalog has %d forms, want well over 2000", s.Total)
	}
	sum := 0
	for _, n := range s.ByEncoding {
		sum += n
	}
	if sum != s.Total || s.ByEncoding[Legacy] == 0 || s.ByEncoding[VEX] == 0 || s.ByEncoding[EVEX] == 0 {
		t.Errorf("by encoding %v does not add up to %d", s.ByEncoding, s.Total)
	}
	t.Logf("catalog: %d forms (%d table, %d extra, %d EVEX); by encoding %v", s.Total, s.Table, s.Extra, s.EVEX, s.ByEncoding)
}

// TestCatalogInvariants checks properties every form must have.
func TestCatalogInvariants(t *testing.T) {
	all := All()
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Name() < all[j].Name() }) {
		t.Error("All() is not sorted by name")
	}
	seen := map[string]bool{}
	for _, f := range all {
		name := f.Name()
		if seen[name] {
			t.Errorf("duplicate name %q", name)
		}
		seen[name] = true
		if g, ok := Lookup(name); !ok || g != f {
			t.Errorf("Lookup(%q) does not return the form", name)
		}
		if NormalizeName(name) != name {
			t.Errorf("name %q is not normalized (%q)", name, NormalizeName(name))
		}
		for _, feat := range f.Features {
			if !KnownFeature(feat) {
				t.Errorf("%s: unknown feature %q", name, feat)
			}
		}
		if f.FlagsUndefined&^f.FlagsWritten != 0 {
			t.Errorf("%s: undefined flags %v not among written %v", name, f.FlagsUndefined, f.FlagsWritten)
		}
		if f.GNU == "" {
			t.Errorf("%s: no GNU mnemonic", name)
		}
		for i, op := range f.Operands {
			if op.Access == 0 {
				t.Errorf("%s: operand %d has no access", name, i+1)
			}
			if (op.Masked || op.Zeroing) && i != 0 {
				t.Errorf("%s: mask on operand %d", name, i+1)
			}
		}
		if f.Encoding == EVEX {
			if f.Operands[0].Masked && f.EVEXPrefix {
				t.Errorf("%s: masked form with {evex} prefix", name)
			}
			hasVL := false
			for _, feat := range f.Features {
				hasVL = hasVL || feat == "avx512vl"
			}
			wide := false
			for _, op := range f.Operands {
				wide = wide || op.Kind == KindZMM || op.Kind == KindM512
			}
			if hasVL && wide && f.evex.vl == 512 {
				t.Errorf("%s: 512-bit form needs avx512vl", name)
			}
			if f.evex.bits == 0 {
				t.Errorf("%s: no EVEX metadata", name)
			}
		}
		if f.EVEXPrefix {
			plain := strings.TrimPrefix(name, "{evex} ")
			if g, ok := Lookup(plain); !ok || g.Encoding == EVEX {
				t.Errorf("%s: {evex} prefix but no VEX form %q", name, plain)
			}
		}
	}
}

func TestFeatures(t *testing.T) {
	for name, want := range map[string][]string{
		"vfmadd231pd ymm, ymm, m256":             {"fma"},
		"vfmadd231pd zmm {k}{z}, zmm, m64bcst":   {"avx512f"},
		"{evex} vfmadd231pd ymm, ymm, ymm":       {"avx512f", "avx512vl"},
		"vfmadd231pd ymm {k}, ymm, m64bcst":      {"avx512f", "avx512vl"},
		"vpaddb zmm, zmm, zmm":                   {"avx512bw"},
		"vpaddb ymm {k}{z}, ymm, m256":           {"avx512bw", "avx512vl"},
		"vpmullq zmm, zmm, zmm":                  {"avx512dq"},
		"vcvtqq2pd zmm, m64bcst":                 {"avx512dq"},
		"vandps zmm, zmm, zmm":                   {"avx512dq"},
		"vpandd zmm, zmm, m32bcst":               {"avx512f"},
		"vpternlogd ymm, ymm, ymm, imm8":         {"avx512f", "avx512vl"},
		"vpopcntq zmm, zmm":                      {"avx512_vpopcntdq"},
		"vpopcntb xmm, xmm":                      {"avx512_bitalg", "avx512vl"},
		"vpermb zmm, zmm, zmm":                   {"avx512vbmi"},
		"vpdpbusd zmm, zmm, zmm":                 {"avx512_vnni"},
		"vplzcntd zmm, zmm":                      {"avx512cd"},
		"{evex} vaddss xmm, xmm, xmm":            {"avx512f"},
		"{evex} vmovq xmm, r64":                  {"avx512f"},
		"kmovw k, k":                             {"avx512f"},
		"kmovb k, r32":                           {"avx512dq"},
		"kmovq k, r64":                           {"avx512bw"},
		"kaddw k, k, k":                          {"avx512dq"},
		"vaddpd ymm, ymm, ymm":                   {"avx"},
		"vpaddd ymm, ymm, ymm":                   {"avx2"},
		"vpslld ymm, ymm, imm8":                  {"avx2"},
		"addpd xmm, xmm":                         {"sse2"},
		"pshufb xmm, xmm":                        {"ssse3"},
		"pminsd xmm, xmm":                        {"sse4_1"},
		"crc32 r64, r64":                         {"sse4_2"},
		"popcnt r64, r64":                        {"popcnt"},
		"lzcnt r64, r64":                         {"lzcnt"},
		"tzcnt r64, r64":                         {"bmi1"},
		"andn r64, r64, r64":                     {"bmi1"},
		"shlx r64, r64, r64":                     {"bmi2"},
		"adcx r64, r64":                          {"adx"},
		"aesenc xmm, xmm":                        {"aes"},
		"vaesenc xmm, xmm, xmm":                  {"aes", "avx"},
		"pclmulqdq xmm, xmm, imm8":               {"pclmulqdq"},
		"vpclmulqdq xmm, xmm, xmm, imm8":         {"avx", "pclmulqdq"},
		"vcvtph2ps ymm, xmm":                     {"f16c"},
		"cmovb r64, r64":                         {"cmov"},
		"cmpxchg16b m128":                        {"cx16"},
		"fadd st(0), st":                         {"x87"},
		"fcmovb st(0), st":                       {"cmov", "x87"},
		"paddb mm, mm":                           {"mmx"},
		"movbe r64, m64":                         {"movbe"},
		"rdrand r64":                             {"rdrand"},
		"lahf":                                   {"lahf_lm"},
		"xtest":                                  {"rtm"},
		"prefetchw m8":                           {"prefetchw"},
		"rdpkru":                                 {"pku"},
		"add r64, r64":                           nil,
		"vcvtdq2pd zmm {k}{z}, m32bcst":          {"avx512f"},
		"vcmpps k {k}, ymm, ymm, imm8":           {"avx512f", "avx512vl"},
		"vpcmpeqb k, zmm, zmm":                   {"avx512bw"},
		"vinserti32x8 zmm, zmm, ymm, imm8":       {"avx512dq"},
		"vextracti64x4 m256 {k}, zmm, imm8":      {"avx512f"},
		"vpbroadcastd zmm {k}{z}, r32":           {"avx512f"},
		"vpcompressb m512 {k}, zmm":              {"avx512_vbmi2"},
		"vpmadd52luq zmm, zmm, m64bcst":          {"avx512ifma"},
		"vpmovqd ymm {k}{z}, zmm":                {"avx512f"},
		"vpmovm2b zmm, k":                        {"avx512bw"},
		"vfixupimmsd xmm {k}{z}, xmm, m64, imm8": {"avx512f"},
	} {
		f := mustLookup(t, name)
		if !reflect.DeepEqual(f.Features, want) && !(len(f.Features) == 0 && len(want) == 0) {
			t.Errorf("%s: features %v, want %v", name, f.Features, want)
		}
	}
}

func TestAccess(t *testing.T) {
	for name, want := range map[string]string{
		"add r64, r64":                        "rw r",
		"add m64, imm8":                       "rw r",
		"mov r64, m64":                        "w r",
		"mov m64, r64":                        "w r",
		"cmp r64, r64":                        "r r",
		"sbb r8, r8":                          "rw r",
		"cmovb r64, r64":                      "rcw r",
		"cmove r32, m32":                      "rcw r",
		"fcmovb st(0), st":                    "rcw r",
		"sete r8":                             "w",
		"xchg r64, r64":                       "rw rw",
		"xadd r64, r64":                       "rw rw",
		"div r64":                             "r",
		"mul m32":                             "r",
		"imul r64":                            "r",
		"imul r64, r64":                       "rw r",
		"imul r64, r64, imm8":                 "w r r",
		"shl r64, cl":                         "rw r",
		"rcl r8, 1":                           "rw r",
		"bsf r64, r64":                        "rcw r",
		"lea r64, m":                          "w r",
		"vfmadd231pd ymm, ymm, ymm":           "rw r r",
		"vaddpd ymm, ymm, m256":               "w r r",
		"vaddpd zmm {k}, zmm, zmm":            "rcw r r",
		"vaddpd zmm {k}{z}, zmm, zmm":         "w r r",
		"vfmadd231pd zmm {k}, zmm, m64bcst":   "rcw r r",
		"vfmadd231pd zmm {k}{z}, zmm, zmm":    "rw r r",
		"vmovaps m512 {k}, zmm":               "cw r",
		"vmovaps m512, zmm":                   "w r",
		"vcmpps k {k}, zmm, zmm, imm8":        "w r r r",
		"vpternlogq zmm, zmm, m64bcst, imm8":  "rw r r r",
		"movss xmm, xmm":                      "rw r",
		"movss xmm, m32":                      "w r",
		"sqrtsd xmm, m64":                     "rw r",
		"cvtsi2sd xmm, r64":                   "rw r",
		"vsqrtsd xmm, xmm, xmm":               "w r r",
		"pinsrw mm, r32, imm8":                "rw r r",
		"vmaskmovps m256, ymm, ymm":           "cw r r",
		"kandw k, k, k":                       "w r r",
		"kortestw k, k":                       "r r",
		"mulx r64, r64, r64":                  "w w r",
		"vextractf32x4 xmm {k}{z}, zmm, imm8": "w r r",
		"vextractf32x4 m128 {k}, zmm, imm8":   "cw r r",
	} {
		f := mustLookup(t, name)
		if got := strings.Join(accessList(f), " "); got != want {
			t.Errorf("%s: access %q, want %q", name, got, want)
		}
	}
}

func TestFlags(t *testing.T) {
	for _, c := range []struct {
		name    string
		r, w, u Flag
	}{
		{"add r64, r64", 0, AllArith, 0},
		{"adc r64, r64", CF, AllArith, 0},
		{"sbb r64, imm8", CF, AllArith, 0},
		{"cmp r64, m64", 0, AllArith, 0},
		{"test r64, r64", 0, AllArith, AF},
		{"and r64, r64", 0, AllArith, AF},
		{"xor r32, r32", 0, AllArith, AF},
		{"inc r64", 0, AllArith &^ CF, 0},
		{"dec m32", 0, AllArith &^ CF, 0},
		{"neg r64", 0, AllArith, 0},
		{"not r64", 0, 0, 0},
		{"shl r64, 1", 0, AllArith, AF},
		{"shl r64, imm8", 0, AllArith, AF | OF},
		{"shl r64, cl", AllArith, AllArith, AF | OF},
		{"sar r32, imm8", 0, AllArith, AF | OF},
		{"rol r64, imm8", 0, CF | OF, OF},
		{"ror r64, cl", CF | OF, CF | OF, OF},
		{"rcl r64, 1", CF, CF | OF, 0},
		{"rcr r64, imm8", CF, CF | OF, OF},
		{"bt r64, r64", 0, CF | OF | SF | AF | PF, OF | SF | AF | PF},
		{"bts m64, imm8", 0, CF | OF | SF | AF | PF, OF | SF | AF | PF},
		{"bsf r64, r64", 0, AllArith, CF | OF | SF | AF | PF},
		{"lzcnt r64, r64", 0, AllArith, OF | SF | PF | AF},
		{"tzcnt r32, m32", 0, AllArith, OF | SF | PF | AF},
		{"popcnt r64, r64", 0, AllArith, 0},
		{"imul r64, r64", 0, AllArith, SF | ZF | AF | PF},
		{"mul r64", 0, AllArith, SF | ZF | AF | PF},
		{"div r64", 0, AllArith, AllArith},
		{"cmovb r64, r64", CF, 0, 0},
		{"cmovbe r64, r64", CF | ZF, 0, 0},
		{"cmovle r64, r64", ZF | SF | OF, 0, 0},
		{"setg r8", ZF | SF | OF, 0, 0},
		{"jne rel8", ZF, 0, 0},
		{"jp rel32", PF, 0, 0},
		{"adcx r64, r64", CF, CF, 0},
		{"adox r64, r64", OF, OF, 0},
		{"andn r64, r64, r64", 0, AllArith, AF | PF},
		{"blsi r64, r64", 0, AllArith, AF | PF},
		{"bextr r64, r64, r64", 0, AllArith, AF | SF | PF},
		{"bzhi r64, r64, r64", 0, AllArith, AF | PF},
		{"shlx r64, r64, r64", 0, 0, 0},
		{"sarx r64, r64, r64", 0, 0, 0},
		{"shrx r32, m32, r32", 0, 0, 0},
		{"rorx r64, r64, imm8", 0, 0, 0},
		{"pdep r64, r64, r64", 0, 0, 0},
		{"mulx r64, r64, r64", 0, 0, 0},
		{"comisd xmm, xmm", 0, AllArith, 0},
		{"vucomiss xmm, m32", 0, AllArith, 0},
		{"ptest xmm, xmm", 0, AllArith, 0},
		{"vptest ymm, ymm", 0, AllArith, 0},
		{"kortestw k, k", 0, AllArith, 0},
		{"stc", 0, CF, 0},
		{"cmc", CF, CF, 0},
		{"cld", 0, DF, 0},
		{"lahf", SF | ZF | AF | PF | CF, 0, 0},
		{"sahf", 0, SF | ZF | AF | PF | CF, 0},
		{"pushfq", AllArith | DF, 0, 0},
		{"popfq", 0, AllArith | DF, 0},
		{"rep movsb", DF, 0, 0},
		{"repe cmpsb", DF, AllArith, 0},
		{"movsd", DF, 0, 0},
		{"movsd xmm, xmm", 0, 0, 0},
		{"cmpsd", DF, AllArith, 0},
		{"cmpsd xmm, xmm, imm8", 0, 0, 0},
		{"fcomi st(0), st", 0, AllArith, 0},
		{"fcmovu st(0), st", PF, 0, 0},
		{"rdrand r64", 0, AllArith, 0},
		{"loope rel8", ZF, 0, 0},
		{"vaddpd zmm, zmm, zmm", 0, 0, 0},
		{"lea r64, m", 0, 0, 0},
		{"mov r64, r64", 0, 0, 0},
	} {
		f := mustLookup(t, c.name)
		if f.FlagsRead != c.r || f.FlagsWritten != c.w|c.u || f.FlagsUndefined != c.u {
			t.Errorf("%s: flags read %v written %v undefined %v, want %v / %v / %v",
				c.name, f.FlagsRead, f.FlagsWritten, f.FlagsUndefined, c.r, c.w|c.u, c.u)
		}
	}
}

func TestImplicitRegisters(t *testing.T) {
	for _, c := range []struct {
		name          string
		reads, writes string
	}{
		{"div r64", "rax rdx", "rax rdx"},
		{"idiv r32", "eax edx", "eax edx"},
		{"div r8", "ax", "ax"},
		{"mul r64", "rax", "rax rdx"},
		{"imul m16", "ax", "ax dx"},
		{"mul r8", "al", "ax"},
		{"imul r64, r64", "", ""},
		{"shl r64, cl", "cl", ""},
		{"shrd r64, r64, cl", "cl", ""},
		{"rcr m8, cl", "cl", ""},
		{"add al, imm8", "al", "al"},
		{"add rax, imm32", "rax", "rax"},
		{"cqo", "rax", "rdx"},
		{"cdq", "eax", "edx"},
		{"cbw", "al", "ax"},
		{"cmpxchg r64, r64", "rax", "rax"},
		{"cmpxchg m8, r8", "al", "al"},
		{"cmpxchg16b m128", "rax rdx rbx rcx", "rax rdx"},
		{"push r64", "rsp", "rsp"},
		{"pop m64", "rsp", "rsp"},
		{"call rel32", "rsp", "rsp"},
		{"ret", "rsp", "rsp"},
		{"leave", "rbp", "rsp rbp"},
		{"pushfq", "rsp", "rsp"},
		{"cpuid", "eax ecx", "eax ebx ecx edx"},
		{"rdtsc", "", "eax edx"},
		{"rdtscp", "", "eax edx ecx"},
		{"lahf", "", "ah"},
		{"sahf", "ah", ""},
		{"xchg r64, rax", "rax", "rax"},
		{"loop rel8", "rcx", "rcx"},
		{"jrcxz rel8", "rcx", ""},
		{"xlatb", "al rbx", "al"},
		{"mulx r64, r64, r64", "rdx", ""},
		{"mulx r32, r32, m32", "edx", ""},
		{"movsb", "rsi rdi", "rsi rdi"},
		{"movsd", "rsi rdi", "rsi rdi"},
		{"movsd xmm, m64", "", ""},
		{"stosq", "rax rdi", "rdi"},
		{"lodsb", "rsi", "al rsi"},
		{"rep movsb", "rsi rdi rcx", "rsi rdi rcx"},
		{"rep stosq", "rax rdi rcx", "rdi rcx"},
		{"repne scasb", "al rdi rcx", "rdi rcx"},
		{"blendvpd xmm, xmm, xmm0", "xmm0", ""},
		{"pcmpistri xmm, xmm, imm8", "", "ecx"},
		{"pcmpestrm xmm, m128, imm8", "eax edx", "xmm0"},
		{"maskmovdqu xmm, xmm", "rdi", ""},
		{"in al, dx", "dx", "al"},
		{"out dx, eax", "dx eax", ""},
		{"xsave m", "eax edx", ""},
		{"add r64, r64", "", ""},
	} {
		f := mustLookup(t, c.name)
		if got := strings.Join(f.ImplicitReads, " "); got != c.reads {
			t.Errorf("%s: implicit reads %q, want %q", c.name, got, c.reads)
		}
		if got := strings.Join(f.ImplicitWrites, " "); got != c.writes {
			t.Errorf("%s: implicit writes %q, want %q", c.name, got, c.writes)
		}
	}
	if f := mustLookup(t, "vzeroupper"); len(f.ImplicitWrites) != 16 || f.ImplicitWrites[15] != "ymm15" {
		t.Errorf("vzeroupper writes %v", f.ImplicitWrites)
	}
	// "shl r64, cl" reads rcx (as cl).
	f := mustLookup(t, "shl r64, cl")
	reads := false
	for _, r := range f.ImplicitReads {
		reads = reads || RegFamily(r) == "rcx"
	}
	if !reads {
		t.Errorf("shl r64, cl does not read rcx")
	}
}

func TestRegFamily(t *testing.T) {
	for in, want := range map[string]string{
		"cl": "rcx", "ah": "rax", "eax": "rax", "rdx": "rdx", "sil": "rsi", "r8d": "r8", "r15b": "r15",
		"r9w": "r9", "r10": "r10", "xmm3": "zmm3", "ymm17": "zmm17", "zmm2": "zmm2", "k1": "k1", "RSP": "rsp",
	} {
		if got := RegFamily(in); got != want {
			t.Errorf("RegFamily(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAttrs(t *testing.T) {
	for name, want := range map[string]Attr{
		"add r64, r64":         0,
		"jmp rel32":            AttrBranch,
		"jne rel8":             AttrBranch,
		"call rel32":           AttrBranch | AttrStack,
		"ret":                  AttrBranch | AttrStack,
		"push r64":             AttrStack,
		"pop r64":              AttrStack,
		"cpuid":                AttrSerializing,
		"hlt":                  AttrPrivileged,
		"mov cr, r64":          AttrPrivileged | AttrSerializing,
		"rdmsr":                AttrPrivileged,
		"in al, dx":            AttrPrivileged,
		"fadd st(0), st":       AttrX87,
		"fwait":                AttrX87,
		"paddb mm, mm":         AttrMMX,
		"cvtpi2ps xmm, mm":     AttrMMX,
		"emms":                 AttrMMX,
		"movsb":                AttrString,
		"movsd":                AttrString,
		"movsd xmm, xmm":       0,
		"rep movsb":            AttrString | AttrRep,
		"ud2":                  AttrTrap,
		"int imm8":             AttrTrap | AttrBranch | AttrStack,
		"syscall":              AttrBranch | AttrSystem,
		"mov sreg, r16":        AttrSystem,
		"wrfsbase r64":         AttrSystem,
		"xbegin rel32":         AttrBranch | AttrTSX,
		"xend":                 AttrTSX,
		"loop rel8":            AttrBranch,
		"vaddpd zmm, zmm, zmm": 0,
	} {
		f := mustLookup(t, name)
		if f.Attrs != want {
			t.Errorf("%s: attrs %v, want %v", name, f.Attrs, want)
		}
	}
	if f := mustLookup(t, "add r64, r64"); !f.Runnable() {
		t.Error("add r64, r64 not runnable")
	}
	if f := mustLookup(t, "push r64"); !f.Runnable() || !f.Has(AttrStack) {
		t.Error("push r64 should be runnable and marked stack")
	}
	for _, name := range []string{"jmp rel8", "hlt", "ud2", "xend", "mov sreg, m16"} {
		if mustLookup(t, name).Runnable() {
			t.Errorf("%s should not be runnable", name)
		}
	}
	if s := (AttrBranch | AttrStack).String(); s != "branch|stack" {
		t.Errorf("Attr.String = %q", s)
	}
}

func TestLookupLenient(t *testing.T) {
	f := mustLookup(t, "vaddpd zmm {k}{z}, zmm, zmm")
	for _, in := range []string{
		"vaddpd zmm {k}{z}, zmm, zmm",
		"  VADDPD  ZMM{K}{Z} ,zmm,zmm ",
		"vaddpd zmm {k} {z}, zmm, zmm",
		"vaddpd\tzmm{k}{z},\tzmm, zmm",
	} {
		if g, ok := Lookup(in); !ok || g != f {
			t.Errorf("Lookup(%q) did not find %q", in, f.Name())
		}
	}
	e := mustLookup(t, "{evex} vaddpd ymm, ymm, ymm")
	if g, ok := Lookup("{EVEX}vaddpd ymm,ymm,ymm"); !ok || g != e {
		t.Errorf("Lookup of {evex} form without space failed")
	}
	if g, ok := Lookup("cmovc r64, r64"); !ok || g.Name() != "cmovb r64, r64" {
		t.Errorf("alias cmovc: %v %v", g, ok)
	}
	if g, ok := Lookup("sal r64, cl"); !ok || g.Name() != "shl r64, cl" {
		t.Errorf("alias sal: %v %v", g, ok)
	}
	if g, ok := Lookup("REP  MOVSB"); !ok || g.Name() != "rep movsb" {
		t.Errorf("rep movsb: %v %v", g, ok)
	}
	for _, bad := range []string{"", "add", "add r64", "nosuch r64, r64", "add r64, r64, r64", "{evex}", ","} {
		if _, ok := Lookup(bad); ok {
			t.Errorf("Lookup(%q) found a form", bad)
		}
	}
}

func TestByMnemonic(t *testing.T) {
	add := ByMnemonic("ADD")
	// Accumulator forms (4), register destinations (r8..r64 x reg, mem,
	// imm8, immN: 15) and memory destinations (11).
	if len(add) != 30 {
		var names []string
		for _, f := range add {
			names = append(names, f.Name())
		}
		t.Errorf("ByMnemonic(add) = %d forms, want 30: %v", len(add), names)
	}
	for _, f := range add {
		if f.Mnemonic != "add" {
			t.Errorf("ByMnemonic(add) returned %q", f.Name())
		}
	}
	je, jz := ByMnemonic("je"), ByMnemonic("jz")
	if len(je) != 2 || !reflect.DeepEqual(je, jz) {
		t.Errorf("jz/je: %v / %v", jz, je)
	}
	if fs := ByMnemonic("rep movsb"); len(fs) != 1 {
		t.Errorf("rep movsb: %v", fs)
	}
	if fs := ByMnemonic("nosuch"); fs != nil {
		t.Errorf("nosuch: %v", fs)
	}
	// vaddpd: 4 VEX forms, and 27 EVEX ones: 3 lengths x (register,
	// memory, broadcast) x (unmasked, {k}, {k}{z}).
	if n := len(ByMnemonic("vaddpd")); n != 4+27 {
		t.Errorf("vaddpd has %d forms, want 31", n)
	}
}

func TestSupported(t *testing.T) {
	has := func(set ...string) func(string) bool {
		return func(f string) bool {
			for _, s := range set {
				if s == f {
					return true
				}
			}
			return false
		}
	}
	zen4 := has("sse2", "avx", "avx2", "fma", "avx512f", "avx512vl", "avx512bw", "avx512dq")
	avx2only := has("sse2", "avx", "avx2", "fma")
	for _, c := range []struct {
		name       string
		zen4, avx2 bool
	}{
		{"add r64, r64", true, true},
		{"vfmadd231pd ymm, ymm, m256", true, true},
		{"{evex} vfmadd231pd ymm, ymm, ymm", true, false},
		{"vfmadd231pd zmm {k}{z}, zmm, m64bcst", true, false},
		{"vpaddb zmm, zmm, zmm", true, false},
		{"vpopcntq zmm, zmm", false, false},
	} {
		f := mustLookup(t, c.name)
		if (len(f.MissingFeatures(zen4)) == 0) != c.zen4 {
			t.Errorf("%s: MissingFeatures = %v", c.name, f.MissingFeatures(zen4))
		}
		if f.Supported(zen4) != c.zen4 || f.Supported(avx2only) != c.avx2 {
			t.Errorf("%s: supported %v/%v, want %v/%v", c.name, f.Supported(zen4), f.Supported(avx2only), c.zen4, c.avx2)
		}
	}
	f := mustLookup(t, "{evex} vpaddb ymm, ymm, ymm")
	if got := f.MissingFeatures(avx2only); !reflect.DeepEqual(got, []string{"avx512bw", "avx512vl"}) {
		t.Errorf("MissingFeatures = %v", got)
	}
}
