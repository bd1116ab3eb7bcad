# kernel: vpmulld_chain
# what: four dependent 32-bit vector multiplies (ymm)
# origin: hand-written
# expect: vpmulld latency: 4 dependent, 10 cycles each on Intel (2 uops) = 40 cycles/iter, 3 on Zen 4 = 12
# LLVM-MCA-BEGIN vpmulld_chain
	vpmulld %ymm1, %ymm0, %ymm0
	vpmulld %ymm1, %ymm0, %ymm0
	vpmulld %ymm1, %ymm0, %ymm0
	vpmulld %ymm1, %ymm0, %ymm0
# LLVM-MCA-END vpmulld_chain
