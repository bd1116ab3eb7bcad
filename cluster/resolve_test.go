package cluster

import "testing"

func TestResolveMCInst(t *testing.T) {
	cases := map[string]string{
		"ADD64rr RAX RAX RDX":                                        "add r64, r64",
		"ADD32rr EDX EDX EAX":                                        "add r32, r32",
		"ADD64rm RAX RAX RDI i_0x1 %noreg i_0x0 %noreg":              "add r64, m64",
		"ADD64mr RDI i_0x1 %noreg i_0x8 %noreg RCX":                  "add m64, r64",
		"ADD64ri8 RAX RAX i_0x7":                                     "add r64, imm8",
		"ADD64ri32 RAX RAX i_0x1000":                                 "add r64, imm32",
		"IMUL64rr RAX RAX RCX":                                       "imul r64, r64",
		"IMUL64rri8 RAX RCX i_0x3":                                   "imul r64, r64, imm8",
		"VADDPDYrr YMM0 YMM0 YMM1":                                   "vaddpd ymm, ymm, ymm",
		"VADDPDrr XMM0 XMM1 XMM2":                                    "vaddpd xmm, xmm, xmm",
		"VADDPDYrm YMM0 YMM1 RDI i_0x1 %noreg i_0x0 %noreg":          "vaddpd ymm, ymm, m256",
		"VFMADD231PDYr YMM0 YMM0 YMM1 YMM2":                          "vfmadd231pd ymm, ymm, ymm",
		"VFMADD231PDYm YMM0 YMM0 YMM1 RDI i_0x1 %noreg i_0x0 %noreg": "vfmadd231pd ymm, ymm, m256",
		"VADDPDZrr ZMM0 ZMM1 ZMM2":                                   "vaddpd zmm, zmm, zmm",
		"ADDPDrr XMM0 XMM0 XMM1":                                     "addpd xmm, xmm",
		"MMX_PADDQrr MM0 MM0 MM1":                                    "paddq mm, mm",
		"PADDQrr XMM0 XMM0 XMM1":                                     "paddq xmm, xmm",
		"MOV64rm RAX RDI i_0x1 %noreg i_0x0 %noreg":                  "mov r64, m64",
		"MOV64mr RDI i_0x1 %noreg i_0x0 %noreg RAX":                  "mov m64, r64",
		"MOV64ri RAX i_0x123456789":                                  "mov r64, imm64",
		"MOV64ri32 RAX i_0x12":                                       "mov r64, imm32",
		"LEA64r RAX RAX i_0x1 RCX i_0x0 %noreg":                      "lea r64, m",
		"SHL64rCL RAX RAX":                                           "shl r64, cl",
		"SHL64ri RAX RAX i_0x3":                                      "shl r64, imm8",
		"SHL64r1 RAX RAX":                                            "shl r64, 1",
		"DIV64r RCX":                                                 "div r64",
		"SQRTSSr XMM0 XMM1":                                          "sqrtss xmm, xmm",
		"CVTSD2SI64rr RAX XMM0":                                      "cvtsd2si r64, xmm",
		"POPCNT64rr RAX RCX":                                         "popcnt r64, r64",
		"CMOV64rr RAX RAX RCX i_0x4":                                 "cmove r64, r64",
		"SETCCr AL i_0x5":                                            "setne r8",
		"XOR32rr EAX EAX ECX":                                        "xor r32, r32",
		"MOVSDrr XMM0 XMM0 XMM1":                                     "movsd xmm, xmm",
		"MOVSDrm XMM0 RDI i_0x1 %noreg i_0x0 %noreg":                 "movsd xmm, m64",
		"VADDPDZrrk ZMM0 ZMM0 K1 ZMM1 ZMM2":                          "vaddpd zmm {k}, zmm, zmm",
		"VADDPDZrrkz ZMM0 K1 ZMM1 ZMM2":                              "vaddpd zmm {k}{z}, zmm, zmm",
		"VADDPDZrmb ZMM0 ZMM1 RDI i_0x1 %noreg i_0x0 %noreg":         "vaddpd zmm, zmm, m64bcst",
		"VADDPDZ256rr YMM16 YMM17 YMM18":                             "{evex} vaddpd ymm, ymm, ymm",
	}
	for in, want := range cases {
		got, ok := ResolveInstruction(in, false, nil)
		if !ok || got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
	if f, ok := ResolveInstruction("FROBNICATE64rr RAX RAX", false, nil); ok {
		t.Errorf("unknown opcode resolved to %q", f)
	}
}

func TestResolveAssembly(t *testing.T) {
	cases := []struct {
		in   string
		att  bool
		want string
	}{
		{"add rax, rbx", false, "add r64, r64"},
		{"vaddpd ymm0, ymm1, ymmword ptr [rdi]", false, "vaddpd ymm, ymm, m256"},
		{"mov qword ptr [rsp+8], rax", false, "mov m64, r64"},
		{"imul rax, rcx, 7", false, "imul r64, r64, imm8"},
		{"shl rax, cl", false, "shl r64, cl"},
		{"vfmadd231pd zmm0 {k1}, zmm1, zmm2", false, "vfmadd231pd zmm {k}, zmm, zmm"},
		{"addq %rbx, %rax", true, "add r64, r64"},
		{"vaddpd (%rdi), %ymm1, %ymm0", true, "vaddpd ymm, ymm, m256"},
		{"imulq $7, %rcx, %rax", true, "imul r64, r64, imm8"},
	}
	for _, c := range cases {
		got, ok := ResolveInstruction(c.in, c.att, nil)
		if !ok || got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMemoryDetection(t *testing.T) {
	pts := load(t, latencyFixture)
	Resolve(pts, nil)
	mem := map[string]bool{}
	for _, p := range pts {
		mem[p.Opcode] = p.Memory
	}
	for op, want := range map[string]bool{"MOV64rm": true, "LEA64r": true, "ADD64rr": false, "DIV64r": false, "VADDPDYrr": false} {
		if mem[op] != want {
			t.Errorf("%s: memory %v, want %v", op, mem[op], want)
		}
	}
}
