.intel_syntax noprefix
# kernel: gcc_prefix_sum
# what: inclusive prefix sum of int64 (not vectorised: scalar load-add-store)
# origin: gcc 12 -O3 -march=x86-64-v3 -masm=intel -S from testdata/kernels/src/prefix.c (function prefix_sum)
# expect: loop-carried add through rcx: 1 cycle/iter, with one load and one store per iter
# note: adapted: the loop label .L3: and the loop-closing 'cmp rdi, rax' / 'jne .L3' removed; nothing else changed
# LLVM-MCA-BEGIN gcc_prefix_sum
	add rcx, QWORD PTR [rsi+rax*8]
	mov QWORD PTR [rdx+rax*8], rcx
	add rax, 1
# LLVM-MCA-END gcc_prefix_sum
