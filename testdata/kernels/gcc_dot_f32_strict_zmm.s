# kernel: gcc_dot_f32_strict_zmm
# what: float dot product without -ffast-math: zmm multiply, then 16 in-order scalar adds
# origin: gcc 12 -O3 -march=x86-64-v4 -mprefer-vector-width=512 -S from testdata/kernels/src/dot.c (function dot_f32)
# expect: loop-carried FP add latency: 16 dependent vaddss per iter (2-4 cycles each by core), 32-64 cycles/iter; the shuffles and the multiply are off the chain
# note: adapted: the loop label .L4: and the loop-closing 'cmpq %rax, %rsi' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_dot_f32_strict_zmm
	vmovups (%rcx,%rax), %zmm5
	vmulps (%rdx,%rax), %zmm5, %zmm1
	addq $64, %rax
	vshufps $85, %xmm1, %xmm1, %xmm4
	vshufps $255, %xmm1, %xmm1, %xmm3
	valignd $7, %ymm1, %ymm1, %ymm2
	vaddss %xmm1, %xmm0, %xmm0
	vaddss %xmm4, %xmm0, %xmm0
	vunpckhps %xmm1, %xmm1, %xmm4
	vaddss %xmm4, %xmm0, %xmm0
	vaddss %xmm3, %xmm0, %xmm0
	vextractf32x4 $1, %ymm1, %xmm3
	vaddss %xmm3, %xmm0, %xmm0
	valignd $5, %ymm1, %ymm1, %ymm3
	vaddss %xmm3, %xmm0, %xmm0
	valignd $6, %ymm1, %ymm1, %ymm3
	vextractf32x8 $0x1, %zmm1, %ymm1
	vaddss %xmm3, %xmm0, %xmm0
	vshufps $85, %xmm1, %xmm1, %xmm3
	vaddss %xmm2, %xmm0, %xmm0
	vshufps $255, %xmm1, %xmm1, %xmm2
	vaddss %xmm1, %xmm0, %xmm0
	vaddss %xmm3, %xmm0, %xmm0
	vunpckhps %xmm1, %xmm1, %xmm3
	vaddss %xmm3, %xmm0, %xmm0
	vaddss %xmm2, %xmm0, %xmm0
	vextractf32x4 $1, %ymm1, %xmm2
	vaddss %xmm2, %xmm0, %xmm0
	valignd $5, %ymm1, %ymm1, %ymm2
	vaddss %xmm2, %xmm0, %xmm0
	valignd $6, %ymm1, %ymm1, %ymm2
	valignd $7, %ymm1, %ymm1, %ymm1
	vaddss %xmm2, %xmm0, %xmm0
	vaddss %xmm1, %xmm0, %xmm0
# LLVM-MCA-END gcc_dot_f32_strict_zmm
