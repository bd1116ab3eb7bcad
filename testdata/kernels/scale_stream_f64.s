.intel_syntax noprefix
# kernel: scale_stream_f64
# what: STREAM scale b = s*a, two ymm per iteration
# origin: hand-written
# expect: store throughput: 2 ymm stores/iter (1-2 cycles/iter); 2 loads and 2 multiplies fit
# LLVM-MCA-BEGIN scale_stream_f64
	vmulpd ymm0, ymm8, YMMWORD PTR [rsi]
	vmulpd ymm1, ymm8, YMMWORD PTR [rsi+32]
	vmovupd YMMWORD PTR [rdi], ymm0
	vmovupd YMMWORD PTR [rdi+32], ymm1
	add rsi, 64
	add rdi, 64
# LLVM-MCA-END scale_stream_f64
