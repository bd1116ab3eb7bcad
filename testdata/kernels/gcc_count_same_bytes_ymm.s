# kernel: gcc_count_same_bytes_ymm
# what: count equal bytes of two strings (vpcmpeqb, then widening to 64-bit counters)
# origin: gcc 12 -O3 -march=x86-64-v3 -S from testdata/kernels/src/bytecmp.c (function count_same)
# expect: shuffle port: 21 lane-crossing shuffles/iter (vpmovzx*, vextracti128), ~21 cycles/iter on Intel's port 5 and ~11 on Zen 4's two pipes; the 8-deep vpaddq chain (8 cycles) is next
# note: adapted: the loop label .L4: and the loop-closing 'cmpq %rax, %rdx' / 'jne .L4' removed; nothing else changed
# note: ymm3 holds gcc's constant 0x01 bytes and ymm4 the accumulator; here they start at the harness's 1.0 pattern
# LLVM-MCA-BEGIN gcc_count_same_bytes_ymm
	vmovdqu (%r8,%rax), %ymm7
	vpcmpeqb (%rdi,%rax), %ymm7, %ymm0
	addq $32, %rax
	vpand %ymm3, %ymm0, %ymm0
	vpmovzxbw %xmm0, %ymm1
	vextracti128 $0x1, %ymm0, %xmm0
	vpmovzxwd %xmm1, %ymm2
	vextracti128 $0x1, %ymm1, %xmm1
	vpmovzxbw %xmm0, %ymm0
	vpmovzxdq %xmm2, %ymm6
	vextracti128 $0x1, %ymm2, %xmm2
	vpmovzxwd %xmm1, %ymm1
	vpaddq %ymm4, %ymm6, %ymm4
	vpmovzxdq %xmm2, %ymm2
	vpmovzxwd %xmm0, %ymm5
	vpaddq %ymm4, %ymm2, %ymm2
	vpmovzxdq %xmm1, %ymm4
	vextracti128 $0x1, %ymm0, %xmm0
	vpaddq %ymm2, %ymm4, %ymm4
	vextracti128 $0x1, %ymm1, %xmm2
	vpmovzxdq %xmm5, %ymm1
	vpmovzxdq %xmm2, %ymm2
	vpmovzxwd %xmm0, %ymm0
	vpaddq %ymm4, %ymm2, %ymm2
	vpmovzxdq %xmm0, %ymm4
	vextracti128 $0x1, %ymm0, %xmm0
	vpaddq %ymm2, %ymm1, %ymm2
	vextracti128 $0x1, %ymm5, %xmm1
	vpmovzxdq %xmm0, %ymm0
	vpmovzxdq %xmm1, %ymm1
	vpaddq %ymm2, %ymm1, %ymm1
	vpaddq %ymm1, %ymm4, %ymm4
	vpaddq %ymm4, %ymm0, %ymm4
# LLVM-MCA-END gcc_count_same_bytes_ymm
