# kernel: psadbw_sum_sse
# what: byte sum of absolute differences with legacy SSE psadbw, two accumulators
# origin: hand-written
# expect: psadbw port and the xmm0 accumulator: 3 psadbw/iter on one port (Intel port 5) = 3 cycles/iter; the 2-deep paddq chain on xmm0 is 2 cycles
# note: legacy SSE psadbw with a memory operand needs 16-byte alignment: rdi is 256-byte aligned by the harness and advances by 16
# LLVM-MCA-BEGIN psadbw_sum_sse
	movdqu (%rsi), %xmm1
	movdqu 16(%rsi), %xmm2
	psadbw %xmm7, %xmm1
	psadbw %xmm7, %xmm2
	paddq %xmm1, %xmm0
	paddq %xmm2, %xmm3
	movdqu 32(%rsi), %xmm4
	psadbw (%rdi), %xmm4
	paddq %xmm4, %xmm0
	addq $48, %rsi
	addq $16, %rdi
# LLVM-MCA-END psadbw_sum_sse
