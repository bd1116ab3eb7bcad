package isa

import (
	"strings"
	"testing"
)

func TestExample(t *testing.T) {
	for _, c := range []struct{ name, intel, att string }{
		{"add r64, r64", "add rbx, rcx", "addq %rcx, %rbx"},
		{"mov r64, m64", "mov rbx, qword ptr [rdi+64]", "movq 64(%rdi), %rbx"},
		{"mov m8, imm8", "mov byte ptr [rdi+64], 1", "movb $1, 64(%rdi)"},
		{"add r64, imm32", "add rbx, 4096", "addq $4096, %rbx"},
		{"shl r64, imm8", "shl rbx, 2", "shlq $2, %rbx"},
		{"shl r64, 1", "shl rbx, 1", "shlq $1, %rbx"},
		{"shl r64, cl", "shl rbx, cl", "shlq %cl, %rbx"},
		{"movzx r32, m8", "movzx ebx, byte ptr [rdi+64]", "movzbl 64(%rdi), %ebx"},
		{"lea r64, m", "lea rbx, [rdi+64]", "leaq 64(%rdi), %rbx"},
		{"mov r64, imm64", "movabs rbx, 4096", "movabsq $4096, %rbx"},
		{"mov al, moffs64", "movabs al, byte ptr [0x1000]", "movabsb 0x1000, %al"},
		{"vaddpd zmm {k}{z}, zmm, m64bcst", "vaddpd zmm1 {k1}{z}, zmm2, qword ptr [rdi]{1to8}", "vaddpd (%rdi){1to8}, %zmm2, %zmm1{%k1}{z}"},
		{"vcvtps2pd zmm, m32bcst", "vcvtps2pd zmm1, dword ptr [rdi]{1to8}", "vcvtps2pd (%rdi){1to8}, %zmm1"},
		{"vmovaps m512 {k}, zmm", "vmovaps zmmword ptr [rdi+64] {k1}, zmm1", "vmovaps %zmm1, 64(%rdi){%k1}"},
		{"vcmpps k {k}, zmm, m32bcst, imm8", "vcmpps k2 {k1}, zmm1, dword ptr [rdi]{1to16}, 1", "vcmpps $1, (%rdi){1to16}, %zmm1, %k2{%k1}"},
		{"{evex} vaddpd ymm, ymm, ymm", "{evex} vaddpd ymm1, ymm2, ymm3", "{evex} vaddpd %ymm3, %ymm2, %ymm1"},
		{"vcvtpd2ps xmm, m256", "vcvtpd2ps xmm1, ymmword ptr [rdi+64]", "vcvtpd2psy 64(%rdi), %xmm1"},
		{"vcvtpd2ps xmm {k}, m256", "vcvtpd2ps xmm1 {k1}, ymmword ptr [rdi+64]", "vcvtpd2psy 64(%rdi), %xmm1{%k1}"},
		{"blendvps xmm, xmm, xmm0", "blendvps xmm1, xmm2, xmm0", "blendvps %xmm0, %xmm2, %xmm1"},
		{"fadd st(0), st", "fadd st, st(1)", "fadd %st(1), %st"},
		{"jmp rel32", "{disp32} jmp .", "{disp32} jmp ."},
		{"jne rel8", "jne .", "jne ."},
		{"jmp r64", "jmp rbx", "jmpq *%rbx"},
		{"call m64", "call qword ptr [rdi+64]", "callq *64(%rdi)"},
		{"enter imm16, imm8", "enter 4096, 1", "enterq $4096, $1"},
		{"int 3", "int 3", "int $3"},
		{"rep movsb", "rep movsb", "rep movsb"},
		{"kmovw k, k", "kmovw k2, k3", "kmovw %k3, %k2"},
		{"paddb mm, mm", "paddb mm1, mm2", "paddb %mm2, %mm1"},
		{"in al, dx", "in al, dx", "inb %dx, %al"},
	} {
		f := mustLookup(t, c.name)
		intel, att := f.Example()
		if intel != c.intel || att != c.att {
			t.Errorf("%s: Example = %q, %q; want %q, %q", c.name, intel, att, c.intel, c.att)
		}
	}
}

func TestInstantiate(t *testing.T) {
	f := mustLookup(t, "vfmadd231pd zmm {k}{z}, zmm, m512")
	intel, att, err := f.Instantiate([]Arg{
		{Reg: "zmm17", Mask: "k3"},
		{Reg: "ZMM30"},
		{Mem: &MemRef{Base: "r12", Index: "rax", Scale: 8, Disp: -128}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "vfmadd231pd zmm17 {k3}{z}, zmm30, zmmword ptr [r12+rax*8-128]"; intel != want {
		t.Errorf("intel %q, want %q", intel, want)
	}
	if want := "vfmadd231pd -128(%r12,%rax,8), %zmm30, %zmm17{%k3}{z}"; att != want {
		t.Errorf("att %q, want %q", att, want)
	}

	f = mustLookup(t, "mov r32, m32")
	intel, att, err = f.Instantiate([]Arg{{Reg: "r9d"}, {Mem: &MemRef{Base: "rip", Disp: 4096}}})
	if err != nil || intel != "mov r9d, dword ptr [rip+4096]" || att != "movl 4096(%rip), %r9d" {
		t.Errorf("rip-relative: %q %q %v", intel, att, err)
	}
	intel, att, err = f.Instantiate([]Arg{{Reg: "eax"}, {Mem: &MemRef{Index: "rcx", Scale: 4}}})
	if err != nil || intel != "mov eax, dword ptr [rcx*4]" || att != "movl (,%rcx,4), %eax" {
		t.Errorf("index only: %q %q %v", intel, att, err)
	}

	f = mustLookup(t, "shl r8, cl")
	intel, att, err = f.Instantiate([]Arg{{Reg: "sil"}, {}})
	if err != nil || intel != "shl sil, cl" || att != "shlb %cl, %sil" {
		t.Errorf("fixed operand: %q %q %v", intel, att, err)
	}
	f = mustLookup(t, "jne rel32")
	intel, att, err = f.Instantiate([]Arg{{Label: "loop_top"}})
	if err != nil || intel != "{disp32} jne loop_top" || att != "{disp32} jne loop_top" {
		t.Errorf("label: %q %q %v", intel, att, err)
	}
	f = mustLookup(t, "imul r64, r64, imm8")
	if _, att, err = f.Instantiate([]Arg{{Reg: "r15"}, {Reg: "r14"}, {Imm: -3}}); err != nil || att != "imulq $-3, %r14, %r15" {
		t.Errorf("negative immediate: %q %v", att, err)
	}
}

func TestInstantiateErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []Arg
		want string
	}{
		{"add r64, r64", []Arg{{Reg: "rax"}}, "1 operands given, want 2"},
		{"add r64, r64", []Arg{{Reg: "eax"}, {Reg: "rbx"}}, `register "eax" does not fit r64`},
		{"add r64, r64", []Arg{{Reg: "rax"}, {}}, "needs Reg"},
		{"add r32, r32", []Arg{{Reg: "r8w"}, {Reg: "ebx"}}, `"r8w" does not fit r32`},
		{"add r64, imm8", []Arg{{Reg: "rax"}, {Imm: 300}}, "does not fit imm8"},
		{"add r64, imm32", []Arg{{Reg: "rax"}, {Imm: 1 << 40}}, "does not fit imm32"},
		{"add r64, m64", []Arg{{Reg: "rax"}, {}}, "needs Mem"},
		{"add r64, m64", []Arg{{Reg: "rax"}, {Mem: &MemRef{Base: "eax"}}}, "bad base register"},
		{"add r64, m64", []Arg{{Reg: "rax"}, {Mem: &MemRef{Base: "rax", Index: "rsp"}}}, "bad index register"},
		{"add r64, m64", []Arg{{Reg: "rax"}, {Mem: &MemRef{Base: "rax", Scale: 3}}}, "bad scale"},
		{"add r64, m64", []Arg{{Reg: "rax"}, {Mem: &MemRef{Base: "rax", Disp: 1 << 33}}}, "does not fit 32 bits"},
		{"add r64, m64", []Arg{{Reg: "rax", Mask: "k1"}, {Mem: &MemRef{Base: "rax"}}}, "takes no mask"},
		{"shl r64, cl", []Arg{{Reg: "rax"}, {Reg: "dl"}}, "fixed operand is cl"},
		{"vaddpd ymm, ymm, ymm", []Arg{{Reg: "ymm16"}, {Reg: "ymm1"}, {Reg: "ymm2"}}, `"ymm16" does not fit ymm`},
		{"vaddpd zmm {k}, zmm, zmm", []Arg{{Reg: "zmm1"}, {Reg: "zmm2"}, {Reg: "zmm3"}}, "needs a mask register"},
		{"vaddpd zmm {k}, zmm, zmm", []Arg{{Reg: "zmm1", Mask: "k0"}, {Reg: "zmm2"}, {Reg: "zmm3"}}, "needs a mask register"},
		{"jmp rel8", []Arg{{}}, "needs a label"},
		{"mov al, moffs64", []Arg{{}, {Mem: &MemRef{Base: "rdi"}}}, "absolute address"},
		{"shl r64, 1", []Arg{{Reg: "rax"}, {Reg: "rcx"}}, "takes no register"},
	} {
		f := mustLookup(t, c.name)
		_, _, err := f.Instantiate(c.args)
		if err == nil {
			t.Errorf("%s %+v: no error", c.name, c.args)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: error %q, want it to name the form and say %q", c.name, err, c.want)
		}
	}
	// EVEX forms take the upper 16 vector registers.
	f := mustLookup(t, "{evex} vaddpd ymm, ymm, ymm")
	if _, _, err := f.Instantiate([]Arg{{Reg: "ymm16"}, {Reg: "ymm31"}, {Reg: "ymm2"}}); err != nil {
		t.Error(err)
	}
}

func TestGPRName(t *testing.T) {
	for _, c := range []struct {
		r64  string
		k    Kind
		want string
	}{
		{"rax", KindR32, "eax"}, {"rbx", KindR16, "bx"}, {"rcx", KindR8, "cl"}, {"rsi", KindR8, "sil"},
		{"r9", KindR8, "r9b"}, {"r9", KindR16, "r9w"}, {"r9", KindR32, "r9d"}, {"rdx", KindR64, "rdx"},
	} {
		if got := gprName(c.r64, c.k); got != c.want {
			t.Errorf("gprName(%q, %s) = %q, want %q", c.r64, c.k, got, c.want)
		}
	}
}
