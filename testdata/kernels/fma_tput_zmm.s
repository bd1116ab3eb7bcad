.intel_syntax noprefix
# kernel: fma_tput_zmm
# what: ten independent 512-bit double FMA accumulators, register operands only
# origin: hand-written
# expect: FMA port throughput: 10 zmm FMAs/iter; 2 512-bit FMA units (Xeon Golden Cove) = 5 cycles/iter, Zen 4 double-pumps zmm on 2 256-bit pipes = 10; latency (4) is hidden
# LLVM-MCA-BEGIN fma_tput_zmm
	vfmadd231pd zmm0, zmm10, zmm11
	vfmadd231pd zmm1, zmm10, zmm11
	vfmadd231pd zmm2, zmm10, zmm11
	vfmadd231pd zmm3, zmm10, zmm11
	vfmadd231pd zmm4, zmm10, zmm11
	vfmadd231pd zmm5, zmm10, zmm11
	vfmadd231pd zmm6, zmm10, zmm11
	vfmadd231pd zmm7, zmm10, zmm11
	vfmadd231pd zmm8, zmm10, zmm11
	vfmadd231pd zmm9, zmm10, zmm11
# LLVM-MCA-END fma_tput_zmm
