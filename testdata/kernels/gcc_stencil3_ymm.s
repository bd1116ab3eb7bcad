# kernel: gcc_stencil3_ymm
# what: 3-point stencil b[i] = 0.25 a[i-1] + 0.5 a[i] + 0.25 a[i+1] (ymm)
# origin: gcc 12 -O3 -march=x86-64-v3 -S from testdata/kernels/src/stencil.c (function stencil3)
# expect: loads and stores: 3 overlapping unaligned ymm loads (some split across cache lines) and 1 store per iter, no FP chain across iterations: ~1.5-3 cycles/iter
# note: adapted: the loop label .L4: and the loop-closing 'cmpq %rsi, %rax' / 'jne .L4' removed; nothing else changed
# note: ymm1 and ymm2 hold gcc's constants 0.25 and 0.5; here they are the harness's 1.0
# LLVM-MCA-BEGIN gcc_stencil3_ymm
	vmulps 4(%rcx,%rax), %ymm2, %ymm0
	vfmadd231ps (%rcx,%rax), %ymm1, %ymm0
	vfmadd231ps 8(%rcx,%rax), %ymm1, %ymm0
	vmovups %ymm0, 4(%rdx,%rax)
	addq $32, %rax
# LLVM-MCA-END gcc_stencil3_ymm
