.intel_syntax noprefix
# kernel: gcc_copy_xor_ymm
# what: memcpy-like byte loop (dst = src ^ key), 32 bytes/iter
# origin: gcc 12 -O3 -march=x86-64-v3 -masm=intel -fno-tree-loop-distribute-patterns -S from testdata/kernels/src/copy.c (function copy_xor)
# expect: store throughput: 1 ymm load+xor and 1 ymm store per iter, 1 cycle/iter
# note: adapted: the loop label .L4: and the loop-closing 'cmp r8, rax' / 'jne .L4' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_copy_xor_ymm
	vpxor ymm0, ymm1, YMMWORD PTR [rdx+rax]
	vmovdqu YMMWORD PTR [rsi+rax], ymm0
	add rax, 32
# LLVM-MCA-END gcc_copy_xor_ymm
