# kernel: gcc_dot_i16_zmm
# what: int16 dot product: vpmaddwd + vpaddd accumulator (zmm)
# origin: gcc 12 -O3 -march=x86-64-v4 -mprefer-vector-width=512 -S from testdata/kernels/src/dot.c (function dot_i16)
# expect: 512-bit loads: 2 zmm loads/iter, 1/cycle on Zen 4 (2 cycles/iter), 2/cycle on Golden Cove (1); the vpaddd chain is 1 cycle
# note: adapted: the loop label .L26: and the loop-closing 'cmpq %rax, %rsi' / 'jne .L26' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_dot_i16_zmm
	vmovdqu16 (%rcx,%rax), %zmm3
	vpmaddwd (%rdx,%rax), %zmm3, %zmm0
	addq $64, %rax
	vpaddd %zmm0, %zmm1, %zmm1
# LLVM-MCA-END gcc_dot_i16_zmm
