# kernel: pdep_pext_chain
# what: alternating dependent pext/pdep with a fixed mask
# origin: hand-written
# expect: BMI2 latency: 4 dependent pdep/pext of 3 cycles = 12 cycles/iter (Zen 3+, Intel); microcoded pdep/pext (Zen 1/2) would be far slower
# LLVM-MCA-BEGIN pdep_pext_chain
	pextq %rbx, %rax, %rax
	pdepq %rbx, %rax, %rax
	pextq %rbx, %rax, %rax
	pdepq %rbx, %rax, %rax
# LLVM-MCA-END pdep_pext_chain
