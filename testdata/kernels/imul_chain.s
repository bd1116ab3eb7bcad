.intel_syntax noprefix
# kernel: imul_chain
# what: four dependent 64-bit imul
# origin: hand-written
# expect: loop-carried imul latency: 4 x 3 cycles = 12 cycles/iter on current cores
# LLVM-MCA-BEGIN imul_chain
	imul rax, rbx
	imul rax, rbx
	imul rax, rbx
	imul rax, rbx
# LLVM-MCA-END imul_chain
