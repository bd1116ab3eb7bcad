# vxorpd ymm0, ymm0, ymm0 is a zero idiom: it cuts the chain through ymm0
# that the vaddpd would otherwise carry (vaddpd -> vxorpd -> vaddpd, 4
# cycles). Without the chain, two iterations dispatch a cycle (2 uOps
# each) and their vaddpds issue on F0 and F1 the cycle after: iteration k
# is dispatched at k/2 and its vaddpd issues at k/2+1. Iterations 98 and
# 99 are dispatched at 49, their vaddpds issue at 50, execute at 53 and
# retire at 54: 55 cycles.
# expect: iterations=100 cycles=55
	vaddpd	%ymm1, %ymm0, %ymm0
	vxorpd	%ymm0, %ymm0, %ymm0
