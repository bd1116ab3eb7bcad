.intel_syntax noprefix
# kernel: cmov_minmax
# what: running minimum and maximum of loaded qwords with cmp + cmov
# origin: hand-written
# expect: loop-carried cmp->cmov chain: 2 cycles per element for each of min and max (in parallel), 4 cycles/iter
# LLVM-MCA-BEGIN cmov_minmax
	mov r8, QWORD PTR [rdi]
	mov r9, QWORD PTR [rdi+8]
	cmp r8, rax
	cmovl rax, r8
	cmp r8, rbx
	cmovg rbx, r8
	cmp r9, rax
	cmovl rax, r9
	cmp r9, rbx
	cmovg rbx, r9
	add rdi, 16
# LLVM-MCA-END cmov_minmax
