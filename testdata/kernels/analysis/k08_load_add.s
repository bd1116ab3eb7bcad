# A load (latency 4, two load ports) feeding an add chain on rbx
# (latency 1). Load k is dispatched at k/2 and issues at k/2+1; add k
# needs load k (k/2+5) and add k-1 (issued at 4+k): it issues at 5+k. The
# last add issues at 104, executes at 105, retires at 106: 107 cycles.
# expect: iterations=100 cycles=107
	movq	(%rdi), %rax
	addq	%rax, %rbx
