.intel_syntax noprefix
# kernel: gcc_dot_i16_ymm
# what: int16 dot product: vpmaddwd + vpaddd accumulator (ymm)
# origin: gcc 12 -O3 -march=x86-64-v3 -masm=intel -S from testdata/kernels/src/dot.c (function dot_i16)
# expect: throughput of 2 ymm loads, 1 vpmaddwd and a 1-cycle vpaddd chain: about 1 cycle/iter
# note: adapted: the loop label .L21: and the loop-closing 'cmp rdx, rax' / 'jne .L21' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_dot_i16_ymm
	vmovdqu ymm3, YMMWORD PTR [rcx+rax]
	vpmaddwd ymm0, ymm3, YMMWORD PTR [rdi+rax]
	add rax, 32
	vpaddd ymm1, ymm1, ymm0
# LLVM-MCA-END gcc_dot_i16_ymm
