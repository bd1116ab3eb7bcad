.intel_syntax noprefix
# kernel: hsum_ymm
# what: horizontal sum of a ymm register (a reduction tail) fed back into the next iteration
# origin: hand-written
# expect: latency of the whole reduction: extract, 4 dependent adds and 2 shuffles in one chain, about 15-21 cycles/iter by core
# LLVM-MCA-BEGIN hsum_ymm
	vextractf128 xmm1, ymm0, 1
	vaddps xmm0, xmm0, xmm1
	vmovhlps xmm1, xmm0, xmm0
	vaddps xmm0, xmm0, xmm1
	vshufps xmm1, xmm0, xmm0, 0x55
	vaddss xmm0, xmm0, xmm1
	vaddps ymm0, ymm0, ymm8
# LLVM-MCA-END hsum_ymm
