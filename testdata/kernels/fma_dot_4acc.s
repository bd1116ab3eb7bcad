# kernel: fma_dot_4acc
# what: float dot product, four ymm accumulators
# origin: hand-written
# expect: still FMA latency: each accumulator gets one 4-cycle FMA per iter, so 4 cycles/iter (8 accumulators would be needed to fill 2 FMA ports); the 8 ymm loads need 3-4 cycles, a close second
# LLVM-MCA-BEGIN fma_dot_4acc
	vmovups (%rdi), %ymm4
	vmovups 32(%rdi), %ymm5
	vmovups 64(%rdi), %ymm6
	vmovups 96(%rdi), %ymm7
	vfmadd231ps (%rsi), %ymm4, %ymm0
	vfmadd231ps 32(%rsi), %ymm5, %ymm1
	vfmadd231ps 64(%rsi), %ymm6, %ymm2
	vfmadd231ps 96(%rsi), %ymm7, %ymm3
	addq $128, %rdi
	addq $128, %rsi
# LLVM-MCA-END fma_dot_4acc
