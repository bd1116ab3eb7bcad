# kernel: gcc_absmax_i32_ymm
# what: maximum absolute value of int32: vpabsd + vpmaxsd accumulator
# origin: gcc 12 -O3 -march=x86-64-v3 -S from testdata/kernels/src/minmax.c (function absmax_i32)
# expect: loop-carried vpmaxsd latency: 1 cycle/iter
# note: adapted: the loop label .L4: and the loop-closing 'cmpq %rdx, %rax' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_absmax_i32_ymm
	vpabsd (%rax), %ymm0
	addq $32, %rax
	vpmaxsd %ymm0, %ymm1, %ymm1
# LLVM-MCA-END gcc_absmax_i32_ymm
