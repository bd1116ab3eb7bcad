.intel_syntax noprefix
# kernel: fp_div_tput_ymm
# what: six independent 256-bit single-precision divides
# origin: hand-written
# expect: divider throughput: no dependences between the divides, so the (partly pipelined) divider's rate for ymm vdivps limits, several cycles per divide
# LLVM-MCA-BEGIN fp_div_tput_ymm
	vdivps ymm0, ymm8, ymm9
	vdivps ymm1, ymm8, ymm9
	vdivps ymm2, ymm8, ymm9
	vdivps ymm3, ymm8, ymm9
	vdivps ymm4, ymm8, ymm9
	vdivps ymm5, ymm8, ymm9
# LLVM-MCA-END fp_div_tput_ymm
