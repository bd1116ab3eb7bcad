# One add that depends on itself: a chain of latency 1.
# Iteration k issues at cycle 1+k (dispatch runs far ahead), so the last
# (k=99) issues at 100, executes at 101 and retires at 102: 103 cycles.
# expect: iterations=100 cycles=103
# With 10 iterations: last issue 10, executed 11, retired 12: 13 cycles.
# expect: iterations=10 cycles=13
	addq	$1, %rax
