# kernel: setcc_count
# what: counting compares without branches: xor+setcc+add and cmp+adc/sbb
# origin: hand-written
# expect: ALU throughput: about 11 ALU uops/iter (cmp, setcc, add, adc, sbb; the xor zero idioms are free) on 4-5 ALUs, about 3 cycles/iter, more where setcc/adc/sbb have few ports; the rax and rcx chains are 2 cycles
# LLVM-MCA-BEGIN setcc_count
	xorl %r8d, %r8d
	xorl %r9d, %r9d
	cmpq (%rdi), %rbx
	setl %r8b
	cmpq 8(%rdi), %rbx
	setg %r9b
	addq %r8, %rax
	addq %r9, %rax
	cmpq 16(%rdi), %rbx
	adcq $0, %rcx
	cmpq 24(%rdi), %rbx
	sbbq $-1, %rcx
	addq $32, %rdi
# LLVM-MCA-END setcc_count
