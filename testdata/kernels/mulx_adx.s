# kernel: mulx_adx
# what: bignum multiply-accumulate row: 4 mulx feeding adcx/adox carry chains
# origin: hand-written
# expect: the multiplier or the flag chains: 4 mulx (two results each) at one per 1-2 cycles by core (4-8 cycles/iter) against the CF (adcx) and OF (adox) chains of 4 single-cycle ops (4 cycles/iter)
# note: lea, not add, advances rsi so that CF and OF survive into the next iteration (as in real multi-precision code)
# LLVM-MCA-BEGIN mulx_adx
	movq (%rsi), %rdx
	mulxq (%rdi), %r8, %r9
	adcxq %r8, %r10
	adoxq %r9, %r11
	mulxq 8(%rdi), %r8, %r9
	adcxq %r8, %r11
	adoxq %r9, %r12
	mulxq 16(%rdi), %r8, %r9
	adcxq %r8, %r12
	adoxq %r9, %r13
	mulxq 24(%rdi), %r8, %r9
	adcxq %r8, %r13
	adoxq %r9, %r14
	leaq 8(%rsi), %rsi
# LLVM-MCA-END mulx_adx
