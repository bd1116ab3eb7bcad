.intel_syntax noprefix
# kernel: int_add_chain
# what: four dependent 64-bit register adds
# origin: hand-written
# expect: loop-carried ALU latency: 4 dependent 1-cycle adds, 4 cycles/iter
# LLVM-MCA-BEGIN int_add_chain
	add rax, rbx
	add rax, rcx
	add rax, rsi
	add rax, rdi
# LLVM-MCA-END int_add_chain
