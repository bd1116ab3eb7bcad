# kernel: copy_stream_ymm
# what: memory copy, four 32-byte loads and stores
# origin: hand-written
# expect: store throughput: 4 ymm stores/iter, 1 per cycle for 256-bit on Zen 4 (4 cycles/iter), 2 per cycle on Golden Cove (2); loads are not the limit
# LLVM-MCA-BEGIN copy_stream_ymm
	vmovups (%rsi), %ymm0
	vmovups 32(%rsi), %ymm1
	vmovups 64(%rsi), %ymm2
	vmovups 96(%rsi), %ymm3
	vmovups %ymm0, (%rdi)
	vmovups %ymm1, 32(%rdi)
	vmovups %ymm2, 64(%rdi)
	vmovups %ymm3, 96(%rdi)
	addq $128, %rsi
	addq $128, %rdi
# LLVM-MCA-END copy_stream_ymm
