# A reduction loop with two accumulators (each vaddpd reads memory, see
# k10), a pointer increment, a counter and a branch: 7 uOps. Dispatch
# packs whole instructions: 2+2 uOps in one cycle, then add, dec and jne
# (3 uOps; the next 2-uOp vaddpd does not fit): one iteration every 2
# cycles. The accumulators need 3 cycles an iteration (see k10), the
# pointer chain 1. Both vaddpds of iteration k issue at 1+3k (two vector
# and two load ports); the last at 298 execute at 306 and retire at 307:
# 308 cycles.
# expect: iterations=100 cycles=308
.L1:
	vaddpd	(%rdi), %ymm0, %ymm0
	vaddpd	32(%rdi), %ymm1, %ymm1
	addq	$64, %rdi
	decq	%rcx
	jne	.L1
