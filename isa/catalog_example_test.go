package isa_test

import (
	"fmt"

	"portlab/isa"
)

func ExampleLookup() {
	f, _ := isa.Lookup("div r64")
	fmt.Println(f.Name(), f.Operands[0].Access, f.ImplicitReads, f.ImplicitWrites)
	f, _ = isa.Lookup("vfmadd231pd zmm{k}{z}, zmm, m64bcst")
	fmt.Println(f.Name(), f.Features)
	// Output:
	// div r64 r [rax rdx] [rax rdx]
	// vfmadd231pd zmm {k}{z}, zmm, m64bcst [avx512f]
}

func ExampleMatch() {
	forms, _ := isa.Match("vfmadd231pd ymm*")
	for _, f := range forms[:3] {
		fmt.Println(f.Name())
	}
	// Output:
	// vfmadd231pd ymm {k}, ymm, m256
	// vfmadd231pd ymm {k}, ymm, m64bcst
	// vfmadd231pd ymm {k}, ymm, ymm
}

func ExampleForm_Instantiate() {
	f, _ := isa.Lookup("vaddpd zmm {k}, zmm, m512")
	intel, att, err := f.Instantiate([]isa.Arg{
		{Reg: "zmm4", Mask: "k2"},
		{Reg: "zmm5"},
		{Mem: &isa.MemRef{Base: "rsi", Index: "rcx", Scale: 8, Disp: 128}},
	})
	fmt.Println(intel)
	fmt.Println(att, err)
	// Output:
	// vaddpd zmm4 {k2}, zmm5, zmmword ptr [rsi+rcx*8+128]
	// vaddpd 128(%rsi,%rcx,8), %zmm5, %zmm4{%k2} <nil>
}

func ExampleForm_Example() {
	f, _ := isa.Lookup("vcmppd k {k}, ymm, m64bcst, imm8")
	fmt.Println(f.Example())
	// Output:
	// vcmppd k2 {k1}, ymm1, qword ptr [rdi]{1to4}, 1 vcmppd $1, (%rdi){1to4}, %ymm1, %k2{%k1}
}
