# kernel: gcc_sum_i32_ymm
# what: int32 sum reduction: vpaddd with a memory operand into one accumulator
# origin: gcc 12 -O3 -march=x86-64-v3 -S from testdata/kernels/src/sum.c (function sum_i32)
# expect: loop-carried vpaddd latency: 1 cycle/iter (one load per cycle is well within the load ports)
# note: adapted: the loop label .L4: and the loop-closing 'cmpq %rcx, %rax' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_sum_i32_ymm
	vpaddd (%rax), %ymm1, %ymm1
	addq $32, %rax
# LLVM-MCA-END gcc_sum_i32_ymm
