.intel_syntax noprefix
# kernel: gcc_min_f32_zmm
# what: float minimum with -ffast-math: vminps zmm with a memory operand
# origin: gcc 12 -O3 -march=x86-64-v4 -mprefer-vector-width=512 -ffast-math -masm=intel -S from testdata/kernels/src/minmax.c (function min_f32)
# expect: loop-carried vminps latency: one zmm min per iter (1-4 cycles by core)
# note: adapted: the loop label .L26: and the loop-closing 'cmp rcx, rax' / 'jne .L26' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_min_f32_zmm
	vminps zmm1, zmm1, ZMMWORD PTR [rax]
	add rax, 64
# LLVM-MCA-END gcc_min_f32_zmm
