# kernel: pshufb_chain
# what: four dependent in-lane byte shuffles of a ymm register
# origin: hand-written
# expect: shuffle latency: 4 dependent vpshufb of 1 cycle = 4 cycles/iter
# LLVM-MCA-BEGIN pshufb_chain
	vpshufb %ymm1, %ymm0, %ymm0
	vpshufb %ymm1, %ymm0, %ymm0
	vpshufb %ymm1, %ymm0, %ymm0
	vpshufb %ymm1, %ymm0, %ymm0
# LLVM-MCA-END pshufb_chain
