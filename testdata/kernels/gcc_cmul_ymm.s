.intel_syntax noprefix
# kernel: gcc_cmul_ymm
# what: complex multiply of interleaved float arrays (vpermilps + vfmaddsub), 4 complex/iter
# origin: gcc 12 -O3 -march=x86-64-v3 -masm=intel -S from testdata/kernels/src/cmul.c (function cmul)
# expect: shuffle port and loads: 3 vpermilps (with loads) and 4 loads per iter; up to 3 cycles/iter where the shuffles all issue on port 5 (Intel), ~1.5-2 on Zen 4
# note: adapted: the loop label .L4: and the loop-closing 'cmp rcx, rax' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_cmul_ymm
	vpermilps ymm0, YMMWORD PTR [rsi+rax], 245
	vpermilps ymm2, YMMWORD PTR [rdi+rax], 177
	vpermilps ymm1, YMMWORD PTR [rsi+rax], 160
	vmulps ymm0, ymm0, ymm2
	vfmaddsub231ps ymm0, ymm1, YMMWORD PTR [rdi+rax]
	vmovups YMMWORD PTR [rdx+rax], ymm0
	add rax, 32
# LLVM-MCA-END gcc_cmul_ymm
