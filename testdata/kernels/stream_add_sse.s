.intel_syntax noprefix
# kernel: stream_add_sse
# what: STREAM add c = a + b with legacy (non-VEX) SSE, two xmm per iteration
# origin: hand-written
# expect: memory ops: 4 loads and 2 stores of 16 bytes per iter at 2-3 loads and 1-2 stores per cycle, about 1-2 cycles/iter; the 3 pointer adds are free ALU work
# note: legacy SSE addps with a memory operand needs 16-byte alignment: the harness's base registers are 256-byte aligned and every offset here is a multiple of 16
# LLVM-MCA-BEGIN stream_add_sse
	movups xmm0, XMMWORD PTR [rsi]
	movups xmm1, XMMWORD PTR [rsi+16]
	addps xmm0, XMMWORD PTR [rdx]
	addps xmm1, XMMWORD PTR [rdx+16]
	movups XMMWORD PTR [rdi], xmm0
	movups XMMWORD PTR [rdi+16], xmm1
	add rsi, 32
	add rdx, 32
	add rdi, 32
# LLVM-MCA-END stream_add_sse
