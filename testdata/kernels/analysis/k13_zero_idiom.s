# xor eax, eax is a zero idiom (the model's flag): it completes at
# dispatch, takes no port, and the add that reads rax does not wait. The
# add chain on rbx: add k issues at k+1; the last at 100, executed 101,
# retired 102: 103 cycles.
# expect: iterations=100 cycles=103
	xorl	%eax, %eax
	addq	%rax, %rbx
