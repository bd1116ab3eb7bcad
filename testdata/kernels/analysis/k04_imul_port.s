# Three imul chains (latency 3) sharing port A1. Instruction j = 3k+i
# issues at j+1: one a cycle on A1, and its input (j-3, issued at j-2)
# arrives at j+1 exactly. The last (j=299) issues at 300, executes at 303,
# retires at 304: 305 cycles.
# expect: iterations=100 cycles=305
	imulq	%rbx, %rax
	imulq	%rbx, %rcx
	imulq	%rbx, %rdx
