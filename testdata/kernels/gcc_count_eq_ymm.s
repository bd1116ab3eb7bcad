# kernel: gcc_count_eq_ymm
# what: count int32 elements equal to x: vpcmpeqd + vpsubd accumulator
# origin: gcc 12 -O3 -march=x86-64-v3 -S from testdata/kernels/src/count.c (function count_eq)
# expect: loop-carried vpsubd latency: 1 cycle/iter
# note: adapted: the loop label .L4: and the loop-closing 'cmpq %rax, %rdx' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_count_eq_ymm
	vpcmpeqd (%rax), %ymm2, %ymm0
	addq $32, %rax
	vpsubd %ymm0, %ymm1, %ymm1
# LLVM-MCA-END gcc_count_eq_ymm
