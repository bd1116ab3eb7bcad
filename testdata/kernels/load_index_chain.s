# kernel: load_index_chain
# what: four dependent loads, each indexed by the previous (masked) value
# origin: hand-written
# expect: L1 load-to-use latency: 4 x (indexed load latency 4-5 + 1-cycle and) = 20-24 cycles/iter
# note: not a pointer chase: the and keeps the index below 512 (4 KiB of 8-byte words) whatever the memory holds, so every load stays inside the scratch buffer
# LLVM-MCA-BEGIN load_index_chain
	movq (%rdi,%rax,8), %rax
	andl $511, %eax
	movq (%rdi,%rax,8), %rax
	andl $511, %eax
	movq (%rdi,%rax,8), %rax
	andl $511, %eax
	movq (%rdi,%rax,8), %rax
	andl $511, %eax
# LLVM-MCA-END load_index_chain
