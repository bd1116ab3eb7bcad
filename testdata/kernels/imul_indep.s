# kernel: imul_indep
# what: eight independent 64-bit imul on separate registers
# origin: hand-written
# expect: multiplier throughput: one 64-bit imul per cycle (one multiply port) gives 8 cycles/iter; latency (3) is hidden
# LLVM-MCA-BEGIN imul_indep
	imulq %rbx, %rax
	imulq %rbx, %rcx
	imulq %rbx, %rsi
	imulq %rbx, %rdi
	imulq %rbx, %r8
	imulq %rbx, %r9
	imulq %rbx, %r10
	imulq %rbx, %r11
# LLVM-MCA-END imul_indep
