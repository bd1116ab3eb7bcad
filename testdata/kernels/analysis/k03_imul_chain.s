# imul (latency 3, port A1 only) that depends on itself: iteration k
# issues at 1+3k; the last at 298, executed 301, retired 302: 303 cycles.
# expect: iterations=100 cycles=303
	imulq	%rax, %rax
