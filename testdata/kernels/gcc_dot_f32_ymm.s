.intel_syntax noprefix
# kernel: gcc_dot_f32_ymm
# what: float dot product with -ffast-math: one ymm accumulator
# origin: gcc 12 -O3 -march=x86-64-v3 -masm=intel -ffast-math -S from testdata/kernels/src/dot.c (function dot_f32)
# expect: loop-carried FMA latency: one 4-cycle FMA into ymm1 per iter, 4 cycles/iter on most cores
# note: adapted: the loop label .L4: and the loop-closing 'cmp rsi, rax' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_dot_f32_ymm
	vmovups ymm4, YMMWORD PTR [rcx+rax]
	vfmadd231ps ymm1, ymm4, YMMWORD PTR [rdx+rax]
	add rax, 32
# LLVM-MCA-END gcc_dot_f32_ymm
