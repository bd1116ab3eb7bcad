# Register moves the model marks as eliminated: renaming makes rbx an
# alias of rax's producer and back, without a port or latency. What is
# left is a chain through the add (latency 1): add k issues at k+1; the
# last at 100 executes at 101; the move after it completed at dispatch
# and retires with it at 102: 103 cycles.
# expect: iterations=100 cycles=103
	movq	%rax, %rbx
	addq	$1, %rbx
	movq	%rbx, %rax
