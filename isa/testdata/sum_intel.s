# sum of an int64 array with a dependency through rax (Intel syntax)
.intel_syntax noprefix
	.text
	.globl sum
sum:
	xor eax, eax
	xor ecx, ecx
# LLVM-MCA-BEGIN sum_loop
1:
	add rax, qword ptr [rdi+rcx*8]
	inc rcx
	cmp rcx, rsi
	jne 1b                      # back edge
# LLVM-MCA-END
	ret
