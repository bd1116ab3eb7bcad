.intel_syntax noprefix
# mulx beside independent integer work: four mulx r64 a copy (one a
# cycle on every core portlab has measured), alone and beside 1, 2, 4 or
# 8 independent add r64, r64, four adcx, four nops or register moves;
# four imul r64 beside four adds; four mulx r32 beside four adds; four
# mulx r64, r64, m64 alone and beside one lea. Ports give every region
# 4.00 cycles a copy except add8 (4.00 on four ALUs beside the
# multiplier: 12 ALU operations, 3.00). Each region is one kernel for
# `portlab validate --no-peers testdata/experiments/mulx_alu.s`;
# docs/models.md ("Known limits") has what the Zen 3 guest ran. Every
# add writes a register nothing else in the copy writes, from rbx, which
# nothing writes.

# mulx4: four mulx alone
# LLVM-MCA-BEGIN mulx4
	mulx r9, r8, rcx
	mulx r9, r8, rcx
	mulx r9, r8, rcx
	mulx r9, r8, rcx
# LLVM-MCA-END mulx4

# add1: beside one add
# LLVM-MCA-BEGIN add1
	mulx r9, r8, rcx
	add r10, rbx
	mulx r9, r8, rcx
	mulx r9, r8, rcx
	mulx r9, r8, rcx
# LLVM-MCA-END add1

# add2: beside two adds
# LLVM-MCA-BEGIN add2
	mulx r9, r8, rcx
	add r10, rbx
	mulx r9, r8, rcx
	add r11, rbx
	mulx r9, r8, rcx
	mulx r9, r8, rcx
# LLVM-MCA-END add2

# add4: beside four adds
# LLVM-MCA-BEGIN add4
	mulx r9, r8, rcx
	add r10, rbx
	mulx r9, r8, rcx
	add r11, rbx
	mulx r9, r8, rcx
	add r12, rbx
	mulx r9, r8, rcx
	add r13, rbx
# LLVM-MCA-END add4

# add8: beside eight adds
# LLVM-MCA-BEGIN add8
	mulx r9, r8, rcx
	add r10, rbx
	add r14, rbx
	mulx r9, r8, rcx
	add r11, rbx
	add r15, rbx
	mulx r9, r8, rcx
	add r12, rbx
	add r14, rbx
	mulx r9, r8, rcx
	add r13, rbx
	add r15, rbx
# LLVM-MCA-END add8

# adcx4: beside four adcx (the carry chain, one a cycle)
# LLVM-MCA-BEGIN adcx4
	mulx r9, r8, rcx
	adcx r10, rbx
	mulx r9, r8, rcx
	adcx r11, rbx
	mulx r9, r8, rcx
	adcx r12, rbx
	mulx r9, r8, rcx
	adcx r13, rbx
# LLVM-MCA-END adcx4

# nop4: beside four nops
# LLVM-MCA-BEGIN nop4
	mulx r9, r8, rcx
	nop
	mulx r9, r8, rcx
	nop
	mulx r9, r8, rcx
	nop
	mulx r9, r8, rcx
	nop
# LLVM-MCA-END nop4

# mov4: beside four register moves
# LLVM-MCA-BEGIN mov4
	mulx r9, r8, rcx
	mov r10, rbx
	mulx r9, r8, rcx
	mov r11, rbx
	mulx r9, r8, rcx
	mov r12, rbx
	mulx r9, r8, rcx
	mov r13, rbx
# LLVM-MCA-END mov4

# imul4_add4: four imul r64 beside four adds
# LLVM-MCA-BEGIN imul4_add4
	imul r8, rcx
	add r10, rbx
	imul r9, rcx
	add r11, rbx
	imul r14, rcx
	add r12, rbx
	imul r15, rcx
	add r13, rbx
# LLVM-MCA-END imul4_add4

# mulx32_add4: four mulx r32 beside four adds
# LLVM-MCA-BEGIN mulx32_add4
	mulx r9d, r8d, ecx
	add r10, rbx
	mulx r9d, r8d, ecx
	add r11, rbx
	mulx r9d, r8d, ecx
	add r12, rbx
	mulx r9d, r8d, ecx
	add r13, rbx
# LLVM-MCA-END mulx32_add4

# mulxm4: four mulx r64, r64, m64 alone
# LLVM-MCA-BEGIN mulxm4
	mulx r9, r8, qword ptr [rdi]
	mulx r9, r8, qword ptr [rdi+8]
	mulx r9, r8, qword ptr [rdi+16]
	mulx r9, r8, qword ptr [rdi+24]
# LLVM-MCA-END mulxm4

# mulxm4_lea: four mulx r64, r64, m64 beside one lea
# LLVM-MCA-BEGIN mulxm4_lea
	mulx r9, r8, qword ptr [rdi]
	mulx r9, r8, qword ptr [rdi+8]
	mulx r9, r8, qword ptr [rdi+16]
	mulx r9, r8, qword ptr [rdi+24]
	lea rsi, [rsi+8]
# LLVM-MCA-END mulxm4_lea
