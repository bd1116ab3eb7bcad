# kernel: int_alu_indep
# what: eight independent single-cycle ALU ops, one per register chain
# origin: hand-written
# expect: ALU port count: 8 simple ops/iter over 4 integer ALUs (Zen 4) is 2 cycles/iter, over 5 (Golden Cove) 1.6; the 1-cycle chains do not limit
# LLVM-MCA-BEGIN int_alu_indep
	addq %rbx, %rax
	subq %rbx, %rcx
	xorq %rbx, %rsi
	andq %rbx, %rdi
	orq %rbx, %r8
	addq %rbx, %r9
	subq %rbx, %r10
	incq %r11
# LLVM-MCA-END int_alu_indep
