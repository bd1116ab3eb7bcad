.intel_syntax noprefix
# kernel: gcc_saxpy_ymm
# what: saxpy y = a*x + y, gcc's AVX2 inner loop (8 floats/iter)
# origin: gcc 12 -O3 -march=x86-64-v3 -masm=intel -S from testdata/kernels/src/saxpy.c (function saxpy)
# expect: memory ops: 2 loads and 1 store per iter and no loop-carried FP chain (y is not accumulated), about 1-1.5 cycles/iter
# note: adapted: the loop label .L4: and the loop-closing 'cmp rsi, rax' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_saxpy_ymm
	vmovups ymm1, YMMWORD PTR [rcx+rax]
	vfmadd213ps ymm1, ymm2, YMMWORD PTR [rdx+rax]
	vmovups YMMWORD PTR [rdx+rax], ymm1
	add rax, 32
# LLVM-MCA-END gcc_saxpy_ymm
