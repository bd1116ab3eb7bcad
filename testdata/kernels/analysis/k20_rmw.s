# A read-modify-write of memory (3 uOps: load, ALU, store; latency 6).
# Each is a store: it issues after the older one has issued (loads and
# stores do not alias by default), one a cycle on the store port: k issues
# at k+1; the last at 100 executes at 106 and retires at 107: 108 cycles.
# expect: iterations=100 cycles=108
# With --noalias=false a store waits for the older store to execute:
# iteration k issues at 1+6k; the last at 595 executes at 601, retires at
# 602: 603 cycles.
# expect: iterations=100 noalias=false cycles=603
	addq	$1, (%rdi)
