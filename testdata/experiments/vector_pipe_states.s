.intel_syntax noprefix
# Steady states of integer work beside a vector operation held to two
# pipes, at full dispatch. Each region is one kernel for `portlab validate
# --no-peers testdata/experiments/vector_pipe_states.s`; its passes (each
# in a worker process of its own) show the states, and `portlab bench
# --snippets-file F --mode throughput --passes 5` with a region alone in F
# the same. On the Zen 3 guest (docs/models.md, "Known limits") the
# vmulpd regions settle at 6.0, 7.2 or 8.0 cycles a copy by process, every
# canary clear; with nop or vpaddd in the vmulpd places, 6.00 every time.
# Every destination is written, never read back within a copy; xmm12 and
# xmm13 are read only.

# or24_vmulpd12_ovo: 24 or r64, imm8 and 12 vmulpd xmm, or-vmulpd-or (6.00 by ports and dispatch)
# LLVM-MCA-BEGIN or24_vmulpd12_ovo
	or rax, 0x12
	vmulpd xmm0, xmm12, xmm13
	or rcx, 0x12
	or rdx, 0x12
	vmulpd xmm1, xmm12, xmm13
	or rbx, 0x12
	or rsi, 0x12
	vmulpd xmm2, xmm12, xmm13
	or r8, 0x12
	or r9, 0x12
	vmulpd xmm3, xmm12, xmm13
	or r10, 0x12
	or r11, 0x12
	vmulpd xmm4, xmm12, xmm13
	or r12, 0x12
	or r13, 0x12
	vmulpd xmm5, xmm12, xmm13
	or r14, 0x12
	or rax, 0x12
	vmulpd xmm6, xmm12, xmm13
	or rcx, 0x12
	or rdx, 0x12
	vmulpd xmm7, xmm12, xmm13
	or rbx, 0x12
	or rsi, 0x12
	vmulpd xmm8, xmm12, xmm13
	or r8, 0x12
	or r9, 0x12
	vmulpd xmm9, xmm12, xmm13
	or r10, 0x12
	or r11, 0x12
	vmulpd xmm10, xmm12, xmm13
	or r12, 0x12
	or r13, 0x12
	vmulpd xmm11, xmm12, xmm13
	or r14, 0x12
# LLVM-MCA-END or24_vmulpd12_ovo

# or24_vmulpd12_oov: the same, or-or-vmulpd
# LLVM-MCA-BEGIN or24_vmulpd12_oov
	or rax, 0x12
	or rcx, 0x12
	vmulpd xmm0, xmm12, xmm13
	or rdx, 0x12
	or rbx, 0x12
	vmulpd xmm1, xmm12, xmm13
	or rsi, 0x12
	or r8, 0x12
	vmulpd xmm2, xmm12, xmm13
	or r9, 0x12
	or r10, 0x12
	vmulpd xmm3, xmm12, xmm13
	or r11, 0x12
	or r12, 0x12
	vmulpd xmm4, xmm12, xmm13
	or r13, 0x12
	or r14, 0x12
	vmulpd xmm5, xmm12, xmm13
	or rax, 0x12
	or rcx, 0x12
	vmulpd xmm6, xmm12, xmm13
	or rdx, 0x12
	or rbx, 0x12
	vmulpd xmm7, xmm12, xmm13
	or rsi, 0x12
	or r8, 0x12
	vmulpd xmm8, xmm12, xmm13
	or r9, 0x12
	or r10, 0x12
	vmulpd xmm9, xmm12, xmm13
	or r11, 0x12
	or r12, 0x12
	vmulpd xmm10, xmm12, xmm13
	or r13, 0x12
	or r14, 0x12
	vmulpd xmm11, xmm12, xmm13
# LLVM-MCA-END or24_vmulpd12_oov

# or24_vmulpd12_voo: the same, vmulpd-or-or
# LLVM-MCA-BEGIN or24_vmulpd12_voo
	vmulpd xmm0, xmm12, xmm13
	or rax, 0x12
	or rcx, 0x12
	vmulpd xmm1, xmm12, xmm13
	or rdx, 0x12
	or rbx, 0x12
	vmulpd xmm2, xmm12, xmm13
	or rsi, 0x12
	or r8, 0x12
	vmulpd xmm3, xmm12, xmm13
	or r9, 0x12
	or r10, 0x12
	vmulpd xmm4, xmm12, xmm13
	or r11, 0x12
	or r12, 0x12
	vmulpd xmm5, xmm12, xmm13
	or r13, 0x12
	or r14, 0x12
	vmulpd xmm6, xmm12, xmm13
	or rax, 0x12
	or rcx, 0x12
	vmulpd xmm7, xmm12, xmm13
	or rdx, 0x12
	or rbx, 0x12
	vmulpd xmm8, xmm12, xmm13
	or rsi, 0x12
	or r8, 0x12
	vmulpd xmm9, xmm12, xmm13
	or r9, 0x12
	or r10, 0x12
	vmulpd xmm10, xmm12, xmm13
	or r11, 0x12
	or r12, 0x12
	vmulpd xmm11, xmm12, xmm13
	or r13, 0x12
	or r14, 0x12
# LLVM-MCA-END or24_vmulpd12_voo

# or24_vmulpd12_blocks: the same in two blocks: 24 or, then 12 vmulpd
# LLVM-MCA-BEGIN or24_vmulpd12_blocks
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
	vmulpd xmm0, xmm12, xmm13
	vmulpd xmm1, xmm12, xmm13
	vmulpd xmm2, xmm12, xmm13
	vmulpd xmm3, xmm12, xmm13
	vmulpd xmm4, xmm12, xmm13
	vmulpd xmm5, xmm12, xmm13
	vmulpd xmm6, xmm12, xmm13
	vmulpd xmm7, xmm12, xmm13
	vmulpd xmm8, xmm12, xmm13
	vmulpd xmm9, xmm12, xmm13
	vmulpd xmm10, xmm12, xmm13
	vmulpd xmm11, xmm12, xmm13
# LLVM-MCA-END or24_vmulpd12_blocks

# or24_nop12: 12 nop in the vmulpd places (6.00)
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

# or24_vpaddd12: 12 vpaddd xmm (four vector pipes) in their places (6.00)
# LLVM-MCA-BEGIN or24_vpaddd12
	or rax, 0x12
	vpaddd xmm0, xmm12, xmm13
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm1, xmm12, xmm13
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm2, xmm12, xmm13
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm3, xmm12, xmm13
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm4, xmm12, xmm13
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm5, xmm12, xmm13
	or r14, 0x12
	or rax, 0x12
	vpaddd xmm6, xmm12, xmm13
	or rcx, 0x12
	or rdx, 0x12
	vpaddd xmm7, xmm12, xmm13
	or rbx, 0x12
	or rsi, 0x12
	vpaddd xmm8, xmm12, xmm13
	or r8, 0x12
	or r9, 0x12
	vpaddd xmm9, xmm12, xmm13
	or r10, 0x12
	or r11, 0x12
	vpaddd xmm10, xmm12, xmm13
	or r12, 0x12
	or r13, 0x12
	vpaddd xmm11, xmm12, xmm13
	or r14, 0x12
# LLVM-MCA-END or24_vpaddd12

# or20_vmulpd12: 20 or and 12 vmulpd (6.00: the multiplies)
# LLVM-MCA-BEGIN or20_vmulpd12
	or rax, 0x12
	vmulpd xmm0, xmm12, xmm13
	or rcx, 0x12
	or rdx, 0x12
	vmulpd xmm1, xmm12, xmm13
	or rbx, 0x12
	or rsi, 0x12
	vmulpd xmm2, xmm12, xmm13
	or r8, 0x12
	or r9, 0x12
	vmulpd xmm3, xmm12, xmm13
	or r10, 0x12
	or r11, 0x12
	vmulpd xmm4, xmm12, xmm13
	or r12, 0x12
	or r13, 0x12
	vmulpd xmm5, xmm12, xmm13
	or r14, 0x12
	or rax, 0x12
	vmulpd xmm6, xmm12, xmm13
	or rcx, 0x12
	or rdx, 0x12
	vmulpd xmm7, xmm12, xmm13
	or rbx, 0x12
	or rsi, 0x12
	vmulpd xmm8, xmm12, xmm13
	or r8, 0x12
	or r9, 0x12
	vmulpd xmm9, xmm12, xmm13
	or r10, 0x12
	vmulpd xmm10, xmm12, xmm13
	vmulpd xmm11, xmm12, xmm13
# LLVM-MCA-END or20_vmulpd12

# or18_vmulpd9: 18 or and 9 vmulpd (4.50)
# LLVM-MCA-BEGIN or18_vmulpd9
	or rax, 0x12
	or rcx, 0x12
	vmulpd xmm0, xmm12, xmm13
	or rdx, 0x12
	or rbx, 0x12
	vmulpd xmm1, xmm12, xmm13
	or rsi, 0x12
	or r8, 0x12
	vmulpd xmm2, xmm12, xmm13
	or r9, 0x12
	or r10, 0x12
	vmulpd xmm3, xmm12, xmm13
	or r11, 0x12
	or r12, 0x12
	vmulpd xmm4, xmm12, xmm13
	or r13, 0x12
	or r14, 0x12
	vmulpd xmm5, xmm12, xmm13
	or rax, 0x12
	or rcx, 0x12
	vmulpd xmm6, xmm12, xmm13
	or rdx, 0x12
	or rbx, 0x12
	vmulpd xmm7, xmm12, xmm13
	or rsi, 0x12
	or r8, 0x12
	vmulpd xmm8, xmm12, xmm13
# LLVM-MCA-END or18_vmulpd9
