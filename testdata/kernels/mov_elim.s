# kernel: mov_elim
# what: a chain of register moves and increments
# origin: hand-written
# expect: move elimination: the 3 incs form the chain (3 cycles/iter) when the 3 movs are eliminated at rename; 6 cycles/iter where GPR move elimination is off (Ice Lake microcode)
# LLVM-MCA-BEGIN mov_elim
	movq %rax, %rbx
	incq %rbx
	movq %rbx, %rsi
	incq %rsi
	movq %rsi, %rax
	incq %rax
# LLVM-MCA-END mov_elim
