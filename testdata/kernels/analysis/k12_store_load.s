# A store and a load of other addresses. With llvm-mca's default (loads
# and stores do not alias) a store only waits for the older memory
# operations to issue, and the load for nothing: the store port allows one
# store a cycle, so store k issues at k+1; the last at 100 executes at 101
# and retires at 102: 103 cycles.
# expect: iterations=100 cycles=103
# With --noalias=false the load waits for the store to execute (store k
# issued at s executes at s+1, the load issues then) and the next store
# for the load to execute (4 cycles later): store k issues at 1+5k. The
# last load issues at 497, executes at 501, retires at 502: 503 cycles.
# expect: iterations=100 noalias=false cycles=503
	movq	%rax, (%rsi)
	movq	(%rdi), %rbx
