# kernel: fp_sum_scalar
# what: scalar double sum of four loaded values into one accumulator
# origin: hand-written
# expect: loop-carried FP add latency: 4 dependent vaddsd, 2-4 cycles each by core = 8-16 cycles/iter
# LLVM-MCA-BEGIN fp_sum_scalar
	vaddsd (%rdi), %xmm0, %xmm0
	vaddsd 8(%rdi), %xmm0, %xmm0
	vaddsd 16(%rdi), %xmm0, %xmm0
	vaddsd 24(%rdi), %xmm0, %xmm0
	addq $32, %rdi
# LLVM-MCA-END fp_sum_scalar
