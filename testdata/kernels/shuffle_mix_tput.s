.intel_syntax noprefix
# kernel: shuffle_mix_tput
# what: eight independent ymm shuffles of different kinds (in-lane and lane-crossing)
# origin: hand-written
# expect: shuffle port throughput: 8 shuffles/iter, 8 cycles/iter where they all issue on port 5 (Intel; Ice Lake and later also run some in-lane ones on port 1, the lane-crossing vpermd/vpermq only on port 5), ~4 on Zen 4's two shuffle pipes
# LLVM-MCA-BEGIN shuffle_mix_tput
	vpshufb ymm0, ymm8, ymm9
	vpermd ymm1, ymm9, ymm8
	vunpcklps ymm2, ymm8, ymm9
	vunpckhpd ymm3, ymm8, ymm9
	vshufps ymm4, ymm8, ymm9, 0x4e
	vpermq ymm5, ymm8, 0x1b
	vpalignr ymm6, ymm8, ymm9, 4
	vpermilps ymm7, ymm8, 0xb1
# LLVM-MCA-END shuffle_mix_tput
