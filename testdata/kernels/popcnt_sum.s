# kernel: popcnt_sum
# what: popcount of four loaded qwords, summed into two accumulators
# origin: hand-written
# expect: popcnt port: 4 popcnt/iter on the single popcnt port of Intel cores is 4 cycles/iter; Zen 4 runs popcnt on all 4 ALUs, so ALU count (~9 ops) gives 2-2.5
# LLVM-MCA-BEGIN popcnt_sum
	popcntq (%rdi), %r8
	popcntq 8(%rdi), %r9
	popcntq 16(%rdi), %r10
	popcntq 24(%rdi), %r11
	addq %r8, %rax
	addq %r9, %rbx
	addq %r10, %rax
	addq %r11, %rbx
	addq $32, %rdi
# LLVM-MCA-END popcnt_sum
