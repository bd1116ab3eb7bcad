.intel_syntax noprefix
# kernel: gcc_horner_zmm
# what: degree-4 polynomial by Horner's rule on 16 floats per iter (zmm)
# origin: gcc 12 -O3 -march=x86-64-v4 -mprefer-vector-width=512 -masm=intel -S from testdata/kernels/src/horner.c (function horner)
# expect: FMA throughput (iterations are independent): 4 zmm FMAs/iter, 2 cycles with two 512-bit FMA units, 4 on Zen 4 (double-pumped), where the zmm store also takes 2
# note: adapted: the loop label .L4: and the loop-closing 'cmp rsi, rax' / 'jne .L4' removed; nothing else changed
# note: the polynomial's coefficients live in zmm2-zmm6 (set up before the loop by gcc; here they are the harness's 1.0)
# LLVM-MCA-BEGIN gcc_horner_zmm
	vmovups zmm0, ZMMWORD PTR [rcx+rax]
	vmovaps zmm1, zmm0
	vfmadd132ps zmm1, zmm5, zmm6
	vfmadd132ps zmm1, zmm4, zmm0
	vfmadd132ps zmm1, zmm3, zmm0
	vfmadd132ps zmm0, zmm2, zmm1
	vmovups ZMMWORD PTR [rdx+rax], zmm0
	add rax, 64
# LLVM-MCA-END gcc_horner_zmm
