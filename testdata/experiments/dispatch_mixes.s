.intel_syntax noprefix
# Dispatch-bound mixes of integer and vector work: 36 independent
# instructions a copy (24 + 12, 12 + 24), which the ports and a 6-wide
# dispatch allow in 6.00 cycles. Each region is one kernel for
# `portlab validate --no-peers testdata/experiments/dispatch_mixes.s`.
# On the Zen 3 guest (docs/models.md, "Known limits") the integer-only and
# nop regions run at 6.00 and the mixed ones 8-71 % slower, by the vector
# operation, the immediates' size and memory operands, and from run to run.
# Every destination is written, never read; memory operands read the
# scratch buffer through rdi.

# or24: 24 or r64, imm8 alone (4 ALUs: 6.00)
# LLVM-MCA-BEGIN or24
	or rax, 0x12
	or rcx, 0x12
	or rdx, 0x12
	or rbx, 0x12
	or rsi, 0x12
	or r8, 0x12
	or r9, 0x12
	or r10, 0x12
	or r11, 0x12
	or r12, 0x12
	or r13, 0x12
	or r14, 0x12
	or rax, 0x12
	or rcx, 0x12
	or rdx, 0x12
	or rbx, 0x12
	or rsi, 0x12
	or r8, 0x12
	or r9, 0x12
	or r10, 0x12
	or r11, 0x12
	or r12, 0x12
	or r13, 0x12
	or r14, 0x12
# LLVM-MCA-END or24

# or24_nop12: 24 or r64, imm8 and 12 nop
# LLVM-MCA-BEGIN or24_nop12
	or rax, 0x12
	nop
	or rcx, 0x12
	or rdx, 0x12
	nop
	or rbx, 0x12
	or rsi, 0x12
	nop
	or r8, 0x12
	or r9, 0x12
	nop
	or r10, 0x12
	or r11, 0x12
	nop
	or r12, 0x12
	or r13, 0x12
	nop
	or r14, 0x12
	or rax, 0x12
	nop
	or rcx, 0x12
	or rdx, 0x12
	nop
	or rbx, 0x12
	or rsi, 0x12
	nop
	or r8, 0x12
	or r9, 0x12
	nop
	or r10, 0x12
	or r11, 0x12
	nop
	or r12, 0x12
	or r13, 0x12
	nop
	or r14, 0x12
# LLVM-MCA-END or24_nop12

# or24_vpaddd12: 24 or r64, imm8 and 12 vpaddd xmm
# LLVM-MCA-BEGIN or24_vpaddd12
	or rax, 0x12
	vpaddd xmm0, xmm14, xmm15
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm1, xmm14, xmm15
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm2, xmm14, xmm15
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm3, xmm14, xmm15
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm4, xmm14, xmm15
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm5, xmm14, xmm15
	or r14, 0x12
	or rax, 0x12
	vpaddd xmm6, xmm14, xmm15
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm7, xmm14, xmm15
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm8, xmm14, xmm15
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm9, xmm14, xmm15
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm10, xmm14, xmm15
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm11, xmm14, xmm15
	or r14, 0x12
# LLVM-MCA-END or24_vpaddd12

# or24_vmulpd12: 24 or r64, imm8 and 12 vmulpd xmm (two multipliers: 6.00 alone)
# LLVM-MCA-BEGIN or24_vmulpd12
	or rax, 0x12
	vmulpd xmm0, xmm14, xmm15
	or rcx, 0x12
	or rdx, 0x12
	vmulpd xmm1, xmm14, xmm15
	or rbx, 0x12
	or rsi, 0x12
	vmulpd xmm2, xmm14, xmm15
	or r8, 0x12
	or r9, 0x12
	vmulpd xmm3, xmm14, xmm15
	or r10, 0x12
	or r11, 0x12
	vmulpd xmm4, xmm14, xmm15
	or r12, 0x12
	or r13, 0x12
	vmulpd xmm5, xmm14, xmm15
	or r14, 0x12
	or rax, 0x12
	vmulpd xmm6, xmm14, xmm15
	or rcx, 0x12
	or rdx, 0x12
	vmulpd xmm7, xmm14, xmm15
	or rbx, 0x12
	or rsi, 0x12
	vmulpd xmm8, xmm14, xmm15
	or r8, 0x12
	or r9, 0x12
	vmulpd xmm9, xmm14, xmm15
	or r10, 0x12
	or r11, 0x12
	vmulpd xmm10, xmm14, xmm15
	or r12, 0x12
	or r13, 0x12
	vmulpd xmm11, xmm14, xmm15
	or r14, 0x12
# LLVM-MCA-END or24_vmulpd12

# or24imm32_vpaddd12: 24 or r64, imm32 and 12 vpaddd xmm
# LLVM-MCA-BEGIN or24imm32_vpaddd12
	or rax, 0x12345
	vpaddd xmm0, xmm14, xmm15
	or rcx, 0x12345
	or rdx, 0x12345
	vpaddd xmm1, xmm14, xmm15
	or rbx, 0x12345
	or rsi, 0x12345
	vpaddd xmm2, xmm14, xmm15
	or r8, 0x12345
	or r9, 0x12345
	vpaddd xmm3, xmm14, xmm15
	or r10, 0x12345
	or r11, 0x12345
	vpaddd xmm4, xmm14, xmm15
	or r12, 0x12345
	or r13, 0x12345
	vpaddd xmm5, xmm14, xmm15
	or r14, 0x12345
	or rax, 0x12345
	vpaddd xmm6, xmm14, xmm15
	or rcx, 0x12345
	or rdx, 0x12345
	vpaddd xmm7, xmm14, xmm15
	or rbx, 0x12345
	or rsi, 0x12345
	vpaddd xmm8, xmm14, xmm15
	or r8, 0x12345
	or r9, 0x12345
	vpaddd xmm9, xmm14, xmm15
	or r10, 0x12345
	or r11, 0x12345
	vpaddd xmm10, xmm14, xmm15
	or r12, 0x12345
	or r13, 0x12345
	vpaddd xmm11, xmm14, xmm15
	or r14, 0x12345
# LLVM-MCA-END or24imm32_vpaddd12

# or24imm32_vmulpd12: 24 or r64, imm32 and 12 vmulpd xmm
# LLVM-MCA-BEGIN or24imm32_vmulpd12
	or rax, 0x12345
	vmulpd xmm0, xmm14, xmm15
	or rcx, 0x12345
	or rdx, 0x12345
	vmulpd xmm1, xmm14, xmm15
	or rbx, 0x12345
	or rsi, 0x12345
	vmulpd xmm2, xmm14, xmm15
	or r8, 0x12345
	or r9, 0x12345
	vmulpd xmm3, xmm14, xmm15
	or r10, 0x12345
	or r11, 0x12345
	vmulpd xmm4, xmm14, xmm15
	or r12, 0x12345
	or r13, 0x12345
	vmulpd xmm5, xmm14, xmm15
	or r14, 0x12345
	or rax, 0x12345
	vmulpd xmm6, xmm14, xmm15
	or rcx, 0x12345
	or rdx, 0x12345
	vmulpd xmm7, xmm14, xmm15
	or rbx, 0x12345
	or rsi, 0x12345
	vmulpd xmm8, xmm14, xmm15
	or r8, 0x12345
	or r9, 0x12345
	vmulpd xmm9, xmm14, xmm15
	or r10, 0x12345
	or r11, 0x12345
	vmulpd xmm10, xmm14, xmm15
	or r12, 0x12345
	or r13, 0x12345
	vmulpd xmm11, xmm14, xmm15
	or r14, 0x12345
# LLVM-MCA-END or24imm32_vmulpd12

# load12_vpaddd24: 12 mov r64, m64 (disp8) and 24 vpaddd xmm
# LLVM-MCA-BEGIN load12_vpaddd24
	vpaddd xmm0, xmm14, xmm15
	mov rax, qword ptr [rdi+0]
	vpaddd xmm1, xmm14, xmm15
	vpaddd xmm2, xmm14, xmm15
	mov rcx, qword ptr [rdi+8]
	vpaddd xmm3, xmm14, xmm15
	vpaddd xmm4, xmm14, xmm15
	mov rdx, qword ptr [rdi+16]
	vpaddd xmm5, xmm14, xmm15
	vpaddd xmm6, xmm14, xmm15
	mov rbx, qword ptr [rdi+24]
	vpaddd xmm7, xmm14, xmm15
	vpaddd xmm8, xmm14, xmm15
	mov rsi, qword ptr [rdi+32]
	vpaddd xmm9, xmm14, xmm15
	vpaddd xmm10, xmm14, xmm15
	mov r8, qword ptr [rdi+40]
	vpaddd xmm11, xmm14, xmm15
	vpaddd xmm0, xmm14, xmm15
	mov r9, qword ptr [rdi+48]
	vpaddd xmm1, xmm14, xmm15
	vpaddd xmm2, xmm14, xmm15
	mov r10, qword ptr [rdi+56]
	vpaddd xmm3, xmm14, xmm15
	vpaddd xmm4, xmm14, xmm15
	mov r11, qword ptr [rdi+64]
	vpaddd xmm5, xmm14, xmm15
	vpaddd xmm6, xmm14, xmm15
	mov r12, qword ptr [rdi+72]
	vpaddd xmm7, xmm14, xmm15
	vpaddd xmm8, xmm14, xmm15
	mov r13, qword ptr [rdi+80]
	vpaddd xmm9, xmm14, xmm15
	vpaddd xmm10, xmm14, xmm15
	mov r14, qword ptr [rdi+88]
	vpaddd xmm11, xmm14, xmm15
# LLVM-MCA-END load12_vpaddd24

# vpadddload12_or24: 12 vpaddd xmm, xmm, m128 (disp8) and 24 or r64, imm8
# LLVM-MCA-BEGIN vpadddload12_or24
	or rax, 0x12
	vpaddd xmm0, xmm14, xmmword ptr [rdi+0]
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm1, xmm14, xmmword ptr [rdi+16]
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm2, xmm14, xmmword ptr [rdi+32]
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm3, xmm14, xmmword ptr [rdi+48]
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm4, xmm14, xmmword ptr [rdi+64]
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm5, xmm14, xmmword ptr [rdi+80]
	or r14, 0x12
	or rax, 0x12
	vpaddd xmm6, xmm14, xmmword ptr [rdi+0]
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm7, xmm14, xmmword ptr [rdi+16]
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm8, xmm14, xmmword ptr [rdi+32]
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm9, xmm14, xmmword ptr [rdi+48]
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm10, xmm14, xmmword ptr [rdi+64]
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm11, xmm14, xmmword ptr [rdi+80]
	or r14, 0x12
# LLVM-MCA-END vpadddload12_or24

# vpadddload12disp32_or24: 12 vpaddd xmm, xmm, m128 (disp32) and 24 or r64, imm8
# LLVM-MCA-BEGIN vpadddload12disp32_or24
	or rax, 0x12
	vpaddd xmm0, xmm14, xmmword ptr [rdi+512]
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm1, xmm14, xmmword ptr [rdi+528]
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm2, xmm14, xmmword ptr [rdi+544]
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm3, xmm14, xmmword ptr [rdi+560]
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm4, xmm14, xmmword ptr [rdi+576]
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm5, xmm14, xmmword ptr [rdi+592]
	or r14, 0x12
	or rax, 0x12
	vpaddd xmm6, xmm14, xmmword ptr [rdi+512]
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm7, xmm14, xmmword ptr [rdi+528]
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm8, xmm14, xmmword ptr [rdi+544]
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm9, xmm14, xmmword ptr [rdi+560]
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm10, xmm14, xmmword ptr [rdi+576]
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm11, xmm14, xmmword ptr [rdi+592]
	or r14, 0x12
# LLVM-MCA-END vpadddload12disp32_or24
