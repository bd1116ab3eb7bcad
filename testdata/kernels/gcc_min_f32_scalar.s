# kernel: gcc_min_f32_scalar
# what: float minimum without -ffast-math: gcc keeps it scalar (vminss)
# origin: gcc 12 -O3 -march=x86-64-v3 -S from testdata/kernels/src/minmax.c (function min_f32)
# expect: loop-carried vminss latency: one min per iter (1-4 cycles by core)
# note: adapted: the loop label .L22: and the loop-closing 'cmpq %rsi, %rax' / 'jne .L22' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_min_f32_scalar
	vmovss (%rsi), %xmm1
	addq $4, %rsi
	vminss %xmm0, %xmm1, %xmm0
# LLVM-MCA-END gcc_min_f32_scalar
