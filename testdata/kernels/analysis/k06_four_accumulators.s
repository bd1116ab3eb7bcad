# Four vaddpd chains (latency 3) on two vector ports: the chains allow one
# iteration every 3 cycles, the ports one every 2. All four instructions
# of iteration 0 are ready at 1; ymm0 and ymm1 (older) issue at 1, ymm2
# and ymm3 at 2. So in iteration k ymm0/ymm1 issue at 1+3k and ymm2/ymm3
# at 2+3k, each just when its input arrives. The last two issue at 299,
# execute at 302 and retire at 303: 304 cycles.
# expect: iterations=100 cycles=304
	vaddpd	%ymm4, %ymm0, %ymm0
	vaddpd	%ymm4, %ymm1, %ymm1
	vaddpd	%ymm4, %ymm2, %ymm2
	vaddpd	%ymm4, %ymm3, %ymm3
