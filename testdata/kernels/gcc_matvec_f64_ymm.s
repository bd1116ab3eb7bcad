# kernel: gcc_matvec_f64_ymm
# what: matrix-vector multiply inner product in double, one ymm accumulator
# origin: gcc 12 -O3 -march=x86-64-v3 -ffast-math -S from testdata/kernels/src/matvec.c (function matvec)
# expect: loop-carried FMA latency: one 4-cycle FMA into ymm0 per iter, 4 cycles/iter
# note: adapted: the loop label .L5: and the loop-closing 'cmpq %rax, %r9' / 'jne .L5' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_matvec_f64_ymm
	vmovupd (%rdi,%rax), %ymm4
	vfmadd231pd (%rcx,%rax), %ymm4, %ymm0
	addq $32, %rax
# LLVM-MCA-END gcc_matvec_f64_ymm
