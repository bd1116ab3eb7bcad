# daxpy: y[i] += a * x[i], four doubles per iteration (AT&T syntax).
# LLVM-EXEGESIS-DEFREG RDX 0x400
	.text
	.globl	daxpy
	.p2align 4, 0x90
daxpy:
	vbroadcastsd	%xmm0, %ymm0
	xorl	%eax, %eax
# LLVM-MCA-BEGIN daxpy_loop
.Lloop:
	vmovupd	(%rsi,%rax,8), %ymm1
	vfmadd213pd	(%rdi,%rax,8), %ymm0, %ymm1	# y = a*x + y
	vmovupd	%ymm1, (%rdi,%rax,8)
	addq	$4, %rax
	cmpq	%rdx, %rax
	jb	.Lloop
# LLVM-MCA-END
	vzeroupper
	retq
