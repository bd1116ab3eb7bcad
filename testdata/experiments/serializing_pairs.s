.intel_syntax noprefix
# Forms that run at their own rate alone and beside simple independent
# work, yet serialize with each other: eight bsf r64 (3 cycles each
# alone) beside eight phaddsw mm, m64 (2 each), four pext r64, r64, m64
# (1 each) beside eight pmaxsw mm, m64 (0.5 each), against each beside
# vpor or add. Each region is one kernel for `portlab validate --no-peers
# testdata/experiments/serializing_pairs.s`; docs/models.md ("Known
# limits") has what the Zen 3 guest ran: each pair took the sum of its
# forms' times, as if both held one unit (a microcode sequencer) that no
# port of the model stands for.
# LLVM-MCA-BEGIN phaddsw8
	phaddsw mm0, qword ptr [rdi]
	phaddsw mm1, qword ptr [rdi+8]
	phaddsw mm2, qword ptr [rdi+16]
	phaddsw mm3, qword ptr [rdi+24]
	phaddsw mm4, qword ptr [rdi+32]
	phaddsw mm5, qword ptr [rdi+40]
	phaddsw mm6, qword ptr [rdi+48]
	phaddsw mm7, qword ptr [rdi+56]
# LLVM-MCA-END phaddsw8
# LLVM-MCA-BEGIN bsfreg8_phaddsw8
	bsf rax, r11
	phaddsw mm0, qword ptr [rdi]
	bsf rcx, r11
	phaddsw mm1, qword ptr [rdi+8]
	bsf rdx, r11
	phaddsw mm2, qword ptr [rdi+16]
	bsf rbx, r11
	phaddsw mm3, qword ptr [rdi+24]
	bsf rsi, r11
	phaddsw mm4, qword ptr [rdi+32]
	bsf r8, r11
	phaddsw mm5, qword ptr [rdi+40]
	bsf r9, r11
	phaddsw mm6, qword ptr [rdi+48]
	bsf r10, r11
	phaddsw mm7, qword ptr [rdi+56]
# LLVM-MCA-END bsfreg8_phaddsw8
# LLVM-MCA-BEGIN phaddsw8_reg
	phaddsw mm0, mm7
	phaddsw mm1, mm7
	phaddsw mm2, mm7
	phaddsw mm3, mm7
	phaddsw mm4, mm7
	phaddsw mm5, mm7
	phaddsw mm6, mm7
	phaddsw mm0, mm7
# LLVM-MCA-END phaddsw8_reg
# LLVM-MCA-BEGIN pmaxsw8_pext4
	pext rax, rbx, qword ptr [rdi]
	pmaxsw mm0, qword ptr [rdi+64]
	pmaxsw mm1, qword ptr [rdi+72]
	pext rcx, rbx, qword ptr [rdi+8]
	pmaxsw mm2, qword ptr [rdi+80]
	pmaxsw mm3, qword ptr [rdi+88]
	pext rdx, rbx, qword ptr [rdi+16]
	pmaxsw mm4, qword ptr [rdi+96]
	pmaxsw mm5, qword ptr [rdi+104]
	pext rsi, rbx, qword ptr [rdi+24]
	pmaxsw mm6, qword ptr [rdi+112]
	pmaxsw mm7, qword ptr [rdi+120]
# LLVM-MCA-END pmaxsw8_pext4
# LLVM-MCA-BEGIN pext4
	pext rax, rbx, qword ptr [rdi]
	pext rcx, rbx, qword ptr [rdi+8]
	pext rdx, rbx, qword ptr [rdi+16]
	pext rsi, rbx, qword ptr [rdi+24]
# LLVM-MCA-END pext4
# LLVM-MCA-BEGIN pmaxsw8
	pmaxsw mm0, qword ptr [rdi+64]
	pmaxsw mm1, qword ptr [rdi+72]
	pmaxsw mm2, qword ptr [rdi+80]
	pmaxsw mm3, qword ptr [rdi+88]
	pmaxsw mm4, qword ptr [rdi+96]
	pmaxsw mm5, qword ptr [rdi+104]
	pmaxsw mm6, qword ptr [rdi+112]
	pmaxsw mm7, qword ptr [rdi+120]
# LLVM-MCA-END pmaxsw8
# LLVM-MCA-BEGIN pmaxsw8_vpor8
	pmaxsw mm0, qword ptr [rdi+64]
	vpor xmm0, xmm8, xmm9
	pmaxsw mm1, qword ptr [rdi+72]
	vpor xmm1, xmm8, xmm9
	pmaxsw mm2, qword ptr [rdi+80]
	vpor xmm2, xmm8, xmm9
	pmaxsw mm3, qword ptr [rdi+88]
	vpor xmm3, xmm8, xmm9
	pmaxsw mm4, qword ptr [rdi+96]
	vpor xmm4, xmm8, xmm9
	pmaxsw mm5, qword ptr [rdi+104]
	vpor xmm5, xmm8, xmm9
	pmaxsw mm6, qword ptr [rdi+112]
	vpor xmm6, xmm8, xmm9
	pmaxsw mm7, qword ptr [rdi+120]
	vpor xmm7, xmm8, xmm9
# LLVM-MCA-END pmaxsw8_vpor8
# LLVM-MCA-BEGIN pext4_add8
	pext rax, rbx, qword ptr [rdi]
	add r8, r11
	add r9, r11
	pext rcx, rbx, qword ptr [rdi+8]
	add r10, r11
	add r12, r11
	pext rdx, rbx, qword ptr [rdi+16]
	add r13, r11
	add r14, r11
	pext rsi, rbx, qword ptr [rdi+24]
	add r8, r11
	add r9, r11
# LLVM-MCA-END pext4_add8
# LLVM-MCA-BEGIN bsfreg8
	bsf rax, r11
	bsf rcx, r11
	bsf rdx, r11
	bsf rbx, r11
	bsf rsi, r11
	bsf r8, r11
	bsf r9, r11
	bsf r10, r11
# LLVM-MCA-END bsfreg8
