# Pointer chasing: a load whose address is its own last result (latency
# 4): iteration k issues at 1+4k; the last at 397, executed 401, retired
# 402: 403 cycles.
# expect: iterations=100 cycles=403
	movq	(%rax), %rax
