# kernel: div32_tput
# what: four independent 32-bit divides (eax/edx re-initialised before each)
# origin: hand-written
# expect: divider throughput: the divides do not depend on each other (mov and xor break the chains), so the divider's issue rate limits; small quotients (0x13/0x13) take the fast path where there is one
# note: safe: the divisor ebx (0x13) is never written
# LLVM-MCA-BEGIN div32_tput
	movl %r8d, %eax
	xorl %edx, %edx
	divl %ebx
	movl %r9d, %eax
	xorl %edx, %edx
	divl %ebx
	movl %r10d, %eax
	xorl %edx, %edx
	divl %ebx
	movl %r11d, %eax
	xorl %edx, %edx
	divl %ebx
# LLVM-MCA-END div32_tput
