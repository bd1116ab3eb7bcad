.intel_syntax noprefix
# kernel: adc_bignum_add
# what: four-limb multi-precision add with adc, loads and stores
# origin: hand-written
# expect: loop-carried carry flag: 4 dependent adc (1 cycle each) = 4 cycles/iter; the 8 loads and 4 stores fit in that
# note: lea, not add, advances the pointers so that the carry flag survives into the next iteration
# LLVM-MCA-BEGIN adc_bignum_add
	mov rax, QWORD PTR [rsi]
	adc rax, QWORD PTR [rdx]
	mov QWORD PTR [rdi], rax
	mov rax, QWORD PTR [rsi+8]
	adc rax, QWORD PTR [rdx+8]
	mov QWORD PTR [rdi+8], rax
	mov rax, QWORD PTR [rsi+16]
	adc rax, QWORD PTR [rdx+16]
	mov QWORD PTR [rdi+16], rax
	mov rax, QWORD PTR [rsi+24]
	adc rax, QWORD PTR [rdx+24]
	mov QWORD PTR [rdi+24], rax
	lea rsi, [rsi+32]
	lea rdx, [rdx+32]
	lea rdi, [rdi+32]
# LLVM-MCA-END adc_bignum_add
