.intel_syntax noprefix
# kernel: vnni_dot_zmm
# what: int8 dot product with AVX512-VNNI vpdpbusd, four zmm accumulators
# origin: hand-written
# expect: vpdpbusd latency: each accumulator gets one 4-5-cycle op per iter, so ~4-5 cycles/iter; on Zen 4 the 4 zmm loads (1/cycle) also need 4
# LLVM-MCA-BEGIN vnni_dot_zmm
	vpdpbusd zmm0, zmm8, ZMMWORD PTR [rsi]
	vpdpbusd zmm1, zmm8, ZMMWORD PTR [rsi+64]
	vpdpbusd zmm2, zmm8, ZMMWORD PTR [rsi+128]
	vpdpbusd zmm3, zmm8, ZMMWORD PTR [rsi+192]
	add rsi, 256
# LLVM-MCA-END vnni_dot_zmm
