# vdivpd keeps the divider busy 8 cycles (and F0 one): one every 8
# cycles. Iteration k issues at 1+8k; the last at 793 executes at 806
# (latency 13) and retires at 807: 808 cycles.
# expect: iterations=100 cycles=808
	vdivpd	%ymm1, %ymm2, %ymm3
