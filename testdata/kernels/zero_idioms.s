.intel_syntax noprefix
# kernel: zero_idioms
# what: zeroing idioms (xor, sub, vxorps, vpxor) each followed by an op on the zeroed register
# origin: hand-written
# expect: rename/front-end width: the idioms break every chain and need no execution port, leaving 6 independent ops in 12 instructions: ~2 cycles/iter at 6 wide; without idiom recognition the vaddps chains would give 3-4
# LLVM-MCA-BEGIN zero_idioms
	vxorps ymm0, ymm0, ymm0
	vaddps ymm0, ymm0, ymm8
	vxorps ymm1, ymm1, ymm1
	vaddps ymm1, ymm1, ymm8
	vpxor xmm2, xmm2, xmm2
	vpaddd ymm2, ymm2, ymm8
	xor eax, eax
	add rax, rbx
	sub ecx, ecx
	add rcx, rbx
	xor esi, esi
	add rsi, rbx
# LLVM-MCA-END zero_idioms
