.intel_syntax noprefix
# kernel: store_forward_chain
# what: store a register, reload it and add, twice
# origin: hand-written
# expect: store-to-load forwarding latency: 2 x (forwarding + 1-cycle add) per iter, ~10-14 cycles, unless the core renames memory (same base+disp) and forwards in 0-1 cycles
# LLVM-MCA-BEGIN store_forward_chain
	mov QWORD PTR [rdi], rax
	mov rax, QWORD PTR [rdi]
	add rax, 1
	mov QWORD PTR [rdi+64], rax
	mov rax, QWORD PTR [rdi+64]
	add rax, 1
# LLVM-MCA-END store_forward_chain
