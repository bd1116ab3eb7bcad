# vaddpd with a memory operand: the model lacks the form, so it is the
# register form (latency 3, F0/F1) plus a load (latency 5, L0/L1):
# latency 8, two uOps, and the register source ymm0 is read 8-3 = 5
# cycles late. The ymm0 chain so costs 3 cycles: iteration k issues at
# 1+3k; the last at 298 executes at 306 and retires at 307: 308 cycles.
# expect: iterations=100 cycles=308
	vaddpd	(%rdi), %ymm0, %ymm0
