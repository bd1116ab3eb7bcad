# vpcmpeqd ymm0, ymm0, ymm0 is dependency-breaking (the model's flag): it
# does not wait for ymm0 but still runs on F0/F1 with latency 1. The next
# vaddpd waits for it (1 cycle). Two uOps an iteration on two ports: one
# iteration a cycle. vaddpd k and vpcmpeqd k both rank 2k (the vpcmpeqd
# has a reader) and are the oldest ready: they issue together at k+1, and
# vaddpd k+1 finds its input at k+2. The last pair issues at 100; the
# vaddpd executes at 103 and retires at 104: 105 cycles.
# expect: iterations=100 cycles=105
	vaddpd	%ymm0, %ymm1, %ymm0
	vpcmpeqd	%ymm0, %ymm0, %ymm0
