.intel_syntax noprefix
# kernel: lea_chain
# what: four dependent three-component LEAs (base + index*scale + disp)
# origin: hand-written
# expect: complex-LEA latency: 4 dependent LEAs, 1 to 3 cycles each depending on the core (Zen 4: 2), so 4-12 cycles/iter
# note: lea computes an address only; it never touches memory, so rax may take any value
# LLVM-MCA-BEGIN lea_chain
	lea rax, [rax+rax*2+7]
	lea rax, [rax+rax*4+3]
	lea rax, [rax+rax*2+7]
	lea rax, [rax+rax*4+3]
# LLVM-MCA-END lea_chain
