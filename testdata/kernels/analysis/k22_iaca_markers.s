# IACA byte markers delimit the kernel: only the add between them is
# analysed (see k01): 103 cycles.
# expect: iterations=100 cycles=103
	imulq	%rcx, %rcx
	movl	$111, %ebx
	.byte	0x64, 0x67, 0x90
	addq	$1, %rax
	movl	$222, %ebx
	.byte	0x64, 0x67, 0x90
	imulq	%rcx, %rcx
