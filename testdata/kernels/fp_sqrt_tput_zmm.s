.intel_syntax noprefix
# kernel: fp_sqrt_tput_zmm
# what: four independent 512-bit double square roots
# origin: hand-written
# expect: square-root throughput for zmm: independent vsqrtpd zmm, limited by the divider/sqrt unit's rate (Zen 4 runs a zmm sqrt as two 256-bit halves)
# LLVM-MCA-BEGIN fp_sqrt_tput_zmm
	vsqrtpd zmm0, zmm8
	vsqrtpd zmm1, zmm8
	vsqrtpd zmm2, zmm8
	vsqrtpd zmm3, zmm8
# LLVM-MCA-END fp_sqrt_tput_zmm
