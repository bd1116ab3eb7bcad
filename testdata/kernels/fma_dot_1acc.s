.intel_syntax noprefix
# kernel: fma_dot_1acc
# what: float dot product, two ymm FMAs into one accumulator
# origin: hand-written
# expect: loop-carried FMA latency: 2 dependent FMAs of 4 cycles = 8 cycles/iter on most cores
# LLVM-MCA-BEGIN fma_dot_1acc
	vmovups ymm1, YMMWORD PTR [rdi]
	vfmadd231ps ymm0, ymm1, YMMWORD PTR [rsi]
	vmovups ymm2, YMMWORD PTR [rdi+32]
	vfmadd231ps ymm0, ymm2, YMMWORD PTR [rsi+32]
	add rdi, 64
	add rsi, 64
# LLVM-MCA-END fma_dot_1acc
