# vhaddpd: 3 uOps, F1 for 2 cycles plus one of F0/F1 for 1 (F1 is taken,
# so F0). F1 allows one every 2 cycles: iteration k issues at 1+2k; the
# last at 199 executes at 205 (latency 6) and retires at 206: 207 cycles.
# expect: iterations=100 cycles=207
	vhaddpd	%ymm0, %ymm1, %ymm2
