.intel_syntax noprefix
# kernel: div64_latency
# what: four dependent 128/64-bit unsigned divides by a constant register
# origin: hand-written
# expect: divider latency: each div needs the previous quotient (rax) and remainder (rdx); 4 x 64-bit div latency per iter, data-dependent on most cores
# note: safe: rbx (0x13) is never written and the remainder left in rdx is always below rbx, so the quotient never overflows; needs rdx < rbx at entry (the harness sets rdx = 0)
# note: the dividend rdx:rax becomes a full-width 128-bit value after the first divide (remainder:quotient), and never becomes 0
# LLVM-MCA-BEGIN div64_latency
	div rbx
	div rbx
	div rbx
	div rbx
# LLVM-MCA-END div64_latency
