# kernel: vpermd_zmm_chain
# what: four dependent lane-crossing dword permutes of a zmm register
# origin: hand-written
# expect: cross-lane permute latency: 4 dependent zmm vpermd, 3 cycles on Intel and more on Zen 4 (zmm), 12+ cycles/iter
# LLVM-MCA-BEGIN vpermd_zmm_chain
	vpermd %zmm0, %zmm1, %zmm0
	vpermd %zmm0, %zmm1, %zmm0
	vpermd %zmm0, %zmm1, %zmm0
	vpermd %zmm0, %zmm1, %zmm0
# LLVM-MCA-END vpermd_zmm_chain
