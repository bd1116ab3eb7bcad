# kernel: gcc_i2f_zmm
# what: int32 -> float conversion and scale, 16 per iter (zmm)
# origin: gcc 12 -O3 -march=x86-64-v4 -mprefer-vector-width=512 -S from testdata/kernels/src/cvt.c (function i2f)
# expect: 512-bit store throughput: one zmm store per iter, 2 cycles on Zen 4 and 1 on Golden Cove; convert and multiply fit
# note: adapted: the loop label .L4: and the loop-closing 'cmpq %rax, %rsi' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_i2f_zmm
	vcvtdq2ps (%rcx,%rax), %zmm0
	vmulps %zmm2, %zmm0, %zmm0
	vmovups %zmm0, (%rdx,%rax)
	addq $64, %rax
# LLVM-MCA-END gcc_i2f_zmm
