# The add chain of k01 and an independent load, in Intel syntax: the
# chain sets the pace (103 cycles); the load k issues at k/2+1 and the
# last (issued 50) executes at 54, long before the last add retires.
# expect: iterations=100 cycles=103
	.intel_syntax noprefix
	add	rax, 1
	mov	rbx, qword ptr [rdi]
