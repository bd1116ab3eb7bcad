# kernel: fp_div_latency
# what: four dependent scalar double divides
# origin: hand-written
# expect: divider latency: 4 dependent vdivsd (~13-15 cycles each on current cores) per iter
# LLVM-MCA-BEGIN fp_div_latency
	vdivsd %xmm1, %xmm0, %xmm0
	vdivsd %xmm1, %xmm0, %xmm0
	vdivsd %xmm1, %xmm0, %xmm0
	vdivsd %xmm1, %xmm0, %xmm0
# LLVM-MCA-END fp_div_latency
