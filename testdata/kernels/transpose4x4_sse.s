.intel_syntax noprefix
# kernel: transpose4x4_sse
# what: 4x4 float transpose with unpcklps/unpckhps/movlhps/movhlps (legacy SSE), load and store
# origin: hand-written
# expect: shuffle ports: 8 shuffles/iter (the 4 movaps are eliminated at rename), up to 8 cycles/iter on Intel's port 5 (fewer where port 1 also shuffles), ~4 on Zen 4's two shuffle pipes; 4 loads and 4 stores fit
# LLVM-MCA-BEGIN transpose4x4_sse
	movups xmm0, XMMWORD PTR [rsi]
	movups xmm1, XMMWORD PTR [rsi+16]
	movups xmm2, XMMWORD PTR [rsi+32]
	movups xmm3, XMMWORD PTR [rsi+48]
	movaps xmm4, xmm0
	unpcklps xmm0, xmm1
	unpckhps xmm4, xmm1
	movaps xmm5, xmm2
	unpcklps xmm2, xmm3
	unpckhps xmm5, xmm3
	movaps xmm1, xmm0
	movlhps xmm0, xmm2
	movhlps xmm2, xmm1
	movaps xmm3, xmm4
	movlhps xmm4, xmm5
	movhlps xmm5, xmm3
	movups XMMWORD PTR [rdi], xmm0
	movups XMMWORD PTR [rdi+16], xmm2
	movups XMMWORD PTR [rdi+32], xmm4
	movups XMMWORD PTR [rdi+48], xmm5
	add rsi, 64
	add rdi, 64
# LLVM-MCA-END transpose4x4_sse
