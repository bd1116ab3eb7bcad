# Five independent add chains on four ALUs, dispatch 4 uOps a cycle.
# Instruction j (0..499) is dispatched at j/4 (rounded down) and issues at
# j/4+1: four a cycle fill the four ALUs, and its input (instruction j-5,
# issued at (j-5)/4+1 <= j/4) has arrived. The last (j=499) is dispatched
# at 124, issues at 125, executes at 126, retires at 127: 128 cycles.
# expect: iterations=100 cycles=128
# With --dispatch 2: j dispatched at j/2, issues at j/2+1; the last at 250,
# executed 251, retired 252: 253 cycles.
# expect: iterations=100 dispatch=2 cycles=253
# With --retire-width 1: instruction 0 retires at 3 and one a cycle after
# it (the reorder buffer stalls dispatch but never the retirement line),
# so instruction 499 retires at 502: 503 cycles.
# expect: iterations=100 retire-width=1 cycles=503
	addq	$1, %rax
	addq	$1, %rbx
	addq	$1, %rcx
	addq	$1, %rdx
	addq	$1, %rsi
