.intel_syntax noprefix
# kernel: gcc_blend_u8_ymm
# what: saturating add of two uint8 images via 16-bit words (widen, add, min, pack)
# origin: gcc 12 -O3 -march=x86-64-v3 -masm=intel -S from testdata/kernels/src/clamp.c (function blend_u8)
# expect: shuffle port: 8 shuffle uops/iter (4 vpmovzxbw, 2 vextracti128, vpackuswb, vpermq), ~8 cycles/iter on Intel and ~4 on Zen 4
# note: adapted: the loop label .L4: and the loop-closing 'cmp rax, r9' / 'jne .L4' removed; nothing else changed
# note: ymm3 holds gcc's constant 0x00ff words; here it is the harness's 1.0 pattern
# LLVM-MCA-BEGIN gcc_blend_u8_ymm
	vpmovzxbw ymm1, XMMWORD PTR [rsi+rax]
	vpmovzxbw ymm0, XMMWORD PTR [rdi+rax]
	vmovdqu ymm4, YMMWORD PTR [rdi+rax]
	vmovdqu ymm5, YMMWORD PTR [rsi+rax]
	vpaddw ymm0, ymm0, ymm1
	vextracti128 xmm2, ymm5, 0x1
	vextracti128 xmm1, ymm4, 0x1
	vpminuw ymm0, ymm0, ymm3
	vpmovzxbw ymm1, xmm1
	vpmovzxbw ymm2, xmm2
	vpand ymm0, ymm3, ymm0
	vpaddw ymm1, ymm1, ymm2
	vpminuw ymm1, ymm1, ymm3
	vpand ymm1, ymm3, ymm1
	vpackuswb ymm0, ymm0, ymm1
	vpermq ymm0, ymm0, 216
	vmovdqu YMMWORD PTR [rcx+rax], ymm0
	add rax, 32
# LLVM-MCA-END gcc_blend_u8_ymm
