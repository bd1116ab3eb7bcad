# kernel: fp_sqrt_latency
# what: four dependent scalar double square roots
# origin: hand-written
# expect: square-root latency: 4 dependent vsqrtsd (~15-21 cycles each by core) per iter
# LLVM-MCA-BEGIN fp_sqrt_latency
	vsqrtsd %xmm0, %xmm0, %xmm0
	vsqrtsd %xmm0, %xmm0, %xmm0
	vsqrtsd %xmm0, %xmm0, %xmm0
	vsqrtsd %xmm0, %xmm0, %xmm0
# LLVM-MCA-END fp_sqrt_latency
