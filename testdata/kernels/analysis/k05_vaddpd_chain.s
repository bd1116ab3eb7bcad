# A vaddpd chain of latency 3: iteration k issues at 1+3k; the last at
# 298, executed 301, retired 302: 303 cycles.
# expect: iterations=100 cycles=303
	vaddpd	%ymm1, %ymm0, %ymm0
